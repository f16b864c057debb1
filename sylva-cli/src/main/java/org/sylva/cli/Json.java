package org.sylva.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal JSON writer for the CLI's summaries and the engine protocol's parameters
 * ({@link org.sylva.cli.serve.FrameWriter}): maps (objects), lists (arrays), strings, numbers,
 * booleans and {@code null}. Integers are written as JSON integers and doubles in Java's shortest
 * round-trip form ({@code 0.5}, {@code 1.0E-5}); JSON has no NaN or infinities, so a non-finite double or
 * float is written as the string {@code "nan"}, {@code "inf"} or {@code "-inf"} (NumPy's spelling, which
 * Python's {@code float()} reads back), never as {@code null}, which stands for scikit-learn's {@code None}.
 *
 * <pre>{@code
 * Json.write(Map.of("eps", Double.POSITIVE_INFINITY))   // {"eps": "inf"}
 * }</pre>
 */
public final class Json {
    private Json() {
    }

    public static String write(Object v) {
        StringBuilder sb = new StringBuilder();
        write(sb, v);
        return sb.toString();
    }

    private static void write(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) sb.append(", ");
                first = false;
                string(sb, String.valueOf(e.getKey()));
                sb.append(": ");
                write(sb, e.getValue());
            }
            sb.append('}');
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) sb.append(", ");
                write(sb, l.get(i));
            }
            sb.append(']');
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isFinite(d)) sb.append(v);   // Double/Float.toString: locale-independent, round-trips
            else string(sb, nonFinite(d));
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else {
            string(sb, v.toString());
        }
    }

    /** How a non-finite number is written: {@code "nan"}, {@code "inf"}, {@code "-inf"}. */
    static String nonFinite(double d) {
        return Double.isNaN(d) ? "nan" : d > 0 ? "inf" : "-inf";
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
    }
}
