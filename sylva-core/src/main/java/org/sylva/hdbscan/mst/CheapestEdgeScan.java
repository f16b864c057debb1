package org.sylva.hdbscan.mst;

import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.index.ProjectedIndex;
import org.sylva.kernels.ApproximationBound;
import org.sylva.kernels.DistanceKernel;

/**
 * The parallel part of a Borůvka round: for every point left active by the round's preparation
 * ({@link BoruvkaRun}), its cheapest edge into another component, found by scanning the partition tree
 * leaf by leaf. Queries of one leaf are scanned together against the leaves whose lower bound (node
 * radius, the minimum core distance below a node, the component's current best edge as an upper bound
 * shared by the threads) cannot rule them out; distances come from the {@link DistanceKernel} in tiles,
 * through its float32 pre-filter where it has one, and every decision is re-made exactly in float64 under
 * {@link EdgeOrder}. Bounds are whole edges, weight and endpoints ({@link EdgeOrder#allAfter}): a node or
 * point is skipped when every edge it could give comes strictly after the query's bound, so that massive
 * ties (integer data, whose weights take few values) are pruned by the lowest original index under a
 * node instead of being scanned in full. Each leaf writes only its own points' {@code bestW}/{@code bestQ}, so the result does
 * not depend on which thread scanned what.
 *
 * <pre>{@code
 * CheapestEdgeScan scan = new CheapestEdgeScan(run, threads);
 * work.run(units, stage, progress, cancel, (worker, unit) -> scan.scanLeaf(worker, activeLeaves[unit]));
 * }</pre>
 */
final class CheapestEdgeScan {
    /** Relative widening of the squared-distance pre-filter; covers the rounding of sqrt, * and / alpha. */
    private static final double FILTER_SLACK = 1e-12;
    /**
     * A tile is skipped, and the pairs the principal axes leave are computed exactly one by one, when they
     * are at most one in this many: an exact pair costs about this many pre-filter pairs.
     */
    static final int SCREEN_RATIO = 16;

    private final PointIndex idx;
    private final DistanceKernel backend;
    private final double alpha;
    private final boolean divide;
    private final boolean boundPruning;
    private final double[] core;
    private final double[] posCore;
    private final int[] posComp;
    private final boolean[] posActive;
    private final double[] nodeMinCore;
    private final int[] nodeMinOrig;
    private final int[] nodeComp;
    private final BoruvkaComponents components;
    private final double[] bestW;
    private final int[] bestQ;
    private final ComponentBounds compBound;
    private final boolean filtered;
    private final boolean leavesByCore;
    private final double approxFactor;
    private final double approxAbs;
    /**
     * Whether a visit's float32 tile comes from the stopping kernel
     * ({@link DistanceKernel#approximateSquaredDistancesWithin}), each row's limit its query's widened
     * threshold: in hundreds of dimensions ({@link #STOPPING_DIMENSIONS}) most pairs of a tile are far above
     * it well before their last coordinate. As the neighbour search's pass 2, only with the principal-axis
     * bounds (which the engine gives from 100 000 points, or from fewer in a long-lived JVM): in a fresh one the
     * stopping kernel runs uncompiled for seconds, and a one-shot run of 10 000 MNIST digits took 6.8 s
     * with it against 4.1 s without.
     */
    private boolean stopping;
    /** Dimensions from which the scan's tiles stop early. */
    static final int STOPPING_DIMENSIONS = 256;
    /** Relative error bound of the pre-filter kernel over the principal axes' coordinates. */
    private final double screenFactor = 1 + DistanceKernel.approximationError(ProjectedIndex.AXES);
    private final Scratch[] scratch;
    /**
     * The principal-axis bounds (null: none), set by the run before its first scan: a second, tighter
     * lower bound for nodes, queries and pairs, from {@link ProjectedIndex#AXES} coordinates.
     */
    private ProjectedIndex axes;

