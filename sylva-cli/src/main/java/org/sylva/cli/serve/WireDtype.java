package org.sylva.cli.serve;

/**
 * The element types an array may have on the wire, named as NumPy's {@code dtype.str} names them, so
 * that Python reads a payload with {@code np.frombuffer(payload, dtype=name)}: little-endian
 * {@code <f4 <f8 <i4 <i8}, {@code |b1} (bool, one byte 0 or 1) and {@code |u1} (bytes, e.g. a saved
 * model). Each maps to one Java array type ({@code float[]}, {@code double[]}, {@code int[]},
 * {@code long[]}, {@code boolean[]}, {@code byte[]}).
 *
 * <pre>{@code
 * WireDtype t = WireDtype.parse("<f8");   // FLOAT64, 8 bytes an element, carried as double[]
 * }</pre>
 */
public enum WireDtype {
    FLOAT32("<f4", 4), FLOAT64("<f8", 8), INT32("<i4", 4), INT64("<i8", 8), BOOL("|b1", 1), UINT8("|u1", 1);

    private final String wireName;
    private final int itemSize;

    WireDtype(String wireName, int itemSize) {
        this.wireName = wireName;
        this.itemSize = itemSize;
    }

    /** NumPy's {@code dtype.str} of this type, e.g. {@code "<f4"}. */
    public String wireName() {
        return wireName;
    }

    /** Bytes per element. */
    public int itemSize() {
        return itemSize;
    }

    /** The type named {@code name} ({@code "<f4"}, ...), or null when the protocol has no such type. */
    public static WireDtype parse(String name) {
        for (WireDtype t : values()) {
            if (t.wireName.equals(name)) return t;
        }
        return null;
    }

    /** The type of a Java array of one of the six element types, or null for any other object. */
    public static WireDtype of(Object array) {
        return switch (array) {
            case float[] a -> FLOAT32;
            case double[] a -> FLOAT64;
            case int[] a -> INT32;
            case long[] a -> INT64;
            case boolean[] a -> BOOL;
            case byte[] a -> UINT8;
            default -> null;
        };
    }
}
