package org.sylva.hdbscan;

/**
 * What {@link Hdbscan#fit} does with rows holding NaN or an infinite coordinate.
 *
 * <pre>{@code
 * Hdbscan h = Hdbscan.builder().nonFinite(NonFinitePolicy.SKLEARN).build();
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