    /** A scan over {@code run}'s per-round state, with buffers for {@code threads} workers. */
    CheapestEdgeScan(BoruvkaRun run, int threads) {
        this.idx = run.idx;
        this.backend = run.backend;
        this.alpha = run.alpha;
        this.divide = run.divide;
        this.boundPruning = run.boundPruning;
        this.core = run.core;
        this.posCore = run.posCore;
        this.posComp = run.posComp;
        this.posActive = run.posActive;
        this.nodeMinCore = run.nodeMinCore;
        this.nodeMinOrig = run.nodeMinOrig;
        this.nodeComp = run.nodeComp;
        this.components = run.components;
        this.bestW = run.components.bestW;
        this.bestQ = run.components.bestQ;
        this.compBound = run.compBound;
        this.filtered = run.filtered;
        this.leavesByCore = run.leavesByCore;
        this.approxFactor = run.approxFactor;
        this.approxAbs = run.approxAbs;
        // each worker's scratch is made on its first unit: a pass of u units runs min(threads, u) workers
        scratch = new Scratch[threads];
    }

    /** Worker {@code worker}'s scratch, made on first use (a worker runs on one thread at a time). */
    private Scratch scratch(int worker) {
        if (scratch[worker] == null) scratch[worker] = new Scratch(idx, backend, filtered);
        return scratch[worker];
    }

    /** Tiles left to the principal axes so far, over all workers (tests). */
    long screenedTiles() {
        long t = 0;
        for (Scratch s : scratch) if (s != null) t += s.screenedTiles;
        return t;
    }

    /** Uses {@code axes} (null: none) in the scans that follow. */
    void useAxes(ProjectedIndex axes) {
        this.axes = axes;
        this.stopping = axes != null && filtered && idx.dimensions() >= STOPPING_DIMENSIONS;
    }

    /** Per-worker buffers, allocated once and reused in every round. */
    static final class Scratch {
        final int[] qPos = new int[PointIndex.LEAF_SIZE];
        /** The queries' original point indices (the fixed endpoint of their candidate edges). */
        final int[] qOrig = new int[PointIndex.LEAF_SIZE];
        final int[] qComp = new int[PointIndex.LEAF_SIZE];
        final double[] qCore = new double[PointIndex.LEAF_SIZE];
        final double[] qBestW = new double[PointIndex.LEAF_SIZE];
        /** Per query, its bound: the earlier of its best edge and its component's ({@link #reference}). */
        final double[] refW = new double[PointIndex.LEAF_SIZE];
        final long[] refE = new long[PointIndex.LEAF_SIZE];
        final int[] act = new int[PointIndex.LEAF_SIZE];
        final int[] actPos = new int[PointIndex.LEAF_SIZE];
        final double[] centre = new double[2 * PointIndex.LEAF_SIZE + 32];
        final int[] qBestQ = new int[PointIndex.LEAF_SIZE];
        final double[] tile;
        final float[] tile32;
        /** Squared distances along the principal axes, in the layout of {@link #tile}. */
        final double[] screen;
        final float[] screen32;
        /** Per tile row, the largest value of {@link #screen} that does not prove the pair beyond its threshold. */
        final double[] screenLimit = new double[PointIndex.LEAF_SIZE];
        /** Per active query, the squared threshold of its bound when an exact tile is computed. */
        final double[] tileLimit = new double[PointIndex.LEAF_SIZE];
        /**
         * The stopping kernel's arguments: per active query, its widened threshold in float32 rounded up; per
         * tile column, no limit; per query, the blocks it summed in full.
         */
        final float[] rowLimit32 = new float[PointIndex.LEAF_SIZE];
        final float[] colLimit32;
        final long[] rowBlocks = new long[PointIndex.LEAF_SIZE];
        final int[] sel = new int[PointIndex.LEAF_SIZE + 16];
        final int[] cand = new int[PointIndex.LEAF_SIZE + 16];
        final double[] exact = new double[PointIndex.LEAF_SIZE + 16];
        /** Tiles this worker left to the principal axes (no tile computed): tests read it. */
        long screenedTiles;
        /** The current query's bound (a real edge: weight and endpoints) and squared-distance threshold. */
        double bound;
        long boundEndpoints;
        double thr;
        /** The largest and smallest bound weights of the scanned leaf's queries ({@link #refreshBounds}). */
        double maxBound, minBound;
        final int[] stackNode;
        final double[] stackLb;

        Scratch(PointIndex idx, DistanceKernel b, boolean filtered) {
            int w = idx.blockWidth();
            tile = new double[b.tileLength(PointIndex.LEAF_SIZE, (PointIndex.LEAF_SIZE + w - 1) / w, idx)];
            tile32 = filtered ? new float[tile.length] : null;
            screen = new double[tile.length];
            screen32 = filtered ? new float[tile.length] : null;
            colLimit32 = new float[((PointIndex.LEAF_SIZE + w - 1) / w + 1) * w];
            java.util.Arrays.fill(colLimit32, Float.NEGATIVE_INFINITY);
            stackNode = new int[2 * idx.depth() + 4];
            stackLb = new double[2 * idx.depth() + 4];
        }
    }

