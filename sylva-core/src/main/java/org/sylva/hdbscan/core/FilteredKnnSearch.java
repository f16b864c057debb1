package org.sylva.hdbscan.core;

import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.index.ProjectedIndex;
import org.sylva.kernels.ApproximationBound;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.IntegerGrid;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

/**
 * Exact k-nearest-neighbour lists screened by a float32 pre-filter of proven error (a backend that
 * {@link DistanceKernel#approximates()}, an index with float32 coordinates), in three passes over the
 * leaves. Each point keeps the {@code k + 12} smallest approximations offered to it in
 * {@link ApproximateLists}, whose limit {@code L} provably covers every true list member.
 * (1) Each leaf offers its own points and those of its nearest leaves to its lists, which fixes a static
 * distance bound {@code t0} per point (all true members lie within it). (2) Each unordered pair of
 * leaves that one side may need (ball bound within the larger static bound) is computed once, as one
 * approximate tile offered to both leaves' lists, each under its leaf's lock. (3) The exact float64
 * distance of every kept candidate with approximation {@code <= L} decides the {@link NearestLists},
 * which provably include the true list; a list that overflowed below its limit (masses of duplicates)
 * is redone by {@link DirectKnnSearch}. Where the approximations are exact ({@link IntegerGrid}: integer
 * data whose distances tie massively) the lists keep exactly {@code k} entries in the exact tie order
 * ({@link ApproximateLists#exact}) and never overflow. Offer order changes only entries above the final limit, so
 * results never depend on threads and equal those of the direct search bitwise.
 *
 * <pre>{@code
 * FilteredKnnSearch s = new FilteredKnnSearch(index, backend, k, threads, outIdx, outDist);
 * work.run(leaves, STAGE, 0, 3L * leaves, progress, cancel, s::firstPass);
 * s.boundsUp();
 * work.run(leaves, STAGE, leaves, 3L * leaves, progress, cancel, s::secondPass);
 * work.run(leaves, STAGE, 2L * leaves, 3L * leaves, progress, cancel, s::finalPass);
 * }</pre>
 */
final class FilteredKnnSearch {
    /** Approximations kept per point beyond {@code k}: room for near-ties before a list overflows. */
    static final int EXTRA = 12;
    /** Most leaves offered to a leaf in pass 1 (beyond its own). */
    private static final int FIRST_PASS_LEAVES = 8;

    private final PointIndex idx;
    private final DistanceKernel backend;
    private final int k;
    private final ApproximationBound bound;
    private final int[] outIdx;
    private final double[] outDist;
    private final Scratch[] scratch;
    /** Redoes the lists that overflowed. */
    private final DirectKnnSearch direct;
    /**
     * The first position whose lists this search keeps ({@code 0} for the whole index); the approximate
     * lists and static bounds of position {@code p} live at {@code p - base}. Non-zero only for a slice
     * ({@link #forSlice}), whose outputs are indexed the same way.
     */
    private final int base;
    private final boolean slice;

    private final ApproximateLists ap;
    /** Static distance bound per position, the largest per leaf, and per node of the partition. */
    private final double[] t0;
    private final double[] leafMaxT0;
    private final double[] nodeMaxT0;
    /** Last leaf under each node (leaves of a subtree are consecutive). */
    private final int[] nodeLastLeaf;
    /** The leaves pass 1 offered to each leaf ({@link #FIRST_PASS_LEAVES} slots per leaf). */
    private final int[] p1;
    private final int[] p1Count;
    private final Object[] locks;

    /** True when the approximate lists are exact lists ({@link ApproximateLists#exact}). */
    boolean exactLists() {
        return ap.exact();
    }

    /**
     * True when the approximations are exact ({@link IntegerGrid}: integer coordinates of small range) and
     * the lists are {@link ApproximateLists#exact}, which order ties by the tie rule and never overflow.
     */
    static boolean exactLists(PointIndex idx, DistanceKernel backend) {
        return backend.approximatesByDifferences() && IntegerGrid.exactApproximations(idx, idx.positions(), idx::original);
    }

