package org.sylva.hdbscan.predict;

import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.metric.BruteForceEngine;
import org.sylva.hdbscan.metric.KdTree;
import org.sylva.hdbscan.metric.PairDistances;
import org.sylva.hdbscan.metric.TiledRows;
import org.sylva.kernels.BlockedRows;
import org.sylva.kernels.MetricKernel;
import org.sylva.parallel.Execution;
import org.sylva.parallel.ParallelWork;

/**
 * The nearest fitted points of a model whose fit used a metric other than Euclidean (manhattan, chebyshev,
 * minkowski, cosine), each distance computed with the fit's own arithmetic ({@link PairDistances#toRow}),
 * and of a Euclidean model asked about its first few new points before it has built its index
 * ({@link FittedSearch#SCAN_MAX_POINTS}: the kernel's Euclidean form sums in dimension order, so its lists
 * are bitwise {@link NeighbourSearch}'s).
 * For manhattan, chebyshev and minkowski in up to 16 dimensions (where the fit's
 * {@link org.sylva.hdbscan.metric.KdTreeEngine} may run) the search walks a {@link KdTree} over the fitted points and skips
 * a box whose bound exceeds the list's last distance, which drops no point a scan would keep (the bound never
 * exceeds a computed distance, and ties with the last entry are still visited); otherwise it scans every
 * fitted point, as the brute-force fit did, through the fit's {@link MetricKernel} (bitwise the same
 * distances, many at a time) where the metric has one. Lists are in (distance, fitted index) order, as
 * {@link NeighbourSearch}'s. {@link #fittedLists} gives the fitted points' own lists, from the distances the
 * fit computed ({@link PairDistances#between}), for their core distances.
 *
 * <pre>{@code
 * MetricScan scan = new MetricScan(Metric.manhattan().pairs(rows, n, d), tree);   // tree: null to scan
 * NeighbourSearch.Scratch w = scan.scratch(k);
 * scan.nearest(pairs.queries(newPoints, m), i * d, w);
 * }</pre>
 */
final class MetricScan implements FittedNeighbours {
    /** Fitted points per unit of parallel work in {@link #fittedLists}. */
    private static final int CHUNK = 64;
    /** Fitted positions a scan's kernel measures per call. */
    private static final int TILE = 1024;
    /** Cosine distances below this may belong to a new point equal to the row: {@link PairDistances#toRow} decides. */
    private static final double COINCIDENT = 1e-12;

    private final PairDistances pairs;
    /** The tree over the fitted points, or null to scan them all. */
    private final KdTree tree;
    /** For a scan of a metric a kernel computes: the kernel, its form and the fitted rows in its blocks; else null. */
    private final MetricKernel kernel;
    private final MetricKernel.Form form;
    private final BlockedRows blocked;

    MetricScan(PairDistances pairs, KdTree tree) {
        this(pairs, tree, null);
    }

    /** A scan whose kernel, where the metric has one and no tree runs, is {@code use} (null: the fit's choice). */
    MetricScan(PairDistances pairs, KdTree tree, MetricKernel use) {
        this.pairs = pairs;
        this.tree = tree;
        if (tree != null && tree.size() != pairs.size()) {
            throw new IllegalArgumentException("a tree of " + tree.size() + " points for " + pairs.size());
        }
        this.form = tree == null && pairs.size() > 0 ? pairs.kernelForm() : null;
        this.kernel = form == null ? null : use != null ? use : BruteForceEngine.kernelFor(pairs.size(), pairs.dimensions());
        this.blocked = form == null ? null : BlockedRows.of(pairs.preparedRows(), 0, pairs.size(), pairs.dimensions(),
                kernel.blockWidth());
    }

    /** The k-d tree the scan walks, or null when it scans every fitted point. */
    KdTree tree() {
        return tree;
    }

    /**
     * True when this scan's kernel is not the one a scan made now would take (a fresh JVM's scalar kernel,
     * once the JVM has become a long-lived one): its maker makes a new scan. The answers are the same.
     */
    boolean kernelOutdated() {
        return kernel != null && kernel != BruteForceEngine.kernelFor(pairs.size(), pairs.dimensions());
    }

    /** Fitted positions per scan tile: whole blocks of the kernel. */
    private int tileLength() {
        return kernel == null ? 0 : Math.max(1, TILE / kernel.blockWidth()) * kernel.blockWidth();
    }

    @Override
    public NeighbourSearch.Scratch scratch(int k) {
        if (k < 1 || k > pairs.size()) throw new IllegalArgumentException("k = " + k + " for " + pairs.size() + " points");
        return new NeighbourSearch.Scratch(k, depth(), tileLength(), null, 0);
    }

