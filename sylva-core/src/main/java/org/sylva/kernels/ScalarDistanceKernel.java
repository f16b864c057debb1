package org.sylva.kernels;

/**
 * The plain float64 backend: one multiply and one add per coordinate, each pair summed in the
 * reference order, with no pre-filter. The pairs of a block are summed side by side (eight or four
 * running sums), so that one sum's additions overlap another's; no sum mixes with another, so the bits
 * are those of one pair after the other. Always available; the yardstick the {@code simd} backend must
 * match bit for bit.
 *
 * <pre>{@code
 * DistanceKernel b = new ScalarDistanceKernel();   // or KernelProvider.get().scalarDistance()
 * }</pre>
 */
public final class ScalarDistanceKernel implements DistanceKernel {
    /** Block width used for indexes built for this backend (any width works for scalar loops). */
    public static final int WIDTH = 8;

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public int blockWidth() {
        return WIDTH;
    }

    /** Any width: the loops below read the width from the points they are given. */
    @Override
    public boolean readsBlockWidth(int width) {
        return width >= 1;
    }

    @Override
    public void squaredDistances(BlockedPoints idx, int[] queries, int nq, int blockFrom, int blockTo, double[] out) {
        double[] data = idx.blocks();
        int d = idx.dimensions();
        int w = idx.blockWidth();
        int stride = (blockTo - blockFrom) * w;
        for (int q = 0; q < nq; q++) {
            int qp = queries[q];
            int qBase = (qp / w) * d * w + qp % w;
            int row = q * stride;
            for (int b = blockFrom; b < blockTo; b++) {
                blockDistances(data, qBase, w, data, b * d * w, d, w, out, row + (b - blockFrom) * w);
            }
        }
    }

    /** Coordinates between two looks at whether a block's eight pairs can stop ({@link #squaredDistancesWithin}). */
    static final int STOP_CHECK = 16;

    @Override
    public void squaredDistancesWithin(BlockedPoints idx, int[] queries, int nq, int blockFrom, int blockTo,
                                       double[] rowLimits, double[] out) {
        int d = idx.dimensions();
        int w = idx.blockWidth();
        if (w != 8) {
            squaredDistances(idx, queries, nq, blockFrom, blockTo, out);
            return;
        }
        double[] data = idx.blocks();
        int stride = (blockTo - blockFrom) * w;
        for (int q = 0; q < nq; q++) {
            int qp = queries[q];
            int qBase = (qp / w) * d * w + qp % w;
            int row = q * stride;
            double limit = rowLimits[q];
            for (int b = blockFrom; b < blockTo; b++) {
                eightLanes(data, qBase, 8, data, b * d * w, d, limit, out, row + (b - blockFrom) * w);
            }
        }
    }

    /**
     * {@link #blockDistances} for a block of eight: the eight sums side by side, in runs of
     * {@link #STOP_CHECK} coordinates (bounded by {@code d}); after a run, once every partial sum exceeds
     * {@code limit}, it stops and writes those partial sums (above the limit, as the full sums are). With an
     * infinite limit it sums every coordinate.
     */
    private static void eightLanes(double[] x, int xBase, int xStep, double[] data, int cBase, int d, double limit,
            double[] out, int o) {
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, s5 = 0.0, s6 = 0.0, s7 = 0.0;
        for (int j0 = 0; j0 < d; j0 += STOP_CHECK) {
            int j1 = Math.min(d, j0 + STOP_CHECK);
            for (int j = j0; j < j1; j++) {
                double v = x[xBase + j * xStep];
                int c = cBase + j * 8;
                double t0 = v - data[c], t1 = v - data[c + 1], t2 = v - data[c + 2], t3 = v - data[c + 3];
                double t4 = v - data[c + 4], t5 = v - data[c + 5], t6 = v - data[c + 6], t7 = v - data[c + 7];
                s0 += t0 * t0;
                s1 += t1 * t1;
                s2 += t2 * t2;
                s3 += t3 * t3;
                s4 += t4 * t4;
                s5 += t5 * t5;
                s6 += t6 * t6;
                s7 += t7 * t7;
            }
            if (s0 > limit && s1 > limit && s2 > limit && s3 > limit && s4 > limit && s5 > limit && s6 > limit
                    && s7 > limit) {
                break;
            }
        }
        out[o] = s0;
        out[o + 1] = s1;
        out[o + 2] = s2;
        out[o + 3] = s3;
        out[o + 4] = s4;
        out[o + 5] = s5;
        out[o + 6] = s6;
        out[o + 7] = s7;
    }

    @Override
    public void pointSquaredDistancesWithin(double[] q, int off, BlockedPoints idx, int blockFrom, int blockTo,
                                            double limit, double[] out) {
        double[] data = idx.blocks();
        int d = idx.dimensions();
        int w = idx.blockWidth();
        for (int b = blockFrom; b < blockTo; b++) {
            if (w == 8) {
                eightLanes(q, off, 1, data, b * d * w, d, limit, out, (b - blockFrom) * w);
            } else {
                blockDistances(q, off, 1, data, b * d * w, d, w, out, (b - blockFrom) * w);
            }
        }
    }

    @Override
    public void centreDistances(BlockedPoints idx, int node, int blockFrom, int blockTo, double[] out) {
        double[] data = idx.blocks();
        double[] centre = idx.centres();
        int d = idx.dimensions();
        int w = idx.blockWidth();
        for (int b = blockFrom; b < blockTo; b++) {
            blockDistances(centre, node * d, 1, data, b * d * w, d, w, out, (b - blockFrom) * w);
        }
    }

    /**
     * The squared distances from the point at {@code x[xBase + j * xStep]} ({@code j < d}) to the {@code w}
     * points of the block at {@code data[cBase]} (coordinate {@code j} of lane {@code l} at
     * {@code cBase + j * w + l}), into {@code out[o .. o + w - 1]}. Each lane sums its terms in coordinate
     * order, as the reference does; the lanes run side by side (eight or four running sums at once) because
     * one sum alone waits on each addition before the next, and independent lanes fill those waits. The
     * values are the same bits whatever the grouping: a lane's sum never mixes with another's.
     */
    private static void blockDistances(double[] x, int xBase, int xStep, double[] data, int cBase, int d, int w,
            double[] out, int o) {
        if (w == 8) {
            eightLanes(x, xBase, xStep, data, cBase, d, Double.POSITIVE_INFINITY, out, o);
            return;
        }
        int lane = 0;
        for (; lane + 4 <= w; lane += 4) {
            double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
            for (int j = 0; j < d; j++) {
                double v = x[xBase + j * xStep];
                int c = cBase + j * w + lane;
                double t0 = v - data[c], t1 = v - data[c + 1], t2 = v - data[c + 2], t3 = v - data[c + 3];
                s0 += t0 * t0;
                s1 += t1 * t1;
                s2 += t2 * t2;
                s3 += t3 * t3;
            }
            out[o + lane] = s0;
            out[o + lane + 1] = s1;
            out[o + lane + 2] = s2;
            out[o + lane + 3] = s3;
        }
        for (; lane < w; lane++) {
            double s = 0.0;
            for (int j = 0; j < d; j++) {
                double t = x[xBase + j * xStep] - data[cBase + j * w + lane];
                s += t * t;
            }
            out[o + lane] = s;
        }
    }

    @Override
    public String toString() {
        return "ScalarDistanceKernel";
    }
}
