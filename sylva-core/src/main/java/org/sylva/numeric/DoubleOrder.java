package org.sylva.numeric;

/**
 * Doubles as {@code long} keys whose signed order is {@link Double#compare}'s: {@code -0.0} before
 * {@code 0.0}, every NaN one key above {@code +inf}. Sorting or selecting such keys with primitive
 * comparisons orders the doubles as {@link java.util.Arrays#sort(double[])} does, and a key maps back to
 * its double's bits (a NaN to the canonical NaN), so a pair of keys can stand for a pair of sort keys
 * without an index permutation.
 *
 * <pre>{@code
 * long k = DoubleOrder.key(-0.0);          // below DoubleOrder.key(0.0)
 * double x = DoubleOrder.value(k);         // -0.0
 * }</pre>
 */
public final class DoubleOrder {
    private DoubleOrder() {
    }

    /** The key of {@code x}. */
    public static long key(double x) {
        long b = Double.doubleToLongBits(x);
        return b ^ ((b >> 63) & Long.MAX_VALUE);
    }

    /** The double whose {@link #key} is {@code key}. */
    public static double value(long key) {
        return Double.longBitsToDouble(key ^ ((key >> 63) & Long.MAX_VALUE));
    }
}
