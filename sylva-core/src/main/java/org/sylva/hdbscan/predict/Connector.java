package org.sylva.hdbscan.predict;

/**
 * Finds where a new point joins the fitted points, as the {@code hdbscan} package's
 * {@code _find_neighbor_and_lambda} does: among the {@code 2 s} nearest fitted points
 * ({@code s} = the package's {@code min_samples}, Sylva's minus one), ascending by distance
 * {@code d_j}, the new point's own core distance is {@code d_s} (its {@code (s+1)}-th nearest fitted
 * point), its mutual reachability to neighbour {@code j} is {@code max(core_j, d_s, d_j)} with
 * {@code core_j} the fitted point's prediction core distance, and it connects to the <b>first</b>
 * neighbour of smallest mutual reachability in that order, at {@code lambda = 1 / mr}
 * ({@code Double.MAX_VALUE} for {@code mr = 0}, as the package). Ties in mutual reachability are the
 * rule (the new point's core distance bounds every close neighbour), so the raw-distance order decides;
 * among equal raw distances the lower fitted index comes first ({@link NeighbourSearch}).
 *
 * <p>Where the package has no value Sylva extends it: with {@code s = 0} (Sylva {@code minSamples = 1})
 * one neighbour is searched and {@code d_0} is the core distance; with fewer than {@code 2 s} fitted
 * points all of them are searched and the core distance is the last one's when {@code s} exceeds the
 * list (the package's {@code KDTree} query refuses both).
 *
 * <pre>{@code
 * Connector c = new Connector(search, predictionCore, s);
 * Connector.Scratch w = c.scratch();
 * c.connect(queries, i * d, w);   // w.neighbour, w.lambda, w.coincides
 * }</pre>
 */
final class Connector {
    private final NeighbourSearch search;
    private final double[] core;
    private final int coreAt;
    private final int k;

    /**
     * @param core prediction core distance per fitted point
     * @param s the package's {@code min_samples} (Sylva's {@code minSamples - 1})
     */
    Connector(NeighbourSearch search, double[] core, int s) {
        this.search = search;
        this.core = core;
        this.k = Math.min(core.length, Math.max(2 * s, s + 1));
        this.coreAt = Math.min(s, k - 1);
    }

    /** One thread's neighbour list and the answer for the last point connected. */
    static final class Scratch {
        final NeighbourSearch.Scratch list;
        /** Fitted index of the connecting point. */
        int neighbour;
        /** {@code 1 / mr} of the connection, {@code Double.MAX_VALUE} at distance 0. */
        double lambda;
        /** True when the new point is at distance 0 from a fitted point. */
        boolean coincides;

        Scratch(NeighbourSearch.Scratch list) {
            this.list = list;
        }
    }

    Scratch scratch() {
        return new Scratch(search.scratch(k));
    }

    /** Connects the point {@code q[off .. off + d)}; the answer is in {@code s}. */
    void connect(double[] q, int off, Scratch s) {
        search.nearest(q, off, s.list);
        double[] dist = s.list.dist;
        int[] idx = s.list.index;
        double own = dist[coreAt];
        int best = 0;
        double bestMr = Double.POSITIVE_INFINITY;
        for (int j = 0; j < k; j++) {
            double mr = Math.max(Math.max(core[idx[j]], own), dist[j]);
            if (mr < bestMr) {                 // strictly: the first minimum in ascending distance order
                bestMr = mr;
                best = j;
            }
        }
        s.neighbour = idx[best];
        s.lambda = bestMr > 0.0 ? 1.0 / bestMr : Double.MAX_VALUE;
        s.coincides = dist[0] == 0.0;
    }
}
