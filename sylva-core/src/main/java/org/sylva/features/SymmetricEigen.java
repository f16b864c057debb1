package org.sylva.features;

import java.util.Arrays;
import org.sylva.data.InvalidInputException;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

/**
 * Eigenvalues and eigenvectors of a real symmetric {@code d x d} matrix by cyclic Jacobi rotations, in
 * float64. Jacobi is chosen over tridiagonalisation + QL because it is short, needs no shifts or
 * deflation heuristics, and computes small eigenvalues to high relative accuracy; its cost, about
 * {@code 3 d^3} per sweep over some 6 to 12 sweeps, is nothing next to the covariance for the {@code d}
 * this is for (spike clips: up to a few hundred). Beyond {@link #JACOBI_MAX_D} coordinates (image pixels), where it
 * outgrew the fit, the decomposition is {@link TridiagonalEigen}'s, several times fewer operations.
 *
 * <p>Deterministic: pairs {@code (p, q)} are swept in row order, at most {@link #MAX_SWEEPS} sweeps,
 * stopping after the first sweep that rotates nothing. An off-diagonal entry is left alone (set to 0)
 * once it is negligible: below {@code EPS * sqrt(|a_pp|) * sqrt(|a_qq|)} (it can no longer change
 * either eigenvalue in float64) or below {@code TINY} times the matrix's Frobenius norm.
 *
 * <p>Order and signs: eigenvalues descending; equal eigenvalues (0.0 and -0.0 count as equal) keep the
 * order of the diagonal positions they converged at, which for a matrix that is diagonal already is
 * column order. Each eigenvector is signed so that its entry of largest magnitude is positive, the first
 * such entry on ties, as scikit-learn's {@code svd_flip(u_based_decision=False)} signs PCA components.
 *
 * <pre>{@code
 * SymmetricEigen e = SymmetricEigen.of(new double[] {2, 1, 1, 2}, 2);
 * double top = e.value(0);          // 3
 * double[] v = e.vector(0);         // (0.7071..., 0.7071...)
 * }</pre>
 */
public final class SymmetricEigen {
    /** Upper bound on sweeps; convergence is quadratic, so real inputs stop far earlier. */
    public static final int MAX_SWEEPS = 100;
    /** The most coordinates decomposed by Jacobi rotations; wider matrices by tridiagonalisation and QL. */
    public static final int JACOBI_MAX_D = 256;
    private static final double EPS = 0x1p-53;
    private static final double TINY = 1e-30;

    /** Eigenvalues, descending. */
    final double[] values;
    /** Row {@code r} (row-major, {@code d x d}) is the unit eigenvector of {@code values[r]}. */
    final double[] vectors;
    private final int sweeps;

    private SymmetricEigen(double[] values, double[] vectors, int sweeps) {
        this.values = values;
        this.vectors = vectors;
        this.sweeps = sweeps;
    }

    /**
     * Decomposes {@code sym} (row-major {@code d x d}; only read, never modified).
     *
     * @throws InvalidInputException when the shape does not match, an entry is not finite, or the matrix
     *     is not exactly symmetric
     */
    public static SymmetricEigen of(double[] sym, int d) {
        return of(sym, d, CancellationToken.NEVER);
    }

    /**
     * As {@link #of(double[], int)}, stopping with {@link CancelledException} once {@code cancel} is cancelled or the
     * calling thread interrupted (its flag kept): checked between rows of a sweep, columns of the reduction and
     * eigenvalues of QL, each at most {@code O(d^2)} work (a wide covariance takes tens of seconds in all).
     */
    public static SymmetricEigen of(double[] sym, int d, CancellationToken cancel) {
        requireSymmetric(sym, d);
        return d > JACOBI_MAX_D ? tridiagonal(sym, d, cancel) : jacobi(sym, d, cancel);
    }

    /** Throws {@link CancelledException} once {@code cancel} is cancelled or this thread interrupted. */
    static void poll(CancellationToken cancel) {
        cancel.throwIfCancelled();
        if (Thread.currentThread().isInterrupted()) throw new CancelledException();
    }

    /** By {@link TridiagonalEigen}, at any {@code d} (for tests); {@code sym} checked already. */
    static SymmetricEigen tridiagonal(double[] sym, int d) {
        return tridiagonal(sym, d, CancellationToken.NEVER);
    }

