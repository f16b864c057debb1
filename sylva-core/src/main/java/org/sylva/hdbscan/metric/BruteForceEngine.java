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
import org.sylva.hdbscan.engine.StageKernels;
import org.sylva.hdbscan.mst.EdgeOrder;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.kernels.BlockedRows;
import org.sylva.kernels.KernelProvider;
import org.sylva.kernels.MetricKernel;
import org.sylva.parallel.Execution;
import org.sylva.parallel.ParallelWork;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * The exact engine for cosine, a precomputed matrix, and manhattan, chebyshev and minkowski in more dimensions
 * than {@link KdTreeEngine} takes: brute force, O(n^2) distances, no index. Core distances: for each point, the {@code minSamples}-th smallest of
 * its n distances (itself first, at 0), in parallel over fixed chunks of points. Spanning tree: Prim's
 * algorithm on the implicit mutual-reachability graph {@code max(core_a, core_b, dist / alpha)} (for cosine and a
 * precomputed matrix {@code core / alpha} in place of each core: {@link Metric#alphaDividesCoreDistances}; the distances
 * from a point that joins computed when it joins, or a little ahead of it), choosing the next point by the tie order
 * {@link EdgeOrder}; under that total order the minimum spanning tree is unique, so the tree is the one any
 * exact engine returns, whatever the thread count (each round's update is split in fixed chunks whose
 * minima are combined by the same order). The edges are returned in {@link EdgeOrder}.
 *
 * <p>Why brute force: the partition tree's bounds are Euclidean, and no index bounds cosine or a
 * precomputed matrix. Its work grows as n^2, so it refuses more than {@link #MAX_POINTS} points up front
 * rather than run for hours. Memory: a few arrays of n, for a metric the kernel computes a copy of the rows
 * in its blocks and 32 rows of n distances made ahead (a cosine fit also holds a normalised copy of the
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

    /** Pair coordinates {@code n^2 d} from which a fresh JVM runs the vector kernel (measured in BENCHMARKS.md). */
    static final double COLD_VECTOR_WORK = 2e9;
    /** Most positions of the rows one core-distance tile covers. */
    private static final int MAX_TILE = 2048;
    /** Bytes of rows one core-distance tile covers at most (a share of a core's cache). */
    private static final long TILE_BYTES = 256 * 1024;

    private final Metric metric;
    /** The kernel every fit runs, or {@code null}: chosen per fit ({@link #kernelFor}). */
    private final MetricKernel kernel;

    public BruteForceEngine(Metric metric) {
        this(metric, null);
    }

    /** An engine whose fits all run {@code kernel} (the tests compare the kernels through it). */
    BruteForceEngine(Metric metric, MetricKernel kernel) {
        this.metric = Objects.requireNonNull(metric, "metric");
        this.kernel = kernel;
    }

    /**
     * The kernel a fit of {@code n} points of {@code d} coordinates runs: the vector one where usable, except
     * in a fresh JVM for fewer than {@link #COLD_VECTOR_WORK} pair coordinates {@code n^2 d}, where compiling the
     * vector kernel costs more than it saves (the same reasoning as {@link StageKernels}).
     */
    public static MetricKernel kernelFor(int n, int d) {
        KernelProvider kp = KernelProvider.get();
        return StageKernels.longLived() || (double) n * n * d >= COLD_VECTOR_WORK ? kp.bestMetric() : kp.scalarMetric();
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
        execution.progress().progress(CoreDistances.STAGE, 0, 1);   // started: a fresh JVM's first unit runs for a while
        Map<String, Double> times = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        PairDistances dist = metric.pairs(points.rows(), n, points.d());
        ParallelWork work = new ParallelWork(execution.threads());
        MetricKernel k = kernel != null ? kernel : kernelFor(n, points.d());
        double[] core = coreDistances(dist, minSamples, work, execution, k);
        long t1 = System.nanoTime();
        times.put("core distances", (t1 - t0) / 1e9);
        SpanningTree tree = prim(dist, metric.reachabilityCores(core, alpha), alpha, work, execution, k);
        times.put("spanning tree", (System.nanoTime() - t1) / 1e9);
        return new MutualReachabilityMst(core, tree, times);
    }

    /**
     * The {@code k}-th smallest distance from each point (itself included at 0). A unit of {@link #CHUNK}
     * points runs through the rows tile by tile, each tile small enough to stay in the core's cache while
     * every point of the unit, four at a time, is measured against it: the rows are read from memory once
     * per unit rather than once per four points.
     */
    static double[] coreDistances(PairDistances dist, int k, ParallelWork work, Execution ex, MetricKernel kernel) {
        if (dist.kernelForm() == null) return coreDistances(dist, k, work, ex);
        int n = dist.size(), w = kernel.blockWidth();
        int tileBlocks = (int) Math.max(1, Math.min(MAX_TILE / w, TILE_BYTES / (8L * dist.dimensions() * w)));
        TiledRows tiled = new TiledRows(dist, kernel, tileBlocks);
        double[] core = new double[n];
        double[][] tiles = new double[work.threads()][];
        double[][][] heaps = new double[work.threads()][CHUNK][k];
        int[][] offsets = new int[work.threads()][MetricKernel.MAX_QUERIES];
        int[][] sizes = new int[work.threads()][CHUNK];
        int units = (n + CHUNK - 1) / CHUNK;
        work.run(units, CoreDistances.STAGE, ex.progress(), ex.cancel(), (worker, unit) -> {
            if (tiles[worker] == null) tiles[worker] = tiled.newTile();
            double[][] heap = heaps[worker];
            int[] size = sizes[worker];
            int start = unit * CHUNK, end = Math.min(n, start + CHUNK);
            Arrays.fill(size, 0);
            tiled.scan(start, end, offsets[worker], tiles[worker], (point, values, at, first, count) -> {
                double[] hp = heap[point - start];
                int s = size[point - start];
                for (int c = 0; c < count; c++) s = KSmallest.offer(hp, s, k, values[at + c]);
                size[point - start] = s;
            });
            for (int i = start; i < end; i++) core[i] = heap[i - start][0];
        });
        return core;
    }

    /**
     * Coordinate terms at most in a unit of {@link #coreDistances(PairDistances, int, ParallelWork, Execution)}:
     * the token is looked at and progress reported between units, and minkowski's term is a {@code pow} of about
     * 100 ns, so a unit of {@link #CHUNK} rows against 20 000 points of 61 coordinates took half a minute to
     * notice a cancellation. This bound keeps a unit near a tenth of a second.
     */
    static final long PAIR_UNIT_TERMS = 1L << 20;

    /** Rows per unit of the pair-at-a-time core distances of {@code n} points of {@code d} coordinates. */
    static int pairRowsPerUnit(int n, int d) {
        return (int) Math.max(1, Math.min(CHUNK, PAIR_UNIT_TERMS / ((long) Math.max(1, n) * Math.max(1, d))));
    }

    /** The core distances one pair at a time ({@link PairDistances#between}), for the metrics no kernel computes. */
    static double[] coreDistances(PairDistances dist, int k, ParallelWork work, Execution ex) {
        int n = dist.size();
        int rows = pairRowsPerUnit(n, dist.dimensions());
        double[] core = new double[n];
        double[][] heaps = new double[work.threads()][k];
        int units = (n + rows - 1) / rows;
        work.run(units, CoreDistances.STAGE, ex.progress(), ex.cancel(), (worker, unit) -> {
            double[] heap = heaps[worker];
            int end = Math.min(n, (unit + 1) * rows);
            for (int i = unit * rows; i < end; i++) core[i] = kthSmallest(dist, i, heap, k);
        });
        return core;
    }

    /** The k-th smallest of {@code dist.between(i, j)} over all j, with a max-heap of the k smallest. */
    private static double kthSmallest(PairDistances dist, int i, double[] heap, int k) {
        int size = 0;
        int n = dist.size();
        double cutFor = Double.NaN, cut = PairDistances.NO_CUTOFF;   // the cutoff of the k-th, made when it changes
        for (int j = 0; j < n; j++) {
            if (size == k && heap[0] != cutFor) {
                cutFor = heap[0];
                cut = dist.cutoff(cutFor);
            }
            // a point beyond the k-th held is dropped unseen (BEYOND is never below it)
            size = KSmallest.offer(heap, size, k, dist.betweenUpTo(i, j, cut));
        }
        return heap[0];
    }

    /**
     * Prim from point 0: each round offers every point outside the tree its edge to the point that joined
     * last, then the lightest offer under {@link EdgeOrder} joins. n - 1 rounds of at most n - 1 points. The
     * points outside the tree stay packed at the front of the positions, with their core distance and best
     * offer so far at the same position (a round reads them in order), and, for a metric the kernel computes,
     * their rows in the kernel's block layout ({@link BlockedRows}); when a point joins, the last position
     * moves into its place in each of them.
     */
    static SpanningTree prim(PairDistances dist, double[] core, double alpha, ParallelWork work, Execution ex,
                             MetricKernel kernel) {
        return prim(dist, core, alpha, work, ex, kernel, new int[1]);
    }

    /**
     * As above, counting in {@code passes[0]} the passes over the rows that made speculative rows and, where
     * {@code passes} has a second entry, in {@code passes[1]} the rows those passes made.
     */
    static SpanningTree prim(PairDistances dist, double[] core, double alpha, ParallelWork work, Execution ex,
                             MetricKernel kernel, int[] passes) {
        int n = dist.size();
        int edges = Math.max(n - 1, 0);
        int[] from = new int[edges], to = new int[edges];
        double[] weight = new double[edges];
        MetricKernel.Form form = dist.kernelForm();
        if (form != null && CHUNK % kernel.blockWidth() != 0) form = null;
        Round round = new Round(dist, form, kernel, form == null ? null : BlockedRows.of(dist.preparedRows(), 1, edges,
                dist.dimensions(), kernel.blockWidth()), core, alpha, work.threads());
        int[] chunkBest = new int[(edges + CHUNK - 1) / CHUNK + 1];
        ProgressListener progress = ex.progress();
        long lastReport = System.nanoTime();
        int last = 0, remaining = edges;
        for (int e = 0; e < edges; e++) {
            if (ex.cancel().isCancelled() || Thread.currentThread().isInterrupted()) throw new CancelledException();
            round.start(last, remaining, work, ex);
            int units = (remaining + CHUNK - 1) / CHUNK;
            if (remaining < PARALLEL_MIN || work.threads() == 1) {
                for (int u = 0; u < units; u++) chunkBest[u] = round.offer(u);
            } else {
                work.run(units, TREE_STAGE, ProgressListener.NONE, ex.cancel(), (worker, u) -> chunkBest[u] = round.offer(u));
            }
            int best = chunkBest[0];
            for (int u = 1; u < units; u++) {
                int c = chunkBest[u];
                if (round.lighter(c, best)) best = c;
            }
            int q = round.point(best);
            from[e] = Math.min(q, round.offerFrom(best));
            to[e] = Math.max(q, round.offerFrom(best));
            weight[e] = round.offerWeight(best);
            round.remove(best, --remaining);
            last = q;
            long now = System.nanoTime();
            if (now - lastReport >= REPORT_NANOS) {
                progress.progress(TREE_STAGE, e + 1, edges);
                lastReport = now;
            }
        }
        progress.progress(TREE_STAGE, edges, edges);
        passes[0] = round.passes;
        if (passes.length > 1) passes[1] = round.rowsMade;
        return SpanningTree.of(n, from, to, weight).inEdgeOrder();
    }

    /**
     * Prim's state, by position of the points outside the tree, and one round's offers, chunk by chunk.
     *
     * <p>For a metric the kernel computes, a round's distances come from speculative rows: when the point that
     * joins has no row yet, one pass over the rows of the points outside the tree computes the distances from
     * it and from up to {@link #SLOTS} - 1 other points with the lightest offers so far (those likely to join
     * next) to every point outside the tree, by position, and the rounds of the points among them that join
     * later read their row instead of passing over the rows again (the rows' entries move with the positions).
     * One pass serves up to 32 points, so every row read from memory feeds up to 32 distances where a round
     * alone would use it for one: the rounds stop being bound by memory bandwidth. How many rows a pass makes
     * follows how many the last pass's served ({@link #rowsAhead}). A row holds exact kernel values, and every
     * point still outside the tree when its point joins was outside when the row was made, so the rounds
     * decide exactly as without rows.
     */
    private static final class Round {
        /** Most rows one pass computes: the point joining and the others most likely to join next. */
        static final int SLOTS = 32;
        /** Passes with no row made ahead after which one pass makes a few again, to see whether they would serve. */
        static final int RETRY_PASSES = 16;
        /** Rows the trial pass makes after {@link #RETRY_PASSES} passes of one. */
        static final int RETRY_ROWS = 4;

        private final PairDistances dist;
        private final MetricKernel.Form form;
        private final MetricKernel kernel;
        private final BlockedRows rows;
        private final double[] x;
        private final double[] core;
        private final double alpha;
        private final boolean divide;
        /** By position: the point, its core distance, its best offer's weight and the point that made it. */
        private final int[] point;
        private final double[] pCore;
        private final double[] pWeight;
        private final int[] pFrom;
        /** Speculative rows by slot, each by position; the point of each slot (-1: none); each point's slot. */
        private final double[][] slotRows;
        private final int[] slotPoint;
        private final int[] slotOf;
        /** Each worker's tile and query offsets for a pass that fills the slots. */
        private final double[][] tiles;
        private final int[][] offsets;
        /** The candidates' positions in a bounded max-heap by (offer, point), while slots are chosen. */
        private final int[] heap = new int[SLOTS];
        private double[] row;
        /** Passes over the rows so far ({@link #fillSlots}) and the rows they made. */
        private int passes;
        private int rowsMade;
        /** Rows the next pass makes ({@link #rowsAhead}); rounds served by a row made ahead since the last pass. */
        private int want = SLOTS;
        private int served;
        /** Passes in a row that made no row ahead. */
        private int bare;
        private double joinedCore;
        private int joined;
        private int count;

        Round(PairDistances dist, MetricKernel.Form form, MetricKernel kernel, BlockedRows rows, double[] core,
              double alpha, int threads) {
            this.dist = dist;
            this.form = form;
            this.kernel = kernel;
            this.rows = rows;
            this.x = dist.preparedRows();
            this.alpha = alpha;
            this.divide = alpha != 1.0;
            int n = dist.size(), m = Math.max(n - 1, 0);
            point = new int[m];
            pCore = new double[m];
            pWeight = new double[m];
            pFrom = new int[m];
            for (int i = 0; i < m; i++) {   // point 0 starts the tree; the others sit at positions 0 .. n-2
                point[i] = i + 1;
                pCore[i] = core[i + 1];
            }
            Arrays.fill(pWeight, Double.POSITIVE_INFINITY);
            Arrays.fill(pFrom, -1);
            this.core = core;
            boolean slots = form != null;
            this.slotRows = slots ? new double[SLOTS][m] : null;
            this.slotPoint = slots ? new int[SLOTS] : null;
            this.slotOf = slots ? new int[n] : null;
            this.tiles = slots ? new double[threads][MetricKernel.MAX_QUERIES * CHUNK] : null;
            this.offsets = slots ? new int[threads][MetricKernel.MAX_QUERIES] : null;
            if (slots) {
                Arrays.fill(slotPoint, -1);
                Arrays.fill(slotOf, -1);
            }
        }

        int point(int position) {
            return point[position];
        }

        double offerWeight(int position) {
            return pWeight[position];
        }

        int offerFrom(int position) {
            return pFrom[position];
        }

        /** Whether the offer at position {@code i} is lighter than the one at {@code j}, under {@link EdgeOrder}. */
        boolean lighter(int i, int j) {
            return EdgeOrder.less(pWeight[i], pFrom[i], point[i], pWeight[j], pFrom[j], point[j]);
        }

        /**
         * A round offers the first {@code count} positions their edge to {@code joined}: for a metric with a
         * kernel, from {@code joined}'s speculative row, made now by a pass if it has none.
         */
        void start(int joined, int count, ParallelWork work, Execution ex) {
            this.joined = joined;
            this.count = count;
            this.joinedCore = core[joined];
            if (form == null || count == 0) return;
            if (slotOf[joined] < 0) {
                fillSlots(work, ex);
            } else {
                served++;
            }
            int s = slotOf[joined];
            row = slotRows[s];
            slotPoint[s] = -1;   // used up: its entries need not move any more
            slotOf[joined] = -1;
        }

        /**
         * Gives slot 0 to {@code joined} and the next {@link #rowsAhead} - 1 slots to the points outside the tree
         * with the lightest offers (finite ones, ties by point), then computes their rows in one pass over the rows
         * outside the tree.
         */
        private void fillSlots(ParallelWork work, Execution ex) {
            int ahead = rowsAhead() - 1;
            for (int s = 0; s < SLOTS; s++) {
                if (slotPoint[s] >= 0) slotOf[slotPoint[s]] = -1;
                slotPoint[s] = -1;
            }
            int size = 0;
            for (int i = 0; i < count && ahead > 0; i++) {   // the lightest offers: a bounded max-heap of positions
                if (pWeight[i] == Double.POSITIVE_INFINITY) continue;
                if (size < ahead) {
                    int c = size++;
                    for (; c > 0 && heavier(i, heap[(c - 1) >>> 1]); c = (c - 1) >>> 1) heap[c] = heap[(c - 1) >>> 1];
                    heap[c] = i;
                } else if (heavier(heap[0], i)) {
                    int c = 0;
                    for (int l = 1; l < size; l = 2 * c + 1) {   // sift down: c at least doubles each step
                        int big = l + 1 < size && heavier(heap[l + 1], heap[l]) ? l + 1 : l;
                        if (!heavier(heap[big], i)) break;
                        heap[c] = heap[big];
                        c = big;
                    }
                    heap[c] = i;
                }
            }
            slotPoint[0] = joined;
            slotOf[joined] = 0;
            for (int s = 0; s < size; s++) {
                slotPoint[s + 1] = point[heap[s]];
                slotOf[point[heap[s]]] = s + 1;
            }
            passes++;
            rowsMade += size + 1;
            int filled = size + 1, d = dist.dimensions(), w = kernel.blockWidth();
            int units = (count + CHUNK - 1) / CHUNK;
            ParallelWork.Unit pass = (worker, u) -> {
                int start = u * CHUNK, end = Math.min(count, start + CHUNK);
                int from = start / w, to = (end + w - 1) / w, width = (to - from) * w;
                double[] tile = tiles[worker];
                int[] off = offsets[worker];
                for (int g = 0; g < filled; g += MetricKernel.MAX_QUERIES) {
                    int nq = Math.min(MetricKernel.MAX_QUERIES, filled - g);
                    for (int r = 0; r < nq; r++) off[r] = slotPoint[g + r] * d;
                    kernel.distances(form, x, off, nq, rows, from, to, tile);
                    for (int r = 0; r < nq; r++) System.arraycopy(tile, r * width, slotRows[g + r], start, end - start);
                }
            };
            if (count < PARALLEL_MIN || work.threads() == 1) {
                for (int u = 0; u < units; u++) pass.run(0, u);
            } else {
                work.run(units, TREE_STAGE, ProgressListener.NONE, ex.cancel(), pass);
            }
        }

        /**
         * The rows the next pass makes, the joining point's included, from how many rounds the rows made ahead by
         * the last pass served: twice as many plus one, at most {@link #SLOTS}. Rows that serve save a pass each;
         * rows that do not cost their arithmetic for nothing (on data whose next points are seldom among the
         * lightest offers, 32 rows a pass made Prim several times slower than one), so the count follows what
         * they did. After {@link #RETRY_PASSES} passes without any, a pass makes {@link #RETRY_ROWS} again. The
         * count changes the time only, never the tree.
         */
        private int rowsAhead() {
            if (passes > 0) want = Math.clamp(2L * served + 1, 1, SLOTS);
            served = 0;
            bare = want == 1 ? bare + 1 : 0;
            if (bare > RETRY_PASSES) {
                bare = 0;
                want = RETRY_ROWS;
            }
            return want;
        }

        /** Whether the offer at position {@code a} is heavier than the one at {@code b}: by weight, then by point. */
        private boolean heavier(int a, int b) {
            return pWeight[a] > pWeight[b] || (pWeight[a] == pWeight[b] && point[a] > point[b]);
        }

        /** The point at {@code position} joined; the one at {@code last} (the last of those left) takes its place. */
        void remove(int position, int last) {
            if (position == last) return;
            point[position] = point[last];
            pCore[position] = pCore[last];
            pWeight[position] = pWeight[last];
            pFrom[position] = pFrom[last];
            if (rows == null) return;
            rows.move(last, position);
            for (int s = 0; s < SLOTS; s++) {
                if (slotPoint[s] >= 0) slotRows[s][position] = slotRows[s][last];
            }
        }

        /**
         * Offers the positions {@code u * CHUNK ..} their edge to {@code joined}; returns the chunk's position
         * of the lightest offer.
         */
        int offer(int u) {
            int start = u * CHUNK, end = Math.min(count, start + CHUNK);
            double cj = joinedCore;
            int best = start;
            double bw = Double.POSITIVE_INFINITY;   // the chunk's lightest offer so far, kept in registers
            int bf = -1, bq = -1;
            double[] r = row;
            for (int i = start; i < end; i++) {
                int q = point[i];
                // without a kernel's row (minkowski, precomputed): a distance above the point's offer cannot
                // replace it (w >= dqi > wq), so it is computed only where it may
                double dqi = form != null ? r[i]
                        : dist.betweenUpTo(joined, q, pFrom[i] < 0 || divide ? PairDistances.NO_CUTOFF : dist.cutoff(pWeight[i]));
                if (divide) dqi /= alpha;
                double w = Math.max(Math.max(cj, pCore[i]), dqi);
                double wq = pWeight[i];
                int fq = pFrom[i];
                // fq < 0: no offer yet, which an infinite one (a missing precomputed distance) still beats
                if (fq < 0 || EdgeOrder.less(w, joined, q, wq, fq, q)) {
                    wq = pWeight[i] = w;
                    fq = pFrom[i] = joined;
                }
                if (bq < 0 || EdgeOrder.less(wq, fq, q, bw, bf, bq)) {
                    best = i;
                    bw = wq;
                    bf = fq;
                    bq = q;
                }
            }
            return best;
        }
    }
}
