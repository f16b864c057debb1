package org.sylva.cli.report;

/**
 * The top two principal components of a float32 point set, computed in float64: mean, covariance
 * ({@code d x d}), then a cyclic Jacobi eigen-decomposition for {@code d <= 256} or orthogonal
 * (subspace) iteration with a Rayleigh-Ritz step for larger {@code d}. Both are deterministic (fixed
 * sweep order, fixed start vectors, bounded iteration counts).
 *
 * <p>Sign convention: each component is flipped so that its entry of largest magnitude is positive
 * (the first such entry on ties), as scikit-learn's {@code svd_flip} does for the rows of {@code V}.
 * Rows containing a NaN or infinity are left out. When {@code n * d^2} would exceed
 * {@link #COVARIANCE_BUDGET} multiply-adds, the covariance uses an evenly spaced subset of rows
 * (at least {@link #MIN_ROWS}); {@link Fit#rowsUsed()} says how many.
 */
final class Pca {
    /** Multiply-adds spent on the covariance at most (about a second on one core). */
    static final long COVARIANCE_BUDGET = 400_000_000L;
    /** Rows always used when available, whatever the budget. */
    static final int MIN_ROWS = 2_000;
    static final int JACOBI_MAX_D = 256;
    private static final int JACOBI_MAX_SWEEPS = 60;
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
        long budgetRows = Math.max(MIN_ROWS, COVARIANCE_BUDGET / ((long) d * d));
        int use = (int) Math.min(count, budgetRows);
        double[] mean = new double[d];
        int used = 0;
        for (int t = 0; t < use; t++) {
            int i = rows[(int) ((long) t * count / use)];
            if (!finiteRow(coords, d, i)) continue;
            int base = i * d;
            for (int j = 0; j < d; j++) mean[j] += coords[base + j];
            used++;
        }
        if (used > 0) {
            for (int j = 0; j < d; j++) mean[j] /= used;
        }
        double[] cov = new double[d * d];
        double[] x = new double[d];
        for (int t = 0; t < use; t++) {
            int i = rows[(int) ((long) t * count / use)];
            if (!finiteRow(coords, d, i)) continue;
            int base = i * d;
            for (int j = 0; j < d; j++) x[j] = coords[base + j] - mean[j];
            for (int j = 0; j < d; j++) {
                double xj = x[j];
                int row = j * d;
                for (int k = j; k < d; k++) cov[row + k] += xj * x[k];
            }
        }
        double denom = Math.max(1, used);
        for (int j = 0; j < d; j++) {
            for (int k = j; k < d; k++) {
                cov[j * d + k] /= denom;
                cov[k * d + j] = cov[j * d + k];
            }
        }
        double trace = 0;
        for (int j = 0; j < d; j++) trace += cov[j * d + j];
        double[][] top = d <= JACOBI_MAX_D ? topTwoJacobi(cov, d) : topTwoSubspace(cov, d);
        orient(top[0]);
        orient(top[1]);
        double v1 = rayleigh(cov, d, top[0]), v2 = d > 1 ? rayleigh(cov, d, top[1]) : 0;
        return new Fit(mean, top[0], top[1], v1, v2, trace, used);
    }

    /** Flips {@code v} so its entry of largest magnitude (first on ties) is positive. */
    static void orient(double[] v) {
        int best = 0;
        for (int j = 1; j < v.length; j++) {
            if (Math.abs(v[j]) > Math.abs(v[best])) best = j;
        }
        if (v[best] < 0) {
            for (int j = 0; j < v.length; j++) v[j] = -v[j];
        }
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

    /** Cyclic Jacobi on a copy of the symmetric matrix; returns the eigenvectors of the two largest eigenvalues. */
    static double[][] topTwoJacobi(double[] sym, int d) {
        double[] a = sym.clone();
        double[] v = new double[d * d];
        for (int j = 0; j < d; j++) v[j * d + j] = 1;
        double norm = 0;
        for (double e : a) norm += e * e;
        double tol = 1e-30 * Math.max(norm, Double.MIN_NORMAL);
        for (int sweep = 0; sweep < JACOBI_MAX_SWEEPS; sweep++) {
            double off = 0;
            for (int p = 0; p < d; p++) {
                for (int q = p + 1; q < d; q++) off += a[p * d + q] * a[p * d + q];
            }
            if (off <= tol) break;
            for (int p = 0; p < d - 1; p++) {
                for (int q = p + 1; q < d; q++) {
                    double apq = a[p * d + q];
                    if (apq == 0) continue;
                    double app = a[p * d + p], aqq = a[q * d + q];
                    double theta = (aqq - app) / (2 * apq);
                    double t = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                    if (theta == 0) t = 1;
                    double c = 1 / Math.sqrt(t * t + 1), s = t * c;
                    for (int k = 0; k < d; k++) { // rotate columns p, q
                        double akp = a[k * d + p], akq = a[k * d + q];
                        a[k * d + p] = c * akp - s * akq;
                        a[k * d + q] = s * akp + c * akq;
                    }
                    for (int k = 0; k < d; k++) { // rotate rows p, q
                        double apk = a[p * d + k], aqk = a[q * d + k];
                        a[p * d + k] = c * apk - s * aqk;
                        a[q * d + k] = s * apk + c * aqk;
                    }
                    for (int k = 0; k < d; k++) {
                        double vkp = v[k * d + p], vkq = v[k * d + q];
                        v[k * d + p] = c * vkp - s * vkq;
                        v[k * d + q] = s * vkp + c * vkq;
                    }
                }
            }
        }
        int first = 0;
        for (int j = 1; j < d; j++) {
            if (a[j * d + j] > a[first * d + first]) first = j;
        }
        int second = -1;
        for (int j = 0; j < d; j++) {
            if (j != first && (second < 0 || a[j * d + j] > a[second * d + second])) second = j;
        }
        double[] v1 = new double[d], v2 = new double[d];
        for (int k = 0; k < d; k++) {
            v1[k] = v[k * d + first];
            if (second >= 0) v2[k] = v[k * d + second];
        }
        return new double[][] {v1, v2};
    }

    /**
     * Orthogonal iteration with {@code p = 4} vectors on the symmetric positive semi-definite
     * matrix, Gram-Schmidt after every product and a Rayleigh-Ritz rotation (Jacobi on the p x p
     * projected matrix) at the end; bounded by {@link #SUBSPACE_ITERATIONS}, stopping early once the
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
        double[][] w = topTwoJacobi(h, p);
        double[][] out = new double[2][d];
        for (int r = 0; r < 2 && r < w.length; r++) {
            for (int i = 0; i < p; i++) {
                for (int j = 0; j < d; j++) out[r][j] += w[r][i] * q[i][j];
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
