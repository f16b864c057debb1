package org.sylva.io;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reading the small JSON subset a result manifest uses: objects, arrays, strings, integers, decimals,
 * {@code true}/{@code false}/{@code null}; and {@link #frozen}, the immutable copy of a value a manifest may hold.
 * Reading is strict and bounded (nesting at most {@link #MAX_DEPTH}, each step consumes input), so a damaged or
 * hostile manifest is refused with {@link IllegalArgumentException} rather than misread. The manifest is written by
 * {@link JsonWriter}. Kept inside the library so that {@link ResultFolder} needs no JSON dependency.
 *
 * <pre>{@code
 * Object v = ManifestJson.parse("{\"files\": [{\"name\": \"labels.npy\", \"bytes\": 80}]}");
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

    /**
     * Parses one JSON value spanning the whole text; integers come back as {@link Long}, numbers with a fraction or
     * an exponent as {@link Double}.
     */
    static Object parse(String text) {
        ManifestJson p = new ManifestJson(text);
        Object v = p.value(0);
        p.space();
        if (p.pos != text.length()) throw p.error("text after the value");
        return v;
    }

    /**
     * An unmodifiable copy of {@code value}, a JSON value a manifest may hold (maps with string keys, in their order;
     * lists; strings; numbers; booleans; null), equal to what {@link #parse} reads back from {@link JsonWriter}'s text
     * of it: an infinite or NaN number becomes the string written for it, a float the double its shortest text reads
     * as. An {@link IllegalArgumentException} for anything else, or for nesting deeper than {@link #MAX_DEPTH} as a
     * member of the manifest, which could then not be read back.
     */
    @SuppressWarnings("unchecked")
    static <T> T frozen(T value) {
        return (T) frozen(value, 1);
    }

    private static Object frozen(Object v, int depth) {
        if (depth > MAX_DEPTH) throw new IllegalArgumentException("a JSON value nested too deeply");
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!(e.getKey() instanceof String k)) throw new IllegalArgumentException("a JSON key that is not a string");
                copy.put(k, frozen(e.getValue(), depth + 1));
            }
            return java.util.Collections.unmodifiableMap(copy);
        }
        if (v instanceof List<?> l) {
            List<Object> copy = new ArrayList<>(l.size());
            for (Object o : l) copy.add(frozen(o, depth + 1));
            return java.util.Collections.unmodifiableList(copy);
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) return ((Number) v).longValue();
        if (v instanceof Float f) return frozen(Double.parseDouble(f.toString()), depth);   // 0.1f as 0.1, as written
        if (v instanceof Double d && !Double.isFinite(d)) return JsonWriter.nonFinite(d);
        if (v == null || v instanceof String || v instanceof Long || v instanceof Double || v instanceof Boolean) return v;
        throw new IllegalArgumentException("not a JSON value: " + v.getClass().getSimpleName());
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

    private Object number() {
        int start = pos;
        if (s.charAt(pos) == '-') pos++;
        int digits = digits();
        boolean decimal = false;
        if (pos < s.length() && s.charAt(pos) == '.') {
            pos++;
            decimal = true;
            if (digits() == 0) throw error("a number without digits after its point");
        }
        if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
            pos++;
            decimal = true;
            if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) pos++;
            if (digits() == 0) throw error("a number without digits in its exponent");
        }
        if (digits == 0) throw error("a number without digits");
        String text = s.substring(start, pos);
        if (decimal) {
            double d = Double.parseDouble(text);
            if (Double.isInfinite(d)) throw error("a number out of range");
            return d;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw error("a number that is not an integer in range");
        }
    }

    /** Skips a run of decimal digits; returns how many. */
    private int digits() {
        int start = pos;
        while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') pos++;
        return pos - start;
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
