package org.sylva.cli.report;

import java.util.Arrays;
import org.sylva.features.PrincipalComponents;
import org.sylva.features.SymmetricEigen;

/**
 * The top two principal components of a float32 point set for the report's scatter plot, from an evenly
 * spaced subset of the rows within a budget: the plot only needs the plane, not exact scores, and the
 * report must stay quick on millions of rows. Up to {@link #JACOBI_MAX_D} dimensions this is the
 * library's exact {@link PrincipalComponents} on that subset; above, where Jacobi's {@code d^3} per sweep
 * grows slow, orthogonal (subspace) iteration on the float64 covariance with a Rayleigh-Ritz step by the
 * library's {@link SymmetricEigen}. Both are deterministic (fixed sweep order, fixed start vectors,
 * bounded iteration counts) and sign each component as scikit-learn's {@code svd_flip} does (largest entry
 * positive, the first such on ties).
 *
 * <p>Rows containing a NaN or infinity are left out. When {@code n * d^2} would exceed
 * {@link #COVARIANCE_BUDGET} multiply-adds, or the rows' copy {@link #SUBSET_BYTES}, the covariance uses
 * an evenly spaced subset of rows (at least {@link #MIN_ROWS}); {@link Fit#rowsUsed()} says how many.
 */
final class Pca {
    /** Multiply-adds spent on the covariance at most (about a second on one core). */
    static final long COVARIANCE_BUDGET = 400_000_000L;
    /** Rows always used when available, whatever the budget. */
    static final int MIN_ROWS = 2_000;
    /** The subset is copied (float32) for the library; its size at most, beyond {@link #MIN_ROWS}. */
    static final long SUBSET_BYTES = 64L << 20;
    static final int JACOBI_MAX_D = 256;
    private static final int SUBSPACE_ITERATIONS = 300;

    private Pca() {
    }

    /**
     * The fitted projection.
     *
     * @param mean      column means (length d)
     * @param pc1       first component, unit length
     * @param pc2       second component, unit length, orthogonal to pc1 (all zero when d = 1)
     * @param var1      variance along pc1
     * @param var2      variance along pc2
     * @param totalVar  total variance (trace of the covariance)
     * @param rowsUsed  rows the covariance was computed from
     */
    record Fit(double[] mean, double[] pc1, double[] pc2, double var1, double var2, double totalVar, int rowsUsed) {
        /** Coordinate of row {@code i} along component {@code which} (0 or 1). */
        double project(float[] coords, int d, int i, int which) {
            double[] v = which == 0 ? pc1 : pc2;
            double s = 0;
            int base = i * d;
            for (int j = 0; j < d; j++) s += (coords[base + j] - mean[j]) * v[j];
            return s;
        }

        /** Percentage of the total variance along component {@code which}. */
        double explained(int which) {
            return totalVar > 0 ? 100.0 * (which == 0 ? var1 : var2) / totalVar : 0;
        }
    }

    /** True when every coordinate of row {@code i} is finite. */
    static boolean finiteRow(float[] coords, int d, int i) {
        int base = i * d;
        for (int j = 0; j < d; j++) {
            if (!Float.isFinite(coords[base + j])) return false;
        }
        return true;
    }

    /** Fits the top two components on rows {@code rows[0 .. count-1]} (row indices into coords). */
    static Fit fit(float[] coords, int d, int[] rows, int count) {
        long budgetRows = Math.max(MIN_ROWS, Math.min(COVARIANCE_BUDGET / ((long) d * d), SUBSET_BYTES / (4L * d)));
        int use = (int) Math.min(count, budgetRows);
        float[] subset = new float[use * d];
        int used = 0;
        for (int t = 0; t < use; t++) {
            int i = rows[(int) ((long) t * count / use)];
            if (!finiteRow(coords, d, i)) continue;
            System.arraycopy(coords, i * d, subset, used * d, d);
            used++;
        }
        if (used == 0) { // nothing to fit: the coordinate axes
            double[] e0 = new double[d], e1 = new double[d];
            e0[0] = 1;
            if (d > 1) e1[1] = 1;
            return new Fit(new double[d], e0, e1, 0, 0, 0, 0);
        }
        if (used < use) subset = Arrays.copyOf(subset, used * d); // rows with NaN or inf were left out
        return d <= JACOBI_MAX_D ? exact(subset, used, d) : bySubspaceIteration(subset, used, d);
    }

    private static Fit exact(float[] subset, int n, int d) {
        PrincipalComponents p = PrincipalComponents.fit(subset, n, d, Math.min(2, d));
        double[] var = p.explainedVariance();
        return new Fit(p.mean(), p.component(0), d > 1 ? p.component(1) : new double[d], var[0],
                d > 1 ? var[1] : 0, p.totalVariance(), n);
    }

