package org.sylva.hdbscan.hierarchy;

/**
 * How flat clusters are picked from the condensed tree, as scikit-learn's
 * {@code cluster_selection_method}: {@link #EOM} (excess of mass, the default) picks the set of
 * non-nested clusters of largest total stability; {@link #LEAF} picks the leaves of the cluster tree.
 *
 * <pre>{@code
 * SelectionParameters p = SelectionParameters.builder().method(SelectionMethod.LEAF).build();
 * }</pre>
 */
public enum SelectionMethod {
    /** Excess of mass ({@code "eom"}). */
    EOM,
    /** Leaves of the condensed cluster tree ({@code "leaf"}). */
    LEAF
}