    /** Scans the active points of {@code leaf} on worker {@code worker}'s buffers. */
    void scanLeaf(int worker, int leaf) {
        Scratch s = scratch(worker);
        int start = idx.leafStart(leaf), cnt = idx.leafCount(leaf);
        int m = 0;
        int uniform = -1;
        double minCore = Double.POSITIVE_INFINITY;
        for (int p = start; p < start + cnt; p++) {
            if (!posActive[p]) continue;
            s.qPos[m] = p;
            s.qOrig[m] = idx.original(p);
            s.qComp[m] = posComp[p];
            s.qCore[m] = posCore[p];
            s.qBestW[m] = Double.POSITIVE_INFINITY;
            s.qBestQ[m] = Integer.MAX_VALUE;
            uniform = m == 0 ? posComp[p] : (uniform == posComp[p] ? uniform : -1);
            minCore = Math.min(minCore, posCore[p]);
            m++;
        }
        if (m == 0) return;
        if (boundPruning) {
            traverse(s, m, leaf, uniform, minCore);
        } else {
            int leaves = idx.leaves();
            for (int other = 0; other < leaves; other++) {
                int node = idx.leafNode(other);
                if (nodeComp[node] >= 0 && nodeComp[node] == uniform) continue;
                visitLeaf(s, m, leaf, other);
            }
        }
        for (int i = 0; i < m; i++) {
            int o = idx.original(s.qPos[i]);
            if (s.qBestQ[i] != Integer.MAX_VALUE) {
                bestW[o] = s.qBestW[i];
                bestQ[o] = s.qBestQ[i];
            } else if (boundPruning) {
                // Nothing found. Every skip was of an edge strictly after the bound as it stood; the bound
                // only fell. An edge of weight at most the final bound's weight W was therefore skipped only
                // at a bound of weight W whose lower endpoint is at most the final one's, and only if it
                // came after it: impossible while this point's index is below the final lower endpoint
                // (then every edge of weight W from it comes first). So the scan saw every edge of weight
                // at most W into another component, and there is none.
                reference(s, i);
                if (s.refW[i] < Double.POSITIVE_INFINITY && s.qOrig[i] < (int) (s.refE[i] >>> 32)) {
                    components.recordNoEdgeUpTo(o, s.refW[i]);
                }
            }
        }
    }

    /**
     * Query {@code i}'s bound into {@code s.refW[i]}, {@code s.refE[i]}: the earlier, under {@link EdgeOrder},
     * of its best edge so far and its component's bound (both real edges of the component).
     */
    private void reference(Scratch s, int i) {
        int c = s.qComp[i];
        double cw = compBound.weight(c);   // the weight first, then the endpoints (see ComponentBounds)
        long ce = compBound.endpoints(c);
        double qw = s.qBestW[i];
        long qe = s.qBestQ[i] == Integer.MAX_VALUE ? EdgeOrder.NO_ENDPOINTS : EdgeOrder.endpoints(s.qOrig[i], s.qBestQ[i]);
        if (qw < cw || (qw == cw && qe < ce)) {
            s.refW[i] = qw;
            s.refE[i] = qe;
        } else {
            s.refW[i] = cw;
            s.refE[i] = ce;
        }
    }

    /** The weight of query {@code i}'s bound (the cheap part of {@link #reference}, enough unless weights tie). */
    private double boundWeight(Scratch s, int i) {
        return Math.min(s.qBestW[i], compBound.weight(s.qComp[i]));
    }

    /**
     * The largest and the smallest of the queries' bound weights into {@code s.maxBound} and
     * {@code s.minBound}, in one pass: the largest is the weight an edge from one of the queries may have
     * and still matter.
     */
    private void refreshBounds(Scratch s, int m) {
        double mx = 0.0, mn = Double.POSITIVE_INFINITY;
        for (int i = 0; i < m; i++) {
            double b = boundWeight(s, i);
            mx = Math.max(mx, b);
            mn = Math.min(mn, b);
        }
        s.maxBound = mx;
        s.minBound = mn;
    }

