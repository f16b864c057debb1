package org.sylva.spark;

import java.io.Serializable;

import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.hierarchy.SelectionMethod;

/**
 * The parameters of {@link SylvaHdbscan} in a form that travels to the executors (per-group fits run the
 * library there).
 *
 * @param minSamples 0 when unset (then {@code minClusterSize})
 */
record FitSettings(int minClusterSize, int minSamples, double clusterSelectionEpsilon, int maxClusterSize, double alpha,
                   String clusterSelectionMethod, boolean allowSingleCluster) implements Serializable {

    /** The library fit these settings describe, on the CPU engine with {@code threads} threads. */
    Hdbscan.Builder builder(int threads) {
        Hdbscan.Builder b = Hdbscan.builder()
                .minClusterSize(minClusterSize)
                .clusterSelectionEpsilon(clusterSelectionEpsilon)
                .maxClusterSize(maxClusterSize)
                .alpha(alpha)
                .clusterSelectionMethod("leaf".equals(clusterSelectionMethod) ? SelectionMethod.LEAF : SelectionMethod.EOM)
                .allowSingleCluster(allowSingleCluster)
                .threads(threads);
        if (minSamples > 0) b.minSamples(minSamples);
        return b;
    }

    /**
     * Whether {@code n} points are too few for these settings' fit, which the library refuses: fewer than two, or
     * fewer than {@code minSamples} (unset: {@code minClusterSize}).
     */
    boolean tooFew(int n) {
        return n < 2 || n < (minSamples > 0 ? minSamples : minClusterSize);
    }

    /** The param that sets the fit's {@code min_samples}, as {@link SylvaHdbscan#inParamTerms} names it. */
    String minSamplesParam() {
        return minSamples > 0 ? "param minSamples" : "param minClusterSize: minSamples, unset, defaults to it";
    }
}