    private static SymmetricEigen tridiagonal(double[] sym, int d, CancellationToken cancel) {
        double[][] r = TridiagonalEigen.decompose(sym, d, cancel);
        return ordered(r[0], r[1], d, 0);
    }

    /** By Jacobi rotations, at any {@code d} (for tests); {@code sym} checked already. */
    static SymmetricEigen jacobi(double[] sym, int d) {
        return jacobi(sym, d, CancellationToken.NEVER);
    }

    private static SymmetricEigen jacobi(double[] sym, int d, CancellationToken cancel) {
        // The working copy has an odd row length: rotations write two columns, and a row length of a
        // power of two (d = 512, 1024) would put a whole column into one cache set, five times slower.
        int ld = d | 1;
        double[] a = new double[d * ld];
        // Far from 1 (beyond 2^+-256) the matrix is scaled by an even power of two, exactly, and its values back
        // after: the squares summed into the norm, and the rotations' products, then neither overflow nor underflow.
        int shift = scaleShift(sym);
        double norm = 0;
        for (int r = 0; r < d; r++) {
            for (int c = 0; c < d; c++) {
                double e = Math.scalb(sym[r * d + c], -shift);
                a[r * ld + c] = e;
                norm += e * e;
            }
        }
        double[] vt = new double[d * d]; // row r holds what becomes the eigenvector at diagonal position r
        for (int r = 0; r < d; r++) vt[r * d + r] = 1;
        double floor = TINY * Math.sqrt(norm);
        int sweeps = 0;
        while (sweeps < MAX_SWEEPS) {
            sweeps++;
            boolean rotated = false;
            for (int p = 0; p < d - 1; p++) {
                poll(cancel);
                for (int q = p + 1; q < d; q++) {
                    double apq = a[p * ld + q];
                    if (apq == 0) continue;
                    double app = a[p * ld + p], aqq = a[q * ld + q];
                    double abs = Math.abs(apq);
                    if (abs <= floor || abs <= EPS * Math.sqrt(Math.abs(app)) * Math.sqrt(Math.abs(aqq))) {
                        a[p * ld + q] = 0;
                        a[q * ld + p] = 0;
                        continue;
                    }
                    rotate(a, ld, vt, d, p, q);
                    rotated = true;
                }
            }
            if (!rotated) break;
        }
        double[] diag = new double[d];
        for (int r = 0; r < d; r++) diag[r] = Math.scalb(a[r * ld + r], shift);
        return ordered(diag, vt, d, sweeps);
    }

    /** 0 for a matrix whose largest magnitude is within 2^+-256, else that magnitude's exponent, made even. */
    static int scaleShift(double[] sym) {
        double largest = 0;
        for (double e : sym) largest = Math.max(largest, Math.abs(e));
        int shift = largest == 0 ? 0 : Math.getExponent(largest) & ~1;
        return shift > 256 || shift < -256 ? shift : 0;
    }

    /** Values {@code diag} with row {@code r} of {@code vt} the vector of each, ordered descending and signed. */
    private static SymmetricEigen ordered(double[] diag, double[] vt, int d, int sweeps) {
        int[] order = descending(diag);
        double[] values = new double[d];
        double[] vectors = new double[d * d];
        for (int r = 0; r < d; r++) {
            values[r] = diag[order[r]];
            System.arraycopy(vt, order[r] * d, vectors, r * d, d);
            orient(vectors, r * d, d);
        }
        return new SymmetricEigen(values, vectors, sweeps);
    }

