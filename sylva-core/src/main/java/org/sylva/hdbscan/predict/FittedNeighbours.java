package org.sylva.hdbscan.predict;

/**
 * The exact nearest fitted points of a new point, in (distance, fitted index) order: over the fitted points'
 * partition for the Euclidean metric ({@link NeighbourSearch}), by a scan of every fitted point for the
 * others and for a Euclidean model's first few new points before it has an index ({@link MetricScan}).
 * {@link Connector} reads either the same way.
 *
 * <pre>{@code
 * FittedNeighbours s = fittedSearch.search(execution, kernel, m, k);
 * NeighbourSearch.Scratch w = s.scratch(k);
 * s.nearest(queries, i * d, w);          // w.dist[0 .. w.found), w.index[0 .. w.found), nearest first
 * }</pre>
 */
interface FittedNeighbours {
    /** Scratch for lists of {@code k} entries ({@code 1 <= k <=} the fitted points). */
    NeighbourSearch.Scratch scratch(int k);

    /**
     * Scratch for the rows of a weighted fit ({@code weights}: one per fitted row, each at least 1) that stand
     * for the {@code points} nearest points.
     */
    NeighbourSearch.Scratch scratch(int[] weights, int points);

    /** The nearest fitted points of the point {@code q[off .. off + d)}, into {@code s}. */
    void nearest(double[] q, int off, NeighbourSearch.Scratch s);

    /**
     * The nearest fitted points of each of {@code g} points, {@code q[offs[i] .. offs[i] + d)} into {@code s[i]}:
     * the same lists as {@code g} calls of {@link #nearest}, which is what this does unless a search can share
     * work between points that lie near one another ({@link NeighbourSearch}).
     */
    default void nearest(double[] q, int[] offs, int g, NeighbourSearch.Scratch[] s) {
        for (int i = 0; i < g; i++) nearest(q, offs[i], s[i]);
    }
}
