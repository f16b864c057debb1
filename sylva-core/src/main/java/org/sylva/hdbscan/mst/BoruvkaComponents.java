package org.sylva.hdbscan.mst;

import java.util.Arrays;
import org.sylva.parallel.ParallelWork;
import org.sylva.progress.CancellationToken;

/**
 * The bookkeeping of Borůvka's rounds that every engine shares: the components (union-find), each
 * point's and each component's cheapest edge so far under {@link EdgeOrder}, the two exact shortcuts, the
 * merge that adds every component's cheapest edge, and the finished tree in edge order. An engine only
 * supplies the scan: the cheapest edge into another component of each point the shortcuts leave
 * ({@link #needsScan}), reported with {@link #offerPointEdge}.
 *
 * <p><b>Why the shortcuts are exact.</b> Every edge of {@code p} weighs at least {@code core_p}, and
 * {@code p}'s nearest list holds the {@code k} first points in (distance, original index) order, so every
 * point {@code o} outside it has {@code (d_o, o) > (d_last, o_last)}, the list's last entry: its edge
 * weighs at least {@code d_last}, and if exactly {@code d_last} then {@code o > o_last} and its endpoints
 * come after {@code (p, o_last)} ({@link #outsideAfter}; with {@code alpha} only the weight counts, as
 * division may merge distinct distances, and so it does for lists kept in another order). (1) {@link #neighbourEdges}: when every edge to a point outside
 * the list comes after the list's lightest edge into another component, that edge is {@code p}'s best: no
 * scan. (2) When every edge of {@code p} outside its list comes after the best edge its component already
 * has (that best includes {@code p}'s list edges), or {@code core_p} exceeds that edge's weight, or an
 * earlier round's scan found no edge of {@code p} into another component up to that weight
 * ({@link #recordNoEdgeUpTo}), no edge of {@code p} can win: no scan. Ties matter: on integer data most weights tie, and the endpoints decide.
 * With both off every point is scanned, and the tree is the same (tested).
 *
 * <p><b>Why a round may leave one component out</b> ({@link #leaveOutLargest}). Under the total
 * {@link EdgeOrder} the minimum spanning tree is unique and every component's cheapest edge belongs to it,
 * so a round may add the cheapest edges of any subset of the components: the tree is the same. Leaving out
 * the component with the most points still to scan spares their scans (in the late rounds most points
 * belong to one large component, and with two components left both cheapest edges are the same edge).
 * The other {@code c - 1} components each add an edge and each edge is chosen by at most two of them, so
 * at most {@code ceil(c / 2)} components remain: the round count stays within {@code ceil(log2 n)}.
 *
 * <pre>{@code
 * BoruvkaComponents c = new BoruvkaComponents(core, lists, 1.0);
 * c.startRound();
 * boolean[] resolved = c.neighbourEdges();
 * boolean[] scan = new boolean[n];
 * for (int p = 0; p < n; p++) scan[p] = c.needsScan(p, resolved);
 * c.leaveOutLargest(scan);                    // clears the scans of one component
 * for (int p = 0; p < n; p++) if (scan[p]) c.offerPointEdge(p, w, q);   // from a scan
 * int added = c.merge();
 * }</pre>
 */
public final class BoruvkaComponents {
    /** No edge. */
    public static final int NONE = -1;

    /** The nearest lists the shortcuts read: per point the {@code count()} nearest points, itself included, nearest first. */
    public interface NearestLists {
        int count();

        /**
         * True when each list holds the first points in (distance, original index) order, as
         * {@link org.sylva.hdbscan.core.CoreDistances} keeps them: the shortcuts then also decide ties by
         * the last entry's index. False (the default) uses distances only.
         */
        default boolean tiesByIndex() {
            return false;
        }

        int neighbour(int p, int r);

        double distance(int p, int r);
    }

    /** The nearest lists of {@code cd} as the shortcuts read them. */
    static NearestLists listsOf(org.sylva.hdbscan.core.CoreDistances cd) {
        return new NearestLists() {
            @Override
            public int count() {
                return cd.k();
            }

            @Override
            public boolean tiesByIndex() {
                return true;
            }

            @Override
            public int neighbour(int p, int r) {
                return cd.neighbour(p, r);
            }

            @Override
            public double distance(int p, int r) {
                return cd.neighbourDistance(p, r);
            }
        };
    }

