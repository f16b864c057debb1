package org.sylva.kernels;

/**
 * The scalar {@link MetricKernel}: one pair at a time, in the reference arithmetic. Reads
 * {@link BlockedRows} of any width. Always available; the vector kernel's twin.
 *
 * <pre>{@code
 * MetricKernel k = KernelProvider.get().scalarMetric();
 * }</pre>
 */
public final class ScalarMetricKernel implements MetricKernel {
    /** The width it builds its rows with when it is the kernel in use. */
    public static final int WIDTH = 8;

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public int blockWidth() {
        return WIDTH;
    }

    @Override
    public void distances(Form form, double[] q, int[] offsets, int nq, BlockedRows rows, int blockFrom, int blockTo,
                          double[] out) {
        double[] x = rows.blocks();
        int d = rows.dimensions(), w = rows.width(), dw = d * w;
        int stride = (blockTo - blockFrom) * w;
        for (int r = 0; r < nq; r++) {
            int qo = offsets[r];
            int o = r * stride;
            for (int b = blockFrom; b < blockTo; b++) {
                int lane = 0;
                for (; lane + 4 <= w; lane += 4, o += 4) fourLanes(form, q, qo, x, b * dw + lane, w, d, out, o);
                for (; lane < w; lane++, o++) out[o] = distance(form, q, qo, x, b * dw + lane, w, d);
            }
        }
    }

    /**
     * {@link #distance} of four neighbouring lanes {@code x[xo ..]}, {@code x[xo + 1 ..]}, ... into
     * {@code out[o .. o + 3]}: four sums side by side, each in coordinate order, so that one sum's additions
     * waiting on one another do not leave the core idle.
     */
    private static void fourLanes(Form form, double[] q, int qo, double[] x, int xo, int step, int d, double[] out, int o) {
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        switch (form) {
            case EUCLIDEAN -> {
                for (int j = 0, c = xo; j < d; j++, c += step) {
                    double v = q[qo + j];
                    double t0 = v - x[c], t1 = v - x[c + 1], t2 = v - x[c + 2], t3 = v - x[c + 3];
                    s0 += t0 * t0;
                    s1 += t1 * t1;
                    s2 += t2 * t2;
                    s3 += t3 * t3;
                }
                s0 = Math.sqrt(s0);
                s1 = Math.sqrt(s1);
                s2 = Math.sqrt(s2);
                s3 = Math.sqrt(s3);
            }
            case MANHATTAN -> {
                for (int j = 0, c = xo; j < d; j++, c += step) {
                    double v = q[qo + j];
                    s0 += Math.abs(v - x[c]);
                    s1 += Math.abs(v - x[c + 1]);
                    s2 += Math.abs(v - x[c + 2]);
                    s3 += Math.abs(v - x[c + 3]);
                }
            }
            case CHEBYSHEV -> {
                for (int j = 0, c = xo; j < d; j++, c += step) {
                    double v = q[qo + j];
                    s0 = Math.max(s0, Math.abs(v - x[c]));
                    s1 = Math.max(s1, Math.abs(v - x[c + 1]));
                    s2 = Math.max(s2, Math.abs(v - x[c + 2]));
                    s3 = Math.max(s3, Math.abs(v - x[c + 3]));
                }
            }
            case COSINE -> {
                for (int j = 0, c = xo; j < d; j++, c += step) {
                    double v = q[qo + j];
                    s0 += v * x[c];
                    s1 += v * x[c + 1];
                    s2 += v * x[c + 2];
                    s3 += v * x[c + 3];
                }
                s0 = Math.min(Math.max(1 - s0, 0.0), 2.0);
                s1 = Math.min(Math.max(1 - s1, 0.0), 2.0);
                s2 = Math.min(Math.max(1 - s2, 0.0), 2.0);
                s3 = Math.min(Math.max(1 - s3, 0.0), 2.0);
            }
        }
        out[o] = s0;
        out[o + 1] = s1;
        out[o + 2] = s2;
        out[o + 3] = s3;
    }

    /** The reference arithmetic of {@code form} between {@code q[qo ..]} and {@code x[xo], x[xo + step], ...}. */
    static double distance(Form form, double[] q, int qo, double[] x, int xo, int step, int d) {
        double s = 0;
        switch (form) {
            case EUCLIDEAN -> {
                for (int j = 0; j < d; j++) {
                    double t = q[qo + j] - x[xo + j * step];
                    s += t * t;
                }
                s = Math.sqrt(s);
            }
            case MANHATTAN -> {
                for (int j = 0; j < d; j++) s += Math.abs(q[qo + j] - x[xo + j * step]);
            }
            case CHEBYSHEV -> {
                for (int j = 0; j < d; j++) s = Math.max(s, Math.abs(q[qo + j] - x[xo + j * step]));
            }
            case COSINE -> {
                for (int j = 0; j < d; j++) s += q[qo + j] * x[xo + j * step];
                s = Math.min(Math.max(1 - s, 0.0), 2.0);
            }
        }
        return s;
    }
}
