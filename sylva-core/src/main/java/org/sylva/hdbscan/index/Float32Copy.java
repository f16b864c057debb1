package org.sylva.hdbscan.index;

import java.util.Arrays;

import org.sylva.parallel.SplitScheduler;

/**
 * The float32 copy of an index's interleaved float64 blocks, which only the kernels' pre-filter reads
 * ({@link PointIndex#blocks32()}). Within every block the coordinates come by decreasing variance
 * ({@link #order}). The copy holds either the coordinates themselves (every one exactly a float32 value)
 * or each point minus a shift common to all points, rounded, with an upper bound on how far any point's
 * copy lies from the shifted point ({@link #rounding()}; {@link org.sylva.kernels.ApproximationBound}
 * widens the pre-filter's bound by it). The builder decides whether a copy is wanted; this class only
 * converts, in chunks of blocks on the build's scheduler.
 *
 * <pre>{@code
 * int[] order = Float32Copy.order(rows, n, d);
 * Float32Copy c = Float32Copy.of(data, posToOrig, d, w, order, mean, scheduler, () -> {});   // null: too large
 * float[] blocks32 = c.blocks();   // c.rounding() == 0 only when shift is null (an exact copy)
 * }</pre>
 *
 * @param blocks   the float32 blocks, in the layout of the float64 ones
 * @param rounding 0 for an exact copy, else the largest distance between a point minus the shift and its copy
 */
record Float32Copy(float[] blocks, double rounding) {
    /** Values per task of the conversion. */
    static final int CHUNK = 1 << 16;

    /**
     * Converts the blocks {@code data} ({@code d} coordinates, block width {@code w}, {@code posToOrig}
     * negative at padding) in the coordinate order {@code order}. With {@code shift == null} every value
     * must be exactly a float32 value within {@link PointIndex#FLOAT32_LIMIT} (the caller checked). Otherwise
     * each real point minus {@code shift} (given in the copy's coordinate order) is rounded and padding holds
     * 0; returns {@code null} when a shifted value exceeds the float32 limit. {@code check} runs before each
     * chunk (cancellation).
     */
    static Float32Copy of(double[] data, int[] posToOrig, int d, int w, int[] order, double[] shift,
                          SplitScheduler scheduler, Runnable check) {
        float[] f = new float[data.length];
        int dw = d * w;
        int blocks = data.length / Math.max(dw, 1);
        int perChunk = Math.max(1, CHUNK / Math.max(dw, 1));
        int chunks = (blocks + perChunk - 1) / perChunk;
        double[] chunkRounding = new double[chunks];
        scheduler.forEach(0, chunks, c -> {
            check.run();
            int from = c * perChunk, to = Math.min(blocks, (c + 1) * perChunk);
            if (shift != null) {
                chunkRounding[c] = rounded(data, posToOrig, d, w, order, shift, from, to, f);
            } else {
                exact(data, d, w, order, from, to, f);
            }
        });
        double worst = 0.0;
        for (double r : chunkRounding) worst = Math.max(worst, r);   // +inf (beyond the limit) wins
        return Double.isInfinite(worst) ? null : new Float32Copy(f, worst);
    }

    /** Blocks {@code from .. to-1} converted as they are (every value a float32 value). */
    private static void exact(double[] data, int d, int w, int[] order, int from, int to, float[] f) {
        int dw = d * w;
        for (int b = from; b < to; b++) {
            int at = b * dw;
            for (int j = 0; j < d; j++) {
                int src = at + order[j] * w, dst = at + j * w;
                for (int l = 0; l < w; l++) f[dst + l] = (float) data[src + l];
            }
        }
    }

    /**
     * Blocks {@code from .. to-1}: each real point minus {@code shift}, rounded (padding positions hold 0).
     * Returns the largest distance between a point's copy and the point minus the shift, an upper bound:
     * per coordinate the float32 rounding (exact in float64) plus a bound on the float64 subtraction's,
     * summed in squares and widened by their rounding, relative and (subnormal values) absolute;
     * {@code +inf} when a shifted value exceeds the float32 limit.
     */
    private static double rounded(double[] data, int[] posToOrig, int d, int w, int[] order, double[] shift,
                                  int from, int to, float[] f) {
        int dw = d * w;
        double[] err = new double[w];
        double worst = 0.0;
        for (int b = from; b < to; b++) {
            int at = b * dw;
            Arrays.fill(err, 0.0);
            for (int j = 0; j < d; j++) {
                int src = at + order[j] * w, dst = at + j * w;
                double c = shift[j];
                for (int l = 0; l < w; l++) {
                    if (posToOrig[b * w + l] < 0) {
                        f[dst + l] = 0f;
                        continue;
                    }
                    double r = data[src + l] - c;
                    float v = (float) r;
                    f[dst + l] = v;
                    if (!(Math.abs(r) <= PointIndex.FLOAT32_LIMIT)) return Double.POSITIVE_INFINITY;
                    double e = Math.abs(v - r) + Math.abs(r) * 0x1p-52;
                    err[l] += e * e;
                }
            }
            for (int l = 0; l < w; l++) worst = Math.max(worst, err[l]);
        }
        return widened(worst, d);
    }

