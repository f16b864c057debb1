package org.sylva.gpu;

import java.util.Locale;

/**
 * The GPU engine's tuning switches, read from system properties for the device check's comparisons
 * ({@code -Dsylva.gpu.roundSlices=4}, {@code -Dsylva.gpu.rowBounds=false}). A value that is not what the switch
 * takes is not read as something else: {@code Integer.getInteger} would drop {@code 4x} for the default, and
 * {@code Boolean.parseBoolean} would turn {@code on} into {@code false}, so a comparison would time the default
 * while its log named the value. Here such a value keeps the default and says so, once, as a warning on the
 * logger {@code org.sylva.gpu}, naming the property, the value and the default.
 *
 * <pre>{@code
 * static final int SLICES = GpuTuning.positiveInt("sylva.gpu.roundSlices", 16);
 * static final boolean BOUNDS = GpuTuning.bool("sylva.gpu.rowBounds", true);
 * }</pre>
 */
final class GpuTuning {
    private GpuTuning() {
    }

    /** The property {@code name} as an integer of at least 1, else {@code fallback} (a bad value warned of). */
    static int positiveInt(String name, int fallback) {
        String v = System.getProperty(name);
        Integer parsed = parsePositive(v);
        if (v != null && parsed == null) warn(name, v, "a whole number of at least 1", Integer.toString(fallback));
        return parsed == null ? fallback : parsed;
    }

    /** The property {@code name} as {@code true} or {@code false} (case ignored), else {@code fallback}. */
    static boolean bool(String name, boolean fallback) {
        String v = System.getProperty(name);
        Boolean parsed = parseBoolean(v);
        if (v != null && parsed == null) warn(name, v, "true or false", Boolean.toString(fallback));
        return parsed == null ? fallback : parsed;
    }

    /** {@code v} as an int of at least 1, or null (absent, not a number, out of range). */
    static Integer parsePositive(String v) {
        if (v == null) return null;
        try {
            int i = Integer.parseInt(v.strip());
            return i >= 1 ? i : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** {@code v} as true or false (case and surrounding blanks ignored), or null. */
    static Boolean parseBoolean(String v) {
        if (v == null) return null;
        return switch (v.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> null;
        };
    }

    private static void warn(String name, String value, String takes, String fallback) {
        System.getLogger("org.sylva.gpu").log(System.Logger.Level.WARNING, "sylva: -D" + name + "=" + value
                + " is not " + takes + "; using " + fallback);
    }
}
