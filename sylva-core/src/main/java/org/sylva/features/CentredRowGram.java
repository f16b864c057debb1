package org.sylva.features;

import java.util.Arrays;
import org.sylva.parallel.Execution;
import org.sylva.parallel.ParallelWork;

/**
 * Principal components of data with fewer rows than columns ({@code n < d}, images or embeddings), from the
 * {@code n x n} Gram matrix of the centred rows instead of the {@code d x d} covariance: both have the same nonzero
 * eigenvalues, and an eigenvector {@code u} of the Gram matrix gives the component {@code X^T u}, normalised. The
 * work is {@code n^2 d / 2} for the matrix, {@code n^3} for its decomposition and {@code k n d} for the components,
 * against the covariance's {@code n d^2 / 2} and {@code d^3}, which for a few hundred rows of a few thousand columns is
 * the difference between a moment and minutes.
 *
 * <p>The same means and total variance as the covariance route, bitwise (the same first pass; with {@code n < d} the
 * covariance has one stripe, whose diagonal sums the squares of each column in row order, as here). Components and
 * variances agree with it to rounding where the data determine them. Each Gram entry sums its column products in
 * column order, so the result does not depend on the threads. Each component is made orthogonal to the ones before
 * it (Gram-Schmidt, twice), as the covariance route's rotations keep theirs; one whose variance is below
 * {@link #RANK_FLOOR} of the first is mostly the rounding of the larger ones, and is kept only where more than half
 * of it is left. Components past the rank of the data (and past {@code n - 1}, where the
 * centred rows have no more directions) are, as the covariance route gives them, unit vectors orthogonal to the
 * others with variance 0: coordinate axes in order, made orthogonal to the components before them. Every {@code k}
 * takes this route, so that a wide input never needs the {@code d x d} matrix (at 20 000 columns, 3.2 GB).
 *
 * <pre>{@code
 * PrincipalComponents p = CentredRowGram.components(RowMajor.of(x, 300, 2049), 3, Execution.everyCore());
 * }</pre>
 */
final class CentredRowGram {
    /**
     * The share of the first eigenvalue below which a component is kept only where more than half of it is left once
     * made orthogonal to the ones before it. A component from the Gram matrix carries the rounding of the larger ones
     * magnified by the ratio of their singular values; above this floor that is at most {@code 2^15} times the
     * covariance route's.
     */
    static final double RANK_FLOOR = 0x1p-30;

    private CentredRowGram() {
    }