    /** True when this search applies: the backend has a float32 pre-filter and the index float32 coordinates. */
    static boolean applies(PointIndex idx, DistanceKernel backend) {
        return backend.approximates() && idx.hasFloat32();
    }

    /**
     * A search for lists of {@code k} entries on {@code threads} workers, writing list {@code i} to
     * {@code outIdx}/{@code outDist} at {@code i * k} (both of length {@code size * k}).
     */
    FilteredKnnSearch(PointIndex idx, DistanceKernel backend, int k, int threads, int[] outIdx, double[] outDist) {
        this(idx, backend, k, threads, outIdx, outDist, 0, idx.positions(), false);
    }

    /**
     * A search that keeps the lists of positions {@code posFrom .. posTo-1} only (the points of a slice
     * of leaves), written to row {@code position - posFrom} of the outputs: passes 1 and 3 run on the
     * slice's leaves as usual, and pass 2 is {@link #secondPassSlice}, which offers tiles to the slice's
     * lists only. Memory is proportional to the slice, not the index.
     */
    static FilteredKnnSearch forSlice(PointIndex idx, DistanceKernel backend, int k, int threads, int[] outIdx,
                                      double[] outDist, int posFrom, int posTo) {
        return new FilteredKnnSearch(idx, backend, k, threads, outIdx, outDist, posFrom, posTo, true);
    }

    /**
     * Points from which pass 2 lets the kernel stop blocks of pairs above their limits
     * ({@link DistanceKernel#approximateSquaredDistancesWithin}). Below, the plain kernel runs unless the
     * search also has the principal-axis bounds (which the engine gives it in a long-lived JVM): in a fresh
     * process the stopping kernel is a second vector method for the JIT to compile, which a small one-shot
     * run pays for (the CPU design note has the figures).
     */
    static final int EARLY_STOP_POINTS = 100_000;

    /** Whether pass 2 uses the stopping kernel (see {@link #EARLY_STOP_POINTS}; tests set it either way). */
    boolean earlyStop;

    /** Pair visits of pass 2 between two looks at {@link #cancel}: bounds the work of a leaf between checks. */
    static final int VISITS_PER_CHECK = 32;
    /**
     * The token pass 2 looks at within a leaf; the passes' runner looks at it between leaves. Pass 2's first
     * leaves visit thousands of others, and in a fresh JVM they run while its stopping kernel is still
     * uncompiled: on a large input one such leaf runs long enough for a Ctrl-C to wait on it.
     */
    private CancellationToken cancel = CancellationToken.NEVER;

    /**
     * The principal-axis bounds pass 2 adds to the ball bounds (null: none): between clusters, leaf pairs
     * that the full-space balls cannot separate in tens of dimensions, and that offer nothing, are skipped.
     */
    private ProjectedIndex axes;

    /** Worker {@code worker}'s scratch, made on first use (a worker runs on one thread at a time). */
    private Scratch scratch(int worker) {
        if (scratch[worker] == null) scratch[worker] = new Scratch(idx, backend, k, ap.capacity());
        return scratch[worker];
    }

    /** Workers whose scratch has been made so far (tests). */
    int scratchesMade() {
        int m = 0;
        for (Scratch s : scratch) if (s != null) m++;
        return m;
    }

    /** Pair visits pass 2 skipped on the principal axes' bound, over all workers (tests). */
    long skippedVisits() {
        long v = 0;
        for (Scratch s : scratch) if (s != null) v += s.skippedVisits;
        return v;
    }

    /** Pass 2 (of the whole index) also bounds nodes, leaves and rows by {@code axes} (null: not). */
    void useAxes(ProjectedIndex axes) {
        this.axes = axes;
    }

    /** Pass 2 stops within a leaf, by {@link CancelledException}, once {@code token} is cancelled. */
    void cancelledBy(CancellationToken token) {
        this.cancel = java.util.Objects.requireNonNull(token, "token");
    }