    private final int n;
    private final int k;
    private final double[] core;
    private final NearestLists lists;
    private final double alpha;
    private final boolean divide;
    /** Ties at a list's last distance are decided by its last index (see {@link #outsideAfter}). */
    private final boolean tieOrder;

    private final int[] comp;
    private final int[] parent;
    private final int[] size;
    /** Per point: the cheapest edge found this round (scan or neighbour edge), other endpoint or NONE. */
    final double[] bestW;
    final int[] bestQ;
    /** Per component (id = root): the cheapest edge so far. */
    private final double[] compW;
    private final int[] compLo;
    private final int[] compHi;

    private final int[] edgeFrom;
    private final int[] edgeTo;
    private final double[] edgeW;
    private int edges;
    /** Per point, this round's lightest neighbour edge into another component (shortcut 1), or NONE. */
    private double[] pointW;
    private int[] pointQ;
    /**
     * Per point, a weight up to which it has no edge into another component at all, learnt from a scan
     * that examined every such edge ({@link #recordNoEdgeUpTo}); {@code -inf} when unknown. Components only
     * grow, so the other components' points only become fewer and it stays true in later rounds.
     */
    private final double[] clearTo;
    /** Per point, its list's last distance (scaled by alpha) and index, copied while the list is read. */
    private double[] lastW;
    private int[] lastO;
    /**
     * Per point: its whole list lies in its own component. Components only grow, so this stays true, and
     * later rounds skip reading the list (it has no neighbour edge into another component).
     */
    private boolean[] listInside;
    /** The component this round leaves out ({@link #leaveOutLargest}), or NONE. */
    private int leftOut = NONE;
    /** Per component (id = root): its points still to scan, counted by {@link #leaveOutLargest}. */
    private int[] toScan;
    private long scansLeftOut;

    /** Components of {@code core.length} single points; {@code alpha} scales distances as {@code d / alpha}. */
    public BoruvkaComponents(double[] core, NearestLists lists, double alpha) {
        this.n = core.length;
        this.k = lists.count();
        this.core = core;
        this.lists = lists;
        this.alpha = alpha;
        this.divide = alpha != 1.0;
        this.tieOrder = lists.tiesByIndex() && !divide;
        comp = new int[n];
        parent = new int[n];
        size = new int[n];
        for (int i = 0; i < n; i++) {
            comp[i] = i;
            parent[i] = i;
            size[i] = 1;
        }
        bestW = new double[n];
        bestQ = new int[n];
        Arrays.fill(bestQ, NONE);
        compW = new double[n];
        compLo = new int[n];
        compHi = new int[n];
        clearTo = new double[n];
        Arrays.fill(clearTo, Double.NEGATIVE_INFINITY);
        int m = Math.max(n - 1, 0);
        edgeFrom = new int[m];
        edgeTo = new int[m];
        edgeW = new double[m];
    }

    /**
     * Starts a round: each component's cheapest edge so far is the lightest of the previous round's point
     * edges that still join two components (after the merge most join points now in one component; the
     * others are real edges out of both, so they bound the new components' cheapest edges from the start,
     * which lets the shortcuts and the scans skip more). Then forgets the points' edges.
     */
    public void startRound() {
        leftOut = NONE;
        Arrays.fill(compW, Double.POSITIVE_INFINITY);
        Arrays.fill(compLo, Integer.MAX_VALUE);
        Arrays.fill(compHi, Integer.MAX_VALUE);
        for (int p = 0; p < n; p++) {
            int q = bestQ[p];
            if (q == NONE || comp[p] == comp[q]) continue;
            offer(comp[p], bestW[p], p, q);
            offer(comp[q], bestW[p], p, q);
        }
        Arrays.fill(bestW, Double.POSITIVE_INFINITY);
        Arrays.fill(bestQ, NONE);
    }

    /**
     * Shortcut 1: every point's lightest neighbour edge into another component is offered to its component;
     * returns which points it resolves (their list is complete and that edge weighs their core distance),
     * with their edge kept as the point's best.
     */
    public boolean[] neighbourEdges() {
        return neighbourEdges(null, CancellationToken.NEVER);
    }