    /** The first {@code k} components of {@code x} ({@code 1 <= k <= x.d}; meant for {@code x.n < x.d}). */
    static PrincipalComponents components(RowMajor x, int k, Execution ex) {
        int n = x.n, d = x.d;
        ParallelWork work = new ParallelWork(ex.threads());
        // progress: the mean's stripes, then the Gram rows, row i weighing the n - i entries it computes
        long stripes = Covariance.stripes(n, d);
        long[] weight = new long[n];
        for (int i = 0; i < n; i++) weight[i] = n - i;
        long total = stripes + (long) n * (n + 1) / 2;
        double[] mean = Covariance.mean(x, work, total, ex);
        double[] xc = new double[n * d];
        x.centred(0, n, mean, xc);
        double[] gram = new double[n * n];
        work.run(n, Covariance.STAGE, stripes, total, weight, ex.progress(), ex.cancel(), (worker, i) -> {
            for (int j = i; j < n; j++) {
                double s = 0;
                for (int t = 0, a = i * d, b = j * d; t < d; t++) s += xc[a + t] * xc[b + t];
                gram[i * n + j] = s;
            }
        });
        double denominator = Math.max(1, n - 1);
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                gram[i * n + j] /= denominator;
                gram[j * n + i] = gram[i * n + j];
            }
        }
        SymmetricEigen eigen = SymmetricEigen.of(gram, n, ex.cancel());
        double first = eigen.values[0];

        double[] components = new double[k * d];
        double[] variance = new double[k];
        double[] v = new double[d];
        int nextAxis = 0;   // the completion's next candidate among the coordinate axes
        for (int c = 0; c < k; c++) {
            double value = c < n ? eigen.values[c] : 0;
            boolean found = false;
            if (value > 0) {
                Arrays.fill(v, 0);
                for (int i = 0; i < n; i++) {
                    double u = eigen.vectors[c * n + i];
                    for (int t = 0, a = i * d; t < d; t++) v[t] += xc[a + t] * u;
                }
                // made orthogonal to the larger ones (X^T u loses orthogonality with the ratio of singular values, where
                // the covariance route's rotations keep it); below the floor it is mostly their rounding, kept only if
                // a good part of it is left
                found = orthogonalise(v, components, c, d, value >= first * RANK_FLOOR ? 0 : 0.5);
            }
            if (!found) nextAxis = completeWithAxis(v, components, c, d, nextAxis);
            SymmetricEigen.orient(v);
            System.arraycopy(v, 0, components, c * d, d);
            variance[c] = found ? Math.max(0, value) : 0;   // an axis past the rank: no variance along it
        }
        double trace = 0;
        double[] squares = new double[d];
        for (int i = 0; i < n; i++) {
            for (int t = 0, a = i * d; t < d; t++) squares[t] += xc[a + t] * xc[a + t];
        }
        for (int t = 0; t < d; t++) trace += squares[t] / denominator;
        return new PrincipalComponents(mean, components, variance, trace);
    }

    /** Scales {@code v} to unit length; false (and {@code v} unchanged) when it is zero. */
    private static boolean normalise(double[] v) {
        double norm = 0;
        for (double e : v) norm += e * e;
        norm = Math.sqrt(norm);
        if (!(norm > 0)) return false;
        double scale = 1 / norm;
        for (int t = 0; t < v.length; t++) v[t] *= scale;
        return true;
    }

    /**
     * Makes {@code v} orthogonal to the first {@code c} rows of {@code components} and unit; false when no more than
     * {@code least} of its length (once unit) was left (it lay nearly in their span, and what is left would be mostly
     * rounding).
     */
    private static boolean orthogonalise(double[] v, double[] components, int c, int d, double least) {
        if (!normalise(v)) return false;
        return leftAfterProjection(v, components, c, d) > least && normalise(v);
    }

    /**
     * Takes from {@code v} its projection on the first {@code c} rows of {@code components} (Gram-Schmidt, twice,
     * which leaves it orthogonal to them to rounding) and returns the length left.
     */
    private static double leftAfterProjection(double[] v, double[] components, int c, int d) {
        for (int pass = 0; pass < 2; pass++) {
            for (int r = 0; r < c; r++) {
                double dot = 0;
                for (int t = 0, b = r * d; t < d; t++) dot += v[t] * components[b + t];
                for (int t = 0, b = r * d; t < d; t++) v[t] -= dot * components[b + t];
            }
        }
        double norm = 0;
        for (double e : v) norm += e * e;
        return Math.sqrt(norm);
    }

    /**
     * Component {@code c} past the rank of the data, into {@code v}: the first coordinate axis from {@code from} on
     * (wrapping) that keeps at least half its length once made orthogonal to the components before it, unit (at
     * most about {@code 2.3 c} axes keep less, since the {@code c} components' squared projections on the axes sum
     * to {@code c}); where none does ({@code c} close to {@code d}), the one that keeps most. Returns the axis after
     * the one taken: axes are taken in order, as the covariance route's decomposition of a zero block gives them.
     */
    private static int completeWithAxis(double[] v, double[] components, int c, int d, int from) {
        int best = from % d;
        double bestLeft = -1;
        for (int step = 0; step < d; step++) {
            int j = (from + step) % d;
            Arrays.fill(v, 0);
            v[j] = 1;
            double left = leftAfterProjection(v, components, c, d);
            if (left >= 0.5) {
                normalise(v);
                return j + 1;
            }
            if (left > bestLeft) {
                bestLeft = left;
                best = j;
            }
        }
        Arrays.fill(v, 0);
        v[best] = 1;
        leftAfterProjection(v, components, c, d);
        normalise(v);
        return best + 1;
    }
}
