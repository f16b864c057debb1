package org.sylva.cli.serve;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON parser for the protocol's parameters: objects become {@link LinkedHashMap}s, arrays
 * {@link List}s, integers {@link Long}s ({@link java.math.BigInteger}s beyond its range, so that an {@code id}
 * comes back as it was sent), other numbers {@link Double}s; nesting is bounded (a frame's
 * text is bounded too, by {@link FrameLimits#maxJsonBytes()}), so no input can exhaust the stack.
 * Anything that is not JSON throws {@link IllegalArgumentException} saying where.
 *
 * <pre>{@code
 * Map<String, Object> p = JsonText.parseObject("{\"min_cluster_size\": 20, \"min_samples\": null}");
 * }</pre>
 */
public final class JsonText {
    /** Deepest nesting accepted; the protocol's parameters are one level deep. */
    static final int MAX_DEPTH = 32;

    private final String s;
    private int i;

    private JsonText(String s) {
        this.s = s;
    }

    /** Parses {@code text}, which must be one JSON object. */
    public static Map<String, Object> parseObject(String text) {
        JsonText p = new JsonText(text);
        p.ws();
        if (p.peek() != '{') throw p.fail("expected a JSON object");
        Map<String, Object> m = p.object(0);
        p.ws();
        if (p.i != text.length()) throw p.fail("trailing text");
        return m;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) throw fail("nested deeper than " + MAX_DEPTH);
        ws();
        char c = peek();
        if (c == '{') return object(depth + 1);
        if (c == '[') return array(depth + 1);
        if (c == '"') return string();
        if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
        if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
        if (s.startsWith("null", i)) { i += 4; return null; }
        return number();
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        ws();
        if (peek() == '}') { i++; return m; }
        // every pass consumes at least one character, so the text's length bounds the loop
        for (int guard = 0; guard <= s.length(); guard++) {
            ws();
            if (peek() != '"') throw fail("expected a key");
            String k = string();
            ws();
            expect(':');
            if (m.containsKey(k)) throw fail("duplicate key \"" + k + "\"");
            m.put(k, value(depth));
            ws();
            if (peek() == ',') { i++; continue; }
            expect('}');
            return m;
        }
        throw fail("unterminated object");
    }

    private List<Object> array(int depth) {
        List<Object> l = new ArrayList<>();
        i++;
        ws();
        if (peek() == ']') { i++; return l; }
        for (int guard = 0; guard <= s.length(); guard++) {
            l.add(value(depth));
            ws();
            if (peek() == ',') { i++; continue; }
            expect(']');
            return l;
        }
        throw fail("unterminated array");
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '"') return wellFormed(sb);
            if (c < 0x20) throw fail("control character in a string");
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (i >= s.length()) break;
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (i + 4 > s.length()) throw fail("short \\u escape");
                    int code = 0;
                    for (int h = 0; h < 4; h++) {   // four hex digits, nothing else (no sign)
                        int digit = Character.digit(s.charAt(i + h), 16);
                        if (digit < 0 || s.charAt(i + h) > 'f') throw fail("bad \\u escape");
                        code = code * 16 + digit;
                    }
                    sb.append((char) code);
                    i += 4;
                }
                default -> throw fail("bad escape \\" + e);
            }
        }
        throw fail("unterminated string");
    }

    /** The string {@code sb} holds, refused where an escape left half of a surrogate pair (no UTF-8 text). */
    private String wellFormed(StringBuilder sb) {
        for (int k = 0; k < sb.length(); k++) {
            char c = sb.charAt(k);
            if (Character.isHighSurrogate(c) && k + 1 < sb.length() && Character.isLowSurrogate(sb.charAt(k + 1))) {
                k++;
            } else if (Character.isSurrogate(c)) {
                throw fail("a string with half of a surrogate pair (\\u" + Integer.toHexString(c) + ")");
            }
        }
        return sb.toString();
    }

    private Object number() {
        int start = i;
        if (peek() == '-') i++;
        boolean integral = true;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                i++;
            } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                integral = false;
                i++;
            } else {
                break;
            }
        }
        String t = s.substring(start, i);
        if (t.isEmpty() || t.equals("-")) throw fail("unexpected character");
        if (!t.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) throw fail("bad number " + t);
        if (integral) {
            try {
                return Long.parseLong(t);
            } catch (NumberFormatException e) {
                return new java.math.BigInteger(t);   // beyond the range of long: kept exactly
            }
        }
        return Double.parseDouble(t);
    }

    private void ws() {
        while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
    }

    private char peek() {
        if (i >= s.length()) throw fail("unexpected end");
        return s.charAt(i);
    }

    private void expect(char c) {
        if (peek() != c) throw fail("expected '" + c + "'");
        i++;
    }

    private IllegalArgumentException fail(String what) {
        return new IllegalArgumentException("parameters are not JSON: " + what + " at character " + i);
    }
}