    private FilteredKnnSearch(PointIndex idx, DistanceKernel backend, int k, int threads, int[] outIdx,
                              double[] outDist, int posFrom, int posTo, boolean slice) {
        this.base = posFrom;
        this.slice = slice;
        this.earlyStop = idx.size() >= EARLY_STOP_POINTS;
        this.idx = idx;
        this.backend = backend;
        this.k = k;
        this.bound = ApproximationBound.of(idx.dimensions(), idx.float32Rounding());
        this.outIdx = outIdx;
        this.outDist = outDist;
        this.direct = new DirectKnnSearch(idx, backend, k, true, threads, outIdx, outDist, slice ? posFrom : -1);
        this.scratch = new Scratch[threads];
        int positions = posTo - posFrom;
        ap = exactLists(idx, backend)
                ? ApproximateLists.exact(positions, k, idx) : new ApproximateLists(positions, k, k + EXTRA, bound);
        // each worker's scratch is made on its first unit (scratch(worker)): a pass of u units runs min(threads, u)
        // workers
        int leaves = idx.leaves();
        t0 = new double[positions];
        leafMaxT0 = new double[leaves];
        nodeMaxT0 = new double[idx.nodes()];
        nodeLastLeaf = new int[idx.nodes()];
        p1 = new int[leaves * FIRST_PASS_LEAVES];
        p1Count = new int[leaves];
        locks = new Object[leaves];
        for (int l = 0; l < leaves; l++) locks[l] = new Object();
    }

    /** Per-worker buffers, allocated once. */
    private static final class Scratch {
        /** Pair visits of pass 2 this worker skipped on the principal axes' bound (tests read it). */
        long skippedVisits;
        final NearestLists main;
        final int[] act = new int[PointIndex.LEAF_SIZE];
        final int[] actPos = new int[PointIndex.LEAF_SIZE];
        final double[] centre = new double[2 * PointIndex.LEAF_SIZE + 32];
        final float[] tile32;
        final int[] sel = new int[PointIndex.LEAF_SIZE + 16];
        final float[] colLimit = new float[PointIndex.LEAF_SIZE + 16];
        /** Per active row, and per column of a tile (whole blocks), the limit its side compares with. */
        final float[] rowLimit = new float[PointIndex.LEAF_SIZE];
        /** Per tile row, the blocks that may hold a value within its limits (all, without the early stop). */
        final long[] rowBlocks = new long[PointIndex.LEAF_SIZE];
        final float[] tileLimit;
        final double[] exact;
        final int[] orig;
        final int[] stackNode;
        final double[] stackLb;

        Scratch(PointIndex idx, DistanceKernel b, int k, int capacity) {
            int w = idx.blockWidth();
            tile32 = new float[b.tileLength(PointIndex.LEAF_SIZE, (PointIndex.LEAF_SIZE + w - 1) / w, idx)];
            tileLimit = new float[((PointIndex.LEAF_SIZE + w - 1) / w + 1) * w];
            exact = new double[capacity];
            orig = new int[capacity];
            main = new NearestLists(PointIndex.LEAF_SIZE, k);
            stackNode = new int[2 * idx.depth() + 4];
            stackLb = new double[2 * idx.depth() + 4];
        }
    }

