package org.sylva.features;

/**
 * The eigen-decomposition of a wide symmetric matrix: Householder reduction to tridiagonal form, then the implicit
 * QL iteration with Wilkinson-style shifts (the EISPACK {@code tred2}/{@code tql2} pair), in float64. About
 * {@code 4/3 d^3} operations for the reduction and {@code 3 d^3} for the vectors, against Jacobi's {@code 3 d^3} per
 * sweep over 6 to 12 sweeps: {@link SymmetricEigen} takes it beyond {@link SymmetricEigen#JACOBI_MAX_D} coordinates,
 * where Jacobi outgrew the fit (image pixels), and keeps Jacobi below, where its small eigenvalues' relative accuracy
 * is worth more than time.
 *
 * <p>Deterministic: every loop runs in a fixed order on one thread. The QL iteration of each eigenvalue is bounded by
 * {@link #MAX_ITERATIONS}; one that does not converge there is an {@link ArithmeticException} (it converges in two or
 * three for any real input).
 *
 * <pre>{@code
 * double[][] r = TridiagonalEigen.decompose(new double[] {2, 1, 1, 2}, 2, CancellationToken.NEVER);
 * }</pre>
 */
final class TridiagonalEigen {
    /** Upper bound on the QL iterations of one eigenvalue. */
    static final int MAX_ITERATIONS = 64;
    private static final double EPS = 0x1p-52;

    private TridiagonalEigen() {
    }

    /**
     * The eigenvalues of {@code sym} (row-major {@code d x d}, symmetric, finite; only read) in no particular order,
     * and the eigenvectors as the rows of a row-major {@code d x d} array, row {@code j} the unit vector of value
     * {@code j}.
     */
    static double[][] decompose(double[] sym, int d, org.sylva.progress.CancellationToken cancel) {
        // rows of odd length: a power-of-two d would put a whole column into one cache set, several times slower
        int ld = d | 1;
        double[] v = new double[d * ld];   // V[r][c] = v[r * ld + c]
        // Products of two entries (the QL step's, a Householder vector's squares) must neither overflow nor
        // underflow: far from 1 the matrix is scaled by an even power of two, exactly, and its values back after.
        int shift = SymmetricEigen.scaleShift(sym);
        boolean scaled = shift != 0;
        double largest = 0;
        for (int r = 0; r < d; r++) {
            for (int c = 0; c < d; c++) {
                v[r * ld + c] = Math.scalb(sym[r * d + c], -shift);
                largest = Math.max(largest, Math.abs(v[r * ld + c]));
            }
        }
        double[] diag = new double[d];
        double[] off = new double[d];
        reduce(v, d, ld, diag, off, largest * NEGLIGIBLE, cancel);
        // the QL rotations act on pairs of V's columns: on its transpose they are pairs of contiguous rows
        double[] w = new double[d * ld];
        for (int r = 0; r < d; r++) {
            for (int c = 0; c < d; c++) w[c * ld + r] = v[r * ld + c];
        }
        iterate(w, d, ld, diag, off, cancel);
        if (scaled) {
            for (int i = 0; i < d; i++) diag[i] = Math.scalb(diag[i], shift);
        }
        double[] vectors = new double[d * d];
        for (int r = 0; r < d; r++) System.arraycopy(w, r * ld, vectors, r * d, d);
        return new double[][] {diag, vectors};
    }

    /**
     * A Householder step's column of sum below this share of the matrix's largest entry is taken as zero: such
     * leftovers of a rank-deficient matrix shrink into subnormals, where dividing by their sum breaks the reflection.
     */
    private static final double NEGLIGIBLE = 0x1p-600;

