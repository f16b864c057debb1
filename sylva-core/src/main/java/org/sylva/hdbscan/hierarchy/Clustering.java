package org.sylva.hdbscan.hierarchy;

import java.util.Arrays;
import java.util.Objects;

/**
 * A flat clustering read off a condensed tree: a label per point ({@code -1} = noise; clusters
 * {@code 0..k-1} numbered by ascending condensed-tree node id, as scikit-learn and the {@code hdbscan}
 * package number them), a membership probability per point, and per cluster its persistence (the
 * {@code hdbscan} package's {@code cluster_persistence_}) and its condensed-tree node id. Immutable:
 * the arrays are copied in and out.
 *
 * <pre>{@code
 * Clustering c = ClusterSelector.select(condensed, SelectionParameters.defaults());
 * int k = c.clusterCount();
 * int[] labels = c.labels();
 * }</pre>
 *
 * @param labels label per point, {@code -1} for noise
 * @param probabilities membership strength per point in [0, 1], 0 for noise
 * @param persistence per cluster: {@code stability / (size * lambda_max of the whole tree)}, 1.0 where
 *     that maximum is infinite or 0 or the cluster labels no point
 * @param selectedNodes per cluster: its condensed-tree node id (ascending)
 */
public record Clustering(int[] labels, double[] probabilities, double[] persistence, int[] selectedNodes) {

    /** Copies the arrays; lengths must agree pairwise (labels/probabilities, persistence/selectedNodes). */
    public Clustering {
        Objects.requireNonNull(labels, "labels");
        Objects.requireNonNull(probabilities, "probabilities");
        Objects.requireNonNull(persistence, "persistence");
        Objects.requireNonNull(selectedNodes, "selectedNodes");
        if (labels.length != probabilities.length) {
            throw new IllegalArgumentException("labels has " + labels.length + " entries, probabilities "
                    + probabilities.length);
        }
        if (persistence.length != selectedNodes.length) {
            throw new IllegalArgumentException("persistence has " + persistence.length + " entries, selectedNodes "
                    + selectedNodes.length);
        }
        labels = labels.clone();
        probabilities = probabilities.clone();
        persistence = persistence.clone();
        selectedNodes = selectedNodes.clone();
    }

    @Override
    public int[] labels() {
        return labels.clone();
    }

    @Override
    public double[] probabilities() {
        return probabilities.clone();
    }

    @Override
    public double[] persistence() {
        return persistence.clone();
    }

    @Override
    public int[] selectedNodes() {
        return selectedNodes.clone();
    }

    /** Number of points. */
    public int points() {
        return labels.length;
    }

    /** Number of clusters. */
    public int clusterCount() {
        return selectedNodes.length;
    }

    public int label(int point) {
        return labels[point];
    }

    public double probability(int point) {
        return probabilities[point];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Clustering c && Arrays.equals(c.labels, labels)
                && Arrays.equals(c.probabilities, probabilities) && Arrays.equals(c.persistence, persistence)
                && Arrays.equals(c.selectedNodes, selectedNodes);
    }

    @Override
    public int hashCode() {
        return ((Arrays.hashCode(labels) * 31 + Arrays.hashCode(probabilities)) * 31
                + Arrays.hashCode(persistence)) * 31 + Arrays.hashCode(selectedNodes);
    }

    @Override
    public String toString() {
        int noise = 0;
        for (int l : labels) if (l < 0) noise++;
        return "Clustering[points=" + labels.length + ", clusters=" + selectedNodes.length + ", noise=" + noise + "]";
    }
}