    /**
     * Pass 1, for leaf {@code q}: its own tile, then the nearest leaves (at most
     * {@value #FIRST_PASS_LEAVES}) until every list holds {@code k} entries; these leaves are remembered so
     * that pass 2 never offers the same pair to a list twice. Ends with the static distance bounds
     * {@code t0}: every true list member of a point lies within its {@code t0}.
     */
    void firstPass(int worker, int q) {
        Scratch s = scratch(worker);
        int start = idx.leafStart(q), m = idx.leafCount(q);
        for (int p = start; p < start + m; p++) ap.reset(p - base);
        for (int i = 0; i < m; i++) {
            s.act[i] = i;
            s.actPos[i] = start + i;
        }
        offerRows(s, m, q, q);
        p1Count[q] = 0;
        if (!ap.allFull(start - base, m)) {
            int own = idx.leafNode(q);
            int sp = 0;
            s.stackNode[sp++] = 0;
            int limitIt = 2 * idx.nodes() + 2;
            for (int it = 0; it < limitIt && sp > 0 && p1Count[q] < FIRST_PASS_LEAVES; it++) {
                int node = s.stackNode[--sp];
                int leaf = idx.leafOf(node);
                if (leaf >= 0) {
                    if (leaf == q) continue;
                    for (int i = 0; i < m; i++) {
                        s.act[i] = i;
                        s.actPos[i] = start + i;
                    }
                    offerRows(s, m, q, leaf);
                    p1[q * FIRST_PASS_LEAVES + p1Count[q]++] = leaf;
                    if (ap.allFull(start - base, m)) break;
                    continue;
                }
                int l = idx.left(node), r = idx.right(node);
                boolean leftNear = idx.lowerBound(own, l) <= idx.lowerBound(own, r);
                s.stackNode[sp++] = leftNear ? r : l;
                s.stackNode[sp++] = leftNear ? l : r;
            }
        }
        double mx = 0.0;
        for (int p = start; p < start + m; p++) {
            ap.settle(p - base);
            double lim = ap.limit[p - base];
            double b = Double.isInfinite(lim) ? Double.POSITIVE_INFINITY
                    : Math.sqrt(lim * bound.factor() + bound.absolute()) * (1 + 1e-12);
            t0[p - base] = b;
            mx = Math.max(mx, b);
        }
        leafMaxT0[q] = mx;
    }

    /** Between passes 1 and 2 (sequential): the largest {@code t0} under every node. */
    void boundsUp() {
        for (int node = idx.nodes() - 1; node >= 0; node--) {
            int leaf = idx.leafOf(node);
            if (leaf >= 0) {
                nodeMaxT0[node] = leafMaxT0[leaf];
                nodeLastLeaf[node] = leaf;
            } else {
                nodeMaxT0[node] = Math.max(nodeMaxT0[idx.left(node)], nodeMaxT0[idx.right(node)]);
                nodeLastLeaf[node] = nodeLastLeaf[idx.right(node)];
            }
        }
    }

    /**
     * Pass 2, for leaf {@code q}: every leaf {@code n > q} that either side may need (ball bound within the
     * larger of the two leaves' static bounds) gets one approximate tile, offered to the lists of both
     * leaves (rows to {@code q}'s points, columns to {@code n}'s), each under its leaf's lock. The decision
     * is symmetric and static, so each needed pair is computed exactly once.
     */
    void secondPass(int worker, int q) {
        secondPassTraversal(worker, q, false);
    }

    /**
     * The tiles pass 2 will compute from leaf {@code q}: its traversal without the tiles (ball bounds only,
     * a small fraction of the pass), for the progress of a pass whose leaves cost very unequal amounts.
     */
    int secondPassTiles(int worker, int q) {
        return secondPassTraversal(worker, q, true);
    }

    private int secondPassTraversal(int worker, int q, boolean countOnly) {
        if (slice) throw new IllegalStateException("a slice's search runs secondPassSlice");
        int tiles = 0;
        int visits = 0;
        Scratch s = scratch(worker);
        int own = idx.leafNode(q);
        double ownMax = leafMaxT0[q];
        int sp = 0;
        s.stackNode[sp] = 0;
        s.stackLb[sp] = Double.NEGATIVE_INFINITY;
        sp++;
        int limitIt = 2 * idx.nodes() + 2;
        for (int it = 0; it < limitIt && sp > 0; it++) {
            sp--;
            int node = s.stackNode[sp];
            double lb = s.stackLb[sp];
            if (nodeLastLeaf[node] <= q || lb > Math.max(ownMax, nodeMaxT0[node])) continue;
            int leaf = idx.leafOf(node);
            if (leaf >= 0) {
                if (!countOnly) {
                    if (visits++ % VISITS_PER_CHECK == 0) cancel.throwIfCancelled();
                    pairVisit(s, q, leaf);
                } else if (!inFirstPass(q, leaf) || !inFirstPass(leaf, q)) {
                    tiles++;
                }
                continue;
            }
            sp = pushChildren(s, sp, own, node);
        }
        if (sp != 0) throw new IllegalStateException("neighbour search did not finish its traversal");
        return tiles;
    }