    /** Householder reduction of {@code v} to tridiagonal form: {@code diag} and {@code off}, {@code v} the transform. */
    private static void reduce(double[] v, int n, int ld, double[] d, double[] e, double negligible,
            org.sylva.progress.CancellationToken cancel) {
        for (int j = 0; j < n; j++) d[j] = v[(n - 1) * ld + j];
        for (int i = n - 1; i > 0; i--) {
            SymmetricEigen.poll(cancel);
            double scale = 0, h = 0;
            for (int k = 0; k < i; k++) scale += Math.abs(d[k]);
            if (scale <= negligible) {
                e[i] = d[i - 1];
                for (int j = 0; j < i; j++) {
                    d[j] = v[(i - 1) * ld + j];
                    v[i * ld + j] = 0;
                    v[j * ld + i] = 0;
                }
            } else {
                for (int k = 0; k < i; k++) {
                    d[k] /= scale;
                    h += d[k] * d[k];
                }
                double f = d[i - 1];
                double g = Math.sqrt(h);
                if (f > 0) g = -g;
                e[i] = scale * g;
                h -= f * g;
                d[i - 1] = f - g;
                for (int j = 0; j < i; j++) e[j] = 0;
                for (int j = 0; j < i; j++) {
                    f = d[j];
                    v[j * ld + i] = f;
                    g = e[j] + v[j * ld + j] * f;
                    for (int k = j + 1; k <= i - 1; k++) {
                        g += v[k * ld + j] * d[k];
                        e[k] += v[k * ld + j] * f;
                    }
                    e[j] = g;
                }
                f = 0;
                for (int j = 0; j < i; j++) {
                    e[j] /= h;
                    f += e[j] * d[j];
                }
                double hh = f / (h + h);
                for (int j = 0; j < i; j++) e[j] -= hh * d[j];
                for (int j = 0; j < i; j++) {
                    f = d[j];
                    g = e[j];
                    for (int k = j; k <= i - 1; k++) v[k * ld + j] -= f * e[k] + g * d[k];
                    d[j] = v[(i - 1) * ld + j];
                    v[i * ld + j] = 0;
                }
            }
            d[i] = h;
        }
        // the transformations, accumulated
        for (int i = 0; i < n - 1; i++) {
            SymmetricEigen.poll(cancel);
            v[(n - 1) * ld + i] = v[i * ld + i];
            v[i * ld + i] = 1;
            double h = d[i + 1];
            if (h != 0) {
                for (int k = 0; k <= i; k++) d[k] = v[k * ld + i + 1] / h;
                for (int j = 0; j <= i; j++) {
                    double g = 0;
                    for (int k = 0; k <= i; k++) g += v[k * ld + i + 1] * v[k * ld + j];
                    for (int k = 0; k <= i; k++) v[k * ld + j] -= g * d[k];
                }
            }
            for (int k = 0; k <= i; k++) v[k * ld + i + 1] = 0;
        }
        for (int j = 0; j < n; j++) {
            d[j] = v[(n - 1) * ld + j];
            v[(n - 1) * ld + j] = 0;
        }
        v[(n - 1) * ld + n - 1] = 1;
        e[0] = 0;
    }

    /**
     * The implicit QL iteration on the tridiagonal {@code d}, {@code e}: the eigenvalues into {@code d}, the rotations
     * applied to {@code w}'s rows (the transposed transform, so that row {@code j} ends as eigenvector {@code j}).
     */
    private static void iterate(double[] w, int n, int ld, double[] d, double[] e,
            org.sylva.progress.CancellationToken cancel) {
        for (int i = 1; i < n; i++) e[i - 1] = e[i];
        e[n - 1] = 0;
        double f = 0, tst1 = 0;
        for (int l = 0; l < n; l++) {
            SymmetricEigen.poll(cancel);
            tst1 = Math.max(tst1, Math.abs(d[l]) + Math.abs(e[l]));
            int m = l;
            while (m < n - 1 && Math.abs(e[m]) > EPS * tst1) m++;   // e[n - 1] is 0: m stops there at the latest
            if (m > l) {
                for (int iteration = 0; ; iteration++) {
                    if (iteration == MAX_ITERATIONS) {
                        throw new ArithmeticException("the QL iteration of eigenvalue " + l + " did not converge in "
                                + MAX_ITERATIONS + " steps");
                    }
                    double g = d[l];
                    double p = (d[l + 1] - g) / (2 * e[l]);
                    double r = Math.hypot(p, 1);
                    if (p < 0) r = -r;
                    d[l] = e[l] / (p + r);
                    d[l + 1] = e[l] * (p + r);
                    double dl1 = d[l + 1];
                    double h = g - d[l];
                    for (int i = l + 2; i < n; i++) d[i] -= h;
                    f += h;
                    p = d[m];
                    double c = 1, c2 = c, c3 = c, el1 = e[l + 1], s = 0, s2 = 0;
                    for (int i = m - 1; i >= l; i--) {
                        c3 = c2;
                        c2 = c;
                        s2 = s;
                        g = c * e[i];
                        h = c * p;
                        r = Math.hypot(p, e[i]);
                        e[i + 1] = s * r;
                        s = e[i] / r;
                        c = p / r;
                        p = c * d[i] - s * g;
                        d[i + 1] = h + s * (c * g + s * d[i]);
                        int a = i * ld, b = (i + 1) * ld;
                        for (int k = 0; k < n; k++) {
                            double x = w[b + k];
                            w[b + k] = s * w[a + k] + c * x;
                            w[a + k] = c * w[a + k] - s * x;
                        }
                    }
                    p = -s * s2 * c3 * el1 * e[l] / dl1;
                    e[l] = s * p;
                    d[l] = c * p;
                    if (Math.abs(e[l]) <= EPS * tst1) break;
                }
            }
            d[l] += f;
            e[l] = 0;
        }
    }
}