    @Override
    public NeighbourSearch.Scratch scratch(int[] weights, int points) {
        int k = Math.min(pairs.size(), points);
        if (k < 1 || weights.length != pairs.size()) {
            throw new IllegalArgumentException(points + " points from " + weights.length + " weights for " + pairs.size()
                    + " rows");
        }
        return new NeighbourSearch.Scratch(k, depth(), tileLength(), weights, points);
    }

    /** The depth a scratch's stack is made for: the tree's walk fits in {@code 2 depth + 4} entries. */
    private int depth() {
        return tree == null ? 0 : (tree.stackSize() - 4) / 2;
    }

    @Override
    public void nearest(double[] q, int off, NeighbourSearch.Scratch s) {
        s.begin();
        if (kernel != null) {
            scan(q, off, s);
        } else if (tree == null) {
            int n = pairs.size();
            double cutFor = Double.NaN, cut = PairDistances.NO_CUTOFF;   // the cutoff of the list's last
            for (int b = 0; b < n; b++) {
                if (s.kth() != cutFor) {
                    cutFor = s.kth();
                    cut = pairs.cutoff(cutFor);
                }
                double dist = pairs.toRowUpTo(q, off, b, cut);
                if (dist <= s.kth()) s.offer(dist, b);
            }
        } else {
            walk(q, off, s, -1);
        }
        s.end();
    }

    /** Offers {@code s} every fitted point, measured by the kernel a tile at a time. */
    private void scan(double[] q, int off, NeighbourSearch.Scratch s) {
        int n = pairs.size(), w = kernel.blockWidth(), tileBlocks = s.tile.length / w, blocks = blocked.blockCount();
        s.query[0] = off;
        for (int from = 0; from < blocks; from += tileBlocks) {
            int to = Math.min(blocks, from + tileBlocks), first = from * w, count = Math.min(n, to * w) - first;
            kernel.distances(form, q, s.query, 1, blocked, from, to, s.tile);
            for (int c = 0; c < count; c++) {
                double dist = s.tile[c];
                if (form == MetricKernel.Form.COSINE && dist != 0 && dist < COINCIDENT) dist = pairs.toRow(q, off, first + c);
                if (dist <= s.kth()) s.offer(dist, first + c);
            }
        }
    }

    /**
     * Offers {@code s} every fitted point the tree cannot rule out for the point {@code q[off ..]}: each box
     * whose bound is at most the list's last distance. {@code self}: the fitted point {@code q} is (its
     * distances then come from {@link PairDistances#between}, as the fit's), or -1 for a new point.
     */
    private void walk(double[] q, int off, NeighbourSearch.Scratch s, int self) {
        int[] nodes = s.stackNode;
        double[] bounds = s.stackBound;
        double cutFor = Double.NaN, cut = PairDistances.NO_CUTOFF;   // the cutoff of the list's last, made as it changes
        int top = 0;
        nodes[top] = KdTree.ROOT;
        bounds[top++] = 0;
        for (int visits = 0; top > 0 && visits < tree.nodes(); visits++) {   // each node is pushed at most once
            int node = nodes[--top];
            if (bounds[top] > s.kth()) continue;   // > : a tie with the last entry may still enter by its index
            if (!tree.isLeaf(node)) {
                top = tree.pushChildren(q, off, node, nodes, bounds, top);
                continue;
            }
            for (int p = tree.start(node); p < tree.end(node); p++) {
                int b = tree.row(p);
                if (s.kth() != cutFor) {
                    cutFor = s.kth();
                    cut = pairs.cutoff(cutFor);
                }
                // a distance above the list's last is dropped unseen (BEYOND is above any finite last)
                double dist = self >= 0 ? pairs.betweenUpTo(self, b, cut) : pairs.toRowUpTo(q, off, b, cut);
                if (dist <= s.kth()) s.offer(dist, b);
            }
        }
    }

