package org.sylva.hdbscan.metric;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.engine.MutualReachabilityMst;
import org.sylva.hdbscan.mst.EdgeOrder;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.parallel.Execution;
import org.sylva.parallel.ParallelWork;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * The stages up to the spanning tree for a sparse precomputed distance matrix ({@link DistanceGraph}), with
 * scikit-learn's semantics for one: a point's core distance is the {@code minSamples}-th smallest distance
 * stored in its row (a stored diagonal 0 counting as the point itself; a row storing fewer is refused, as
 * scikit-learn refuses it), each stored pair {@code (i, j)} is an edge of mutual-reachability weight
 * {@code max(core_i, core_j, D_ij) * (1 / alpha)} (scikit-learn divides the whole matrix by alpha first, as
 * {@link Metric#alphaDividesCoreDistances} says, and scipy divides a sparse matrix by a number as a product with
 * its reciprocal: a dense matrix's weights can differ from these in the last bit unless 1 / alpha is exact), and
 * the graph must be connected (a graph in several pieces is
 * refused, naming how many). The spanning tree is Kruskal's: the edges sorted by {@link EdgeOrder} (a stable
 * radix sort of the weights' bits, carrying the ends, over the edges listed by lower then higher endpoint),
 * each joined when its
 * ends are apart. Under that total order the minimum spanning tree is unique, so a graph holding every pair
 * (and the diagonal) gives bitwise the tree, and the core distances, of the dense matrix on
 * {@link BruteForceEngine}.
 *
 * <p>Why Kruskal: the edges are given, and one sort of them is the whole cost; a zero-weight edge is an edge
 * (scipy's {@code minimum_spanning_tree}, which scikit-learn calls, drops stored zeros). Time
 * {@code O(E)} for the sort's passes plus a union-find (the smaller index as the root, paths halved); memory 32
 * bytes per stored pair (its weight and ends, and the sort's second copy of both).
 * Stateless.
 *
 * <pre>{@code
 * MutualReachabilityMst m = GraphSpanningTree.compute(graph, 5, 1.0, Execution.sequential());
 * }</pre>
 */
public final class GraphSpanningTree {
    /** The engine's name in reports (the engine protocol's {@code backend}, {@code --json}'s). */
    public static final String ENGINE = "cpu/sparse-graph";
    /** Progress stage of the spanning tree. */
    public static final String TREE_STAGE = "spanning tree (Kruskal)";
    /** Rows per unit of the core distances' parallel pass. */
    private static final int ROWS_PER_UNIT = 1024;
    /** Edges between two checks of the cancellation token. */
    private static final int CHECK_EVERY = 1 << 16;

    private GraphSpanningTree() {
    }

    /**
     * Core distances and the spanning tree of {@code graph}'s mutual-reachability distance.
     *
     * @throws InvalidInputException for a row storing fewer than {@code minSamples} distances, or a graph in
     *     more than one connected piece
     */
    public static MutualReachabilityMst compute(DistanceGraph graph, int minSamples, double alpha, Execution execution) {
        if (minSamples < 1) throw new IllegalArgumentException("minSamples must be >= 1; got " + minSamples);
        if (!(alpha > 0) || Double.isInfinite(alpha)) throw new IllegalArgumentException("alpha must be > 0; got " + alpha);
        Map<String, Double> times = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        requireDistances(graph, minSamples);   // before the first progress line: a refusal is the only output
        execution.progress().progress(CoreDistances.STAGE, 0, 1);
        double[] core = coreDistances(graph, minSamples, new ParallelWork(execution.threads()), execution);
        execution.progress().progress(CoreDistances.STAGE, 1, 1);
        long t1 = System.nanoTime();
        times.put("core distances", (t1 - t0) / 1e9);
        // scikit-learn divides the whole sparse matrix by alpha first, which scipy computes as a product with 1 / alpha
        double scale = 1.0 / alpha;
        double[] reach = core;
        if (alpha != 1.0) {
            reach = new double[core.length];
            for (int i = 0; i < core.length; i++) reach[i] = core[i] * scale;
        }
        SpanningTree tree = kruskal(graph, reach, scale, execution);
        times.put("spanning tree", (System.nanoTime() - t1) / 1e9);
        return new MutualReachabilityMst(core, tree, times);
    }

    /** Refuses a graph with a row storing fewer than {@code k} distances, naming the first. */
    static void requireDistances(DistanceGraph g, int k) {
        int n = g.size();
        for (int i = 0; i < n; i++) {
            if (g.rowLength(i) < k) {
                throw InvalidInputException.forParameter("min_samples", String.format(Locale.ROOT, "point %d has %d "
                        + "stored distances (its own included when the diagonal is stored), fewer than min_samples = %d: "
                        + "in a sparse distance matrix each row must store at least min_samples distances (a "
                        + "k-nearest-neighbour graph with k >= min_samples, its diagonal and zero distances stored: "
                        + "scipy's maximum() and eliminate_zeros() drop them)", i, g.rowLength(i), k));
            }
        }
    }

    /** The {@code k}-th smallest stored distance of each row (every row holds k or more: {@link #requireDistances}). */
    static double[] coreDistances(DistanceGraph g, int k, ParallelWork work, Execution ex) {
        int n = g.size();
        double[] core = new double[n];
        double[][] scratch = new double[work.threads()][g.widestRow()];
        int units = (n + ROWS_PER_UNIT - 1) / ROWS_PER_UNIT;
        work.run(units, CoreDistances.STAGE, ProgressListener.NONE, ex.cancel(), (worker, unit) -> {
            double[] row = scratch[worker];
            int end = Math.min(n, (unit + 1) * ROWS_PER_UNIT);
            for (int i = unit * ROWS_PER_UNIT; i < end; i++) {
                int m = g.rowLength(i), s = g.rowStart(i);
                for (int e = 0; e < m; e++) row[e] = g.distance(s + e);
                core[i] = smallest(row, m, k - 1);
            }
        });
        return core;
    }

    /** The {@code r}-th smallest (from 0) of {@code a[0 .. m-1]}, reordering {@code a}: quickselect. */
    static double smallest(double[] a, int m, int r) {
        int lo = 0, hi = m - 1;
        // each round leaves a strictly smaller range, so at most m rounds
        for (int round = 0; round < m && lo < hi; round++) {
            double pivot = a[(lo + hi) >>> 1];
            int i = lo, j = hi;
            while (i <= j) {   // i rises and j falls each swap: at most (hi - lo) / 2 + 1 swaps
                while (a[i] < pivot) i++;
                while (a[j] > pivot) j--;
                if (i <= j) {
                    double t = a[i];
                    a[i] = a[j];
                    a[j] = t;
                    i++;
                    j--;
                }
            }
            if (r <= j) hi = j;
            else if (r >= i) lo = i;
            else return a[r];
        }
        return a[r];
    }

    /**
     * Kruskal over the stored pairs under {@link EdgeOrder}, each distance multiplied by {@code scale} (the
     * {@code core} given already are); refuses a graph in several pieces.
     */
    static SpanningTree kruskal(DistanceGraph g, double[] core, double scale, Execution ex) {
        int n = g.size();
        ProgressListener progress = ex.progress();
        // the edges (i, j), i < j, listed by i then j: the order of equal weights under EdgeOrder
        int edges = 0;
        for (int i = 0; i < n; i++) {
            for (int e = g.rowStart(i), end = e + g.rowLength(i); e < end; e++) if (g.column(e) > i) edges++;
        }
        long[] key = new long[edges], ends = new long[edges];
        boolean scaled = scale != 1.0;
        int c = 0;
        for (int i = 0; i < n; i++) {
            if ((i & (CHECK_EVERY - 1)) == 0) stopIfAsked(ex);
            for (int e = g.rowStart(i), end = e + g.rowLength(i); e < end; e++) {
                int j = g.column(e);
                if (j <= i) continue;
                double d = g.distance(e);
                if (scaled) d *= scale;
                // weights are >= 0 and never -0.0: their bits order as the values do
                key[c] = Double.doubleToRawLongBits(Math.max(Math.max(core[i], core[j]), d));
                ends[c] = EdgeOrder.endpoints(i, j);
                c++;
            }
        }
        sortByKey(key, ends, ex);
        int m = Math.max(n - 1, 0);
        int[] from = new int[m], to = new int[m];
        double[] weight = new double[m];
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) parent[i] = i;
        int taken = 0;
        for (int s = 0; s < edges && taken < m; s++) {
            if ((s & (CHECK_EVERY - 1)) == 0) {
                stopIfAsked(ex);
                progress.progress(TREE_STAGE, taken, m);
            }
            int lo = (int) (ends[s] >>> 32), hi = (int) ends[s];
            int a = root(parent, lo), b = root(parent, hi);
            if (a == b) continue;
            parent[Math.max(a, b)] = Math.min(a, b);
            from[taken] = lo;
            to[taken] = hi;
            weight[taken] = Double.longBitsToDouble(key[s]);
            taken++;
        }
        if (taken < m) {
            int other = -1;
            for (int i = 1; i < n && other < 0; i++) if (root(parent, i) != root(parent, 0)) other = i;
            throw new InvalidInputException(String.format(Locale.ROOT, "sparse distance matrix: the graph of its stored "
                    + "distances has %d connected components (point 0 and point %d are not joined by any path); "
                    + "HDBSCAN needs one: store more distances, or cluster each component apart", n - taken, other));
        }
        progress.progress(TREE_STAGE, m, m);
        return SpanningTree.of(n, from, to, weight);
    }

    /** The root of {@code x}'s set, halving the path on the way (each step moves up, so at most n steps). */
    private static int root(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    /**
     * Sorts {@code key} ascending, in place, moving {@code payload[i]} with {@code key[i]}; equal keys keep their
     * order: a least significant digit radix sort over 16-bit digits, skipping the digits every key shares.
     * Both arrays are read in order in each pass.
     */
    static void sortByKey(long[] key, long[] payload, Execution ex) {
        int m = key.length;
        long[] keys = key, values = payload, nextKeys = new long[m], nextValues = new long[m];
        int[] count = new int[1 << 16];
        for (int shift = 0; shift < 64; shift += 16) {
            stopIfAsked(ex);
            java.util.Arrays.fill(count, 0);
            for (int i = 0; i < m; i++) count[(int) (keys[i] >>> shift) & 0xFFFF]++;
            if (m == 0 || count[(int) (keys[0] >>> shift) & 0xFFFF] == m) continue;   // one digit: order kept
            int sum = 0;
            for (int b = 0; b < count.length; b++) {
                int t = count[b];
                count[b] = sum;
                sum += t;
            }
            for (int i = 0; i < m; i++) {
                long k = keys[i];
                int at = count[(int) (k >>> shift) & 0xFFFF]++;
                nextKeys[at] = k;
                nextValues[at] = values[i];
            }
            long[] t = keys;
            keys = nextKeys;
            nextKeys = t;
            t = values;
            values = nextValues;
            nextValues = t;
        }
        if (keys != key) {   // an odd number of passes ran: the result is in the spare arrays
            System.arraycopy(keys, 0, key, 0, m);
            System.arraycopy(values, 0, payload, 0, m);
        }
    }

    private static void stopIfAsked(Execution ex) {
        if (ex.cancel().isCancelled() || Thread.currentThread().isInterrupted()) throw new CancelledException();
    }
}
