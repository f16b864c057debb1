package org.sylva.testsupport;

import java.util.SplittableRandom;

/**
 * Test data for sample weights: rows with ties and duplicates, weights with zeros and heavy rows, and the
 * rows repeated by their weights ({@code np.repeat(X, w, axis=0)}), whose unweighted fit a weighted fit
 * must equal.
 *
 * <pre>{@code
 * double[] x = WeightedRows.blobs(400, 2, 7, true);
 * int[] w = WeightedRows.weights(400, 3, 2, 30, 8);
 * double[] repeated = WeightedRows.repeat(x, 2, w);
 * }</pre>
 */
public final class WeightedRows {
    private WeightedRows() {
    }

    /** The rows repeated, row-major float64. */
    public static double[] repeat(double[] x, int d, int[] w) {
        long total = 0;
        for (int v : w) total += v;
        double[] out = new double[Math.toIntExact(total * d)];
        int p = 0;
        for (int i = 0; i < w.length; i++) {
            for (int c = 0; c < w[i]; c++, p++) System.arraycopy(x, i * d, out, p * d, d);
        }
        return out;
    }

    /** Gaussian blobs on a coarse grid (many tied distances), some rows duplicated. */
    public static double[] blobs(int n, int d, long seed, boolean grid) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < n; i++) {
            int c = r.nextInt(4);
            for (int j = 0; j < d; j++) {
                double v = 10 * ((c + j) % 3) + r.nextGaussian() * (1 + c);
                x[i * d + j] = grid ? Math.rint(v) : v;
            }
            if (i > 0 && r.nextInt(10) == 0) System.arraycopy(x, r.nextInt(i) * d, x, i * d, d);   // a duplicate row
        }
        return x;
    }

    /** A weight from 0 to {@code max} per row, then {@code heavy} rows (at random) of {@code heavyWeight}. */
    public static int[] weights(int n, int max, int heavy, int heavyWeight, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] w = new int[n];
        for (int i = 0; i < n; i++) w[i] = r.nextInt(max + 1);
        for (int k = 0; k < heavy; k++) w[r.nextInt(n)] = heavyWeight;
        return w;
    }
}
