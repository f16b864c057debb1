package org.sylva.numeric;

/**
 * NumPy's float64 sum ({@code ndarray.sum()}, also along the last axis of a C-ordered matrix): pairwise
 * summation, which gives another rounding than a sequential loop from eight terms on. The membership
 * vectors of the {@code hdbscan} package normalise with it, so Sylva sums the same way to give the same
 * doubles. NumPy's {@code pairwise_sum}: fewer than 8 terms are added in order; up to 128 terms go into
 * eight interleaved partial sums combined as {@code ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))},
 * then the remainder is added in order; longer runs are split at half, rounded down to a multiple of 8,
 * and the halves summed so (recursion depth at most log2 of the length).
 *
 * <pre>{@code
 * double s = NumpySum.of(v, 0, v.length);
 * }</pre>
 */
public final class NumpySum {
    private static final int BLOCK = 128;

    private NumpySum() {
    }

    /** The sum of {@code a[from .. from + len)} as NumPy computes it. */
    public static double of(double[] a, int from, int len) {
        if (len < 8) {
            double res = 0.0;
            for (int i = 0; i < len; i++) res += a[from + i];
            return res;
        }
        if (len <= BLOCK) {
            double r0 = a[from], r1 = a[from + 1], r2 = a[from + 2], r3 = a[from + 3];
            double r4 = a[from + 4], r5 = a[from + 5], r6 = a[from + 6], r7 = a[from + 7];
            int i = 8;
            for (; i < len - len % 8; i += 8) {
                int b = from + i;
                r0 += a[b];
                r1 += a[b + 1];
                r2 += a[b + 2];
                r3 += a[b + 3];
                r4 += a[b + 4];
                r5 += a[b + 5];
                r6 += a[b + 6];
                r7 += a[b + 7];
            }
            double res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
            for (; i < len; i++) res += a[from + i];
            return res;
        }
        int half = len / 2;
        half -= half % 8;
        return of(a, from, half) + of(a, from + half, len - half);
    }
}