    /**
     * Pass 2 of a slice, for its leaf {@code q} (after {@link #boundsUp}, which sees the static bounds of
     * the slice's leaves only): a pair with another leaf of the slice is visited from its lower leaf as in
     * {@link #secondPass} (one tile offered to both sides); a leaf outside the slice whose ball bound is
     * within {@code q}'s largest static bound, not already offered in pass 1, gets one tile offered to
     * {@code q}'s lists only (rows whose own bound excludes it are left out). Every true list member of a
     * point of {@code q} lies within its static bound, so every leaf holding one is offered: the lists are
     * those of the symmetric pass over the whole index. Pairs across slices are computed once from each
     * side, by different tasks.
     */
    void secondPassSlice(int worker, int q, int leafFrom, int leafTo) {
        Scratch s = scratch(worker);
        int own = idx.leafNode(q);
        double ownMax = leafMaxT0[q];
        int w = idx.blockWidth();
        int qs = idx.leafStart(q), qm = idx.leafCount(q);
        int qbf = qs / w, qbt = (qs + qm + w - 1) / w;
        int visits = 0;
        int sp = 0;
        s.stackNode[sp] = 0;
        s.stackLb[sp] = Double.NEGATIVE_INFINITY;
        sp++;
        int limitIt = 2 * idx.nodes() + 2;
        for (int it = 0; it < limitIt && sp > 0; it++) {
            sp--;
            int node = s.stackNode[sp];
            double lb = s.stackLb[sp];
            if (lb > Math.max(ownMax, nodeMaxT0[node])) continue;
            int leaf = idx.leafOf(node);
            if (leaf >= 0) {
                if (visits++ % VISITS_PER_CHECK == 0) cancel.throwIfCancelled();
                if (leaf >= leafFrom && leaf < leafTo) {
                    if (leaf > q) pairVisit(s, q, leaf);
                    continue;
                }
                if (lb > ownMax || inFirstPass(q, leaf)) continue;
                int leafNode = idx.leafNode(leaf);
                backend.centreDistances(idx, leafNode, qbf, qbt, s.centre);
                int nq = 0;
                for (int i = 0; i < qm; i++) {
                    int p = qs + i;
                    if (idx.lowerBoundFromCentre(s.centre[p - qbf * w], leafNode) <= t0[p - base]) {
                        s.act[nq] = i;
                        s.actPos[nq] = p;
                        nq++;
                    }
                }
                if (nq > 0) {
                    synchronized (locks[q]) {
                        offerRows(s, nq, q, leaf);
                    }
                }
                continue;
            }
            sp = pushChildren(s, sp, own, node);
        }
        if (sp != 0) throw new IllegalStateException("neighbour search did not finish its traversal");
    }

    /** Pushes both children of {@code node} with their ball bounds from {@code own}, the left one on top. */
    private int pushChildren(Scratch s, int sp, int own, int node) {
        int l = idx.left(node), r = idx.right(node);
        s.stackNode[sp] = r;
        s.stackLb[sp] = lowerBound(own, r);
        sp++;
        s.stackNode[sp] = l;
        s.stackLb[sp] = lowerBound(own, l);
        return sp + 1;
    }

    /** The ball bound between two nodes, and along the principal axes where the search has them. */
    private double lowerBound(int a, int b) {
        double lb = idx.lowerBound(a, b);
        return axes == null ? lb : Math.max(lb, axes.lowerBound(a, b));
    }

