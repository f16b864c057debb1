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
 * One execution of {@link BoruvkaMst}: the round loop ({@link #run}), each round's preparation with the
 * two exact shortcuts ({@link #neighbourEdges} is shortcut 1, the neighbour edges; the component bound of
 * shortcut 2 decides which points {@link #prepareRound} leaves out of the scan), the merge of the
 * components' cheapest edges under {@link EdgeOrder}, and the final edge order. The scan of the
 * remaining points is {@link CheapestEdgeScan}. Arrays indexed by original point index unless named
 * {@code pos*} (by index position) or {@code node*} (by partition node).
 */
final class BoruvkaRun {
    static final int NONE = -1;

    final PointIndex idx;
    final CoreDistances cd;
    final DistanceKernel backend;
    final double alpha;
    final boolean divide;
    final boolean shortcuts;
    final boolean boundPruning;
    private final ParallelWork work;
    private final int n;
    private final int k;

    final double[] core;
    private final int[] comp;
    private final int[] parent;
    private final int[] size;

    final double[] posCore;
    final int[] posComp;
    final boolean[] posActive;
    final double[] nodeMinCore;
    final int[] nodeComp;

    /** Per point: the cheapest edge found this round (scan or neighbour edge), other endpoint or NONE. */
    final double[] bestW;
    final int[] bestQ;

    /** Per component (id = root): cheapest edge so far; and its weight as a bound shared by the scanning threads. */
    private final double[] compW;
    private final int[] compLo;
    private final int[] compHi;
    final AtomicLongArray compBound;

    private final int[] activeLeaves;
    private int activeLeafCount;

    private final int[] edgeFrom;
    private final int[] edgeTo;
    private final double[] edgeW;
    private int edges;

    private final CheapestEdgeScan scan;
    final boolean filtered;
    final double approxFactor;
    final double approxAbs;

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
        scan = new CheapestEdgeScan(this, work.threads());
    }

    SpanningTree run(ProgressListener progress, CancellationToken cancel) {
        int components = n;
        int maxRounds = 33 - Integer.numberOfLeadingZeros(n - 1); // ceil(log2 n) + 1
        for (int round = 1; round <= maxRounds && components > 1; round++) {
            cancel.throwIfCancelled();
            prepareRound();
            String stage = BoruvkaMst.STAGE_PREFIX + round;
            int units = activeLeafCount;
            work.run(units, stage, progress, cancel, (worker, unit) -> scan.scanLeaf(worker, activeLeaves[unit]));
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

    // ------------------------------------------- round preparation and the exact shortcuts (sequential, O(n k))

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
