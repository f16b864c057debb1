package org.sylva.features;

import org.sylva.parallel.Execution;
import org.sylva.parallel.ParallelWork;

/**
 * Column means and covariance ({@code n - 1} denominator, as NumPy's {@code cov} and scikit-learn's
 * explained variance use) of an {@code n x d} input, in float64, from every row; two passes, so that
 * the covariance sums centred values (no cancellation).
 *
 * <p>Identical for any thread count: the rows are cut into stripes by {@code n} and {@code d} alone
 * ({@link #stripes}); each stripe sums its rows in row order, and the stripes' sums are added in stripe
 * order, whichever thread computed them. Inside a stripe, rows are centred {@link #BLOCK_ROWS} at a time
 * into a float64 buffer and added to the upper triangle tile by tile ({@link #TILE} x {@link #TILE}
 * entries, which stay in cache), four rows per pass over a tile: {@code c = c + a0*b0 + a1*b1 + ...}
 * evaluates left to right, so each entry still receives its rows one by one in row order.
 */
final class Covariance {
    /** The progress stage of both passes. */
    static final String STAGE = "principal components";
    static final int MIN_STRIPE_ROWS = 8192;
    static final int MAX_STRIPES = 64;
    /** Memory the stripes' partial matrices may take together (one {@code d x d} float64 each). */
    static final long STRIPE_BYTES = 64L << 20;
    static final int BLOCK_ROWS = 64;
    static final int TILE = 64;

    /** Column means, length {@code d}. */
    final double[] mean;
    /** The covariance, row-major {@code d x d}, symmetric. */
    final double[] matrix;

    private Covariance(double[] mean, double[] matrix) {
        this.mean = mean;
        this.matrix = matrix;
    }

    /**
     * Stripes for {@code n} rows of {@code d} columns: one per {@link #MIN_STRIPE_ROWS} rows, at most
     * {@link #MAX_STRIPES} and as many as {@link #STRIPE_BYTES} holds; never depends on the threads.
     */
    static int stripes(int n, int d) {
        long byMemory = Math.max(1, STRIPE_BYTES / (8L * d * d));
        long byRows = Math.max(1, (n + (long) MIN_STRIPE_ROWS - 1) / MIN_STRIPE_ROWS);
        return (int) Math.min(Math.min(byRows, byMemory), MAX_STRIPES);
    }

    /**
     * Means and covariance of {@code x}; throws {@link org.sylva.data.InvalidInputException} naming the
     * first row and column holding NaN, an infinity or a value beyond {@link RowMajor#MAX_ABS}.
     */
    static Covariance of(RowMajor x, Execution ex) {
        int n = x.n, d = x.d, s = stripes(n, d);
        ParallelWork work = new ParallelWork(ex.threads());
        double[] mean = mean(x, work, 2L * s, ex);

        double[][] parts = new double[s][];
        double[][] scratch = new double[ex.threads()][];
        work.run(s, STAGE, s, 2L * s, ex.progress(), ex.cancel(), (worker, stripe) -> {
            if (scratch[worker] == null) scratch[worker] = new double[BLOCK_ROWS * d];
            double[] block = scratch[worker];
            double[] upper = new double[d * d];
            for (int from = first(stripe, s, n), to = first(stripe + 1, s, n); from < to; from += BLOCK_ROWS) {
                int count = Math.min(BLOCK_ROWS, to - from);
                x.centred(from, count, mean, block);
                addUpper(block, count, d, upper);
            }
            parts[stripe] = upper;
        });
        double[] cov = new double[d * d];
        for (double[] part : parts) {
            for (int j = 0; j < d; j++) {
                for (int k = j; k < d; k++) cov[j * d + k] += part[j * d + k];
            }
        }
        double denominator = Math.max(1, n - 1);
        for (int j = 0; j < d; j++) {
            for (int k = j; k < d; k++) {
                cov[j * d + k] /= denominator;
                cov[k * d + j] = cov[j * d + k];
            }
        }
        return new Covariance(mean, cov);
    }

    /**
     * The first pass: the column means of {@code x}, each the sum of its stripes' sums (rows in order) in stripe order,
     * divided by {@code n}; progress {@code 0 .. stripes} of {@code total}. Throws
     * {@link org.sylva.data.InvalidInputException} naming the first unusable row and column.
     */
    static double[] mean(RowMajor x, ParallelWork work, long total, Execution ex) {
        int n = x.n, d = x.d, s = stripes(n, d);
        double[][] sums = new double[s][d];
        RuntimeException[] bad = new RuntimeException[s];
        work.run(s, STAGE, 0, total, ex.progress(), ex.cancel(), (worker, stripe) -> {
            try {
                x.requireUsable(first(stripe, s, n), first(stripe + 1, s, n));
            } catch (RuntimeException e) {
                bad[stripe] = e; // kept, so that the first bad row of the input is the one reported
                return;
            }
            x.addRows(first(stripe, s, n), first(stripe + 1, s, n), sums[stripe]);
        });
        for (RuntimeException e : bad) {
            if (e != null) throw e;
        }
        double[] mean = new double[d];
        for (double[] part : sums) {
            for (int j = 0; j < d; j++) mean[j] += part[j];
        }
        for (int j = 0; j < d; j++) mean[j] /= n;
        return mean;
    }

    /** The first row of stripe {@code stripe} of {@code s} over {@code n} rows ({@code n} for {@code s}). */
    private static int first(int stripe, int s, int n) {
        return (int) ((long) stripe * n / s);
    }

    /**
     * Adds {@code x^T x} of the {@code rows x d} block {@code x} to the upper triangle (diagonal included)
     * of {@code upper}, each entry receiving the rows in order (see the class comment).
     */
    static void addUpper(double[] x, int rows, int d, double[] upper) {
        for (int j0 = 0; j0 < d; j0 += TILE) {
            int j1 = Math.min(d, j0 + TILE);
            for (int k0 = j0; k0 < d; k0 += TILE) {
                int k1 = Math.min(d, k0 + TILE);
                int i = 0;
                for (; i + 4 <= rows; i += 4) {
                    int b0 = i * d, b1 = b0 + d, b2 = b1 + d, b3 = b2 + d;
                    for (int j = j0; j < j1; j++) {
                        double x0 = x[b0 + j], x1 = x[b1 + j], x2 = x[b2 + j], x3 = x[b3 + j];
                        int row = j * d;
                        for (int k = Math.max(k0, j); k < k1; k++) {
                            upper[row + k] = upper[row + k] + x0 * x[b0 + k] + x1 * x[b1 + k] + x2 * x[b2 + k]
                                    + x3 * x[b3 + k];
                        }
                    }
                }
                for (; i < rows; i++) {
                    int b = i * d;
                    for (int j = j0; j < j1; j++) {
                        double xj = x[b + j];
                        int row = j * d;
                        for (int k = Math.max(k0, j); k < k1; k++) upper[row + k] += xj * x[b + k];
                    }
                }
            }
        }
    }
}