    /**
     * True when no query can use an edge into {@code node} (ball lower bound {@code lb}): for each, the
     * node is its own component's, or every edge into it comes strictly after the query's bound (weight at
     * least {@code max(core_q, min core under node, lb)}, endpoints at least those with the lowest original
     * index under the node).
     */
    private boolean ruledOutForAll(Scratch s, int m, int node, double lb) {
        int nodeC = nodeComp[node];
        double base = Math.max(nodeMinCore[node], lb);
        int mo = nodeMinOrig[node];
        for (int i = 0; i < m; i++) {
            if (nodeC >= 0 && nodeC == s.qComp[i]) continue;
            double v = Math.max(s.qCore[i], base);
            reference(s, i);
            if (!EdgeOrder.allAfter(v, EdgeOrder.endpoints(s.qOrig[i], mo), s.refW[i], s.refE[i])) return false;
        }
        return true;
    }

    private void traverse(Scratch s, int m, int ownLeaf, int uniform, double minCoreQ) {
        int own = idx.leafNode(ownLeaf);
        double ownReach = 2 * idx.radius(own) * (1 + 1e-9) / (divide ? alpha : 1.0);
        refreshBounds(s, m);
        double bound = s.maxBound;
        double least = s.minBound;   // like bound, refreshed after each leaf visit
        int sp = 0;
        s.stackNode[sp] = 0;
        s.stackLb[sp] = 0.0;
        sp++;
        int limit = 2 * idx.nodes() + 2;
        for (int it = 0; it < limit && sp > 0; it++) {
            sp--;
            int node = s.stackNode[sp];
            double lb = s.stackLb[sp];
            if (nodeComp[node] >= 0 && nodeComp[node] == uniform) continue;
            double v = Math.max(Math.max(minCoreQ, nodeMinCore[node]), lb);
            if (v > bound) continue;
            if (v == bound && ruledOutForAll(s, m, node, lb)) continue;   // a tie: the endpoints may decide
            int leaf = idx.leafOf(node);
            if (leaf >= 0) {
                visitLeaf(s, m, ownLeaf, leaf);
                refreshBounds(s, m);
                bound = s.maxBound;
                least = s.minBound;
                continue;
            }
            // The ball-to-ball bound above is loose in many dimensions (a leaf's radius is about a typical
            // distance); each query's own distance to the node's centre often rules the whole subtree out.
            // That bound exceeds lb by at most twice the own leaf's radius: below the smallest query
            // bound it cannot rule out a query, and the check is not worth its centre distances.
            if (node != 0 && lb + ownReach >= least && reachingQueries(s, m, ownLeaf, node, false) == 0) {
                continue;
            }
            int l = idx.left(node), r = idx.right(node);
            double lbL = weightBound(own, l), lbR = weightBound(own, r);
            int near = l, far = r;
            double lbNear = lbL, lbFar = lbR;
            if (lbR < lbL) {
                near = r;
                far = l;
                lbNear = lbR;
                lbFar = lbL;
            }
            s.stackNode[sp] = far;
            s.stackLb[sp] = lbFar;
            sp++;
            s.stackNode[sp] = near;
            s.stackLb[sp] = lbNear;
            sp++;
        }
        if (sp != 0) throw new IllegalStateException("edge search did not finish its traversal");
    }

