package org.sylva.cli.report;

import java.util.Locale;

/**
 * Number formatting for the report: locale-independent and exact to the digit, so the same input
 * always yields the same bytes. SVG coordinates go through {@link #px} (one decimal, integer
 * arithmetic, no {@code String.format} in the per-point paths).
 */
final class Fmt {
    private Fmt() {
    }

    /** Appends {@code v} rounded to one decimal ("12.3", "-0.5", "7.0" is written "7"). */
    static StringBuilder px(StringBuilder sb, double v) {
        long t = Math.round(v * 10.0);
        if (t < 0) {
            sb.append('-');
            t = -t;
        }
        sb.append(t / 10);
        long frac = t % 10;
        if (frac != 0) sb.append('.').append(frac);
        return sb;
    }

    /** {@code v} rounded to one decimal, as a string. */
    static String px(double v) {
        return px(new StringBuilder(12), v).toString();
    }

    /** A count with thousands separators: "500,000". */
    static String count(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    /** A count and its noun, singular for one: "1 cluster", "2,500 clusters". */
    static String count(long v, String one, String many) {
        return count(v) + " " + (v == 1 ? one : many);
    }

    /** A percentage with one decimal: "12.3 %". */
    static String percent(long part, long whole) {
        if (whole <= 0) return "0.0 %";
        return String.format(Locale.ROOT, "%.1f %%", 100.0 * part / whole);
    }

    /** Four significant digits, "∞" for infinity, "–" for NaN. */
    static String sig(double v) {
        if (Double.isNaN(v)) return "\u2013";
        if (Double.isInfinite(v)) return v > 0 ? "\u221e" : "-\u221e";
        if (v == 0) return "0";
        double a = Math.abs(v);
        if (a >= 1e-3 && a < 1e6) {
            int digits = Math.max(0, 3 - (int) Math.floor(Math.log10(a)));
            return stripZeros(String.format(Locale.ROOT, "%." + digits + "f", v));
        }
        return String.format(Locale.ROOT, "%.3e", v);
    }

    /** Seconds with three decimals ("0.041 s"), or "–" when not finite. */
    static String seconds(double s) {
        if (!Double.isFinite(s)) return "\u2013";
        return String.format(Locale.ROOT, "%.3f s", s);
    }

    /** Fixed decimals, locale-independent. */
    static String fixed(double v, int decimals) {
        if (Double.isNaN(v)) return "\u2013";
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** Tick label for a value on an axis whose tick step is {@code step}. */
    static String tick(double v, double step) {
        if (Math.abs(v) < step * 1e-9) v = 0; // avoid "-0" and 1e-17 residue
        double a = Math.max(Math.abs(v), step);
        if (a >= 1e6 || step < 1e-4) {
            return String.format(Locale.ROOT, "%.2e", v);
        }
        int decimals = Math.max(0, -(int) Math.floor(Math.log10(step) + 1e-9));
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /**
     * {@code v} to {@code sig} significant digits, short: plain between 0.001 and 10 000
     * ({@code "0.0012"}, {@code "250"}), else mantissa and exponent without padding ({@code "1.2e-5"},
     * {@code "3e6"}); trailing zeros dropped.
     */
    static String compact(double v, int sig) {
        if (!Double.isFinite(v)) return sig(v);
        if (v == 0) return "0";
        java.math.BigDecimal b = new java.math.BigDecimal(v).round(new java.math.MathContext(sig));
        double a = Math.abs(b.doubleValue());
        if (a >= 1e-3 && a < 1e4) return b.stripTrailingZeros().toPlainString();
        int e = b.precision() - b.scale() - 1;
        return b.movePointLeft(e).stripTrailingZeros().toPlainString() + "e" + e;
    }

    /** An integer in Unicode superscript digits, for a power of ten in an axis title ("⁻³"). */
    static String superscript(int e) {
        String digits = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079";
        StringBuilder sb = new StringBuilder();
        for (char c : Integer.toString(e).toCharArray()) sb.append(c == '-' ? '\u207b' : digits.charAt(c - '0'));
        return sb.toString();
    }

    private static String stripZeros(String s) {
        if (s.indexOf('.') < 0) return s;
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '0') end--;
        if (end > 0 && s.charAt(end - 1) == '.') end--;
        return s.substring(0, end);
    }
}
