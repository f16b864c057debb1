package org.sylva.hdbscan.index;

import org.sylva.data.InvalidInputException;

/**
 * The partition of a {@link PointIndex} as a saved model keeps it: the points in the order of the index's
 * leaves, and the block width its cuts were placed by. The partition's shape (where each node is cut) depends
 * only on the number of points and that width, so the order alone gives back every node's points, and
 * {@link PointIndex#fromOrder} rebuilds the index without its splits (their projections and selections, most of
 * a build), each node's centre and radius computed again from its points. Any permutation is a valid partition:
 * the bounds hold for whatever points a node holds, so an order that is not the index's own changes the search's
 * speed, never its answers.
 *
 * <pre>{@code
 * LeafOrder order = index.leafOrder();
 * PointIndex again = PointIndex.fromOrder(rows, n, d, kernel, order, true, 2, CancellationToken.NEVER);
 * }</pre>
 *
 * @param cutWidth the block width the partition's cuts were placed by (1 to {@link #MAX_CUT_WIDTH})
 * @param points every point index {@code 0 .. n-1} once, in leaf order (not copied: callers pass fresh arrays)
 */
public record LeafOrder(int cutWidth, int[] points) {
    /** Largest cut width an order may name (the kernels' block widths are 8 and 16). */
    public static final int MAX_CUT_WIDTH = 64;

    /**
     * Refuses, naming the problem, a cut width out of range or points that are not a permutation of
     * {@code 0 .. n-1}.
     */
    public LeafOrder {
        if (cutWidth < 1 || cutWidth > MAX_CUT_WIDTH) {
            throw new InvalidInputException("the index order's cut width is " + cutWidth + " (1 to " + MAX_CUT_WIDTH
                    + " expected)");
        }
        int n = points.length;
        boolean[] seen = new boolean[n];
        for (int i = 0; i < n; i++) {
            int p = points[i];
            if (p < 0 || p >= n || seen[p]) {
                throw new InvalidInputException("the index order's entry " + i + " is point " + p + " ("
                        + (p < 0 || p >= n ? "out of 0.." + (n - 1) : "named twice") + ")");
            }
            seen[p] = true;
        }
    }

    /** Number of points. */
    public int size() {
        return points.length;
    }
}
