package org.sylva.kernels;

/**
 * The view of a point set that the distance kernels read: coordinates interleaved in blocks of
 * {@link #blockWidth()} consecutive positions, coordinate {@code j} of position {@code p} at
 * {@code blocks()[(p / W) * d * W + j * W + p % W]}. Keeping the kernels on this small view, rather than
 * on the HDBSCAN index that implements it, keeps the hardware code free of the algorithms above it.
 *
 * <pre>{@code
 * BlockedPoints pts = PointIndex.build(points, kernel);   // the HDBSCAN index is one
 * kernel.squaredDistances(pts, new int[] {0}, 1, 0, 1, tile);
 * }</pre>
 */
public interface BlockedPoints {
    /** Coordinates per point. */
    int dimensions();

    /** Positions per interleaved block. */
    int blockWidth();

    /** The interleaved float64 coordinate blocks (shared, read-only). */
    double[] blocks();

    /**
     * The points as float32 in the same layout, or {@code null}: every value of magnitude at most
     * {@link DistanceKernel#FLOAT32_LIMIT}. Where every coordinate is exactly such a float32 value the copy
     * holds the coordinates themselves; otherwise it may hold the points shifted by a vector common to all
     * and rounded, within {@link #float32Rounding()} of them. Within every block the coordinates may come in
     * another order, the same for every point: only the pre-filter reads this copy, and it sums all of a
     * pair's coordinate differences, with an error bound that holds in any order and under any common shift.
     */
    float[] blocks32();

    /** True when {@link #blocks32()} is present. */
    default boolean hasFloat32() {
        return blocks32() != null;
    }

    /**
     * The largest Euclidean distance between a point and its float32 copy in {@link #blocks32()}, up to a
     * translation common to all points: {@code 0} when the copy holds the coordinates exactly. A rounded
     * copy widens the pre-filter's bound ({@link ApproximationBound}).
     */
    default double float32Rounding() {
        return 0.0;
    }

    /** Centres of the partition nodes, {@code d} values per node (shared, read-only). */
    double[] centres();
}
