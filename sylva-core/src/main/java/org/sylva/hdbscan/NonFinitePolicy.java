package org.sylva.hdbscan;

/**
 * What {@link Hdbscan#fit} does with rows holding NaN or an infinite coordinate. {@code PointSet.of} and
 * {@code PointSet.ofFloat64} refuse such values themselves, so rows for {@link #SKLEARN} go in through
 * {@link Hdbscan#fit(double[], int, int, org.sylva.progress.ProgressListener,
 * org.sylva.progress.CancellationToken)} or {@code PointSet.uncheckedFloat64} (a {@code .npy} read with
 * {@code Npy.toPointSet} keeps them too).
 *
 * <pre>{@code
 * Hdbscan h = Hdbscan.builder().minClusterSize(2).nonFinite(NonFinitePolicy.SKLEARN).build();
 * HdbscanResult r = h.fit(new double[] {0, 0.1, Double.NaN, 5, Double.POSITIVE_INFINITY}, 5, 1,
 *         ProgressListener.NONE, CancellationToken.NEVER);   // labels [-1, -1, -3, -1, -2]
 * }</pre>
 */
public enum NonFinitePolicy {
    /** Refuse the input with an error naming the first offending row and column (the default). */
    REJECT,
    /**
     * scikit-learn's convention: such rows are left out of the fit; rows with an infinity get label
     * -2 and probability 0, rows with NaN get label -3 and probability NaN (a row with both, or with
     * +inf and -inf, whose sum is NaN, counts as NaN). Their outlier score and core distance are NaN.
     */
    SKLEARN
}