    /**
     * The copy of one point {@code q[off .. off + d)} that is not in the blocks, converted as {@link #of} converts
     * the blocks' points ({@code order}, {@code shift}: theirs), into position {@code pos} of blocks laid out
     * as theirs (coordinate {@code j} at {@code out[(pos / w) d w + pos % w + j w]}). Returns the bound {@link #rounded} gives for the point: {@code 0} when there is no
     * shift and every value is a float32 value (the copy is then exact), {@code +inf} when a value exceeds
     * the float32 limit.
     */
    static double row(double[] q, int off, int d, int w, int[] order, double[] shift, float[] out, int pos) {
        int at = (pos / w) * d * w + pos % w;
        double err = 0.0;
        boolean exact = shift == null;
        for (int j = 0; j < d; j++) {
            double r = shift == null ? q[off + order[j]] : q[off + order[j]] - shift[j];
            float v = (float) r;
            out[at + j * w] = v;
            if (!(Math.abs(r) <= PointIndex.FLOAT32_LIMIT)) return Double.POSITIVE_INFINITY;
            exact &= v == r;
            double e = Math.abs(v - r) + Math.abs(r) * 0x1p-52;
            err += e * e;
        }
        return exact ? 0.0 : widened(err, d);
    }

    /** A rounding bound from a sum of squared per-coordinate errors. */
    private static double widened(double squares, int d) {
        // relative: the sum's own roundings; absolute: what subnormal squares and products can lose
        return Math.sqrt(squares * (1 + (d + 2) * 0x1p-52)) * (1 + 0x1p-51)
                + Math.sqrt((2.0 * d + 2) * Double.MIN_VALUE);
    }

    /**
     * The order of the coordinates in the float32 copy: by decreasing variance (ties by index). The copy
     * feeds only the pre-filter, which sums every coordinate of a pair (its error bound holds in any
     * order); in this order the partial sums grow fastest, so the kernels can stop a block of pairs that
     * are all above their limits after fewer coordinates
     * ({@link org.sylva.kernels.DistanceKernel#approximateSquaredDistancesWithin}). One pass over the rows.
     */
    static int[] order(double[] rows, int n, int d) {
        double[] sum = new double[d], sq = new double[d];
        for (int p = 0; p < n; p++) {
            int o = p * d;
            for (int j = 0; j < d; j++) {
                double x = rows[o + j];
                sum[j] += x;
                sq[j] += x * x;
            }
        }
        double[] var = new double[d];
        for (int j = 0; j < d; j++) {
            double m = n > 0 ? sum[j] / n : 0.0;
            var[j] = n > 0 ? sq[j] / n - m * m : 0.0;
        }
        return byDescending(var);
    }

    /**
     * The indices of {@code v} by descending value ({@link Double#compare}), equal values by ascending index: a
     * stable merge sort of primitive indices, since a boxed sort with a comparator took seconds on the millions of
     * coordinates of a few very wide rows.
     */
    static int[] byDescending(double[] v) {
        int d = v.length;
        int[] a = new int[d], b = new int[d];
        for (int j = 0; j < d; j++) a[j] = j;
        for (long width = 1; width < d; width *= 2) {   // at most 31 passes
            long lo = 0;
            for (; lo + width < d; lo += 2 * width) {   // runs [lo, mid) and [mid, hi) merged into b
                int mid = (int) (lo + width), hi = (int) Math.min(lo + 2 * width, d);
                int i = (int) lo, j = mid, k = (int) lo;
                while (i < mid && j < hi) b[k++] = Double.compare(v[a[j]], v[a[i]]) > 0 ? a[j++] : a[i++];
                while (i < mid) b[k++] = a[i++];
                while (j < hi) b[k++] = a[j++];
            }
            // a last run with no partner is copied as it stands
            if (lo < d) System.arraycopy(a, (int) lo, b, (int) lo, (int) (d - lo));
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }
}
