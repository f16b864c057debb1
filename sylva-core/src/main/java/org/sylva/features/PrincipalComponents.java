package org.sylva.features;

import java.util.Arrays;
import org.sylva.data.InvalidInputException;
import org.sylva.parallel.Execution;
import org.sylva.parallel.ParallelWork;

/**
 * The first {@code k} principal components of {@code n x d} points, exact and deterministic, in float64:
 * column means, the {@code d x d} covariance of every row ({@code n - 1} denominator, summed in a fixed
 * order whatever the thread count), and its eigenvectors ({@link SymmetricEigen}: Jacobi rotations, beyond
 * {@link SymmetricEigen#JACOBI_MAX_D} coordinates Householder reduction and QL). With fewer rows than
 * columns the components come from the rows' Gram matrix instead ({@link CentredRowGram}), the same to
 * rounding. Components come by explained variance, largest first (equal variances keep the order the
 * decomposition left them in, which for uncorrelated columns is column order on the covariance route and row
 * order of the Gram matrix on the other), each signed so that its entry of largest
 * magnitude is positive, the first such entry on ties: the convention of scikit-learn's {@code PCA}
 * ({@code svd_flip(u_based_decision=False)}), whose {@code mean_}, {@code components_},
 * {@code explained_variance_} and {@code transform} these match to rounding where the data are well
 * conditioned. Both routes decompose a squared matrix, where scikit-learn takes an SVD of the data: a
 * component whose variance is a factor {@code r} below the first's carries errors about {@code r} times the
 * rounding, scikit-learn's about {@code sqrt(r)} times (one row far larger than the others makes such a
 * component; and a sign decided by an exact tie of magnitudes, as with a column and its negation, may differ).
 * Meant for clustering on a
 * few components (spike waveforms: {@code d} up to a few hundred; the covariance's {@code n d^2} dominates
 * the cost, the eigen-decomposition's {@code d^3} per sweep is small beside it); rows are never
 * subsampled. Variances that rounding makes slightly negative are reported as 0; components past the
 * rank of the data are unit vectors orthogonal to the others, with variance 0 (to rounding; on the Gram route,
 * coordinate axes in order made orthogonal to the others).
 *
 * <pre>{@code
 * PrincipalComponents pca = PrincipalComponents.fit(clips, n, 61, 3);   // float[] or double[], row-major
 * double[] scores = pca.project(clips, n);                             // n x 3, row-major
 * double kept = pca.explainedVarianceRatioSum();                       // e.g. 0.82
 * HdbscanResult r = Hdbscan.builder().minClusterSize(20).build()
 *         .fit(scores, n, pca.componentCount(), ProgressListener.NONE, CancellationToken.NEVER);
 * }</pre>
 *
 * <p>Immutable: the constructor and the accessors copy the arrays; equality compares their values.
 *
 * @param mean              column means, length {@code d}
 * @param components        the components, row-major {@code k x d}, each of unit length
 * @param explainedVariance variance along each component ({@code n - 1} denominator), descending, length {@code k}
 * @param totalVariance     the sum of the variances of all {@code d} columns (the covariance's trace)
 */
