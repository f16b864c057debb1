package org.sylva.kernels;

/**
 * The plain float64 backend: one multiply and one add per coordinate, pair after pair, in the
 * reference order, with no pre-filter. Always available; the yardstick the {@code simd} backend must
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
                int cBase = b * d * w;
                int o = row + (b - blockFrom) * w;
                for (int lane = 0; lane < w; lane++) {
                    double s = 0.0;
                    for (int j = 0; j < d; j++) {
                        double t = data[qBase + j * w] - data[cBase + j * w + lane];
                        s += t * t;
                    }
                    out[o + lane] = s;
                }
            }
        }
    }

    @Override
    public void centreDistances(BlockedPoints idx, int node, int blockFrom, int blockTo, double[] out) {
        double[] data = idx.blocks();
        double[] centre = idx.centres();
        int d = idx.dimensions();
        int w = idx.blockWidth();
        int c = node * d;
        for (int b = blockFrom; b < blockTo; b++) {
            int cBase = b * d * w;
            int o = (b - blockFrom) * w;
            for (int lane = 0; lane < w; lane++) {
                double s = 0.0;
                for (int j = 0; j < d; j++) {
                    double t = centre[c + j] - data[cBase + j * w + lane];
                    s += t * t;
                }
                out[o + lane] = s;
            }
        }
    }

    @Override
    public String toString() {
        return "ScalarDistanceKernel";
    }
}
