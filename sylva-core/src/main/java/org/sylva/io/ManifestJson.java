package org.sylva.io;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of a result manifest: {@link #parse} reads it ({@link JsonReader}, strict, at most {@link #MAX_DEPTH}
 * levels deep, so a damaged or hostile manifest is refused with {@link IllegalArgumentException} rather than misread),
 * and {@link #frozen} makes the immutable copy of a value a manifest may hold, equal to what the reading gives back
 * from {@link JsonWriter}'s text of it. Kept inside the library so that {@link ResultFolder} needs no JSON dependency.
 *
 * <pre>{@code
 * Object v = ManifestJson.parse("{\"files\": [{\"name\": \"labels.npy\", \"bytes\": 80}]}");
 * }</pre>
 */
final class ManifestJson {
    /** A manifest nests three levels; anything far deeper is not one. */
    static final int MAX_DEPTH = 8;

    private ManifestJson() {
    }

    /**
     * Parses one JSON value spanning the whole text ({@link JsonReader}); integers come back as {@link Long} (a
     * {@link java.math.BigInteger} beyond its range, which no field of a manifest takes), numbers with a fraction or
     * an exponent as {@link Double}.
     */
    static Object parse(String text) {
        return JsonReader.parse(text, MAX_DEPTH, "not a valid manifest");
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
}
