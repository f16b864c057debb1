package org.sylva.io;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one strict JSON parser of Sylva, which {@link JsonWriter}'s text reads back with: the engine protocol's
 * parameters and the result manifests. Objects become {@link LinkedHashMap}s (a repeated key is refused), arrays
 * {@link List}s, integers {@link Long}s ({@link BigInteger}s beyond its range, so that a number comes back exactly),
 * numbers with a fraction or an exponent {@link Double}s (one beyond float64's range is refused), and {@code true},
 * {@code false}, {@code null}. A string's <code>&#92;u</code> escape takes exactly four hex digits, and half of a surrogate
 * pair is refused, so every string read is valid Unicode. Nesting is bounded by the caller and each step consumes
 * input, so no text can exhaust the stack or loop: anything that is not JSON is an {@link IllegalArgumentException}
 * saying what and where, after the caller's words for the text.
 *
 * <pre>{@code
 * Object v = JsonReader.parse("{\"min_cluster_size\": 20, \"alpha\": 1.0}", 8, "parameters are not JSON");
 * }</pre>
 */
public final class JsonReader {
    private final String s;
    private final int maxDepth;
    private final String what;
    private int pos;

    private JsonReader(String s, int maxDepth, String what) {
        this.s = s;
        this.maxDepth = maxDepth;
        this.what = what;
    }

    /**
     * The one JSON value spanning the whole {@code text}: a value nested in {@code maxDepth} containers is the deepest
     * accepted (the top value is at depth 0). {@code what} starts each refusal's message ({@code "not a valid
     * manifest"}: {@code not a valid manifest: expected ',' at character 12}).
     */
    public static Object parse(String text, int maxDepth, String what) {
        JsonReader r = new JsonReader(text, maxDepth, what);
        Object v = r.value(0);
        r.space();
        if (r.pos != text.length()) throw r.error("text after the value");
        return v;
    }

    private Object value(int depth) {
        if (depth > maxDepth) throw error("nested deeper than " + maxDepth);
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
            if (m.containsKey(key)) throw error("a repeated key \"" + key + "\"");
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
            if (c == '"') return wellFormed(b);
            if (c < 0x20) throw error("a control character in a string");
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
                    int code = 0;
                    for (int h = 0; h < 4; h++) {   // four hex digits, nothing else (no sign)
                        char x = s.charAt(pos + h);
                        int digit = x > 'f' ? -1 : Character.digit(x, 16);
                        if (digit < 0) throw error("a bad \\u escape");
                        code = code * 16 + digit;
                    }
                    b.append((char) code);
                    pos += 4;
                }
                default -> throw error("a bad escape \\" + e);
            }
        }
        throw error("a string that does not end");
    }

    /** The string {@code b} holds, refused where an escape left half of a surrogate pair (no Unicode text). */
    private String wellFormed(StringBuilder b) {
        for (int k = 0; k < b.length(); k++) {
            char c = b.charAt(k);
            if (Character.isHighSurrogate(c) && k + 1 < b.length() && Character.isLowSurrogate(b.charAt(k + 1))) {
                k++;
            } else if (Character.isSurrogate(c)) {
                throw error("a string with half of a surrogate pair (\\u" + Integer.toHexString(c) + ")");
            }
        }
        return b.toString();
    }

    private Object number() {
        int start = pos;
        if (s.charAt(pos) == '-') pos++;
        int first = pos, digits = digits();
        if (digits == 0) throw error("a number without digits");
        if (digits > 1 && s.charAt(first) == '0') throw error("a number with a leading zero");
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
        String text = s.substring(start, pos);
        if (decimal) {
            double d = Double.parseDouble(text);
            if (Double.isInfinite(d)) throw error("a number beyond float64's range");
            return d;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return new BigInteger(text);   // beyond the range of long: kept exactly
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

    private IllegalArgumentException error(String problem) {
        return new IllegalArgumentException(what + ": " + problem + " at character " + pos);
    }
}
