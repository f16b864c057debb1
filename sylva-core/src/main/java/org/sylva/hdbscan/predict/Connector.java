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
 * <p>After a weighted fit the search runs over the stored rows, up to the row whose weights reach {@code k}
 * points, and each row found enters the list as its copies ({@link PointCopies}), in a run: the list of the
 * repeated rows' points, in the same (distance, point) order.
 *
 * <pre>{@code
 * Connector c = new Connector(search, predictionCore, s, null);
 * Connector.Scratch w = c.scratch();
 * c.connect(queries, i * d, w);   // w.neighbour, w.lambda, w.coincides
 * }</pre>
 */
final class Connector {
    private final FittedNeighbours search;
    private final double[] core;
    private final int coreAt;
    /** Points in the list. */
    private final int k;
    /** The points of each stored row after a weighted fit; null when each row is one point. */
    private final PointCopies copies;

    /**
     * @param core prediction core distance per stored row
     * @param s the package's {@code min_samples} (Sylva's {@code minSamples - 1})
     * @param copies the points of each stored row after a weighted fit, else null
     */
    Connector(FittedNeighbours search, double[] core, int s, PointCopies copies) {
        this.search = search;
        this.core = core;
        this.copies = copies;
        this.k = listLength(core, s, copies);
        this.coreAt = Math.min(s, k - 1);
    }

    /** Points in each new point's list: the package's {@code 2 s}, at least {@code s + 1}, at most the fitted points. */
    int listLength() {
        return k;
    }

    /** {@link #listLength()} of a connector made with these arguments. */
    static int listLength(double[] core, int s, PointCopies copies) {
        int points = copies == null ? core.length : copies.points();
        return Math.min(points, Math.max(2 * s, s + 1));
    }

    /** One thread's neighbour list and the answer for the last point connected. */
    static final class Scratch {
        final NeighbourSearch.Scratch list;
        /** The list of points: the rows' list itself, or its expansion into copies. */
        final double[] dist;
        final int[] point;
        /** The stored row of each point of the list. */
        final int[] row;
        /** Index of the connecting point in the trees. */
        int neighbour;
        /** {@code 1 / mr} of the connection, {@code Double.MAX_VALUE} at distance 0. */
        double lambda;
        /** True when the new point is at distance 0 from a fitted point. */
        boolean coincides;

        Scratch(NeighbourSearch.Scratch list, int k, boolean copies) {
            this.list = list;
            this.dist = copies ? new double[k] : list.dist;
            this.point = copies ? new int[k] : list.index;
            this.row = copies ? new int[k] : list.index;
        }
    }

    Scratch scratch() {
        return copies == null ? new Scratch(search.scratch(k), k, false)
                : new Scratch(search.scratch(copies.weights(), k), k, true);
    }

    /**
     * One thread's scratch for up to {@link NeighbourSearch#GROUP} points connected together: the answer for the
     * {@code i}-th point of the last group is in {@code member[i]}.
     */
    static final class Group {
        final Scratch[] member;
        final NeighbourSearch.Scratch[] lists;
        final int[] offs;

        Group(Scratch[] member) {
            this.member = member;
            lists = new NeighbourSearch.Scratch[member.length];
            offs = new int[member.length];
            for (int i = 0; i < member.length; i++) lists[i] = member[i].list;
        }
    }

    /** Scratch for groups of up to {@code size} points ({@code 1 <= size <= NeighbourSearch.GROUP}). */
    Group group(int size) {
        Scratch[] m = new Scratch[size];
        for (int i = 0; i < m.length; i++) m[i] = scratch();
        return new Group(m);
    }

    /**
     * Connects the {@code g} points {@code q[offs[i] .. offs[i] + d)} (at most the group's size; offsets in {@code w.offs}) in one
     * search ({@link FittedNeighbours#nearest(double[], int[], int, NeighbourSearch.Scratch[])}); each answer is
     * what {@link #connect} gives.
     */
    void connect(double[] q, int g, Group w) {
        search.nearest(q, w.offs, g, w.lists);
        for (int i = 0; i < g; i++) choose(w.member[i]);
    }

    /** Connects the point {@code q[off .. off + d)}; the answer is in {@code s}. */
    void connect(double[] q, int off, Scratch s) {
        search.nearest(q, off, s.list);
        choose(s);
    }

    /** The connection from the list in {@code s}: its first neighbour of smallest mutual reachability. */
    private void choose(Scratch s) {
        if (copies != null) expand(s);
        double[] dist = s.dist;
        int[] row = s.row;
        double own = dist[coreAt];
        int best = 0;
        double bestMr = Double.POSITIVE_INFINITY;
        for (int j = 0; j < k; j++) {
            double mr = Math.max(Math.max(core[row[j]], own), dist[j]);
            if (mr < bestMr) {                 // strictly: the first minimum in ascending distance order
                bestMr = mr;
                best = j;
            }
        }
        s.neighbour = s.point[best];
        s.lambda = bestMr > 0.0 ? 1.0 / bestMr : Double.MAX_VALUE;
        s.coincides = dist[0] == 0.0;
    }

    /** The first {@code k} copies of the rows found, in list order: each row's points in a run. */
    private void expand(Scratch s) {
        int j = 0;
        // the rows found stand for at least k points (the search stops at the row that reaches them)
        for (int e = 0; e < s.list.found && j < k; e++) {
            int r = s.list.index[e], first = copies.first(r), w = copies.weight(r);
            for (int c = 0; c < w && j < k; c++, j++) {
                s.dist[j] = s.list.dist[e];
                s.point[j] = first + c;
                s.row[j] = r;
            }
        }
    }
}
