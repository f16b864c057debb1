package org.sylva.hdbscan.hierarchy;

import java.util.Objects;
import org.sylva.data.InvalidInputException;

/**
 * Parameters of cluster selection, named and defaulted as in {@code sklearn.cluster.HDBSCAN} (>= 1.3):
 * {@code method} ({@link SelectionMethod#EOM}), {@code clusterSelectionEpsilon} (0.0; a distance:
 * clusters that split below it are merged back), {@code maxClusterSize} (0 = no limit, scikit-learn's
 * {@code None}; EOM only) and {@code allowSingleCluster} (false).
 *
 * <pre>{@code
 * SelectionParameters p = SelectionParameters.builder()
 *         .method(SelectionMethod.EOM).clusterSelectionEpsilon(0.5).maxClusterSize(1000).build();
 * }</pre>
 *
 * @param method EOM or LEAF
 * @param clusterSelectionEpsilon distance threshold, {@code >= 0} (may be {@code +inf})
 * @param maxClusterSize largest cluster EOM may select, {@code >= 0}; 0 means no limit
 * @param allowSingleCluster whether EOM may select the root (a single cluster holding everything)
 */
public record SelectionParameters(SelectionMethod method, double clusterSelectionEpsilon, int maxClusterSize,
        boolean allowSingleCluster) {

    /**
     * Validates; the refusals name the parameter as scikit-learn spells it, in the message and in
     * {@link InvalidInputException#parameter()}, as {@code HdbscanParameters}' do.
     */
    public SelectionParameters {
        Objects.requireNonNull(method, "cluster_selection_method");
        if (!(clusterSelectionEpsilon >= 0)) {
            throw InvalidInputException.forParameter("cluster_selection_epsilon",
                    "cluster_selection_epsilon must be >= 0; got " + clusterSelectionEpsilon);
        }
        if (maxClusterSize < 0) {
            throw InvalidInputException.forParameter("max_cluster_size",
                    "max_cluster_size must be >= 0 (0 = no limit); got " + maxClusterSize);
        }
    }

    /** EOM, epsilon 0, no maximum size, no single cluster: scikit-learn's defaults. */
    public static SelectionParameters defaults() {
        return new SelectionParameters(SelectionMethod.EOM, 0.0, 0, false);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these parameters. */
    public Builder toBuilder() {
        return new Builder().method(method).clusterSelectionEpsilon(clusterSelectionEpsilon)
                .maxClusterSize(maxClusterSize).allowSingleCluster(allowSingleCluster);
    }

    /**
     * Builder for {@link SelectionParameters}, starting from the defaults.
     *
     * <pre>{@code
     * SelectionParameters p = SelectionParameters.builder().allowSingleCluster(true).build();
     * }</pre>
     */
    public static final class Builder {
        private SelectionMethod method = SelectionMethod.EOM;
        private double clusterSelectionEpsilon;
        private int maxClusterSize;
        private boolean allowSingleCluster;

        private Builder() {
        }

        public Builder method(SelectionMethod method) {
            this.method = method;
            return this;
        }

        public Builder clusterSelectionEpsilon(double epsilon) {
            this.clusterSelectionEpsilon = epsilon;
            return this;
        }

        /** 0 = no limit. */
        public Builder maxClusterSize(int maxClusterSize) {
            this.maxClusterSize = maxClusterSize;
            return this;
        }

        public Builder allowSingleCluster(boolean allow) {
            this.allowSingleCluster = allow;
            return this;
        }

        /** @throws InvalidInputException on a bad value, naming the parameter */
        public SelectionParameters build() {
            return new SelectionParameters(method, clusterSelectionEpsilon, maxClusterSize, allowSingleCluster);
        }
    }
}