    /**
     * The queries that may use an edge into {@code node}, judged by each query's own distance to the node's
     * centre: a query is left out when the node is its own component's, or when every edge into the node
     * comes strictly after its bound (weight at least {@code max(core_q, min core under the node, ball lower
     * bound / alpha)}, endpoints at least those of the lowest original index under the node). With
     * {@code collect}, the queries kept go into {@code s.act}/{@code s.actPos} and each query's bound weight
     * into {@code s.refW}, and their number is returned; without, the search stops at the first query kept
     * (returns 1) or returns 0.
     */
    private int reachingQueries(Scratch s, int m, int ownLeaf, int node, boolean collect) {
        int w = idx.blockWidth();
        int qs = idx.leafStart(ownLeaf);
        int qbf = qs / w, qbt = (qs + idx.leafCount(ownLeaf) + w - 1) / w;
        int nodeC = nodeComp[node];
        double minCoreN = nodeMinCore[node];
        int minOrigN = nodeMinOrig[node];
        // Few queries: their centre distances one by one; else the whole leaf in one vector pass, made
        // when the first query passes the cheap tests (core distances, then the principal axes).
        boolean few = 4 * m < idx.leafCount(ownLeaf);
        boolean centres = false;
        int off = qbf * w;
        int nq = 0;
        for (int i = 0; i < m; i++) {
            if (nodeC >= 0 && nodeC == s.qComp[i]) continue;
            double bound = boundWeight(s, i);
            if (collect) s.refW[i] = bound;
            double floor = Math.max(s.qCore[i], minCoreN);
            if (floor > bound) continue;
            if (axes != null) {   // with the axes, the full-space bound from the centre rarely adds to theirs
                double lb = axes.lowerBoundFromPoint(s.qPos[i], node);
                if (divide) lb /= alpha;
                if (lb > bound) continue;
            } else {
                if (!few && !centres) {
                    backend.centreDistances(idx, node, qbf, qbt, s.centre);
                    centres = true;
                }
                double sq = few ? idx.centreSquaredDistance(node, s.qPos[i]) : s.centre[s.qPos[i] - off];
                double lb = idx.lowerBoundFromCentre(sq, node);
                if (divide) lb /= alpha;
                double v = Math.max(floor, lb);
                if (v > bound) continue;
                if (v == bound) {   // a tie: the endpoints may decide
                    reference(s, i);
                    if (EdgeOrder.allAfter(v, EdgeOrder.endpoints(s.qOrig[i], minOrigN), s.refW[i], s.refE[i])) continue;
                }
            }
            if (!collect) return 1;
            s.act[nq] = i;
            s.actPos[nq] = s.qPos[i];
            nq++;
        }
        return nq;
    }

    /** Lower bound on {@code dist / alpha} between the balls of two nodes (never above the computed value). */
    private double weightBound(int a, int b) {
        double lb = idx.lowerBound(a, b);
        if (axes != null) lb = Math.max(lb, axes.lowerBound(a, b));
        return divide ? lb / alpha : lb;
    }

    /** Squared-distance threshold above which {@code sqrt(sq) / alpha} surely exceeds {@code bound}. */
    private double squaredThreshold(double bound) {
        double x = divide ? bound * alpha : bound;
        return x * x * (1 + FILTER_SLACK);
    }

