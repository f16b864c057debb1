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

    /**
     * The power of two that brings the largest finite magnitude of this input near 1 where it lies beyond
     * {@code 2^+-100}, else 0: far from 1, squares and their sums underflow (entries of 1e-160 gave components off by
     * 4e-5, below 1e-170 none at all) or, over many rows, overflow. Multiplying by a power of two is exact (but for
     * entries so far below the largest that they fall below float64's normal range, which count for nothing beside
     * it), so the scaled input's components are the input's.
     */
    final int scaleShift() {
        double largest = 0;
        for (int i = 0, end = n * d; i < end; i++) {
            double v = Math.abs(at(i));
            if (v > largest && v <= MAX_ABS) largest = v;   // NaN and beyond MAX_ABS: refused later, by row and column
        }
        if (largest == 0) return 0;
        int e = Math.getExponent(largest);
        return e > 100 || e < -100 ? Math.max(-1022, Math.min(1023, -e)) : 0;
    }

    /** This input times {@code 2^shift} (exact), read through this one; refusals name this input's values. */
    final RowMajor scaled(int shift) {
        return new Scaled(this, Math.scalb(1.0, shift));
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

    private static final class Scaled extends RowMajor {
        private final RowMajor x;
        private final double factor;

        Scaled(RowMajor x, double factor) {
            super(x.n, x.d, x.n * x.d);
            this.x = x;
            this.factor = factor;
        }

        @Override
        double at(int index) {
            return x.at(index);   // unscaled, so that a refusal names the value as given
        }

        @Override
        void addRows(int from, int to, double[] sums) {
            for (int src = from * d, end = to * d; src < end; src += d) {
                for (int j = 0; j < d; j++) sums[j] += x.at(src + j) * factor;
            }
        }

        @Override
        void centred(int from, int count, double[] mean, double[] dst) {
            for (int r = 0, src = from * d, o = 0; r < count; r++) {
                for (int j = 0; j < d; j++) dst[o++] = x.at(src++) * factor - mean[j];
            }
        }
    }
}
