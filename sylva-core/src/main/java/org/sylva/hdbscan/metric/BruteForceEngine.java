package org.sylva.hdbscan.metric;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.engine.FittedPoints;
import org.sylva.hdbscan.engine.HdbscanEngine;
import org.sylva.hdbscan.engine.MutualReachabilityMst;
import org.sylva.hdbscan.mst.EdgeOrder;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.parallel.Execution;
import org.sylva.parallel.ParallelWork;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * The exact engine for cosine, a precomputed matrix, and manhattan, chebyshev and minkowski in more dimensions
 * than {@link KdTreeEngine} takes: brute force, O(n^2) distances, no index. Core distances: for each point, the {@code minSamples}-th smallest of
 * its n distances (itself first, at 0), in parallel over fixed chunks of points. Spanning tree: Prim's
 * algorithm on the implicit mutual-reachability graph {@code max(core_a, core_b, dist / alpha)} (each
 * distance computed once, when one end joins the tree), choosing the next point by the tie order
 * {@link EdgeOrder}; under that total order the minimum spanning tree is unique, so the tree is the one any
 * exact engine returns, whatever the thread count (each round's update is split in fixed chunks whose
 * minima are combined by the same order). The edges are returned in {@link EdgeOrder}.
 *
 * <p>Why brute force: the partition tree's bounds are Euclidean, and no index bounds cosine or a
 * precomputed matrix. Its work grows as n^2, so it refuses more than {@link #MAX_POINTS} points up front
 * rather than run for hours. Memory: a few arrays of n (a cosine fit also holds a normalised copy of the
 * rows). Stateless and thread-safe.
 *
 * <pre>{@code
 * HdbscanEngine e = new BruteForceEngine(Metric.manhattan());
 * MutualReachabilityMst m = e.spanningTree(new FittedPoints(rows, n, d), 5, 1.0, Execution.sequential());
 * }</pre>
 */
public final class BruteForceEngine implements HdbscanEngine {
    /** The most points this engine accepts (its time grows as n^2). */
    public static final int MAX_POINTS = 100_000;
    /** Progress stage of the spanning tree. */
    public static final String TREE_STAGE = "spanning tree (Prim)";
    /** Points per unit of parallel work. */
    private static final int CHUNK = 256;
    /** Remaining points below which a Prim round runs on the calling thread alone. */
    private static final int PARALLEL_MIN = 4 * CHUNK;
    private static final long REPORT_NANOS = 100_000_000L;

    private final Metric metric;

    public BruteForceEngine(Metric metric) {
        this.metric = Objects.requireNonNull(metric, "metric");
    }

    public Metric metric() {
        return metric;
    }

    @Override
    public String name() {
        return "cpu/brute-force/" + metric.name();
    }

    /** Refuses {@code n} above {@link #MAX_POINTS}, naming the limit. */
    public static void checkSize(Metric metric, long n) {
        if (n > MAX_POINTS) {
            String where = KdTree.bounds(metric) ? " in more than " + KdTreeEngine.MAX_DIMENSIONS + " dimensions" : "";
            throw new InvalidInputException(String.format(Locale.ROOT, "metric %s%s runs on the exact brute-force "
                    + "engine, limited to %d points (its time grows as n^2); got %d points. Use the euclidean metric, "
                    + (metric.isPrecomputed() ? "give a sparse distance matrix (a k-nearest-neighbour graph: a scipy "
                    + "sparse matrix, or a .npz from scipy.sparse.save_npz), " : "")
                    + (where.isEmpty() ? "" : "reduce the dimensions (sylva hdbscan --pca), ") + "or cluster a subsample",
                    metric.describe(), where, MAX_POINTS, n));
        }
    }

    @Override
    public MutualReachabilityMst spanningTree(FittedPoints points, int minSamples, double alpha, Execution execution) {
        int n = points.n();
        checkSize(metric, n);
        Map<String, Double> times = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        PairDistances dist = metric.pairs(points.rows(), n, points.d());
        ParallelWork work = new ParallelWork(execution.threads());
        double[] core = coreDistances(dist, minSamples, work, execution);
        long t1 = System.nanoTime();
        times.put("core distances", (t1 - t0) / 1e9);
        SpanningTree tree = prim(dist, core, alpha, work, execution);
        times.put("spanning tree", (System.nanoTime() - t1) / 1e9);
        return new MutualReachabilityMst(core, tree, times);
    }

    /** The {@code k}-th smallest distance from each point (itself included at 0). */
    static double[] coreDistances(PairDistances dist, int k, ParallelWork work, Execution ex) {
        int n = dist.size();
        double[] core = new double[n];
        double[][] heaps = new double[work.threads()][k];
        int units = (n + CHUNK - 1) / CHUNK;
        work.run(units, CoreDistances.STAGE, ex.progress(), ex.cancel(), (worker, unit) -> {
            double[] heap = heaps[worker];
            int end = Math.min(n, (unit + 1) * CHUNK);
            for (int i = unit * CHUNK; i < end; i++) core[i] = kthSmallest(dist, i, heap, k);
        });
        return core;
    }

    /** The k-th smallest of {@code dist.between(i, j)} over all j, with a max-heap of the k smallest. */
    private static double kthSmallest(PairDistances dist, int i, double[] heap, int k) {
        int size = 0;
        int n = dist.size();
        for (int j = 0; j < n; j++) size = KSmallest.offer(heap, size, k, dist.between(i, j));
        return heap[0];
    }

    /**
     * Prim from point 0: each round offers every point outside the tree its edge to the point that joined
     * last, then the lightest offer under {@link EdgeOrder} joins. n - 1 rounds of at most n - 1 points.
     */
    static SpanningTree prim(PairDistances dist, double[] core, double alpha, ParallelWork work, Execution ex) {
        int n = dist.size();
        int edges = Math.max(n - 1, 0);
        int[] from = new int[edges], to = new int[edges];
        double[] weight = new double[edges];
        double[] bestW = new double[n];
        int[] bestFrom = new int[n];
        Arrays.fill(bestW, Double.POSITIVE_INFINITY);
        Arrays.fill(bestFrom, -1);
        int[] rest = new int[edges];   // points outside the tree, compacted
        for (int i = 0; i < edges; i++) rest[i] = i + 1;
        int[] chunkBest = new int[(edges + CHUNK - 1) / CHUNK + 1];
        boolean divide = alpha != 1.0;
        ProgressListener progress = ex.progress();
        long lastReport = System.nanoTime();
        int last = 0, remaining = edges;
        for (int e = 0; e < edges; e++) {
            if (ex.cancel().isCancelled() || Thread.currentThread().isInterrupted()) throw new CancelledException();
            int joined = last, count = remaining;
            int units = (count + CHUNK - 1) / CHUNK;
            if (count < PARALLEL_MIN || work.threads() == 1) {
                for (int u = 0; u < units; u++) chunkBest[u] = offer(dist, core, joined, divide, alpha, rest, u, count, bestW, bestFrom);
            } else {
                work.run(units, TREE_STAGE, ProgressListener.NONE, ex.cancel(), (worker, u) ->
                        chunkBest[u] = offer(dist, core, joined, divide, alpha, rest, u, count, bestW, bestFrom));
            }
            int best = chunkBest[0];
            for (int u = 1; u < units; u++) {
                int c = chunkBest[u];
                if (lighter(c, best, rest, bestW, bestFrom)) best = c;
            }
            int q = rest[best];
            from[e] = Math.min(q, bestFrom[q]);
            to[e] = Math.max(q, bestFrom[q]);
            weight[e] = bestW[q];
            rest[best] = rest[--remaining];
            last = q;
            long now = System.nanoTime();
            if (now - lastReport >= REPORT_NANOS) {
                progress.progress(TREE_STAGE, e + 1, edges);
                lastReport = now;
            }
        }
        progress.progress(TREE_STAGE, edges, edges);
        return SpanningTree.of(n, from, to, weight).inEdgeOrder();
    }

    /**
     * Offers the points {@code rest[u * CHUNK ..]} their edge to {@code joined}; returns the position in
     * {@code rest} of the chunk's lightest offer.
     */
    private static int offer(PairDistances dist, double[] core, int joined, boolean divide, double alpha, int[] rest,
            int u, int count, double[] bestW, int[] bestFrom) {
        int end = Math.min(count, (u + 1) * CHUNK);
        double cj = core[joined];
        int best = u * CHUNK;
        for (int i = u * CHUNK; i < end; i++) {
            int q = rest[i];
            double dq = dist.between(joined, q);
            if (divide) dq /= alpha;
            double w = Math.max(Math.max(cj, core[q]), dq);
            if (EdgeOrder.less(w, joined, q, bestW[q], bestFrom[q], q)) {
                bestW[q] = w;
                bestFrom[q] = joined;
            }
            if (i != best && lighter(i, best, rest, bestW, bestFrom)) best = i;
        }
        return best;
    }

    private static boolean lighter(int i, int j, int[] rest, double[] bestW, int[] bestFrom) {
        int a = rest[i], b = rest[j];
        return EdgeOrder.less(bestW[a], bestFrom[a], a, bestW[b], bestFrom[b], b);
    }
}