    /**
     * Offers the points of {@code leaf} to the queries. With bound pruning, a query skips the leaf when
     * every edge into it comes strictly after its bound (its best edge or its component's, both real
     * edges) under {@link EdgeOrder#allAfter}: weight at least {@code max(core_q, min core of the leaf,
     * ball lower bound / alpha)}, endpoints at least those of the leaf's lowest original index. Within the
     * leaf a pair is skipped the same way from {@code max(core_q, core_p)} and its own endpoints, or when
     * its distance strictly exceeds the bound.
     */
    private void visitLeaf(Scratch s, int m, int ownLeaf, int leaf) {
        int w = idx.blockWidth();
        int cs = idx.leafStart(leaf);
        int cnt = idx.leafCount(leaf);
        int node = idx.leafNode(leaf);
        int nq;
        if (boundPruning) {
            nq = reachingQueries(s, m, ownLeaf, node, true);
        } else {
            int nodeC = nodeComp[node];
            nq = 0;
            for (int i = 0; i < m; i++) {
                if (nodeC >= 0 && nodeC == s.qComp[i]) continue;
                s.act[nq] = i;
                s.actPos[nq] = s.qPos[i];
                nq++;
            }
        }
        if (nq == 0) return;
        if (boundPruning && leavesByCore) {
            // The leaf's points by ascending core distance: those above every query's bound weight give
            // edges strictly after it (weight at least their core distance), so only a prefix is read.
            double mx = 0.0;
            for (int r = 0; r < nq; r++) mx = Math.max(mx, s.refW[s.act[r]]);
            int c = cnt;
            while (c > 0 && posCore[cs + c - 1] > mx) c--;
            if (c == 0) return;
            cnt = c;
        }
        int bf = cs / w, bt = (cs + cnt + w - 1) / w;
        // The float32 pre-filter pays once every active query has a finite bound (almost always; the
        // very first leaves of a component without neighbour edges are scanned exactly).
        boolean approx = filtered;
        for (int r = 0; approx && r < nq; r++) {
            if (s.refW[s.act[r]] == Double.POSITIVE_INFINITY) approx = false;
        }
        int stride = (bt - bf) * w;
        int off = cs - bf * w;
        boolean screened = axes != null && screen(s, nq, bf, bt, off, cnt);
        // the rows' limits are their bounds' thresholds: without bound pruning a row reads every value
        boolean stop = approx && stopping && boundPruning && !screened;
        if (!screened) {   // a screened visit has no tile: the pairs the axes leave are computed exactly below
            if (stop) {
                // The limits now: a query's bound only falls during the visit, so the threshold its row is
                // read with below is at most this one, and a value left as a partial sum above it is above
                // that too (see approximateSquaredDistancesWithin).
                for (int r = 0; r < nq; r++) {
                    double limit = squaredThreshold(s.refW[s.act[r]]) * approxFactor + approxAbs;
                    s.rowLimit32[r] = ApproximationBound.roundUp(limit);
                }
                backend.approximateSquaredDistancesWithin(idx, s.actPos, nq, bf, bt, s.rowLimit32, s.colLimit32,
                        s.tile32, s.rowBlocks);
                // the bits count the tile's blocks, the selection's offsets the leaf's: the same where it starts one
                if (off != 0) java.util.Arrays.fill(s.rowBlocks, 0, nq, -1L);
            } else if (approx) {
                backend.approximateSquaredDistances(idx, s.actPos, nq, bf, bt, s.tile32);
            } else {
                exactTile(s, nq, bf, bt);
            }
        }
        for (int r = 0; r < nq; r++) {
            int q = s.act[r];
            int row = r * stride + off;
            int qc = s.qComp[q];
            double qCore = s.qCore[q];
            int oq = s.qOrig[q];
            if (boundPruning) {
                reference(s, q);
                s.bound = s.refW[q];
                s.boundEndpoints = s.refE[q];
            } else {
                s.bound = Double.POSITIVE_INFINITY;
                s.boundEndpoints = EdgeOrder.NO_ENDPOINTS;
            }
            s.thr = squaredThreshold(s.bound);
            if (screened) {
                // Values along the axes beyond the row's limit prove the exact value beyond its threshold.
                double lim = s.screenLimit[r];
                int nc = 0;
                if (filtered) {
                    int sel = backend.select(s.screen32, row, cnt, lim, s.sel);
                    for (int e = 0; e < sel; e++) {
                        int c = s.sel[e];
                        int p = cs + c;
                        if (s.screen32[row + c] > lim || posComp[p] == qc || ruledOut(s, oq, qCore, p)) continue;
                        s.cand[nc++] = p;
                    }
                } else {
                    for (int c = 0; c < cnt; c++) {
                        int p = cs + c;
                        if (s.screen[row + c] > lim || posComp[p] == qc || ruledOut(s, oq, qCore, p)) continue;
                        s.cand[nc++] = p;
                    }
                }
                considerCandidates(s, r, q, qc, qCore, nc);
            } else if (approx) {
                // Approximations beyond the widened threshold have exact values beyond thr: skipped. The
                // few others get their exact value.
                double thrA = s.thr * approxFactor + approxAbs;
                int sel = stop ? backend.select(s.tile32, row, cnt, thrA, s.rowBlocks[r], s.sel)
                        : backend.select(s.tile32, row, cnt, thrA, s.sel);
                int nc = 0;
                for (int e = 0; e < sel; e++) {
                    int c = s.sel[e];
                    int p = cs + c;
                    if (posComp[p] == qc || s.tile32[row + c] > thrA || ruledOut(s, oq, qCore, p)) continue;
                    s.cand[nc++] = p;
                }
                considerCandidates(s, r, q, qc, qCore, nc);
            } else {
                // the distance first: it rules out most pairs without reading the candidate's component or core
                for (int c = 0; c < cnt; c++) {
                    double sq = s.tile[row + c];
                    if (sq > s.thr) continue;
                    int p = cs + c;
                    if (posComp[p] == qc || ruledOut(s, oq, qCore, p)) continue;
                    consider(s, q, qc, qCore, p, sq);
                }
            }
        }
    }

