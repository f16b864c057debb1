package org.sylva.hdbscan.mst;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

import org.sylva.kernels.DistanceKernel;
import org.sylva.parallel.ParallelWork;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * One execution of {@link BoruvkaMst}: the per-round state and the scan. Arrays indexed by original point
 * index unless named {@code pos*} (by index position) or {@code node*} (by partition node).
 */
final class BoruvkaRun {
    private static final int NONE = -1;
    /** Relative widening of the squared-distance pre-filter; covers the rounding of sqrt, * and / alpha. */
    private static final double FILTER_SLACK = 1e-12;

    private final PointIndex idx;
    private final CoreDistances cd;
    private final DistanceKernel backend;
    private final double alpha;
    private final boolean divide;
    private final boolean shortcuts;
    private final boolean boundPruning;
    private final ParallelWork work;
    private final int n;
    private final int k;

    private final double[] core;
    private final int[] comp;
    private final int[] parent;
    private final int[] size;

    private final double[] posCore;
    private final int[] posComp;
    private final boolean[] posActive;
    private final double[] nodeMinCore;
    private final int[] nodeComp;

    /** Per point: the cheapest edge found this round (scan or neighbour edge), other endpoint or NONE. */
    private final double[] bestW;
    private final int[] bestQ;

    /** Per component (id = root): cheapest edge so far; and its weight as a bound shared by the scanning threads. */
    private final double[] compW;
    private final int[] compLo;
    private final int[] compHi;
    private final AtomicLongArray compBound;

    private final int[] activeLeaves;
    private int activeLeafCount;

    private final int[] edgeFrom;
    private final int[] edgeTo;
    private final double[] edgeW;
    private int edges;

    private final Scratch[] scratch;
    private final boolean filtered;
    private final double approxFactor;
    private final double approxAbs;

    BoruvkaRun(PointIndex idx, CoreDistances cd, DistanceKernel backend, double alpha, boolean shortcuts,
               boolean boundPruning, ParallelWork work) {
        this.idx = idx;
        this.cd = cd;
        this.backend = backend;
        this.alpha = alpha;
        this.divide = alpha != 1.0;
        this.shortcuts = shortcuts;
        this.boundPruning = boundPruning;
        this.work = work;
        this.n = idx.size();
        this.k = cd.k();
        core = cd.coreDistances();
        comp = new int[n];
        parent = new int[n];
        size = new int[n];
        for (int i = 0; i < n; i++) {
            comp[i] = i;
            parent[i] = i;
            size[i] = 1;
        }
        int positions = idx.positions();
        posCore = new double[positions];
        posComp = new int[positions];
        posActive = new boolean[positions];
        Arrays.fill(posCore, Double.POSITIVE_INFINITY);
        Arrays.fill(posComp, -2);
        for (int p = 0; p < positions; p++) {
            int o = idx.original(p);
            if (o >= 0) posCore[p] = core[o];
        }
        int nodes = idx.nodes();
        nodeMinCore = new double[nodes];
        nodeComp = new int[nodes];
        for (int node = nodes - 1; node >= 0; node--) {
            int leaf = idx.leafOf(node);
            if (leaf >= 0) {
                double m = Double.POSITIVE_INFINITY;
                int s = idx.leafStart(leaf), c = idx.leafCount(leaf);
                for (int p = s; p < s + c; p++) m = Math.min(m, posCore[p]);
                nodeMinCore[node] = m;
            } else {
                nodeMinCore[node] = Math.min(nodeMinCore[idx.left(node)], nodeMinCore[idx.right(node)]);
            }
        }
        bestW = new double[n];
        bestQ = new int[n];
        compW = new double[n];
        compLo = new int[n];
        compHi = new int[n];
        compBound = new AtomicLongArray(n);
        activeLeaves = new int[idx.leaves()];
        edgeFrom = new int[n - 1];
        edgeTo = new int[n - 1];
        edgeW = new double[n - 1];
        filtered = boundPruning && backend.approximates() && idx.hasFloat32();
        approxFactor = 1 + DistanceKernel.approximationError(idx.dimensions());
        approxAbs = DistanceKernel.APPROXIMATION_ABSOLUTE;
        scratch = new Scratch[work.threads()];
        for (int t = 0; t < scratch.length; t++) scratch[t] = new Scratch(idx, backend, filtered);
    }

