package org.sylva.hdbscan.quality;

import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.metric.Metric;

/**
 * The distance between two rows of a point set under a fit's {@link Metric}, as the quality measures read it
 * (medoids, DBCV): Euclidean with squares summed in coordinate order, the others by
 * {@link org.sylva.hdbscan.metric.PairDistances} (their documented order). One home for that choice.
 *
 * <pre>{@code
 * RowDistance dist = RowDistance.of(points, Metric.manhattan());
 * double d01 = dist.between(0, 1);
 * }</pre>
 */
@FunctionalInterface
interface RowDistance {
    /** The distance between rows {@code a} and {@code b}. */
    double between(int a, int b);

    /**
     * The distances of {@code metric} between the rows of {@code points}.
     *
     * @throws InvalidInputException for a precomputed metric, whose input has no rows to measure
     */
    static RowDistance of(PointSet points, Metric metric) {
        if (metric.isPrecomputed()) {
            throw InvalidInputException.forParameter("metric", "a precomputed distance matrix has no coordinates");
        }
        if (metric.isEuclidean()) return (a, b) -> Math.sqrt(points.squaredDistance(a, b));
        return metric.pairs(points.coordinates64(), points.size(), points.dimensions())::between;
    }
}
