package org.sylva.hdbscan.quality;

/**
 * Which cluster centres to compute, scikit-learn's {@code store_centers}: the membership-weighted mean
 * ({@link #CENTROID}), the member minimising its membership-weighted distance sum ({@link #MEDOID}), or
 * {@link #BOTH}.
 *
 * <pre>{@code
 * ClusterCenters c = ClusterCenters.of(points, result.labels(), result.probabilities(), CenterKind.BOTH);
 * }</pre>
 */
public enum CenterKind {
    CENTROID, MEDOID, BOTH;

    /** True for {@link #CENTROID} and {@link #BOTH}. */
    public boolean centroids() {
        return this != MEDOID;
    }

    /** True for {@link #MEDOID} and {@link #BOTH}. */
    public boolean medoids() {
        return this != CENTROID;
    }

    /** The kind named as scikit-learn names it ({@code centroid}, {@code medoid}, {@code both}), any case. */
    public static CenterKind parse(String name) {
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "centroid" -> CENTROID;
            case "medoid" -> MEDOID;
            case "both" -> BOTH;
            default -> throw new IllegalArgumentException("centres are centroid, medoid or both; not '" + name + "'");
        };
    }
}
