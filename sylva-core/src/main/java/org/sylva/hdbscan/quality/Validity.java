package org.sylva.hdbscan.quality;

import java.util.Arrays;

/**
 * A DBCV result: the index of the whole clustering and the value of each cluster (indexed by label),
 * of which the index is the size-weighted sum. See {@link DensityValidity}.
 *
 * <pre>{@code
 * Validity v = DensityValidity.of(points, labels);
 * double worst = Arrays.stream(v.perCluster()).min().orElse(Double.NaN);
 * }</pre>
 *
 * @param index the DBCV index, in [-1, 1] (higher is better; NaN with a single cluster, as in the package)
 * @param perCluster each cluster's validity (a copy is returned)
 */
public record Validity(double index, double[] perCluster) {
    public Validity {
        perCluster = perCluster.clone();
    }

    @Override
    public double[] perCluster() {
        return perCluster.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Validity v && Double.compare(v.index, index) == 0 && Arrays.equals(v.perCluster, perCluster);
    }

    @Override
    public int hashCode() {
        return Double.hashCode(index) * 31 + Arrays.hashCode(perCluster);
    }

    @Override
    public String toString() {
        return "Validity[index=" + index + ", perCluster=" + Arrays.toString(perCluster) + "]";
    }
}
