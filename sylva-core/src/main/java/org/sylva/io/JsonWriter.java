package org.sylva.io;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one JSON writer of Sylva: the command line's summaries ({@code --json}), the engine protocol's parameters and
 * the result manifests. It writes maps (objects, keys as strings, in their order), lists (arrays), strings, numbers,
 * booleans and {@code null}, on one line. Integers are written as JSON integers, doubles and floats in Java's
 * shortest round-trip form ({@code 0.5}, {@code 1.0E-5}, {@code 0.1} for a float 0.1f); JSON has no NaN or infinities,
 * so a non-finite number is written as the string {@code "nan"}, {@code "inf"} or {@code "-inf"} (NumPy's spelling,
 * which Python's {@code float()} reads back), never as {@code null}, which stands for scikit-learn's {@code None}.
 * Control characters and half surrogate pairs are written as <code>&#92;u</code> escapes, so the text is always valid UTF-8;
 * any other object is written as the string of its {@code toString()}.
 *
 * <pre>{@code
 * JsonWriter.write(Map.of("eps", Double.POSITIVE_INFINITY))   // {"eps": "inf"}
 * }</pre>
 */
public final class JsonWriter {
    private JsonWriter() {
    }

    /** {@code value} as JSON text. */
    public static String write(Object value) {
        return write(new StringBuilder(), value).toString();
    }

    /** Appends {@code value} as JSON to {@code b}; returns {@code b}. */
    public static StringBuilder write(StringBuilder b, Object value) {
        if (value == null) return b.append("null");
        if (value instanceof Map<?, ?> m) {
            b.append('{');
            String sep = "";
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append(sep).append(quote(String.valueOf(e.getKey()))).append(": ");
                write(b, e.getValue());
                sep = ", ";
            }
            return b.append('}');
        }
        if (value instanceof List<?> l) {
            b.append('[');
            for (int i = 0; i < l.size(); i++) write(i == 0 ? b : b.append(", "), l.get(i));
            return b.append(']');
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            // Double/Float.toString: locale-independent, the shortest text that reads back as the same value
            return Double.isFinite(d) ? b.append(value) : b.append(quote(nonFinite(d)));
        }
        if (value instanceof Number || value instanceof Boolean) return b.append(value);
        return b.append(quote(value.toString()));
    }

    /** How a non-finite number is written (as a JSON string): {@code "nan"}, {@code "inf"}, {@code "-inf"}. */
    public static String nonFinite(double d) {
        return Double.isNaN(d) ? "nan" : d > 0 ? "inf" : "-inf";
    }

    /** {@code s} as a JSON string literal. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1));
                    if (pair) {
                        b.append(c).append(s.charAt(++i));
                    } else if (c < 0x20 || Character.isSurrogate(c)) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
