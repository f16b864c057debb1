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
 * <p><b>The list's first {@code s + 1} entries usually decide.</b> A point's search first finds only
 * {@code s + 1} neighbours ({@link #searchedLength()}), which give its core distance {@code d_s} and the
 * smallest mutual reachability {@code m} among them. Every later entry of the {@code 2 s} list lies at least
 * as far as the last one found, so its mutual reachability is at least that distance: where {@code m} is at
 * most it, no later entry has a strictly smaller value, and the first minimum, the package's answer, is among
 * the entries found. Otherwise (a new point denser than each of its {@code s + 1} nearest fitted points) the
 * point is searched again for the whole list. The nearer bound makes each search cheaper, and few points need
 * the second one; the answers are bitwise those of the whole list (tested against it).
 *
 * <p>After a weighted fit the search runs over the stored rows, up to the row whose weights reach the points
 * asked for, and each row found enters the list as its copies ({@link PointCopies}), in a run: the list of the
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
    /** Points in the package's list. */
    private final int k;
    /** Points each search finds first: {@code min(k, s + 1)}, enough for the core distance. */
    private final int first;
    /** The points of each stored row after a weighted fit; null when each row is one point. */
    private final PointCopies copies;
    /** Points searched again for the whole list (tests read it). */
    private final java.util.concurrent.atomic.LongAdder searchedAgain = new java.util.concurrent.atomic.LongAdder();

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
        this.first = searchedLength(core, s, copies);
        this.coreAt = Math.min(s, k - 1);
    }

    /** Points in each new point's list: the package's {@code 2 s}, at least {@code s + 1}, at most the fitted points. */
    int listLength() {
        return k;
    }

    /** Points each search finds first ({@link #searchedLength(double[], int, PointCopies)}). */
    int searchedLength() {
        return first;
    }

    /** Points searched again for the whole list so far. */
    long searchedAgain() {
        return searchedAgain.sum();
    }

    /** {@link #listLength()} of a connector made with these arguments. */
    static int listLength(double[] core, int s, PointCopies copies) {
        int points = copies == null ? core.length : copies.points();
        return Math.min(points, Math.max(2 * s, s + 1));
    }

    /** {@link #searchedLength()} of a connector made with these arguments: {@code s + 1}, at most the whole list. */
    static int searchedLength(double[] core, int s, PointCopies copies) {
        return Math.min(listLength(core, s, copies), s + 1);
    }

    /** One thread's neighbour lists and the answer for the last point connected. */
    static final class Scratch {
        /** The first search's list ({@link #searchedLength()} points). */
        final NeighbourSearch.Scratch list;
        /** The whole list's, for a point searched again; made on the first such point. */
        NeighbourSearch.Scratch whole;
        /** After a weighted fit, the list of points the rows found expand to; null otherwise. */
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
            this.dist = copies ? new double[k] : null;
            this.point = copies ? new int[k] : null;
            this.row = copies ? new int[k] : null;
        }
    }

    Scratch scratch() {
        return new Scratch(list(first), k, copies != null);
    }

    /** A search's scratch for lists of {@code points} points. */
    private NeighbourSearch.Scratch list(int points) {
        return copies == null ? search.scratch(points) : search.scratch(copies.weights(), points);
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
        for (int i = 0; i < g; i++) {
            Scratch s = w.member[i];
            if (!choose(s, s.list, first)) searchWhole(q, w.offs[i], s);
        }
    }

    /** Connects the point {@code q[off .. off + d)}; the answer is in {@code s}. */
    void connect(double[] q, int off, Scratch s) {
        search.nearest(q, off, s.list);
        if (!choose(s, s.list, first)) searchWhole(q, off, s);
    }

    /** The point {@code q[off .. off + d)} searched again for the whole list, which always decides. */
    private void searchWhole(double[] q, int off, Scratch s) {
        searchedAgain.increment();
        if (s.whole == null) s.whole = list(k);
        search.nearest(q, off, s.whole);
        if (!choose(s, s.whole, k)) throw new IllegalStateException("the whole list did not decide");
    }

    /**
     * The connection from the first {@code len} points of the list in {@code list} (the whole list when
     * {@code len == k}): its first neighbour of smallest mutual reachability, into {@code s}. Returns false,
     * leaving {@code s} as it was, when a later point of the whole list could have a smaller one.
     */
    private boolean choose(Scratch s, NeighbourSearch.Scratch list, int len) {
        double[] dist;
        int[] row, point;
        if (copies != null) {
            expand(s, list, len);
            dist = s.dist;
            row = s.row;
            point = s.point;
        } else {
            dist = list.dist;
            row = list.index;
            point = list.index;
        }
        double own = dist[coreAt];
        int best = 0;
        double bestMr = Double.POSITIVE_INFINITY;
        for (int j = 0; j < len; j++) {
            double mr = Math.max(Math.max(core[row[j]], own), dist[j]);
            if (mr < bestMr) {                 // strictly: the first minimum in ascending distance order
                bestMr = mr;
                best = j;
            }
        }
        // every later point lies at least as far as the last one here, and its mutual reachability is at
        // least its distance: none is strictly below a minimum within that distance
        if (len < k && bestMr > dist[len - 1]) return false;
        s.neighbour = point[best];
        s.lambda = bestMr > 0.0 ? 1.0 / bestMr : Double.MAX_VALUE;
        s.coincides = dist[0] == 0.0;
        return true;
    }

    /** The first {@code len} copies of the rows found, in list order: each row's points in a run. */
    private void expand(Scratch s, NeighbourSearch.Scratch list, int len) {
        int j = 0;
        // the rows found stand for at least len points (the search stops at the row that reaches them)
        for (int e = 0; e < list.found && j < len; e++) {
            int r = list.index[e], firstCopy = copies.first(r), w = copies.weight(r);
            for (int c = 0; c < w && j < len; c++, j++) {
                s.dist[j] = list.dist[e];
                s.point[j] = firstCopy + c;
                s.row[j] = r;
            }
        }
    }
}
