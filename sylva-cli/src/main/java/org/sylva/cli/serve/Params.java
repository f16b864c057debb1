package org.sylva.cli.serve;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.sylva.data.InvalidInputException;

/**
 * Typed access to a request's parameters. A missing or {@code null} parameter gives the default; a
 * value of the wrong kind, or a parameter the command does not know, is an
 * {@link InvalidInputException} naming it, which the client raises as {@code ValueError}. Numbers
 * may also be written {@code "inf"}, {@code "-inf"} or {@code "nan"} (JSON has no such numbers).
 *
 * <pre>{@code
 * Params p = new Params(frame.params(), List.of("min_cluster_size", "alpha"));
 * int m = p.integer("min_cluster_size", 5);
 * }</pre>
 */
final class Params {
    private final Map<String, Object> values;

    /** Wraps {@code values}, refusing any name outside {@code known} (a typo must not pass silently). */
    Params(Map<String, Object> values, List<String> known) {
        this.values = Objects.requireNonNull(values, "values");
        for (String k : values.keySet()) {
            if (!known.contains(k)) {
                throw InvalidInputException.forParameter(k, "unknown parameter '" + k + "'; this command takes "
                        + String.join(", ", known));
            }
        }
    }

    /** True when {@code name} is given and not null. */
    boolean has(String name) {
        return values.get(name) != null;
    }

    /** An integer parameter in the range of {@code int}; a double with an integral value is accepted. */
    int integer(String name, int fallback) {
        Object v = values.get(name);
        if (v == null) return fallback;
        if (v instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) return (int) (long) l;
        if (v instanceof Double d && d == Math.rint(d) && Math.abs(d) <= Integer.MAX_VALUE) return (int) (double) d;
        boolean whole = v instanceof Long || v instanceof java.math.BigInteger || (v instanceof Double d && d == Math.rint(d));
        throw wrong(name, whole ? "an integer from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE : "an integer", v);
    }

    /** A number parameter; the strings "inf", "-inf" and "nan" stand for the non-finite values. */
    double number(String name, double fallback) {
        Object v = values.get(name);
        if (v == null) return fallback;
        if (v instanceof Number n) return n.doubleValue();
        if (v instanceof String s) {
            switch (s) {
                case "inf" -> { return Double.POSITIVE_INFINITY; }
                case "-inf" -> { return Double.NEGATIVE_INFINITY; }
                case "nan" -> { return Double.NaN; }
                default -> { }
            }
        }
        throw wrong(name, "a number", v);
    }

    boolean bool(String name, boolean fallback) {
        Object v = values.get(name);
        if (v == null) return fallback;
        if (v instanceof Boolean b) return b;
        throw wrong(name, "True or False", v);
    }

    /** A string parameter that must be one of {@code choices}. */
    String choice(String name, String fallback, String... choices) {
        Object v = values.get(name);
        if (v == null) return fallback;
        if (v instanceof String s) {
            for (String c : choices) {
                if (c.equals(s)) return s;
            }
        }
        throw wrong(name, "one of " + String.join(", ", choices), v);
    }

    /** A string parameter of 1 to {@code maxLength} characters, each in {@code allowed}; null when absent. */
    String text(String name, int maxLength, String allowed) {
        Object v = values.get(name);
        if (v == null) return null;
        if (v instanceof String s && !s.isEmpty() && s.length() <= maxLength && s.chars().allMatch(c -> allowed.indexOf(c) >= 0)) {
            return s;
        }
        throw wrong(name, "a string of at most " + maxLength + " characters of " + allowed, v);
    }

    private static InvalidInputException wrong(String name, String expected, Object v) {
        // as the Python caller wrote the value: True, not JSON's true
        String shown = v instanceof String s ? "'" + s + "'" : v instanceof Boolean b ? (b ? "True" : "False")
                : String.valueOf(v);
        return InvalidInputException.forParameter(name, name + " must be " + expected + "; got " + shown);
    }
}
