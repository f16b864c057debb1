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
 * variances agree with it to rounding. Each Gram entry sums its column products in column order, so the result
 * does not depend on the threads. Only components that carry variance come this way: when the {@code k}-th
 * eigenvalue is below {@link #RANK_FLOOR} of the first (components at or past the rank of the data, whose directions
 * the Gram matrix does not determine), {@link #components} answers {@code null} and the caller takes the
 * covariance route.
 *
 * <pre>{@code
 * PrincipalComponents p = CentredRowGram.components(RowMajor.of(x, 300, 2049), 3, Execution.everyCore());
 * }</pre>
 */
final class CentredRowGram {
    /**
     * The smallest share of the first eigenvalue the {@code k}-th may have. A component from the Gram matrix carries
     * the rounding of the larger ones magnified by the ratio of their singular values; at this floor that is at
     * most {@code 2^15} times the covariance route's.
     */
    static final double RANK_FLOOR = 0x1p-30;

    private CentredRowGram() {
    }

    /**
     * The first {@code k} components of {@code x} ({@code 1 <= k}, {@code x.n < x.d}), or {@code null} when
     * {@code k >= n} or the {@code k}-th eigenvalue is below {@link #RANK_FLOOR} of the first.
     */
    static PrincipalComponents components(RowMajor x, int k, Execution ex) {
        int n = x.n, d = x.d;
        if (k >= n) return null;   // the centred rows span at most n - 1 directions
        ParallelWork work = new ParallelWork(ex.threads());
        long total = Covariance.stripes(n, d) + (long) n;
        double[] mean = Covariance.mean(x, work, total, ex);
        double[] xc = new double[n * d];
        x.centred(0, n, mean, xc);
        double[] gram = new double[n * n];
        work.run(n, Covariance.STAGE, Covariance.stripes(n, d), total, ex.progress(), ex.cancel(), (worker, i) -> {
            for (int j = i; j < n; j++) {
                double s = 0;
                for (int t = 0, a = i * d, b = j * d; t < d; t++) s += xc[a + t] * xc[b + t];
                gram[i * n + j] = s;
            }
        });
        double denominator = n - 1;
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                gram[i * n + j] /= denominator;
                gram[j * n + i] = gram[i * n + j];
            }
        }
        SymmetricEigen eigen = SymmetricEigen.of(gram, n);
        double first = eigen.values[0];
        if (!(first > 0) || !(eigen.values[k - 1] >= first * RANK_FLOOR)) return null;

        double[] components = new double[k * d];
        for (int c = 0; c < k; c++) {
            int v = c * d;
            for (int i = 0; i < n; i++) {
                double u = eigen.vectors[c * n + i];
                for (int t = 0, a = i * d; t < d; t++) components[v + t] += xc[a + t] * u;
            }
            double norm = 0;
            for (int t = 0; t < d; t++) norm += components[v + t] * components[v + t];
            double scale = 1 / Math.sqrt(norm);
            for (int t = 0; t < d; t++) components[v + t] *= scale;
        }
        for (int c = 0; c < k; c++) {
            double[] one = Arrays.copyOfRange(components, c * d, (c + 1) * d);
            SymmetricEigen.orient(one);
            System.arraycopy(one, 0, components, c * d, d);
        }
        double trace = 0;
        double[] squares = new double[d];
        for (int i = 0; i < n; i++) {
            for (int t = 0, a = i * d; t < d; t++) squares[t] += xc[a + t] * xc[a + t];
        }
        for (int t = 0; t < d; t++) trace += squares[t] / denominator;
        double[] variance = Arrays.copyOf(eigen.values, k);
        return new PrincipalComponents(mean, components, variance, trace);
    }
}