    /**
     * One rotation in the plane {@code (p, q)} that zeroes {@code a[p][q]} (Numerical Recipes' form with
     * {@code tau = s / (1 + c)}, which keeps the updates small corrections to the old values); {@code a}
     * has rows of length {@code ld}, {@code vt} of length {@code d}.
     */
    private static void rotate(double[] a, int ld, double[] vt, int d, int p, int q) {
        double apq = a[p * ld + q];
        double theta = (a[q * ld + q] - a[p * ld + p]) / (2 * apq);
        double at = Math.abs(theta);
        // 1 / (|theta| + sqrt(theta^2 + 1)); for huge theta, theta^2 would overflow: 1 / (2 |theta|) then
        double t = at > 1e150 ? 0.5 / at : 1 / (at + Math.sqrt(at * at + 1));
        if (theta < 0) t = -t;
        double c = 1 / Math.sqrt(t * t + 1), s = t * c, tau = s / (1 + c);
        a[p * ld + p] -= t * apq;
        a[q * ld + q] += t * apq;
        a[p * ld + q] = 0;
        a[q * ld + p] = 0;
        int rp = p * ld, rq = q * ld;
        for (int r = 0; r < d; r++) {
            if (r == p || r == q) continue;
            double g = a[rp + r], h = a[rq + r]; // = a[r][p], a[r][q]: the matrix stays symmetric
            double gp = g - s * (h + g * tau), hq = h + s * (g - h * tau);
            a[rp + r] = gp;
            a[r * ld + p] = gp;
            a[rq + r] = hq;
            a[r * ld + q] = hq;
        }
        int vp = p * d, vq = q * d;
        for (int r = 0; r < d; r++) {
            double g = vt[vp + r], h = vt[vq + r];
            vt[vp + r] = g - s * (h + g * tau);
            vt[vq + r] = h + s * (g - h * tau);
        }
    }

    private static void requireSymmetric(double[] sym, int d) {
        if (sym == null || d < 1 || (long) d * d != sym.length) {
            throw new InvalidInputException("a symmetric matrix needs d x d values with d >= 1; got "
                    + (sym == null ? "null" : sym.length + " values") + " for d = " + d);
        }
        for (int r = 0; r < d; r++) {
            for (int c = r; c < d; c++) {
                double x = sym[r * d + c], y = sym[c * d + r];
                if (!Double.isFinite(x)) {
                    throw new InvalidInputException("matrix entry (" + r + ", " + c + ") is " + x + "; it must be finite");
                }
                if (x != y) {
                    throw new InvalidInputException("matrix is not symmetric: entry (" + r + ", " + c + ") is " + x
                            + ", entry (" + c + ", " + r + ") is " + y);
                }
            }
        }
    }

    /** {@code d}. */
    public int dimensions() {
        return values.length;
    }

    /** Eigenvalue {@code r} ({@code 0} is the largest). */
    public double value(int r) {
        return values[r];
    }

    /** The eigenvalues, descending (a copy). */
    public double[] values() {
        return values.clone();
    }

    /**
     * The unit eigenvector of {@link #value(int) value(r)}, signed as the class comment says (a copy); an
     * {@link IndexOutOfBoundsException} for {@code r} outside {@code 0 .. d-1}.
     */
    public double[] vector(int r) {
        int d = values.length;
        java.util.Objects.checkIndex(r, d);
        return Arrays.copyOfRange(vectors, r * d, (r + 1) * d);
    }

    /** Sweeps run before no rotation was left to do (at most {@link #MAX_SWEEPS}; 0 beyond {@link #JACOBI_MAX_D}). */
    public int sweeps() {
        return sweeps;
    }

    /**
     * Flips {@code v} so that its entry of largest magnitude (the first of equal magnitudes) is positive:
     * the sign convention of the eigenvectors here and of scikit-learn's PCA components.
     */
    public static void orient(double[] v) {
        orient(v, 0, v.length);
    }

    /** Positions {@code 0 .. d-1} by value descending; equal values keep position order. */
    private static int[] descending(double[] v) {
        Integer[] idx = new Integer[v.length];
        for (int i = 0; i < v.length; i++) idx[i] = i;
        Arrays.sort(idx, (x, y) -> v[x] == v[y] ? Integer.compare(x, y) : v[x] > v[y] ? -1 : 1);
        int[] out = new int[v.length];
        for (int i = 0; i < v.length; i++) out[i] = idx[i];
        return out;
    }

    /**
     * Flips {@code v[from .. from+d-1]} so that its entry of largest magnitude (the first of equal
     * magnitudes) is positive.
     */
    private static void orient(double[] v, int from, int d) {
        int best = from;
        for (int j = from + 1; j < from + d; j++) {
            if (Math.abs(v[j]) > Math.abs(v[best])) best = j;
        }
        if (v[best] < 0) {
            for (int j = from; j < from + d; j++) v[j] = -v[j];
        }
    }
}