    /** Points per unit of {@link #neighbourEdges(ParallelWork, CancellationToken)}'s parallel pass. */
    static final int NEIGHBOUR_CHUNK = 4096;

    /**
     * As {@link #neighbourEdges()}, the points' lists read on {@code work}'s threads ({@code null}: this
     * thread): each point's lightest neighbour edge is independent of the others; the offers to the
     * components then follow in point order on this thread, so the result is the same for any threads.
     */
    public boolean[] neighbourEdges(ParallelWork work, CancellationToken cancel) {
        boolean[] resolved = new boolean[n];
        if (pointW == null) {
            pointW = new double[n];
            pointQ = new int[n];
            lastW = new double[n];
            lastO = new int[n];
            listInside = new boolean[n];
            for (int p = 0; p < n; p++) {
                if (k > 0) {
                    double last = lists.distance(p, k - 1);
                    lastW[p] = divide ? last / alpha : last;
                    lastO[p] = lists.neighbour(p, k - 1);
                }
            }
        }
        if (work == null) {
            lightestNeighbourEdges(0, n, resolved);
        } else {
            work.ranges(n, NEIGHBOUR_CHUNK, cancel, (from, to) -> lightestNeighbourEdges(from, to, resolved));
        }
        for (int p = 0; p < n; p++) {
            if (pointQ[p] != NONE) offer(comp[p], pointW[p], p, pointQ[p]);
        }
        return resolved;
    }

    /** Points {@code from .. to-1}: each one's lightest neighbour edge into another component. */
    private void lightestNeighbourEdges(int from, int to, boolean[] resolved) {
        for (int p = from; p < to; p++) {
            pointQ[p] = NONE;
            if (listInside[p]) continue;
            int cp = comp[p];
            double cpCore = core[p];
            double bw = Double.POSITIVE_INFINITY;
            int bq = NONE;
            for (int r = 0; r < k; r++) {
                int q = lists.neighbour(p, r);
                if (comp[q] == cp) continue;
                double d = lists.distance(p, r);
                if (divide) d /= alpha;
                double w = Math.max(Math.max(cpCore, core[q]), d);
                if (bq == NONE || EdgeOrder.less(w, p, q, bw, p, bq)) {   // the first, even of weight +inf
                    bw = w;
                    bq = q;
                }
            }
            pointW[p] = bw;
            pointQ[p] = bq;
            if (bq == NONE) {
                listInside[p] = true;
                continue;
            }
            if (outsideAfter(p, bw, EdgeOrder.endpoints(p, bq))) {
                resolved[p] = true;
                bestW[p] = bw;
                bestQ[p] = bq;
            }
        }
    }

    /**
     * True unless shortcut 1 resolved {@code p} or shortcut 2 rules it out: its core exceeds its component's
     * best edge, or every edge to a point outside its list comes after that edge.
     */
    public boolean needsScan(int p, boolean[] resolved) {
        int c = comp[p];
        return !(resolved[p] || core[p] > compW[c] || compW[c] <= clearTo[p]
                || outsideAfter(p, compW[c], componentEndpoints(c)));
    }

    /**
     * Leaves this round's largest scan out (see the class comment): of the components with points to scan
     * ({@code scan[p]}, per point), the one with the most, the lowest root among equals, has its points'
     * flags cleared and adds no edge of its own at {@link #merge}; the others' edges into it still join it.
     * Returns that component's root, or {@link #NONE} when no point needs a scan. Call it once per round,
     * after the shortcuts decided {@code scan}.
     */
    public int leaveOutLargest(boolean[] scan) {
        if (toScan == null) toScan = new int[n];
        Arrays.fill(toScan, 0);
        for (int p = 0; p < n; p++) {
            if (scan[p]) toScan[comp[p]]++;
        }
        int most = 0;
        int c = NONE;
        for (int r = 0; r < n; r++) {
            if (toScan[r] > most) {
                most = toScan[r];
                c = r;
            }
        }
        if (c == NONE) return NONE;
        for (int p = 0; p < n; p++) {
            if (comp[p] == c) scan[p] = false;
        }
        leftOut = c;
        scansLeftOut += most;
        return c;
    }

    /** Point scans that {@link #leaveOutLargest} spared, over all rounds so far (tests). */
    public long scansLeftOut() {
        return scansLeftOut;
    }

