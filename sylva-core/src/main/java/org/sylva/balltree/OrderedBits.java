package org.sylva.balltree;

/**
 * Float32 coordinates as order-preserving ints: {@code a < b} as floats iff {@code key(a) < key(b)} as
 * signed ints, and {@code a == b} iff the keys are equal ({@code -0.0} is first turned into {@code 0.0},
 * so the numeric equality of the two zeros carries over). Integer keys let the JIT vectorise minima,
 * maxima and comparisons that it will not vectorise on floats, and make packed
 * {@code (coordinate, index)} keys a single {@code long} comparison.
 *
 * <pre>{@code
 * int k = OrderedBits.key(-1.5f);
 * float back = OrderedBits.value(k);   // -1.5f
 * }</pre>
 */
final class OrderedBits {
    private OrderedBits() { }

    /** The order-preserving key of a finite (or infinite) float; NaN keys sort above +infinity. */
    static int key(float v) {
        int b = Float.floatToRawIntBits(v + 0.0f);
        return b ^ ((b >> 31) & 0x7fffffff);
    }

    /** The float of a key (inverse of {@link #key} up to the sign of zero). */
    static float value(int k) {
        return Float.intBitsToFloat(k ^ ((k >> 31) & 0x7fffffff));
    }

    /** {@code value(hi) - value(lo)} in float64: the spread exactly as the reference computes it. */
    static double spread(int lo, int hi) {
        return (double) value(hi) - (double) value(lo);
    }
}