    /**
     * The principal-axis screen of a visit: squared distances along the axes of the active queries to the
     * leaf's {@code cnt} points (at offset {@code off} of each tile row), with each row's limit in
     * {@code s.screenLimit}. Between clusters most pairs are far beyond their bound along the axes alone;
     * returns true when the axes leave few pairs, whose exact values the visit then computes directly
     * instead of a tile.
     */
    private boolean screen(Scratch s, int nq, int bf, int bt, int off, int cnt) {
        int stride = (bt - bf) * idx.blockWidth();
        long kept = 0;
        if (filtered) {
            backend.approximateSquaredDistances(axes, s.actPos, nq, bf, bt, s.screen32);
            for (int r = 0; r < nq; r++) {
                double lim = axes.screenLimit(squaredThreshold(s.refW[s.act[r]])) * screenFactor + approxAbs;
                s.screenLimit[r] = lim;
                kept += backend.select(s.screen32, r * stride + off, cnt, lim, s.sel);
            }
        } else {
            backend.squaredDistances(axes, s.actPos, nq, bf, bt, s.screen);
            for (int r = 0; r < nq; r++) {
                double lim = axes.screenLimit(squaredThreshold(s.refW[s.act[r]]));
                s.screenLimit[r] = lim;
                int row = r * stride + off;
                for (int c = 0; c < cnt; c++) {
                    if (s.screen[row + c] <= lim) kept++;
                }
            }
        }
        boolean screened = kept * SCREEN_RATIO <= (long) nq * cnt;
        if (screened) s.screenedTiles++;
        return screened;
    }

    /**
     * The exact tile of a visit, {@code s.tile}. A row's values are compared with its threshold only, which
     * only falls (bounds only fall): so the kernel may leave a value above the threshold as it stands now
     * as any value above it ({@link org.sylva.kernels.DistanceKernel#squaredDistancesWithin}).
     */
    private void exactTile(Scratch s, int nq, int bf, int bt) {
        for (int r = 0; r < nq; r++) {
            if (boundPruning) {
                reference(s, s.act[r]);
                s.tileLimit[r] = squaredThreshold(s.refW[s.act[r]]);
            } else {
                s.tileLimit[r] = Double.POSITIVE_INFINITY;
            }
        }
        backend.squaredDistancesWithin(idx, s.actPos, nq, bf, bt, s.tileLimit, s.tile);
    }

    /**
     * The exact values of row {@code r}'s {@code nc} candidates ({@code s.cand}, four at a time), each offered
     * to query {@code q} when within its threshold.
     */
    private void considerCandidates(Scratch s, int r, int q, int qc, double qCore, int nc) {
        if (nc == 0) return;
        idx.squaredDistances(s.actPos[r], s.cand, 0, nc, s.exact);
        for (int e = 0; e < nc; e++) {
            if (s.exact[e] <= s.thr) consider(s, q, qc, qCore, s.cand[e], s.exact[e]);
        }
    }

    /** True when every edge from the current query to {@code p} comes after its bound, whatever their distance. */
    private boolean ruledOut(Scratch s, int oq, double qCore, int p) {
        double v = Math.max(qCore, posCore[p]);
        return v > s.bound || (v == s.bound && EdgeOrder.endpoints(oq, idx.original(p)) > s.boundEndpoints);
    }

    /**
     * Candidate {@code p} (another component, squared distance {@code sq} within the threshold) for query
     * {@code q}: kept if it precedes the query's best under {@link EdgeOrder}; a lighter edge also lowers
     * the bounds of both components (it is a real edge of each).
     */
    private void consider(Scratch s, int q, int qc, double qCore, int p, double sq) {
        double d = Math.sqrt(sq);
        if (divide) d /= alpha;
        double wgt = Math.max(Math.max(qCore, posCore[p]), d);
        if (wgt > s.bound) return;
        int o = idx.original(p);
        int oq = s.qOrig[q];
        if (EdgeOrder.less(wgt, oq, o, s.qBestW[q], oq, s.qBestQ[q])) {
            s.qBestW[q] = wgt;
            s.qBestQ[q] = o;
            if (boundPruning) {
                long e = EdgeOrder.endpoints(oq, o);
                if (wgt < s.bound || e < s.boundEndpoints) {   // wgt <= s.bound here
                    s.bound = wgt;
                    s.boundEndpoints = e;
                    s.thr = squaredThreshold(wgt);
                }
                compBound.lower(qc, wgt, e);
                compBound.lower(posComp[p], wgt, e);
            }
        }
    }

    // ---------------------------------------------------------------- merge (sequential, fixed order)
}