    /**
     * {@link #fittedLists} by the kernel: a unit of {@link #CHUNK} fitted points runs through the rows a tile
     * at a time, four points per kernel call, each point's list kept in its own scratch.
     */
    private CoreDistances fittedListsByKernel(int minSamples, int k, Execution ex) {
        int n = pairs.size();
        TiledRows tiled = new TiledRows(pairs, kernel, blocked, tileLength() / kernel.blockWidth());
        int[] nb = new int[n * k];
        double[] nd = new double[n * k];
        NeighbourSearch.Scratch[][] lists = new NeighbourSearch.Scratch[ex.threads()][];
        double[][] tiles = new double[ex.threads()][];
        int units = (n + CHUNK - 1) / CHUNK;
        new ParallelWork(ex.threads()).run(units, org.sylva.hdbscan.core.CoreDistances.STAGE, ex.progress(), ex.cancel(),
                (worker, unit) -> {
                    if (lists[worker] == null) {
                        lists[worker] = new NeighbourSearch.Scratch[CHUNK];
                        for (int i = 0; i < CHUNK; i++) lists[worker][i] = scratch(k);
                        tiles[worker] = tiled.newTile();
                    }
                    NeighbourSearch.Scratch[] list = lists[worker];
                    int start = unit * CHUNK, end = Math.min(n, start + CHUNK);
                    for (int i = start; i < end; i++) list[i - start].begin();
                    tiled.scan(start, end, list[0].query, tiles[worker], (point, values, at, first, count) -> {
                        NeighbourSearch.Scratch s = list[point - start];
                        for (int c = 0; c < count; c++) {
                            double dist = values[at + c];
                            if (dist <= s.kth()) s.offer(dist, first + c);
                        }
                    });
                    for (int i = start; i < end; i++) keep(list[i - start], i, nb, nd);
                });
        return lists(minSamples, k, nb, nd);
    }

    /**
     * Each fitted point's {@code min(n, minSamples + 1)} nearest fitted points, itself included at 0, with the
     * fit's core distances ({@code minSamples}-th entry): what the fit's engine computed, on the execution's
     * threads (the same lists for any count); {@code tree}: the fit's tree over the rows of {@code pairs}, or
     * null to scan every pair.
     */
    static CoreDistances fittedLists(PairDistances pairs, KdTree tree, int minSamples, Execution ex) {
        return fittedLists(pairs, tree, minSamples, ex, null);
    }

    /** {@link #fittedLists(PairDistances, KdTree, int, Execution)} on the kernel {@code use} (null: the fit's choice). */
    static CoreDistances fittedLists(PairDistances pairs, KdTree tree, int minSamples, Execution ex, MetricKernel use) {
        int n = pairs.size(), k = Math.min(n, minSamples + 1);
        if ((long) n * k > Integer.MAX_VALUE - 8) {
            throw InvalidInputException.forParameter("min_samples", String.format(java.util.Locale.ROOT,
                    "a model of %d points at min_samples %d keeps %d neighbours per point, %d in all: more than one "
                    + "array holds; lower min_samples or fit a subsample", n, minSamples, k, (long) n * k));
        }
        MetricScan scan = new MetricScan(pairs, tree, use);
        if (scan.kernel != null) return scan.fittedListsByKernel(minSamples, k, ex);
        double[] rows = pairs.preparedRows();
        int d = n == 0 ? 1 : rows.length / n;
        int[] nb = new int[n * k];
        double[] nd = new double[n * k];
        NeighbourSearch.Scratch[] scratch = new NeighbourSearch.Scratch[ex.threads()];
        int units = (n + CHUNK - 1) / CHUNK;
        new ParallelWork(ex.threads()).run(units, org.sylva.hdbscan.core.CoreDistances.STAGE, ex.progress(), ex.cancel(),
                (worker, unit) -> {
                    if (scratch[worker] == null) scratch[worker] = scan.scratch(k);
                    NeighbourSearch.Scratch s = scratch[worker];
                    for (int i = unit * CHUNK; i < Math.min(n, (unit + 1) * CHUNK); i++) {
                        s.begin();
                        if (tree == null) {
                            double cutFor = Double.NaN, cut = PairDistances.NO_CUTOFF;
                            for (int b = 0; b < n; b++) {
                                if (s.kth() != cutFor) {
                                    cutFor = s.kth();
                                    cut = pairs.cutoff(cutFor);
                                }
                                double dist = pairs.betweenUpTo(i, b, cut);
                                if (dist <= s.kth()) s.offer(dist, b);
                            }
                        } else {
                            scan.walk(rows, i * d, s, i);
                        }
                        keep(s, i, nb, nd);
                    }
                });
        return lists(minSamples, k, nb, nd);
    }

    /** Ends point {@code i}'s search and keeps its list at {@code i * k} of the lists' arrays. */
    private static void keep(NeighbourSearch.Scratch s, int i, int[] nb, double[] nd) {
        s.end();
        System.arraycopy(s.dist, 0, nd, i * s.k, s.k);
        System.arraycopy(s.index, 0, nb, i * s.k, s.k);
    }

    /** The fitted points' lists as core distances: the {@code minSamples}-th entry of each. */
    private static CoreDistances lists(int minSamples, int k, int[] nb, double[] nd) {
        int n = nb.length / Math.max(k, 1);
        double[] core = new double[n];
        for (int i = 0; i < n; i++) core[i] = nd[i * k + Math.min(minSamples, k) - 1];
        return CoreDistances.of(minSamples, core, k, nb, nd);
    }
}