    private boolean inFirstPass(int leaf, int other) {
        int base = leaf * FIRST_PASS_LEAVES;
        for (int i = 0; i < p1Count[leaf]; i++) if (p1[base + i] == other) return true;
        return false;
    }

    private void pairVisit(Scratch s, int q, int n) {
        boolean qSide = !inFirstPass(q, n);
        boolean nSide = !inFirstPass(n, q);
        if (!qSide && !nSide) return;
        int w = idx.blockWidth();
        int qs = idx.leafStart(q), qm = idx.leafCount(q);
        int qbf = qs / w, qbt = (qs + qm + w - 1) / w;
        int node = idx.leafNode(n);
        double nMax = leafMaxT0[n];
        if (axes != null && axes.lowerBound(idx.leafNode(q), node)
                > Math.max(qSide ? leafMaxT0[q] : Double.NEGATIVE_INFINITY, nSide ? nMax : Double.NEGATIVE_INFINITY)) {
            s.skippedVisits++;
            return;   // along the principal axes the two leaves are beyond every static bound that matters
        }
        backend.centreDistances(idx, node, qbf, qbt, s.centre);
        int nq = 0;
        for (int i = 0; i < qm; i++) {
            int p = qs + i;
            double lb = idx.lowerBoundFromCentre(s.centre[p - qbf * w], node);
            if (axes != null) lb = Math.max(lb, axes.lowerBoundFromPoint(p, node));
            if ((qSide && lb <= t0[p - base]) || (nSide && lb <= nMax)) {
                s.act[nq] = i;
                s.actPos[nq] = p;
                nq++;
            }
        }
        if (nq == 0) return;
        int cs = idx.leafStart(n), cnt = idx.leafCount(n);
        int bf = cs / w, bt = (cs + cnt + w - 1) / w;
        int stride = (bt - bf) * w;
        int off = cs - bf * w;
        // The limits each side will compare with, read now without the locks: limits only fall, so what
        // the offers below read under the locks is at most this, and a value the kernel leaves as a partial
        // sum above these limits is above those too (see approximateSquaredDistancesWithin).
        if (earlyStop) {
            float[] rowLimit = s.rowLimit, tileLimit = s.tileLimit;
            for (int r = 0; r < nq; r++) {
                rowLimit[r] = qSide ? ap.limitUp[s.actPos[r] - base] : Float.NEGATIVE_INFINITY;
            }
            java.util.Arrays.fill(tileLimit, 0, stride, Float.NEGATIVE_INFINITY);
            if (nSide) System.arraycopy(ap.limitUp, cs - base, tileLimit, off, cnt);
            backend.approximateSquaredDistancesWithin(idx, s.actPos, nq, bf, bt, rowLimit, tileLimit, s.tile32,
                    s.rowBlocks);
            // the bits count the tile's blocks, the selections' offsets the leaf's: the same where it starts one
            if (off != 0) java.util.Arrays.fill(s.rowBlocks, 0, nq, -1L);
        } else {
            backend.approximateSquaredDistances(idx, s.actPos, nq, bf, bt, s.tile32);
            java.util.Arrays.fill(s.rowBlocks, 0, nq, -1L);
        }
        // Most blocks of a tile stop early, their pairs above every limit: the selections below read only the
        // others.
        if (qSide) {
            synchronized (locks[q]) {
                for (int r = 0; r < nq; r++) {
                    if (s.rowBlocks[r] != 0) offerRow(s, r, stride, off, s.actPos[r], cs, cnt, s.rowBlocks[r]);
                }
            }
        }
        if (nSide) {
            synchronized (locks[n]) {
                // Columns go to the lists of n's points: one pass of minima over the rows against every
                // column's limit (rounded up to float32, so nothing within a limit is missed) finds the few
                // columns with a value within it, then each of their rows is re-checked exactly and inserted.
                // (Column by column: the lists' order is total, so the offers' order does not matter.)
                double[] limit = ap.limit;
                System.arraycopy(ap.limitUp, cs - base, s.colLimit, 0, cnt);
                int sel = backend.selectColumns(s.tile32, off, stride, nq, s.rowBlocks, s.colLimit, cnt, s.sel);
                for (int e = 0; e < sel; e++) {
                    int c = s.sel[e];
                    int lp = cs + c - base;
                    for (int r = 0, at = off + c; r < nq; r++, at += stride) {
                        double a = s.tile32[at];
                        if (a > limit[lp]) continue;
                        ap.insert(lp, a, s.actPos[r]);
                    }
                }
            }
        }
    }

