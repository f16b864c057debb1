package org.sylva.hdbscan.metric;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongArray;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.engine.FittedPoints;
import org.sylva.hdbscan.engine.HdbscanEngine;
import org.sylva.hdbscan.engine.MutualReachabilityMst;
import org.sylva.hdbscan.mst.EdgeOrder;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.parallel.Execution;
import org.sylva.parallel.ParallelWork;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The exact engine for manhattan, chebyshev and minkowski in few dimensions: a {@link KdTree} prunes both
 * stages, and the answers are bitwise those of {@link BruteForceEngine} (the same distances from
 * {@link PairDistances}; the tree's bounds never exceed them, so pruning drops no candidate). Core distances:
 * each point's {@code minSamples}-th smallest distance, by a search of the tree that skips a box once the
 * bound reaches the current k-th value. Spanning tree: Borůvka. Each round finds, for every component, its
 * lightest edge to another component under {@link EdgeOrder}, by a search from each of its points that skips
 * a node whose points all share the point's component, or whose mutual-reachability bound
 * {@code max(core_q, smallest core in the node, box bound / alpha)}, taken with the node's smallest row index
 * as the tie order's side, comes after the component's lightest edge found so far. Every chosen edge belongs
 * to the one minimum spanning tree of that total order, so the tree is the brute-force engine's, whatever
 * the thread count (a round's searches are split in fixed chunks; each point keeps its own lightest edge and
 * a sequential merge takes each component's lightest by the same order; what the workers share only lets
 * them stop sooner).
 *
 * <p>Boxes prune well where the data's own dimension is low, whatever its coordinates number, and little where
 * the points spread evenly in many dimensions, where Borůvka's rounds would each cost nearly all n^2 pairs and
 * Prim's single pass over them is cheaper. So the engine first runs the core distances' search from
 * {@link #SAMPLE} points spread over the tree and counts the pairs it computes; above {@link #MAX_SHARE} of all
 * pairs, and always in more than {@link #MAX_DIMENSIONS} dimensions, the brute-force engine runs instead
 * (with its point limit), except on more points than that limit, where the tree runs however little it
 * prunes rather than refuse the fit. The choice changes the time only, never the answer, and it depends on
 * the input alone. Stateless and thread-safe.
 *
 * <pre>{@code
 * HdbscanEngine e = new KdTreeEngine(Metric.manhattan());
 * MutualReachabilityMst m = e.spanningTree(new FittedPoints(rows, n, d), 5, 1.0, Execution.sequential());
 * }</pre>
 */
public final class KdTreeEngine implements HdbscanEngine {
    /** Most dimensions the tree runs in; above, {@link BruteForceEngine}. */
    public static final int MAX_DIMENSIONS = 16;
    /** Progress stage of the spanning tree. */
    public static final String TREE_STAGE = "spanning tree (Borůvka)";
    /** Points per unit of parallel work. */
    private static final int CHUNK = 512;
    /** Points whose searches estimate how much the tree prunes. */
    static final int SAMPLE = 128;
    /** The largest share of all pairs the sampled searches may compute for the fit to run on the tree. */
    static final double MAX_SHARE = 0.25;
    /** Stage of the tree's build and the sampled searches, when the fit runs on the tree. */
    public static final String TREE_BUILD_STAGE = "k-d tree";
    /** Stage of the tree's build and the sampled searches, when they send the fit to the brute-force engine. */
    public static final String PROBE_STAGE = "k-d tree probe";

    private final Metric metric;
    private final double maxShare;

    /**
     * @throws IllegalArgumentException for a metric the tree does not bound ({@link KdTree#bounds})
     */
    public KdTreeEngine(Metric metric) {
        this(metric, MAX_SHARE);
    }

    /** As {@link #KdTreeEngine(Metric)} with another share of pairs up to which the tree runs (tests: infinity). */
    KdTreeEngine(Metric metric, double maxShare) {
        this.metric = Objects.requireNonNull(metric, "metric");
        if (!KdTree.bounds(metric)) throw new IllegalArgumentException("no k-d tree bounds the metric " + metric.describe());
        this.maxShare = maxShare;
    }

    public Metric metric() {
        return metric;
    }

    @Override
    public String name() {
        return "cpu/kd-tree/" + metric.name();
    }

    /**
     * True when a fit of {@code d} dimensions under {@code metric} may run on the tree: a metric the tree
     * bounds, in at most {@link #MAX_DIMENSIONS} dimensions (whether it does is decided on the data, see the
     * class comment; {@link #ranOnTree} tells after the fit).
     */
    public static boolean usesTree(Metric metric, int d) {
        return KdTree.bounds(metric) && d <= MAX_DIMENSIONS;
    }

    /** True when the stage timings of a fit say it ran on the tree (rather than on the brute-force engine). */
    public static boolean ranOnTree(Map<String, Double> stageSeconds) {
        return stageSeconds.containsKey(TREE_BUILD_STAGE);
    }

    @Override
    public MutualReachabilityMst spanningTree(FittedPoints points, int minSamples, double alpha, Execution execution) {
        if (points.d() > MAX_DIMENSIONS) return new BruteForceEngine(metric).spanningTree(points, minSamples, alpha, execution);
        int n = points.n();
        execution.progress().progress(CoreDistances.STAGE, 0, 1);   // started, before the tree is built
        Map<String, Double> times = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        KdTree tree = KdTree.build(metric, points.rows(), n, points.d(), execution.cancel());
        PairDistances dist = metric.pairs(tree.sortedRows(), n, points.d());
        if (n <= BruteForceEngine.MAX_POINTS && visitedShare(tree, dist, minSamples, execution.cancel()) > maxShare) {
            // the boxes prune too little: Prim's one pass is cheaper (and the tree's memory can go)
            tree = null;
            dist = null;
            times.put(PROBE_STAGE, (System.nanoTime() - t0) / 1e9);
            MutualReachabilityMst brute = new BruteForceEngine(metric).spanningTree(points, minSamples, alpha, execution);
            times.putAll(brute.stageSeconds());
            return new MutualReachabilityMst(brute.coreDistances(), brute.tree(), times);
        }
        long tTree = System.nanoTime();
        times.put(TREE_BUILD_STAGE, (tTree - t0) / 1e9);
        ParallelWork work = new ParallelWork(execution.threads());
        double[] sortedCore = coreDistances(tree, dist, minSamples, work, execution);
        long t1 = System.nanoTime();
        times.put("core distances", (t1 - tTree) / 1e9);
        SpanningTree mst = new Boruvka(tree, dist, sortedCore, alpha, work, execution).run();
        times.put("spanning tree", (System.nanoTime() - t1) / 1e9);
        double[] core = new double[n];
        for (int i = 0; i < n; i++) core[tree.row(i)] = sortedCore[i];
        return new MutualReachabilityMst(core, mst, times);
    }

    /** The {@code k}-th smallest distance from each point (itself included at 0), in tree order. */
    static double[] coreDistances(KdTree tree, PairDistances dist, int k, ParallelWork work, Execution ex) {
        int n = tree.size();
        double[] core = new double[n];
        double[][] heaps = new double[work.threads()][k];
        KdTree.Walk[] walks = new KdTree.Walk[work.threads()];
        for (int w = 0; w < walks.length; w++) walks[w] = tree.walk();
        double[][] leaves = new double[work.threads()][KdTree.LEAF_SIZE];
        int units = (n + CHUNK - 1) / CHUNK;
        work.run(units, CoreDistances.STAGE, ex.progress(), ex.cancel(), (worker, unit) -> {
            int end = Math.min(n, (unit + 1) * CHUNK);
            for (int q = unit * CHUNK; q < end; q++) {
                core[q] = kthSmallest(tree, dist, q, heaps[worker], k, walks[worker], leaves[worker], null);
            }
        });
        return core;
    }

    /**
     * The share of all pairs the core distances' searches compute, estimated on {@link #SAMPLE} points spread
     * evenly over the tree order (a function of the input alone).
     */
    static double visitedShare(KdTree tree, PairDistances dist, int k, CancellationToken cancel) {
        int n = tree.size(), s = Math.min(n, SAMPLE);
        double[] heap = new double[k];
        KdTree.Walk walk = tree.walk();
        long[] visited = new long[1];
        double[] leaf = new double[KdTree.LEAF_SIZE];
        for (int i = 0; i < s; i++) {
            cancel.throwIfCancelled();
            kthSmallest(tree, dist, (int) ((long) i * n / s), heap, k, walk, leaf, visited);
        }
        return visited[0] / ((double) s * n);
    }

    /**
     * The k-th smallest distance from position {@code q}, boxes skipped once their bound reaches it;
     * {@code visited}, unless null, counts the pairs computed.
     */
    private static double kthSmallest(KdTree tree, PairDistances dist, int q, double[] heap, int k, KdTree.Walk walk,
            double[] leaf, long[] visited) {
        double[] x = tree.sortedRows();
        int off = q * tree.dimensions();
        int size = 0;
        walk.start();
        for (int visits = 0; walk.pending() && visits < tree.nodes(); visits++) {   // each node is pushed at most once
            int node = walk.pop();
            if (size == k && walk.bound() >= heap[0]) continue;
            if (!tree.isLeaf(node)) {
                walk.pushChildren(x, off, node);
                continue;
            }
            if (visited != null) visited[0] += tree.end(node) - tree.start(node);
            int from = tree.start(node), to = tree.end(node);
            // once k distances are held, a point beyond the k-th is dropped unseen (BEYOND is never below it)
            dist.fromPointUpTo(q, from, to, leaf, size == k ? dist.cutoff(heap[0]) : PairDistances.NO_CUTOFF);
            for (int i = 0; i < to - from; i++) size = KSmallest.offer(heap, size, k, leaf[i]);
        }
        return heap[0];
    }

    /**
     * Borůvka on the tree: the rounds, each a parallel search for every component's lightest outgoing edge
     * followed by a sequential merge. Positions are tree positions; the tie order reads input row indices.
     * Each search keeps its point's lightest edge; the merge takes each component's lightest over its points.
     * Two things let a search stop early. The weight of the lightest edge any point of a component has found
     * so far is shared between the workers (read and written racily but atomically: any value there is the
     * weight of a real edge of the component, so a node whose bound exceeds it holds nothing the round
     * needs). And each worker remembers, in a small direct-mapped table, the lightest edge (weight and
     * endpoints) it has found for the components it met last: consecutive points in tree order are
     * neighbours, mostly of one component, and in mutual reachability many edges tie at a core distance, so
     * the endpoints decide among them; a point whose search finds nothing before its component's remembered
     * edge reports nothing. Memory: a few arrays of n, whatever the thread count.
     */
    private static final class Boruvka {
        private final KdTree tree;
        private final PairDistances dist;
        private final double[] core;
        private final double alpha;
        private final boolean divide;
        private final ParallelWork work;
        private final Execution ex;
        private final int n;
        /** Union-find parent of each position (roots are the components). */
        private final int[] parent;
        /** Each position's component (its root) for the round. */
        private final int[] comp;
        /** The component every point of a node belongs to, or -1 when the node holds several. */
        private final int[] nodeComp;
        /** The smallest core distance below each node. */
        private final double[] nodeCore;
        /** Per position: its lightest edge to another component this round (weight, endpoints, far position). */
        private final double[] pointW;
        private final long[] pointE;
        private final int[] pointTo;
        /** Per component (its root): the bits of the lightest edge weight found so far this round. */
        private final AtomicLongArray componentW;
        /** Per component (its root): the position whose edge is the component's lightest, in the merge. */
        private final int[] componentBest;
        private final KdTree.Walk[] walks;
        /** Per worker, a table of {@link #SLOTS}: a component met lately, and its lightest edge found so far. */
        private final int[][] slotComponent;
        private final double[][] slotW;
        private final long[][] slotE;
        private static final int SLOTS = 256;

        Boruvka(KdTree tree, PairDistances dist, double[] core, double alpha, ParallelWork work, Execution ex) {
            this.tree = tree;
            this.dist = dist;
            this.core = core;
            this.alpha = alpha;
            this.divide = alpha != 1.0;
            this.work = work;
            this.ex = ex;
            this.n = tree.size();
            this.parent = new int[n];
            for (int i = 0; i < n; i++) parent[i] = i;
            this.comp = new int[n];
            this.nodeComp = new int[tree.nodes()];
            this.nodeCore = new double[tree.nodes()];
            this.pointW = new double[n];
            this.pointE = new long[n];
            this.pointTo = new int[n];
            this.componentW = new AtomicLongArray(n);
            this.componentBest = new int[n];
            this.walks = new KdTree.Walk[work.threads()];
            for (int w = 0; w < walks.length; w++) walks[w] = tree.walk();
            this.slotComponent = new int[work.threads()][SLOTS];
            this.slotW = new double[work.threads()][SLOTS];
            this.slotE = new long[work.threads()][SLOTS];
            for (int node = tree.nodes() - 1; node >= 0; node--) {
                if (tree.isLeaf(node)) {
                    double m = Double.POSITIVE_INFINITY;
                    for (int p = tree.start(node); p < tree.end(node); p++) m = Math.min(m, core[p]);
                    nodeCore[node] = m;
                } else {
                    nodeCore[node] = Math.min(nodeCore[tree.left(node)], nodeCore[tree.right(node)]);
                }
            }
        }

        SpanningTree run() {
            int edges = n - 1;
            int[] from = new int[edges], to = new int[edges];
            double[] weight = new double[edges];
            int found = 0;
            ProgressListener progress = ex.progress();
            CancellationToken cancel = ex.cancel();
            long infinity = Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);
            // each round at least halves the components, so at most log2(n) + 1 rounds join them all
            int maxRounds = 33 - Integer.numberOfLeadingZeros(Math.max(n, 1));
            for (int round = 0; round < maxRounds && found < edges; round++) {
                cancel.throwIfCancelled();
                labelComponents();
                for (int c = 0; c < n; c++) componentW.setPlain(c, infinity);
                for (int[] slots : slotComponent) Arrays.fill(slots, -1);
                int units = (n + CHUNK - 1) / CHUNK;
                // during a round, report the least it will join: each of the n - found components picks an
                // edge, and no edge is picked by more than two, so at least half as many edges as components
                long before = found, least = (n - found) / 2;
                ProgressListener inRound = (stage, done, total) ->
                        progress.progress(TREE_STAGE, before + least * done / units, edges);
                work.run(units, TREE_STAGE, inRound, cancel, (worker, unit) -> {
                    int end = Math.min(n, (unit + 1) * CHUNK);
                    for (int q = unit * CHUNK; q < end; q++) search(worker, q);
                });
                found = merge(from, to, weight, found);
                progress.progress(TREE_STAGE, found, edges);
            }
            if (found != edges) throw new IllegalStateException("Borůvka joined " + found + " of " + edges + " edges");
            return SpanningTree.of(n, from, to, weight).inEdgeOrder();
        }

        private int find(int i) {
            int r = i;
            for (int s = 0; s < n && parent[r] != r; s++) r = parent[r];
            for (int s = 0; s < n && parent[i] != r; s++) {   // path compression
                int next = parent[i];
                parent[i] = r;
                i = next;
            }
            return r;
        }

        /** Each position's component, then each node's single component or -1 (children before parents). */
        private void labelComponents() {
            for (int i = 0; i < n; i++) comp[i] = find(i);
            for (int node = tree.nodes() - 1; node >= 0; node--) {
                if (tree.isLeaf(node)) {
                    int c = comp[tree.start(node)];
                    for (int p = tree.start(node) + 1; p < tree.end(node) && c >= 0; p++) if (comp[p] != c) c = -1;
                    nodeComp[node] = c;
                } else {
                    int a = nodeComp[tree.left(node)];
                    nodeComp[node] = a >= 0 && a == nodeComp[tree.right(node)] ? a : -1;
                }
            }
        }

        /** The component's lightest edge weight found so far (a racy, atomic read). */
        private double sharedW(int c) {
            return Double.longBitsToDouble(componentW.getOpaque(c));
        }

        /** Finds the lightest edge from position {@code q} to another component, under {@link EdgeOrder}. */
        private void search(int worker, int q) {
            int c = comp[q];
            double cq = core[q];
            int rq = tree.row(q);
            int slot = (c * 0x9E3779B1) >>> 24;   // a multiplicative hash onto the table's 256 slots
            boolean known = slotComponent[worker][slot] == c;
            double bw = known ? slotW[worker][slot] : Double.POSITIVE_INFINITY;
            long be = known ? slotE[worker][slot] : EdgeOrder.NO_ENDPOINTS;
            int bestTo = -1;
            double cutFor = Double.NaN, cut = PairDistances.NO_CUTOFF;   // the cutoff of bw, made when bw changes
            double[] x = tree.sortedRows();
            int off = q * tree.dimensions();
            KdTree.Walk walk = walks[worker];
            walk.start();
            for (int visits = 0; walk.pending() && visits < tree.nodes(); visits++) {   // each node is pushed at most once
                int node = walk.pop();
                if (nodeComp[node] == c) continue;
                double box = walk.bound();
                if (divide) box /= alpha;
                double bound = Math.max(Math.max(cq, nodeCore[node]), box);
                if (bound > sharedW(c) || EdgeOrder.allAfter(bound, EdgeOrder.endpoints(rq, tree.minRow(node)), bw, be)) {
                    continue;
                }
                if (!tree.isLeaf(node)) {
                    walk.pushChildren(x, off, node);
                    continue;
                }
                for (int p = tree.start(node); p < tree.end(node); p++) {
                    if (comp[p] == c) continue;
                    long e = EdgeOrder.endpoints(rq, tree.row(p));
                    double w = Math.max(cq, core[p]);
                    double shared = sharedW(c);
                    if (w > shared || EdgeOrder.allAfter(w, e, bw, be)) continue;
                    // a distance above bw cannot make the edge win (w >= dq > bw): computed only where it may
                    if (bw != cutFor) {
                        cutFor = bw;
                        cut = divide ? PairDistances.NO_CUTOFF : dist.cutoff(bw);
                    }
                    double dq = dist.betweenUpTo(q, p, cut);
                    if (divide) dq /= alpha;
                    w = Math.max(w, dq);
                    if (w < bw || (w == bw && e < be)) {
                        bw = w;
                        be = e;
                        bestTo = p;
                        if (w < shared) componentW.setOpaque(c, Double.doubleToRawLongBits(w));
                    }
                }
            }
            pointW[q] = bw;
            pointE[q] = be;
            pointTo[q] = bestTo;   // -1: nothing before the edge the table held
            if (bestTo >= 0) {
                slotComponent[worker][slot] = c;
                slotW[worker][slot] = bw;
                slotE[worker][slot] = be;
            }
        }

        /**
         * Each component's lightest edge over its points, joined in component order (an edge two components
         * chose is joined once); returns the edges found so far.
         */
        private int merge(int[] from, int[] to, double[] weight, int found) {
            Arrays.fill(componentBest, -1);
            for (int q = 0; q < n; q++) {
                if (pointTo[q] < 0) continue;
                int c = comp[q], b = componentBest[c];
                if (b < 0 || pointW[q] < pointW[b] || (pointW[q] == pointW[b] && pointE[q] < pointE[b])) componentBest[c] = q;
            }
            for (int c = 0; c < n; c++) {
                int q = componentBest[c];
                if (comp[c] != c || q < 0) continue;   // not a root, or no other component (the last)
                int a = find(q), b = find(pointTo[q]);
                if (a == b) continue;   // the other component chose the same edge and was joined already
                parent[Math.max(a, b)] = Math.min(a, b);
                from[found] = (int) (pointE[q] >>> 32);
                to[found] = (int) pointE[q];
                weight[found] = pointW[q];
                found++;
            }
            return found;
        }
    }
}