public record PrincipalComponents(double[] mean, double[] components, double[] explainedVariance,
        double totalVariance) {

    /** The progress stage of {@link #project(float[], int, Execution)}. */
    public static final String PROJECTION_STAGE = "projection";

    public PrincipalComponents {
        if (mean == null || components == null || explainedVariance == null) {
            throw new InvalidInputException("mean, components and explained variance must not be null");
        }
        if (mean.length < 1 || explainedVariance.length < 1
                || (long) explainedVariance.length * mean.length != components.length) {
            throw new InvalidInputException("components must be k x d = " + explainedVariance.length + " x "
                    + mean.length + " values; got " + components.length);
        }
        mean = mean.clone();
        components = components.clone();
        explainedVariance = explainedVariance.clone();
    }

    /** Fits {@code k} components of {@code n x d} float32 points (row-major) on every core ({@link Execution#everyCore()}). */
    public static PrincipalComponents fit(float[] x, int n, int d, int k) {
        return fit(x, n, d, k, Execution.everyCore());
    }

    /**
     * Fits {@code k} components of {@code n x d} float32 points (row-major, values widened to float64
     * exactly). The result does not depend on {@code execution}'s thread count.
     *
     * @throws InvalidInputException when {@code k} is not in {@code 1 .. d} (parameter {@code n_components}),
     *     the shape does not match, {@code n < 1}, or a value is NaN or infinite (naming its row and column)
     */
    public static PrincipalComponents fit(float[] x, int n, int d, int k, Execution execution) {
        return fit(RowMajor.of(x, n, d), k, execution);
    }

    /** Fits {@code k} components of {@code n x d} float64 points (row-major) on every core ({@link Execution#everyCore()}). */
    public static PrincipalComponents fit(double[] x, int n, int d, int k) {
        return fit(x, n, d, k, Execution.everyCore());
    }

    /**
     * As {@link #fit(float[], int, int, int, Execution)} for float64 points; values beyond {@code +-1e150}
     * are refused as well (their squares could overflow).
     */
    public static PrincipalComponents fit(double[] x, int n, int d, int k, Execution execution) {
        return fit(RowMajor.of(x, n, d), k, execution);
    }

    private static PrincipalComponents fit(RowMajor x, int k, Execution execution) {
        requireComponentCount(k, x.d);
        if (x.n < 1) throw new InvalidInputException("principal components need at least one point; got n = 0");
        // far from 1 the input is scaled by a power of two (exactly) and the means and variances scaled back
        int shift = x.scaleShift();
        RowMajor rows = shift == 0 ? x : x.scaled(shift);
        PrincipalComponents p = x.n < x.d ? CentredRowGram.components(rows, k, execution)
                : fromCovariance(rows, k, execution);
        if (shift == 0) return p;
        double[] mean = p.mean(), variance = p.explainedVariance();
        for (int j = 0; j < mean.length; j++) mean[j] = Math.scalb(mean[j], -shift);
        for (int c = 0; c < variance.length; c++) variance[c] = Math.scalb(variance[c], -2 * shift);
        return new PrincipalComponents(mean, p.components(), variance, Math.scalb(p.totalVariance(), -2 * shift));
    }

    /** The components from the {@code d x d} covariance, whatever the shape ({@code x} and {@code k} checked). */
    static PrincipalComponents fromCovariance(RowMajor x, int k, Execution execution) {
        Covariance cov = Covariance.of(x, execution);
        SymmetricEigen eigen = SymmetricEigen.of(cov.matrix, x.d, execution.cancel());
        double trace = 0;
        for (int j = 0; j < x.d; j++) trace += cov.matrix[j * x.d + j];
        double[] variance = new double[k];
        for (int c = 0; c < k; c++) variance[c] = Math.max(0, eigen.values[c]);
        return new PrincipalComponents(cov.mean, Arrays.copyOf(eigen.vectors, k * x.d), variance, trace);
    }

    /** Refuses a component count outside {@code 1 .. d}, naming scikit-learn's parameter {@code n_components}. */
    public static void requireComponentCount(int k, int d) {
        if (k < 1 || k > d) {
            throw InvalidInputException.forParameter("n_components", "n_components must be between 1 and the"
                    + " number of dimensions, " + d + "; got " + k);
        }
    }

    /** {@code k}, the number of components. */
    public int componentCount() {
        return explainedVariance.length;
    }

    /** {@code d}, the dimensions of the points. */
    public int dimensions() {
        return mean.length;
    }

    /**
     * Component {@code c} ({@code 0 .. k-1}), a unit vector of length {@code d}; an {@link IndexOutOfBoundsException}
     * for another {@code c} ({@code Arrays.copyOfRange} would pad component {@code k} with zeros).
     */
    public double[] component(int c) {
        java.util.Objects.checkIndex(c, componentCount());
        int d = mean.length;
        return Arrays.copyOfRange(components, c * d, (c + 1) * d);
    }

    /** The share of the total variance along each component (0 when the points are all equal). */
    public double[] explainedVarianceRatio() {
        double[] r = new double[explainedVariance.length];
        for (int c = 0; c < r.length; c++) r[c] = totalVariance > 0 ? explainedVariance[c] / totalVariance : 0;
        return r;
    }

    /** The share of the total variance the {@code k} components hold together. */
    public double explainedVarianceRatioSum() {
        double s = 0;
        for (double r : explainedVarianceRatio()) s += r;
        return s;
    }

    /** The scores of {@code n x d} float32 points, row-major {@code n x k}, on every core ({@link Execution#everyCore()}). */
    public double[] project(float[] x, int n) {
        return project(RowMajor.of(x, n, mean.length), Execution.everyCore());
    }

    /**
     * The scores {@code (x_i - mean) . component_c} of {@code n x d} float32 points, row-major
     * {@code n x k}; each is summed over {@code j = 0 .. d-1} in order, so threads do not change it.
     *
     * @throws InvalidInputException when the shape does not match or a value is NaN or infinite (naming its row and
     *     column), as {@link #fit(float[], int, int, int, Execution)} refuses them
     */
    public double[] project(float[] x, int n, Execution execution) {
        return project(RowMajor.of(x, n, mean.length), execution);
    }

    /** The scores of {@code n x d} float64 points, row-major {@code n x k}, on every core ({@link Execution#everyCore()}). */
    public double[] project(double[] x, int n) {
        return project(RowMajor.of(x, n, mean.length), Execution.everyCore());
    }

    /** As {@link #project(float[], int, Execution)} for float64 points. */
    public double[] project(double[] x, int n, Execution execution) {
        return project(RowMajor.of(x, n, mean.length), execution);
    }

    private double[] project(RowMajor x, Execution execution) {
        int n = x.n, d = x.d, k = componentCount();
        int block = Covariance.BLOCK_ROWS, units = (n + block - 1) / block;
        double[] scores = new double[n * k];
        double[][] scratch = new double[execution.threads()][];
        RuntimeException[] bad = new RuntimeException[units];
        new ParallelWork(execution.threads()).run(units, PROJECTION_STAGE, execution.progress(), execution.cancel(),
                (worker, unit) -> {
                    if (scratch[worker] == null) scratch[worker] = new double[block * d];
                    double[] rows = scratch[worker];
                    int from = unit * block, count = Math.min(block, n - from);
                    try {
                        x.requireUsable(from, from + count);   // as the fit refuses them: no NaN scores handed out
                    } catch (RuntimeException e) {
                        bad[unit] = e;   // kept, so that the first bad row of the input is the one reported
                        return;
                    }
                    x.centred(from, count, mean, rows);
                    for (int i = 0; i < count; i++) {
                        for (int c = 0; c < k; c++) {
                            double s = 0;
                            for (int j = 0, a = i * d, b = c * d; j < d; j++) s += rows[a + j] * components[b + j];
                            scores[(from + i) * k + c] = s;
                        }
                    }
                });
        for (RuntimeException e : bad) {
            if (e != null) throw e;
        }
        return scores;
    }

    // The accessors hand out copies, so that a result cannot be changed through them.

    @Override
    public double[] mean() {
        return mean.clone();
    }

    @Override
    public double[] components() {
        return components.clone();
    }

    @Override
    public double[] explainedVariance() {
        return explainedVariance.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PrincipalComponents p && Arrays.equals(mean, p.mean)
                && Arrays.equals(components, p.components) && Arrays.equals(explainedVariance, p.explainedVariance)
                && Double.compare(totalVariance, p.totalVariance) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * Arrays.hashCode(mean) + Arrays.hashCode(components))
                + Arrays.hashCode(explainedVariance)) + Double.hashCode(totalVariance);
    }

    @Override
    public String toString() {
        return "PrincipalComponents[k=" + componentCount() + ", d=" + dimensions() + ", explainedVariance="
                + Arrays.toString(explainedVariance) + ", totalVariance=" + totalVariance + "]";
    }
}