    private static Fit bySubspaceIteration(float[] x, int n, int d) {
        double[] mean = new double[d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) mean[j] += x[i * d + j];
        }
        for (int j = 0; j < d; j++) mean[j] /= n;
        double[] cov = new double[d * d];
        double[] c = new double[d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) c[j] = x[i * d + j] - mean[j];
            for (int j = 0; j < d; j++) {
                double cj = c[j];
                int row = j * d;
                for (int k = j; k < d; k++) cov[row + k] += cj * c[k];
            }
        }
        double denom = Math.max(1, n - 1); // as PrincipalComponents
        for (int j = 0; j < d; j++) {
            for (int k = j; k < d; k++) {
                cov[j * d + k] /= denom;
                cov[k * d + j] = cov[j * d + k];
            }
        }
        double trace = 0;
        for (int j = 0; j < d; j++) trace += cov[j * d + j];
        double[][] top = topTwoSubspace(cov, d);
        SymmetricEigen.orient(top[0]);
        SymmetricEigen.orient(top[1]);
        return new Fit(mean, top[0], top[1], rayleigh(cov, d, top[0]), rayleigh(cov, d, top[1]), trace, n);
    }

    private static double rayleigh(double[] a, int d, double[] v) {
        double s = 0;
        for (int j = 0; j < d; j++) {
            double r = 0;
            for (int k = 0; k < d; k++) r += a[j * d + k] * v[k];
            s += v[j] * r;
        }
        return s;
    }

    /**
     * Orthogonal iteration with {@code p = 4} vectors on the symmetric positive semi-definite
     * matrix, Gram-Schmidt after every product and a Rayleigh-Ritz rotation (the eigenvectors of the
     * p x p projected matrix) at the end; bounded by {@link #SUBSPACE_ITERATIONS}, stopping early once the
     * leading Ritz vectors stop moving.
     */
    static double[][] topTwoSubspace(double[] a, int d) {
        int p = Math.min(4, d);
        double[][] q = new double[p][d];
        for (int i = 0; i < p; i++) { // deterministic, well-spread start vectors
            for (int j = 0; j < d; j++) q[i][j] = Math.cos(0.7 + 1.3 * (i + 1) * (j + 1) + 0.11 * j * j);
        }
        gramSchmidt(q, d);
        double[][] z = new double[p][d];
        double[] prev = new double[d];
        for (int it = 0; it < SUBSPACE_ITERATIONS; it++) {
            for (int i = 0; i < p; i++) {
                for (int j = 0; j < d; j++) {
                    double s = 0;
                    int row = j * d;
                    for (int k = 0; k < d; k++) s += a[row + k] * q[i][k];
                    z[i][j] = s;
                }
            }
            double[][] tmp = q;
            q = z;
            z = tmp;
            gramSchmidt(q, d);
            double dot = 0;
            for (int j = 0; j < d; j++) dot += prev[j] * q[0][j];
            System.arraycopy(q[0], 0, prev, 0, d);
            if (it > 10 && Math.abs(Math.abs(dot) - 1) < 1e-14) break;
        }
        // Rayleigh-Ritz: H = Q^T A Q, rotate Q by the eigenvectors of H
        double[] h = new double[p * p];
        for (int i = 0; i < p; i++) {
            for (int j = 0; j < d; j++) {
                double s = 0;
                int row = j * d;
                for (int k = 0; k < d; k++) s += a[row + k] * q[i][k];
                z[i][j] = s;
            }
        }
        for (int i = 0; i < p; i++) {
            for (int l = 0; l < p; l++) {
                double s = 0;
                for (int j = 0; j < d; j++) s += q[i][j] * z[l][j];
                h[i * p + l] = s;
            }
        }
        for (int i = 0; i < p; i++) {
            for (int l = i + 1; l < p; l++) {
                double m = 0.5 * (h[i * p + l] + h[l * p + i]);
                h[i * p + l] = m;
                h[l * p + i] = m;
            }
        }
        SymmetricEigen ritz = SymmetricEigen.of(h, p);
        double[][] out = new double[2][d];
        for (int r = 0; r < 2 && r < p; r++) {
            double[] w = ritz.vector(r);
            for (int i = 0; i < p; i++) {
                for (int j = 0; j < d; j++) out[r][j] += w[i] * q[i][j];
            }
        }
        return out;
    }

    private static void gramSchmidt(double[][] q, int d) {
        for (int i = 0; i < q.length; i++) {
            for (int pass = 0; pass < 2; pass++) { // twice is enough (Kahan/Parlett)
                for (int l = 0; l < i; l++) {
                    double dot = 0;
                    for (int j = 0; j < d; j++) dot += q[i][j] * q[l][j];
                    for (int j = 0; j < d; j++) q[i][j] -= dot * q[l][j];
                }
            }
            double nrm = 0;
            for (int j = 0; j < d; j++) nrm += q[i][j] * q[i][j];
            nrm = Math.sqrt(nrm);
            if (nrm == 0) { // degenerate direction: replace by a unit vector deterministically
                q[i][i % d] = 1;
                nrm = 1;
            }
            for (int j = 0; j < d; j++) q[i][j] /= nrm;
        }
    }
}
