package org.sylva.io;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The small JSON subset a result manifest uses, both ways: objects, arrays, strings, integers,
 * {@code true}/{@code false}/{@code null}. Writing escapes every string the JSON way; reading is strict
 * and bounded (nesting at most {@link #MAX_DEPTH}, each step consumes input), so a damaged or hostile
 * manifest is refused with {@link IllegalArgumentException} rather than misread. Kept inside the library
 * so that {@link ResultFolder} needs no JSON dependency.
 *
 * <pre>{@code
 * Object v = ManifestJson.parse("{\"files\": [{\"name\": \"labels.npy\", \"bytes\": 80}]}");
 * String s = ManifestJson.quote("labels.npy");   // "\"labels.npy\""
 * }</pre>
 */
final class ManifestJson {
    /** A manifest nests three levels; anything far deeper is not one. */
    static final int MAX_DEPTH = 8;

    private final String s;
    private int pos;

    private ManifestJson(String s) {
        this.s = s;
    }

    /** Parses one JSON value spanning the whole text; numbers come back as {@link Long}. */
    static Object parse(String text) {
        ManifestJson p = new ManifestJson(text);
        Object v = p.value(0);
        p.space();
        if (p.pos != text.length()) throw p.error("text after the value");
        return v;
    }

    /** {@code v} as a JSON string literal. */
    static String quote(String v) {
        StringBuilder b = new StringBuilder(v.length() + 2).append('"');
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c)) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) throw error("nested too deeply");
        space();
        if (pos >= s.length()) throw error("the text ends where a value should be");
        char c = s.charAt(pos);
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        if (c == '"') return string();
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        for (String word : new String[] {"true", "false", "null"}) {
            if (s.startsWith(word, pos)) {
                pos += word.length();
                return word.equals("null") ? null : Boolean.valueOf(word);
            }
        }
        throw error("unexpected character");
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> m = new LinkedHashMap<>();
        pos++;   // '{'
        space();
        if (peek('}')) return m;
        // each member consumes at least its key's two quotes, so this ends with the text
        while (true) {
            space();
            if (pos >= s.length() || s.charAt(pos) != '"') throw error("expected a key");
            String key = string();
            space();
            expect(':');
            m.put(key, value(depth + 1));
            space();
            if (peek('}')) return m;
            expect(',');
        }
    }

    private List<Object> array(int depth) {
        List<Object> l = new ArrayList<>();
        pos++;   // '['
        space();
        if (peek(']')) return l;
        while (true) {   // each item consumes at least one character
            l.add(value(depth + 1));
            space();
            if (peek(']')) return l;
            expect(',');
        }
    }

    private String string() {
        StringBuilder b = new StringBuilder();
        pos++;   // '"'
        while (pos < s.length()) {
            char c = s.charAt(pos++);
            if (c == '"') return b.toString();
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (pos >= s.length()) break;
            char e = s.charAt(pos++);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'u' -> {
                    if (pos + 4 > s.length()) throw error("a short \\u escape");
                    try {
                        b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("a bad \\u escape");
                    }
                    pos += 4;
                }
                default -> throw error("a bad escape");
            }
        }
        throw error("a string that does not end");
    }

    private Long number() {
        int start = pos;
        if (s.charAt(pos) == '-') pos++;
        while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') pos++;
        try {
            return Long.parseLong(s.substring(start, pos));
        } catch (NumberFormatException e) {
            throw error("a number that is not an integer in range");
        }
    }

    private void space() {
        while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) pos++;
    }

    private boolean peek(char c) {
        if (pos < s.length() && s.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!peek(c)) throw error("expected '" + c + "'");
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("not a valid manifest: " + what + " at character " + pos);
    }
}
