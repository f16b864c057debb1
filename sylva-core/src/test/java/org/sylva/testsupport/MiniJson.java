package org.sylva.testsupport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict little JSON parser for checking the CLI's {@code --json} output: objects become
 * {@link LinkedHashMap}s, arrays {@link List}s, numbers {@link Double}s; anything that is not JSON
 * (trailing text, a bare NaN, a missing comma) throws {@link IllegalArgumentException}.
 *
 * <pre>{@code
 * Map<?, ?> m = (Map<?, ?>) MiniJson.parse("{\"a\": [1, 2]}");
 * }</pre>
 */
public final class MiniJson {
    private final String s;
    private int i;

    private MiniJson(String s) {
        this.s = s;
    }

    public static Object parse(String text) {
        MiniJson p = new MiniJson(text);
        Object v = p.value();
        p.ws();
        if (p.i != text.length()) throw p.fail("trailing text");
        return v;
    }

    private Object value() {
        ws();
        if (i >= s.length()) throw fail("unexpected end");
        char c = s.charAt(i);
        if (c == '{') return object();
        if (c == '[') return array();
        if (c == '"') return string();
        if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
        if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
        if (s.startsWith("null", i)) { i += 4; return null; }
        return number();
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        ws();
        if (peek() == '}') { i++; return m; }
        for (int guard = 0; guard < s.length(); guard++) {
            ws();
            String k = string();
            ws();
            expect(':');
            if (m.put(k, value()) != null) throw fail("duplicate key " + k);
            ws();
            if (peek() == ',') { i++; continue; }
            expect('}');
            return m;
        }
        throw fail("unterminated object");
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        i++;
        ws();
        if (peek() == ']') { i++; return l; }
        for (int guard = 0; guard < s.length(); guard++) {
            l.add(value());
            ws();
            if (peek() == ',') { i++; continue; }
            expect(']');
            return l;
        }
        throw fail("unterminated array");
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '"') return b.toString();
            if (c < 0x20) throw fail("control character in string");
            if (c != '\\') { b.append(c); continue; }
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'u' -> { b.append((char) Integer.parseInt(s.substring(i, i + 4), 16)); i += 4; }
                default -> throw fail("bad escape \\" + e);
            }
        }
        throw fail("unterminated string");
    }

    private Double number() {
        int start = i;
        if (peek() == '-') i++;
        while (i < s.length() && "0123456789.eE+-".indexOf(s.charAt(i)) >= 0) i++;
        String t = s.substring(start, i);
        if (!t.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) throw fail("bad number '" + t + "'");
        return Double.valueOf(t);
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) throw fail("expected '" + c + "'");
        i++;
    }

    private void ws() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }

    private IllegalArgumentException fail(String what) {
        return new IllegalArgumentException(what + " at offset " + i + " of: " + s);
    }
}