    /** Per-worker buffers, allocated once and reused in every round. */
    private static final class Scratch {
        final int[] qPos = new int[PointIndex.LEAF_SIZE];
        /** The queries' original point indices (the fixed endpoint of their candidate edges). */
        final int[] qOrig = new int[PointIndex.LEAF_SIZE];
        final int[] qComp = new int[PointIndex.LEAF_SIZE];
        final double[] qCore = new double[PointIndex.LEAF_SIZE];
        final double[] qBestW = new double[PointIndex.LEAF_SIZE];
        final int[] act = new int[PointIndex.LEAF_SIZE];
        final int[] actPos = new int[PointIndex.LEAF_SIZE];
        final double[] centre = new double[2 * PointIndex.LEAF_SIZE + 32];
        final int[] qBestQ = new int[PointIndex.LEAF_SIZE];
        final double[] tile;
        final float[] tile32;
        final int[] sel = new int[PointIndex.LEAF_SIZE + 16];
        final int[] cand = new int[PointIndex.LEAF_SIZE + 16];
        final double[] exact = new double[PointIndex.LEAF_SIZE + 16];
        /** The current query's bound (a real edge weight) and squared-distance threshold. */
        double bound;
        double thr;
        final int[] stackNode;
        final double[] stackLb;

        Scratch(PointIndex idx, DistanceKernel b, boolean filtered) {
            int w = idx.blockWidth();
            tile = new double[b.tileLength(PointIndex.LEAF_SIZE, (PointIndex.LEAF_SIZE + w - 1) / w, idx)];
            tile32 = filtered ? new float[tile.length] : null;
            stackNode = new int[2 * idx.depth() + 4];
            stackLb = new double[2 * idx.depth() + 4];
        }
    }

    SpanningTree run(ProgressListener progress, CancellationToken cancel) {
        int components = n;
        int maxRounds = 33 - Integer.numberOfLeadingZeros(n - 1); // ceil(log2 n) + 1
        for (int round = 1; round <= maxRounds && components > 1; round++) {
            cancel.throwIfCancelled();
            prepareRound();
            String stage = BoruvkaMst.STAGE_PREFIX + round;
            int units = activeLeafCount;
            work.run(units, stage, progress, cancel, (worker, unit) -> scanLeaf(scratch[worker], activeLeaves[unit]));
            int added = merge();
            if (added == 0) throw new IllegalStateException("Borůvka round " + round + " added no edge with "
                    + components + " components left");
            components -= added;
        }
        if (components > 1) {
            throw new IllegalStateException("Borůvka did not finish in " + maxRounds + " rounds (" + components
                    + " components left)");
        }
        return sortedTree();
    }

    // ---------------------------------------------------------------- round preparation (sequential, O(n k))

    private void prepareRound() {
        for (int i = 0; i < n; i++) {
            compW[i] = Double.POSITIVE_INFINITY;
            compLo[i] = Integer.MAX_VALUE;
            compHi[i] = Integer.MAX_VALUE;
            bestW[i] = Double.POSITIVE_INFINITY;
            bestQ[i] = NONE;
        }
        boolean[] resolved = null;
        if (shortcuts) resolved = neighbourEdges();
        int positions = idx.positions();
        for (int p = 0; p < positions; p++) {
            int o = idx.original(p);
            if (o < 0) continue;
            posComp[p] = comp[o];
            boolean skip = shortcuts && (resolved[o] || core[o] > compW[comp[o]]);
            posActive[p] = !skip;
        }
        for (int c = 0; c < n; c++) {
            double b = boundPruning ? compW[c] : Double.POSITIVE_INFINITY;
            compBound.set(c, Double.doubleToRawLongBits(b));
        }
        int nodes = idx.nodes();
        activeLeafCount = 0;
        for (int node = nodes - 1; node >= 0; node--) {
            int leaf = idx.leafOf(node);
            if (leaf >= 0) {
                int s = idx.leafStart(leaf), cnt = idx.leafCount(leaf);
                int c0 = posComp[s];
                for (int p = s; p < s + cnt; p++) {
                    if (posComp[p] != c0) c0 = -1;
                }
                nodeComp[node] = c0;
            } else {
                int l = nodeComp[idx.left(node)], r = nodeComp[idx.right(node)];
                nodeComp[node] = l == r ? l : -1;
            }
        }
        for (int leaf = 0; leaf < idx.leaves(); leaf++) {
            int s = idx.leafStart(leaf), cnt = idx.leafCount(leaf);
            for (int p = s; p < s + cnt; p++) {
                if (posActive[p]) {
                    activeLeaves[activeLeafCount++] = leaf;
                    break;
                }
            }
        }
    }

