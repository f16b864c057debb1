package org.sylva.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import org.apache.spark.sql.Row;

/**
 * A grouping key as Spark SQL's {@code groupBy} compares it, for the pair RDD of {@link GroupedFits}: binary
 * values by their bytes (a {@code byte[]} compares by identity in Java), {@code -0.0} as {@code 0.0} and every
 * NaN as one value (for double and float), arrays and structs element by element with the same rules, maps by
 * their entries whatever their order (Spark sorts them before it compares), and ML vectors as the struct they are
 * stored as (dense and sparse apart, coordinates by their bits: Spark does not normalise inside a vector). Other
 * values (integers, decimals, dates, booleans, null) already compare by value; strings do too, but for invalid
 * UTF-8, which decodes to the same text from different bytes: {@link GroupedFits} groups a key holding strings by
 * their bytes, with {@link #shownAs}.
 *
 * <pre>{@code
 * Object k = GroupKey.of(row.get(keyIndex));   // equal keys for rows that df.groupBy(key) puts together
 * }</pre>
 */
final class GroupKey {
    private GroupKey() {
    }

    /** The key of {@code value}, equal (and hashing alike) exactly when Spark SQL groups two values together. */
    static Object of(Object value) {
        return switch (value) {
            case null -> null;
            case byte[] b -> new Bytes(b.clone());
            case Double v -> v == 0.0 ? Double.valueOf(0.0) : v.isNaN() ? Double.valueOf(Double.NaN) : v;
            case Float v -> v == 0.0f ? Float.valueOf(0.0f) : v.isNaN() ? Float.valueOf(Float.NaN) : v;
            case scala.collection.Map<?, ?> map -> entries(scala.jdk.javaapi.CollectionConverters.asJava(map), map.toString());
            case java.util.Map<?, ?> map -> entries(map, map.toString());
            case org.apache.spark.ml.linalg.Vector v -> vector(v);
            case org.apache.spark.mllib.linalg.Vector v -> vector(v.asML());
            case scala.collection.Iterable<?> seq -> list(scala.jdk.javaapi.CollectionConverters.asJava(seq));
            case Iterable<?> it -> list(it);
            case Row r -> {
                List<Object> fields = new ArrayList<>(r.length());
                for (int i = 0; i < r.length(); i++) fields.add(of(r.get(i)));
                yield new Struct(fields);
            }
            default -> value;
        };
    }

    /**
     * The key {@code key} (from {@link #of}) shown as {@code value} would be: how a key holding strings, compared by
     * their UTF-8 bytes ({@link GroupedFits}), is still named by its text in a refusal.
     */
    static Object shownAs(Object key, Object value) {
        List<Object> fields = new ArrayList<>(2);
        fields.add("shown");
        fields.add(key);
        return new Struct(fields, describe(of(value)));   // of: an array shown as a list, as other keys are
    }

    /** A map's entries, each key and value as {@link #of} makes them, compared as a set. */
    private static Struct entries(java.util.Map<?, ?> map, String shown) {
        java.util.Map<Object, Object> out = new java.util.HashMap<>();
        for (java.util.Map.Entry<?, ?> e : map.entrySet()) out.put(of(e.getKey()), of(e.getValue()));
        return new Struct(new ArrayList<>(List.of("map", out)), shown);   // lists Kryo can make again
    }

    /**
     * A vector as {@code VectorUDT} stores it, {@code (type, size, indices, values)}, with each value's bits: a
     * dense and a sparse vector of the same coordinates, or {@code 0.0} and {@code -0.0}, are two groups in Spark.
     */
    private static Struct vector(org.apache.spark.ml.linalg.Vector v) {
        double[] values = v instanceof org.apache.spark.ml.linalg.SparseVector sv ? sv.values() : v.toArray();
        List<Long> bits = new ArrayList<>(values.length);
        for (double x : values) bits.add(Double.doubleToRawLongBits(x));
        if (v instanceof org.apache.spark.ml.linalg.SparseVector sv) {
            List<Integer> indices = new ArrayList<>(sv.indices().length);
            for (int i : sv.indices()) indices.add(i);
            return new Struct(new ArrayList<>(List.of("sparse", sv.size(), indices, bits)), v.toString());
        }
        return new Struct(new ArrayList<>(List.of("dense", bits)), v.toString());
    }

    private static List<Object> list(Iterable<?> values) {
        List<Object> out = new ArrayList<>();
        for (Object v : values) out.add(of(v));
        return out;
    }

    /** The key as a refusal names it: binary as hex, strings quoted, at most 80 characters. */
    static String describe(Object key) {
        String s = key == null ? "null" : key instanceof String ? "'" + key + "'" : key.toString();
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }

    /** A binary value, compared and hashed by content, shown as hex (a class, not a record: see {@link FitData}). */
    static final class Bytes implements Serializable {
        private static final long serialVersionUID = 1L;
        private final byte[] bytes;

        Bytes(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes other && Arrays.equals(other.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return "0x" + HexFormat.of().formatHex(bytes);
        }
    }

    /**
     * A struct value, compared field by field; also what a map or a vector is compared as, then shown as the value
     * was ({@code shown}), not as its fields (a vector's coordinates as bits).
     */
    static final class Struct implements Serializable {
        private static final long serialVersionUID = 1L;
        private final List<Object> fields;
        private final String shown;

        Struct(List<Object> fields) {
            this(fields, null);
        }

        Struct(List<Object> fields, String shown) {
            this.fields = fields;
            this.shown = shown;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Struct other && other.fields.equals(fields);
        }

        @Override
        public int hashCode() {
            return fields.hashCode();
        }

        @Override
        public String toString() {
            return shown != null ? shown : fields.toString();
        }
    }
}