    /**
     * Records that point {@code p} has no edge of weight at most {@code w} into another component: a scan
     * examined every such edge and found none. Later rounds skip {@code p} while its component's best edge
     * weighs at most that (shortcut 2).
     */
    public void recordNoEdgeUpTo(int p, double w) {
        if (w > clearTo[p]) clearTo[p] = w;
    }

    /**
     * True when every edge from {@code p} to a point outside its nearest list comes strictly after the edge
     * of weight {@code w} and endpoints {@code e} ({@link EdgeOrder#endpoints}); see the class comment.
     */
    private boolean outsideAfter(int p, double w, long e) {
        if (k == n) return true;   // the list holds every point
        if (k == 0 || lastW == null) return false;   // lastW: filled by neighbourEdges, which the shortcuts follow
        double last = lastW[p];
        if (last > w) return true;
        if (!tieOrder || last < w) return false;
        return EdgeOrder.endpoints(p, lastO[p]) >= e;
    }

    /** The component (its root point) of point {@code p} in this round. */
    public int component(int p) {
        return comp[p];
    }

    /** Writes each point's component (its root point) into {@code out} (length {@code n}). */
    public void componentsInto(int[] out) {
        System.arraycopy(comp, 0, out, 0, n);
    }

    /** The weight of component {@code c}'s cheapest edge so far (infinite when none): a bound for scans. */
    public double componentWeight(int c) {
        return compW[c];
    }

    /**
     * The {@link EdgeOrder#endpoints} of component {@code c}'s cheapest edge so far ({@link
     * EdgeOrder#NO_ENDPOINTS} when none): with {@link #componentWeight}, a bound that also decides ties.
     */
    public long componentEndpoints(int c) {
        return compLo[c] == Integer.MAX_VALUE ? EdgeOrder.NO_ENDPOINTS : EdgeOrder.endpoints(compLo[c], compHi[c]);
    }

    /** Reports a scan's result: {@code p}'s cheapest edge into another component, to {@code q}, weighs {@code w}. */
    public void offerPointEdge(int p, double w, int q) {
        bestW[p] = w;
        bestQ[p] = q;
    }

    /** Keeps the lighter of component {@code c}'s current edge and {@code (w, a, b)} under {@link EdgeOrder}. */
    private void offer(int c, double w, int a, int b) {
        int lo = Math.min(a, b), hi = Math.max(a, b);
        if (EdgeOrder.compare(w, lo, hi, compW[c], compLo[c], compHi[c]) < 0) {
            compW[c] = w;
            compLo[c] = lo;
            compHi[c] = hi;
        }
    }

    /**
     * Adds every component's cheapest edge (joining what it joins), except the one of the component
     * {@link #leaveOutLargest} left out, whose best so far is only a bound; returns how many edges were added.
     */
    public int merge() {
        for (int p = 0; p < n; p++) {
            if (bestQ[p] != NONE) offer(comp[p], bestW[p], p, bestQ[p]);
        }
        int added = 0;
        for (int c = 0; c < n; c++) {
            if (compLo[c] == Integer.MAX_VALUE || c == leftOut) continue;
            int a = compLo[c], b = compHi[c];
            int ra = find(a), rb = find(b);
            if (ra == rb) continue;
            if (size[ra] < size[rb]) {
                int t = ra;
                ra = rb;
                rb = t;
            }
            parent[rb] = ra;
            size[ra] += size[rb];
            edgeFrom[edges] = a;
            edgeTo[edges] = b;
            edgeW[edges] = compW[c];
            edges++;
            added++;
        }
        for (int p = 0; p < n; p++) comp[p] = find(p);
        return added;
    }

    /** Edges added so far. */
    public int edges() {
        return edges;
    }

    /** The edges added, {@code from < to}, in {@link EdgeOrder}. */
    public SpanningTree tree() {
        return SpanningTree.wrap(n, Arrays.copyOf(edgeFrom, edges), Arrays.copyOf(edgeTo, edges),
                Arrays.copyOf(edgeW, edges)).inEdgeOrder();
    }

    /** Union-find root with path halving; the loop is bounded by the number of points. */
    private int find(int x) {
        for (int i = 0; i < n && parent[x] != x; i++) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }
}
