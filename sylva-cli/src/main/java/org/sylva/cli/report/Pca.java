package org.sylva.cli.report;

import java.util.Arrays;
import org.sylva.features.PrincipalComponents;

/**
 * The top two principal components of a point set for the report's scatter plot, from an evenly
 * spaced subset of the rows and at most {@link #MAX_COLUMNS} coordinates, within a budget: the plot only
 * needs a plane, not exact scores, and the report must stay quick on millions of rows and on rows of
 * tens of thousands of values. Wider data is represented by {@link #MAX_COLUMNS} evenly spaced columns
 * (the first and the last among them; {@link Fit#columns()}), so the work, the memory (a
 * {@code d x d} covariance of d = 46 341 would not even fit an array) and the projection of each drawn
 * point do not grow with d. On the columns used this is the library's exact {@link PrincipalComponents}
 * (cyclic Jacobi), deterministic, each component signed as scikit-learn's {@code svd_flip} does (its entry of
 * largest magnitude positive, the first such on ties).
 *
 * <p>Rows containing a NaN or infinity in the columns used are left out. When {@code n * w^2} (w columns)
 * would exceed {@link #COVARIANCE_BUDGET} multiply-adds, or the rows' copy {@link #SUBSET_BYTES}, the
 * covariance uses an evenly spaced subset of rows (at least {@link #MIN_ROWS}); {@link Fit#rowsUsed()}
 * says how many.
 */
final class Pca {
    /** Multiply-adds spent on the covariance at most (so that it stays a small part of a run). */
    static final long COVARIANCE_BUDGET = 400_000_000L;
    /** Rows always used when available, whatever the budget. */
    static final int MIN_ROWS = 2_000;
    /** The subset is copied (float64) for the library; its size at most, beyond {@link #MIN_ROWS}. */
    static final long SUBSET_BYTES = 64L << 20;
    /** Most coordinates the fit reads: wider rows are represented by this many evenly spaced columns. */
    static final int MAX_COLUMNS = 256;

    private Pca() {
    }

    /**
     * The fitted projection, in the space of the columns used.
     *
     * @param columns   the coordinates used, increasing (all of them when d <= {@link #MAX_COLUMNS})
     * @param mean      their means
     * @param pc1       first component, unit length
     * @param pc2       second component, unit length, orthogonal to pc1 (all zero when one column)
     * @param var1      variance along pc1
     * @param var2      variance along pc2
     * @param totalVar  total variance of the columns used (trace of their covariance)
     * @param rowsUsed  rows the covariance was computed from
     */
    record Fit(int[] columns, double[] mean, double[] pc1, double[] pc2, double var1, double var2, double totalVar,
               int rowsUsed) {
        /** Coordinate of row {@code i} along component {@code which} (0 or 1). */
        double project(Coordinates coords, int d, int i, int which) {
            double[] v = which == 0 ? pc1 : pc2;
            double s = 0;
            int base = i * d;
            for (int t = 0; t < columns.length; t++) s += (coords.at(base + columns[t]) - mean[t]) * v[t];
            return s;
        }

        /** Percentage of the total variance along component {@code which}. */
        double explained(int which) {
            return totalVar > 0 ? 100.0 * (which == 0 ? var1 : var2) / totalVar : 0;
        }
    }

    /** The columns a fit of rows of {@code d} values reads: all, or {@link #MAX_COLUMNS} evenly spaced. */
    static int[] columns(int d) {
        return Sampling.evenlySpaced(d, MAX_COLUMNS);
    }

    /** True when the coordinates {@code columns} of row {@code i} are all finite. */
    static boolean finiteRow(Coordinates coords, int d, int[] columns, int i) {
        int base = i * d;
        for (int c : columns) {
            if (!Double.isFinite(coords.at(base + c))) return false;
        }
        return true;
    }

    /** Fits the top two components on rows {@code rows[0 .. count-1]} (row indices into coords). */
    static Fit fit(Coordinates coords, int d, int[] rows, int count) {
        int[] cols = columns(d);
        int w = cols.length;
        long budgetRows = Math.max(MIN_ROWS, Math.min(COVARIANCE_BUDGET / ((long) w * w), SUBSET_BYTES / (8L * w)));
        int use = (int) Math.min(count, budgetRows);
        double[] subset = new double[use * w];
        int used = 0;
        for (int t = 0; t < use; t++) {
            int i = rows[(int) ((long) t * count / use)];
            if (!finiteRow(coords, d, cols, i)) continue;
            int base = i * d, at = used * w;
            for (int c = 0; c < w; c++) subset[at + c] = coords.at(base + cols[c]);
            used++;
        }
        if (used == 0) { // nothing to fit: the coordinate axes
            double[] e0 = new double[w], e1 = new double[w];
            e0[0] = 1;
            if (w > 1) e1[1] = 1;
            return new Fit(cols, new double[w], e0, e1, 0, 0, 0, 0);
        }
        if (used < use) subset = Arrays.copyOf(subset, used * w); // rows with NaN or inf were left out
        // Fitted on the values scaled by a power of two (exact) to near 1: data near float64's limits (1e100,
        // 1e-150, which a fit accepts) would otherwise overflow or underflow in the squares of the rotations.
        double maxAbs = 0;
        for (double v : subset) maxAbs = Math.max(maxAbs, Math.abs(v));
        double scale = maxAbs > 0 ? Math.scalb(1.0, -Math.getExponent(maxAbs)) : 1;
        for (int i = 0; i < subset.length; i++) subset[i] *= scale;
        PrincipalComponents p = PrincipalComponents.fit(subset, used, w, Math.min(2, w));
        double[] var = p.explainedVariance();
        double[] mean = p.mean();
        for (int t = 0; t < w; t++) mean[t] /= scale;
        double square = scale * scale;
        return new Fit(cols, mean, p.component(0), w > 1 ? p.component(1) : new double[w], var[0] / square,
                w > 1 ? var[1] / square : 0, p.totalVariance() / square, used);
    }
}