    /** Computes the tile of the selected rows ({@code s.act}) of leaf {@code q} against leaf {@code n} and offers the rows. */
    private void offerRows(Scratch s, int nq, int q, int n) {
        int w = idx.blockWidth();
        int cs = idx.leafStart(n), cnt = idx.leafCount(n);
        int bf = cs / w, bt = (cs + cnt + w - 1) / w;
        backend.approximateSquaredDistances(idx, s.actPos, nq, bf, bt, s.tile32);
        int stride = (bt - bf) * w;
        int off = cs - bf * w;
        for (int r = 0; r < nq; r++) offerRow(s, r, stride, off, s.actPos[r], cs, cnt, -1L);
    }

    /** Offers row {@code r} of the tile (query position {@code p}) to its approximate list, reading {@code blocks} of it. */
    private void offerRow(Scratch s, int r, int stride, int off, int p, int cs, int cnt, long blocks) {
        int row = r * stride + off;
        double lim = ap.limit[p - base];
        if (lim == Double.POSITIVE_INFINITY) {
            // A list that is not full yet (a leaf's first offer, its own row) takes every value until it is:
            // the columns in order, as the selection would return them, without its compares.
            for (int c = 0; c < cnt; c++) {
                double a = s.tile32[row + c];
                if (a > lim) continue;
                lim = ap.insert(p - base, a, cs + c);
            }
            return;
        }
        int sel = backend.select(s.tile32, row, cnt, lim, blocks, s.sel);
        for (int e = 0; e < sel; e++) {
            int c = s.sel[e];
            double a = s.tile32[row + c];
            if (a > lim) continue;
            lim = ap.insert(p - base, a, cs + c);
        }
    }

    /**
     * Pass 3, for leaf {@code q}: the exact float64 distance of every kept candidate whose approximation is
     * within the final limit decides the list; a list that overflowed below its limit is redone directly.
     */
    void finalPass(int worker, int q) {
        Scratch s = scratch(worker);
        NearestLists qs = s.main;
        int start = idx.leafStart(q);
        qs.reset(idx.leafCount(q), q);
        for (int i = 0; i < qs.m; i++) qs.pos[i] = start + i;
        int capacity = ap.capacity();
        for (int i = 0; i < qs.m; i++) {
            int p = qs.pos[i];
            int at = (p - base) * ap.stride();
            ap.finish(p - base);
            int count = ap.count[p - base];
            double lim = ap.limit[p - base];
            if (!ap.exact() && count == capacity && ap.value[at + capacity - 1] <= lim) {
                direct.redo(worker, qs, i);
                continue;
            }
            int keep = 0;
            for (int e = 0; e < count && ap.value[at + e] <= lim; e++) keep++;
            idx.squaredDistances(p, ap.cand, at, keep, s.exact);
            for (int e = 0; e < keep; e++) {
                s.exact[e] = Math.sqrt(s.exact[e]);
                s.orig[e] = idx.original(ap.cand[at + e]);
            }
            if (keep > ApproximateLists.BUFFER_ABOVE) {
                qs.fill(i, s.exact, s.orig, keep);   // a buffer, in no order: O(keep log keep)
            } else {
                qs.fillNearlySorted(i, s.exact, s.orig, keep);   // a sorted run of approximations
            }
        }
        if (slice) {
            qs.copyOutAt(base, outIdx, outDist);
        } else {
            qs.copyOut(idx, outIdx, outDist);
        }
    }
}