    /**
     * Every point's lightest neighbour edge into another component is offered to its component; returns
     * which points are resolved by shortcut 1 (their list is complete and that edge weighs their core
     * distance), with their edge stored in {@code bestW/bestQ}.
     */
    private boolean[] neighbourEdges() {
        boolean[] resolved = new boolean[n];
        for (int p = 0; p < n; p++) {
            int cp = comp[p];
            double cpCore = core[p];
            double bw = Double.POSITIVE_INFINITY;
            int bq = NONE;
            for (int r = 0; r < k; r++) {
                int q = cd.neighbour(p, r);
                if (comp[q] == cp) continue;
                double d = cd.neighbourDistance(p, r);
                if (divide) d /= alpha;
                double w = Math.max(Math.max(cpCore, core[q]), d);
                if (EdgeOrder.less(w, p, q, bw, p, bq)) {
                    bw = w;
                    bq = q;
                }
            }
            if (bq == NONE) continue;
            offer(cp, bw, p, bq);
            double last = k > 0 ? cd.neighbourDistance(p, k - 1) : 0.0;
            if (divide) last /= alpha;
            boolean complete = k == n || last > cpCore;
            if (complete && bw == cpCore) {
                resolved[p] = true;
                bestW[p] = bw;
                bestQ[p] = bq;
            }
        }
        return resolved;
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

    // ---------------------------------------------------------------- scan (parallel over leaves)

    private void scanLeaf(Scratch s, int leaf) {
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
            }
        }
    }

    /** The largest weight an edge from one of the queries may have and still matter. */
    private double maxBound(Scratch s, int m) {
        double mx = 0.0;
        for (int i = 0; i < m; i++) {
            double b = Math.min(s.qBestW[i], Double.longBitsToDouble(compBound.get(s.qComp[i])));
            mx = Math.max(mx, b);
        }
        return mx;
    }

    private void traverse(Scratch s, int m, int ownLeaf, int uniform, double minCoreQ) {
        int own = idx.leafNode(ownLeaf);
        double bound = maxBound(s, m);
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
            if (Math.max(Math.max(minCoreQ, nodeMinCore[node]), lb) > bound) continue;
            int leaf = idx.leafOf(node);
            if (leaf >= 0) {
                visitLeaf(s, m, ownLeaf, leaf);
                bound = maxBound(s, m);
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

    /** Lower bound on {@code dist / alpha} between the balls of two nodes (never above the computed value). */
    private double weightBound(int a, int b) {
        double lb = idx.lowerBound(a, b);
        return divide ? lb / alpha : lb;
    }

    /** Squared-distance threshold above which {@code sqrt(sq) / alpha} surely exceeds {@code bound}. */
    private double squaredThreshold(double bound) {
        double x = divide ? bound * alpha : bound;
        return x * x * (1 + FILTER_SLACK);
    }

    /**
     * Offers the points of {@code leaf} to the queries. With bound pruning, a query skips the leaf when
     * {@code max(core_q, min core of the leaf, ball lower bound / alpha)} strictly exceeds its bound (its
     * best edge or its component's, both real edges); within the leaf a pair is skipped when
     * {@code max(core_q, core_p)} or its distance strictly exceeds the bound.
     */
    private void visitLeaf(Scratch s, int m, int ownLeaf, int leaf) {
        int w = idx.blockWidth();
        int cs = idx.leafStart(leaf);
        int cnt = idx.leafCount(leaf);
        int bf = cs / w, bt = (cs + cnt + w - 1) / w;
        int node = idx.leafNode(leaf);
        int nodeC = nodeComp[node];
        int nq = 0;
        if (boundPruning) {
            int qs = idx.leafStart(ownLeaf);
            int qbf = qs / w, qbt = (qs + idx.leafCount(ownLeaf) + w - 1) / w;
            // Few active queries: their centre distances one by one; else the whole leaf in one vector pass.
            boolean few = 4 * m < idx.leafCount(ownLeaf);
            if (!few) backend.centreDistances(idx, node, qbf, qbt, s.centre);
            int off = qbf * w;
            double minCoreN = nodeMinCore[node];
            for (int i = 0; i < m; i++) {
                if (nodeC >= 0 && nodeC == s.qComp[i]) continue;
                double bound = Math.min(s.qBestW[i], Double.longBitsToDouble(compBound.get(s.qComp[i])));
                if (Math.max(s.qCore[i], minCoreN) > bound) continue;
                double sq = few ? idx.centreSquaredDistance(node, s.qPos[i]) : s.centre[s.qPos[i] - off];
                double lb = idx.lowerBoundFromCentre(sq, node);
                if (divide) lb /= alpha;
                if (Math.max(Math.max(s.qCore[i], minCoreN), lb) > bound) continue;
                s.act[nq] = i;
                s.actPos[nq] = s.qPos[i];
                nq++;
            }
        } else {
            for (int i = 0; i < m; i++) {
                if (nodeC >= 0 && nodeC == s.qComp[i]) continue;
                s.act[nq] = i;
                s.actPos[nq] = s.qPos[i];
                nq++;
            }
        }
        if (nq == 0) return;
        // The float32 pre-filter pays once every active query has a finite bound (almost always; the
        // very first leaves of a component without neighbour edges are scanned exactly).
        boolean approx = filtered;
        for (int r = 0; approx && r < nq; r++) {
            int q = s.act[r];
            if (Math.min(s.qBestW[q], Double.longBitsToDouble(compBound.get(s.qComp[q]))) == Double.POSITIVE_INFINITY) {
                approx = false;
            }
        }
        if (approx) {
            backend.approximateSquaredDistances(idx, s.actPos, nq, bf, bt, s.tile32);
        } else {
            backend.squaredDistances(idx, s.actPos, nq, bf, bt, s.tile);
        }
        int stride = (bt - bf) * w;
        int off = cs - bf * w;
        for (int r = 0; r < nq; r++) {
            int q = s.act[r];
            int row = r * stride + off;
            int qc = s.qComp[q];
            double qCore = s.qCore[q];
            s.bound = boundPruning
                    ? Math.min(s.qBestW[q], Double.longBitsToDouble(compBound.get(qc))) : Double.POSITIVE_INFINITY;
            s.thr = squaredThreshold(s.bound);
            if (approx) {
                // Approximations beyond the widened threshold have exact values beyond thr: skipped. The
                // few others get their exact value, four at a time.
                double thrA = s.thr * approxFactor + approxAbs;
                int sel = backend.select(s.tile32, row, cnt, thrA, s.sel);
                int nc = 0;
                for (int e = 0; e < sel; e++) {
                    int c = s.sel[e];
                    int p = cs + c;
                    if (posComp[p] == qc || Math.max(qCore, posCore[p]) > s.bound || s.tile32[row + c] > thrA) continue;
                    s.cand[nc++] = p;
                }
                if (nc == 0) continue;
                idx.squaredDistances(s.actPos[r], s.cand, 0, nc, s.exact);
                for (int e = 0; e < nc; e++) {
                    if (s.exact[e] <= s.thr) consider(s, q, qc, qCore, s.cand[e], s.exact[e]);
                }
            } else {
                for (int c = 0; c < cnt; c++) {
                    int p = cs + c;
                    if (posComp[p] == qc || Math.max(qCore, posCore[p]) > s.bound) continue;
                    double sq = s.tile[row + c];
                    if (sq <= s.thr) consider(s, q, qc, qCore, p, sq);
                }
            }
        }
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
                if (wgt < s.bound) {
                    s.bound = wgt;
                    s.thr = squaredThreshold(wgt);
                    compBound.accumulateAndGet(qc, Double.doubleToRawLongBits(wgt), Math::min);
                }
                int pc = posComp[p];
                if (wgt < Double.longBitsToDouble(compBound.get(pc))) {
                    compBound.accumulateAndGet(pc, Double.doubleToRawLongBits(wgt), Math::min);
                }
            }
        }
    }

    // ---------------------------------------------------------------- merge (sequential, fixed order)

    private int merge() {
        for (int p = 0; p < n; p++) {
            if (bestQ[p] != NONE) offer(comp[p], bestW[p], p, bestQ[p]);
        }
        int added = 0;
        for (int c = 0; c < n; c++) {
            if (compLo[c] == Integer.MAX_VALUE) continue;
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

    /**
     * The tree's edges with {@code from < to}, sorted by {@link EdgeOrder}: a bottom-up merge sort on an
     * index permutation (no boxing); every key is distinct, so the order is unique.
     */
    private SpanningTree sortedTree() {
        int m = edges;
        int[] lo = new int[m], hi = new int[m];
        for (int e = 0; e < m; e++) {
            lo[e] = Math.min(edgeFrom[e], edgeTo[e]);
            hi[e] = Math.max(edgeFrom[e], edgeTo[e]);
        }
        int[] perm = new int[m], buf = new int[m];
        for (int e = 0; e < m; e++) perm[e] = e;
        for (int width = 1; width < m; width *= 2) {
            for (int start = 0; start < m; start += 2 * width) {
                int mid = Math.min(start + width, m), end = Math.min(start + 2 * width, m);
                int i = start, j = mid, o = start;
                while (i < mid && j < end) {
                    int x = perm[i], y = perm[j];
                    if (EdgeOrder.compare(edgeW[y], lo[y], hi[y], edgeW[x], lo[x], hi[x]) < 0) {
                        buf[o++] = y;
                        j++;
                    } else {
                        buf[o++] = x;
                        i++;
                    }
                }
                while (i < mid) buf[o++] = perm[i++];
                while (j < end) buf[o++] = perm[j++];
            }
            int[] t = perm;
            perm = buf;
            buf = t;
        }
        int[] from = new int[m], to = new int[m];
        double[] w = new double[m];
        for (int e = 0; e < m; e++) {
            from[e] = lo[perm[e]];
            to[e] = hi[perm[e]];
            w[e] = edgeW[perm[e]];
        }
        return SpanningTree.wrap(n, from, to, w);
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
