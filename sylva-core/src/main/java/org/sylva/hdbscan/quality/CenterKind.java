package org.sylva.hdbscan.quality;

import java.util.Objects;
import org.sylva.data.InvalidInputException;

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

    /**
     * The kind named as scikit-learn names it ({@code centroid}, {@code medoid}, {@code both}), any case.
     *
     * @throws InvalidInputException for any other name (parameter {@code store_centers})
     */
    public static CenterKind parse(String name) {
        Objects.requireNonNull(name, "store_centers");
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "centroid" -> CENTROID;
            case "medoid" -> MEDOID;
            case "both" -> BOTH;
            default -> throw InvalidInputException.forParameter("store_centers",
                    "centres are centroid, medoid or both; not '" + name + "'");
        };
    }
}
