package org.sylva.hdbscan.predict;

import java.util.Arrays;
import java.util.Objects;

/**
 * Soft cluster memberships: a {@code points x clusters} matrix, row-major, whose entry {@code (i, l)} is
 * how strongly point {@code i} belongs to cluster {@code l} (the {@code hdbscan} package's
 * {@code membership_vector} and {@code all_points_membership_vectors}). A row sums to at most 1: it is
 * scaled by the probability that the point is in some cluster at all. Rows of input points left out of
 * the fit (non-finite rows under {@code NonFinitePolicy.SKLEARN}) are NaN. Immutable: the values are
 * copied in and out.
 *
 * <pre>{@code
 * Membership m = model.membershipVector(newPoints);
 * double inFirst = m.get(0, 0);
 * double[] row = m.row(0);
 * }</pre>
 *
 * @param points number of rows
 * @param clusters number of columns (the model's clusters)
 * @param values {@code points * clusters} values, row-major
 */
public record Membership(int points, int clusters, double[] values) {

    /** Copies the values; their count must be {@code points * clusters}. */
    public Membership {
        Objects.requireNonNull(values, "values");
        if (points < 0 || clusters < 0 || (long) points * clusters != values.length) {
            throw new IllegalArgumentException(values.length + " values for " + points + " x " + clusters);
        }
        values = values.clone();
    }

    @Override
    public double[] values() {
        return values.clone();
    }

    /** Membership of point {@code i} in cluster {@code l}. */
    public double get(int i, int l) {
        Objects.checkIndex(i, points);
        Objects.checkIndex(l, clusters);
        return values[i * clusters + l];
    }

    /** Point {@code i}'s memberships, one per cluster (a copy). */
    public double[] row(int i) {
        Objects.checkIndex(i, points);
        return Arrays.copyOfRange(values, i * clusters, (i + 1) * clusters);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Membership m && m.points == points && m.clusters == clusters
                && Arrays.equals(m.values, values);
    }

    @Override
    public int hashCode() {
        return (points * 31 + clusters) * 31 + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "Membership[points=" + points + ", clusters=" + clusters + "]";
    }
}
