package org.sylva.cli.serve;

import java.util.Arrays;
import java.util.Objects;

/**
 * One named array of a {@link Frame}: its element type, its shape (C order) and its values in a Java
 * array of the type's kind ({@link WireDtype}), flat. The shape's product is always the data's length.
 *
 * <pre>{@code
 * WireArray labels = WireArray.of("labels", new int[] {0, 0, -1}, 3);
 * WireArray mst = WireArray.of("mst", new double[] {0, 1, 0.5}, 1, 3);
 * }</pre>
 *
 * @param name  the array's name in its frame ({@code points}, {@code labels}, ...)
 * @param dtype its element type
 * @param shape its dimensions, outermost first
 * @param data  a {@code float[]}, {@code double[]}, {@code int[]}, {@code long[]}, {@code boolean[]} or {@code byte[]}
 */
public record WireArray(String name, WireDtype dtype, long[] shape, Object data) {
    public WireArray {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(shape, "shape");
        if (WireDtype.of(data) != dtype) {
            throw new IllegalArgumentException(name + ": data is not a " + dtype.wireName() + " array");
        }
        if (elements(shape) != length(data)) {
            throw new IllegalArgumentException(name + ": shape " + Arrays.toString(shape) + " does not hold "
                    + length(data) + " values");
        }
        shape = shape.clone();
    }

    /** An array with the given dimensions ({@code long}s as NumPy's shapes are) over {@code data}. */
    public static WireArray of(String name, Object data, long... shape) {
        WireDtype t = WireDtype.of(data);
        if (t == null) throw new IllegalArgumentException(name + ": not an array of a wire type");
        return new WireArray(name, t, shape, data);
    }

    /** Number of elements a shape holds (1 for the empty shape of a scalar). */
    static long elements(long[] shape) {
        long n = 1;
        for (long s : shape) if (s == 0) return 0;   // however large the other dimensions (no overflow)
        for (long s : shape) n = Math.multiplyExact(n, s);
        return n;
    }

    /** Number of elements of the array. */
    public int size() {
        return length(data);
    }

    /** Bytes of the payload on the wire. */
    public long payloadBytes() {
        return (long) size() * dtype.itemSize();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    /** Number of dimensions. */
    public int ndim() {
        return shape.length;
    }

    /** Dimension {@code i} of the shape. */
    public long dim(int i) {
        return shape[i];
    }

    private static int length(Object data) {
        return switch (data) {
            case float[] a -> a.length;
            case double[] a -> a.length;
            case int[] a -> a.length;
            case long[] a -> a.length;
            case boolean[] a -> a.length;
            case byte[] a -> a.length;
            default -> throw new IllegalArgumentException("not an array of a wire type");
        };
    }

    @Override
    public String toString() {
        return name + " " + dtype.wireName() + " " + Arrays.toString(shape);
    }
}
