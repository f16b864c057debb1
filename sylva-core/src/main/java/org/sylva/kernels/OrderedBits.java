package org.sylva.kernels;

/**
 * Float32 coordinates as order-preserving ints: {@code a < b} as floats iff {@code key(a) < key(b)} as
 * signed ints, and {@code a == b} iff the keys are equal. The key is the float's sign-magnitude bit
 * pattern read as a two's-complement number ({@code +-magnitude}), so {@code -0.0} and {@code 0.0}
 * both map to 0, as their numeric equality demands, and finite keys lie in
 * {@code [-0x7f7fffff, 0x7f7fffff]}. Integer keys let the JIT vectorise minima,
 * maxima and comparisons that it will not vectorise on floats, and make packed
 * {@code (coordinate, index)} keys a single {@code long} comparison.
 *
 * <pre>{@code
 * int k = OrderedBits.key(-1.5f);
 * float back = OrderedBits.value(k);   // -1.5f
 * }</pre>
 */
public final class OrderedBits {
    /** The exponent bits of a float. */
    public static final int EXPONENT = 0x7f800000;

    private OrderedBits() { }

    /** The order-preserving key of a finite (or infinite) float. */
    public static int key(float v) {
        return ofBits(Float.floatToRawIntBits(v));
    }

    /**
     * A value whose sign bit is set iff the float with bit pattern {@code b} is NaN or infinite (an
     * exponent of all ones): OR these over many floats and test the sign once, with no branch per float.
     */
    public static int nonFiniteFlag(int b) {
        return (b & EXPONENT) + 0x00800000;
    }

    /** The key of the float with bit pattern {@code b}: magnitude, negated for a set sign bit. */
    public static int ofBits(int b) {
        int s = b >> 31;
        return ((b & 0x7fffffff) ^ s) - s;
    }

    /** The float of a key (inverse of {@link #key}; key 0 gives {@code 0.0}). */
    public static float value(int k) {
        int s = k >> 31;
        return Float.intBitsToFloat(((k ^ s) - s) | (s & 0x80000000));
    }

    /** {@code value(hi) - value(lo)} in float64: the spread exactly as the reference computes it. */
    public static double spread(int lo, int hi) {
        return (double) value(hi) - (double) value(lo);
    }

    /**
     * Raw float bits to keys in place, {@code c[from..to)}; the result's sign bit is set iff one of them
     * was NaN or infinite. A pure int loop, which the JIT vectorises.
     */
    public static int toKeys(int[] c, int from, int to) {
        int bad = 0;
        for (int i = from; i < to; i++) {
            int b = c[i];
            bad |= nonFiniteFlag(b);
            int sgn = b >> 31;
            c[i] = ((b & 0x7fffffff) ^ sgn) - sgn;
        }
        return bad;
    }
}
