package org.sylva.features;

import org.sylva.data.InvalidInputException;

/**
 * An {@code n x d} row-major input, float32 or float64, read as float64: one seam so that the
 * covariance and the projection are written once for both element types.
 */
abstract sealed class RowMajor {
    /**
     * Largest coordinate magnitude accepted: beyond it a sum of squares over a million rows could
     * overflow float64 (float32 input never comes close).
     */
    static final double MAX_ABS = 1e150;

    final int n;
    final int d;

    private RowMajor(int n, int d, int length) {
        if (d < 1) throw new InvalidInputException("points must have at least one dimension (d = " + d + ")");
        if (n < 0) throw new InvalidInputException("number of points must be >= 0, got " + n);
        if ((long) n * d != length) {
            throw new InvalidInputException("coordinate array has " + length + " values, expected n * d = "
                    + n + " * " + d + " = " + ((long) n * d));
        }
        this.n = n;
        this.d = d;
    }

    static RowMajor of(float[] x, int n, int d) {
        if (x == null) throw new InvalidInputException("coordinate array is null");
        return new Float32(x, n, d);
    }

    static RowMajor of(double[] x, int n, int d) {
        if (x == null) throw new InvalidInputException("coordinate array is null");
        return new Float64(x, n, d);
    }

    /** Coordinate {@code i * d + j} (row {@code i}, column {@code j}) as float64. */
    abstract double at(int index);

    /** Adds rows {@code from .. to-1} to {@code sums} (length d), column by column, rows in order. */
    abstract void addRows(int from, int to, double[] sums);

    /** Rows {@code from .. from+count-1}, minus {@code mean}, into {@code dst[0 .. count*d-1]}. */
    abstract void centred(int from, int count, double[] mean, double[] dst);

    /**
     * Throws {@link InvalidInputException} naming row and column (counting from 0) of the first value in
     * rows {@code from .. to-1} that is NaN, infinite or beyond {@link #MAX_ABS}.
     */
    final void requireUsable(int from, int to) {
        for (int i = from * d, end = to * d; i < end; i++) {
            double v = at(i);
            if (Double.isFinite(v) && Math.abs(v) <= MAX_ABS) continue;
            String what = Double.isNaN(v) ? "NaN" : v == Double.POSITIVE_INFINITY ? "+inf"
                    : v == Double.NEGATIVE_INFINITY ? "-inf" : v + ", beyond +-1e150 (rescale the data)";
            throw new InvalidInputException("row " + (i / d) + ", column " + (i % d) + " (counting from 0) is " + what
                    + ": principal components need finite coordinates");
        }
    }

    private static final class Float32 extends RowMajor {
        private final float[] x;

        Float32(float[] x, int n, int d) {
            super(n, d, x.length);
            this.x = x;
        }

        @Override
        double at(int index) {
            return x[index];
        }

        @Override
        void addRows(int from, int to, double[] sums) {
            for (int src = from * d, end = to * d; src < end; src += d) {
                for (int j = 0; j < d; j++) sums[j] += x[src + j];
            }
        }

        @Override
        void centred(int from, int count, double[] mean, double[] dst) {
            for (int r = 0, src = from * d, o = 0; r < count; r++) {
                for (int j = 0; j < d; j++) dst[o++] = x[src++] - mean[j];
            }
        }
    }

    private static final class Float64 extends RowMajor {
        private final double[] x;

        Float64(double[] x, int n, int d) {
            super(n, d, x.length);
            this.x = x;
        }

        @Override
        double at(int index) {
            return x[index];
        }

        @Override
        void addRows(int from, int to, double[] sums) {
            for (int src = from * d, end = to * d; src < end; src += d) {
                for (int j = 0; j < d; j++) sums[j] += x[src + j];
            }
        }

        @Override
        void centred(int from, int count, double[] mean, double[] dst) {
            for (int r = 0, src = from * d, o = 0; r < count; r++) {
                for (int j = 0; j < d; j++) dst[o++] = x[src++] - mean[j];
            }
        }
    }
}
