package org.sylva.hdbscan.core;

import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;

/**
 * Exact k-nearest-neighbour lists computed from float64 distances directly, one leaf of queries per work
 * unit. A unit scans its own leaf first, then walks the partition nearest ball first and skips every ball
 * whose lower bound exceeds the largest current k-th distance of its queries, and, leaf by leaf, each
 * query whose own bound does (strictly: equal distances can still enter a list through the index tie
 * rule). The lists are {@link NearestLists}, whose order is total, so results do not depend on the order
 * in which candidates arrive or on threads. This is the search for backends without a float32 pre-filter
 * and for float64 coordinates; {@link FilteredKnnSearch} also uses it to redo a single list whose
 * approximate candidates overflowed. With {@code prune = false} every leaf is scanned (a check for tests).
 *
 * <pre>{@code
 * DirectKnnSearch s = new DirectKnnSearch(index, backend, k, true, threads, new int[n * k], new double[n * k]);
 * work.run(index.leaves(), STAGE, progress, cancel, s::unit);   // the output arrays now hold the lists
 * }</pre>
 */
final class DirectKnnSearch {
    /** Relative widening of the squared-distance pre-filter; sqrt rounding moves a value by far less. */
    private static final double FILTER_SLACK = 1e-13;

    private final PointIndex idx;
    private final DistanceKernel backend;
    private final int k;
    private final boolean prune;
    private final int[] outIdx;
    private final double[] outDist;
    private final Scratch[] scratch;
    /** Where lists go: by original index when negative, else at row {@code position - positionBase}. */
    private final int positionBase;

    /**
     * A search for lists of {@code k} entries on {@code threads} workers, writing list {@code i} to
     * {@code outIdx}/{@code outDist} at {@code i * k} (both of length {@code size * k}).
     */
    DirectKnnSearch(PointIndex idx, DistanceKernel backend, int k, boolean prune, int threads,
                    int[] outIdx, double[] outDist) {
        this(idx, backend, k, prune, threads, outIdx, outDist, -1);
    }

    /**
     * As above, but list of position {@code p} goes to row {@code p - positionBase} of the outputs: the
     * search of a slice of leaves ({@link CoreDistances#slice}), whose outputs cover only its positions.
     */
    DirectKnnSearch(PointIndex idx, DistanceKernel backend, int k, boolean prune, int threads,
                    int[] outIdx, double[] outDist, int positionBase) {
        this.positionBase = positionBase;
        this.idx = idx;
        this.backend = backend;
        this.k = k;
        this.prune = prune;
        this.outIdx = outIdx;
        this.outDist = outDist;
        // each worker's scratch is made on its first unit: a pass of u units runs min(threads, u) workers
        this.scratch = new Scratch[threads];
    }

    /** Worker {@code worker}'s scratch, made on first use (a worker runs on one thread at a time). */
    private Scratch scratch(int worker) {
        if (scratch[worker] == null) scratch[worker] = new Scratch(idx, backend, k);
        return scratch[worker];
    }

    /** Per-worker buffers, allocated once. */
    private static final class Scratch {
        final NearestLists main;
        final NearestLists single;
        final int[] act = new int[PointIndex.LEAF_SIZE];
        final int[] actPos = new int[PointIndex.LEAF_SIZE];
        /** Per selected query, its squared threshold when the tile is computed (thresholds only fall). */
        final double[] limit;
        final double[] centre = new double[2 * PointIndex.LEAF_SIZE + 32];
        final double[] tile;
        /** Per tile row, bit {@code c}: column {@code c} was within the row's threshold as it stood. */
        final long[] selected;
        final int[] stackNode;
        final double[] stackLb;

        Scratch(PointIndex idx, DistanceKernel b, int k) {
            int w = idx.blockWidth();
            tile = new double[b.tileLength(PointIndex.LEAF_SIZE, (PointIndex.LEAF_SIZE + w - 1) / w, idx)];
            limit = new double[b.paddedQueries(PointIndex.LEAF_SIZE)];
            selected = new long[limit.length];
            main = new NearestLists(PointIndex.LEAF_SIZE, k);
            single = new NearestLists(1, k);
            stackNode = new int[2 * idx.depth() + 4];
            stackLb = new double[2 * idx.depth() + 4];
        }
    }

    /** Computes the lists of the points of leaf {@code leaf} and writes them out. */
    void unit(int worker, int leaf) {
        Scratch s = scratch(worker);
        NearestLists qs = s.main;
        qs.m = idx.leafCount(leaf);
        qs.leaf = leaf;
        int start = idx.leafStart(leaf);
        for (int i = 0; i < qs.m; i++) qs.pos[i] = start + i;
        search(s, qs);
        if (positionBase < 0) {
            qs.copyOut(idx, outIdx, outDist);
        } else {
            qs.copyOutAt(positionBase, outIdx, outDist);
        }
    }

    /** Recomputes the list of query {@code i} of {@code qs} alone, in place (nothing is written out). */
    void redo(int worker, NearestLists qs, int i) {
        Scratch s = scratch(worker);
        NearestLists one = s.single;
        one.m = 1;
        one.leaf = qs.leaf;
        one.pos[0] = qs.pos[i];
        search(s, one);
        qs.copyList(i, one, 0);
    }

    private void search(Scratch s, NearestLists qs) {
        qs.clear();
        visit(s, qs, qs.leaf);
        if (!prune) {
            int leaves = idx.leaves();
            for (int other = 0; other < leaves; other++) if (other != qs.leaf) visit(s, qs, other);
            qs.finishAll();
            return;
        }
        int own = idx.leafNode(qs.leaf);
        double maxKth = qs.maxKth();
        int sp = 0;
        s.stackNode[sp] = 0;
        s.stackLb[sp] = Double.NEGATIVE_INFINITY;
        sp++;
        int limit = 2 * idx.nodes() + 2;
        for (int it = 0; it < limit && sp > 0; it++) {
            sp--;
            int node = s.stackNode[sp];
            if (s.stackLb[sp] > maxKth) continue;
            int leaf = idx.leafOf(node);
            if (leaf >= 0) {
                if (leaf != qs.leaf) {
                    visit(s, qs, leaf);
                    maxKth = qs.maxKth();
                }
                continue;
            }
            sp = pushChildren(s, sp, own, node, maxKth);
        }
        if (sp != 0) throw new IllegalStateException("neighbour search did not finish its traversal");
        qs.finishAll();
    }

    /** Pushes the children of {@code node} whose bound is within {@code maxDist}, the nearer one on top. */
    private int pushChildren(Scratch s, int sp, int own, int node, double maxDist) {
        int l = idx.left(node), r = idx.right(node);
        double lbL = idx.lowerBound(own, l), lbR = idx.lowerBound(own, r);
        int near = l, far = r;
        double lbNear = lbL, lbFar = lbR;
        if (lbR < lbL) {
            near = r;
            far = l;
            lbNear = lbR;
            lbFar = lbL;
        }
        if (lbFar <= maxDist) {
            s.stackNode[sp] = far;
            s.stackLb[sp] = lbFar;
            sp++;
        }
        if (lbNear <= maxDist) {
            s.stackNode[sp] = near;
            s.stackLb[sp] = lbNear;
            sp++;
        }
        return sp;
    }

    /**
     * Selects the queries that {@code leaf} can still improve: all of them for their own leaf (or without
     * pruning), else those whose ball bound is within their current k-th distance. Returns how many, in
     * {@code s.act} (query slots) and {@code s.actPos} (their positions).
     */
    private int selectQueries(Scratch s, NearestLists qs, int leaf) {
        int nq = 0;
        if (!prune || leaf == qs.leaf) {
            for (int i = 0; i < qs.m; i++) {
                s.act[nq] = i;
                s.actPos[nq] = qs.pos[i];
                nq++;
            }
            return nq;
        }
        int w = idx.blockWidth();
        int start = idx.leafStart(qs.leaf);
        int qbf = start / w, qbt = (start + idx.leafCount(qs.leaf) + w - 1) / w;
        int node = idx.leafNode(leaf);
        backend.centreDistances(idx, node, qbf, qbt, s.centre);
        int off = qbf * w;
        for (int i = 0; i < qs.m; i++) {
            if (idx.lowerBoundFromCentre(s.centre[qs.pos[i] - off], node) > qs.kth(i)) continue;
            s.act[nq] = i;
            s.actPos[nq] = qs.pos[i];
            nq++;
        }
        return nq;
    }

    /** Offers the points of {@code leaf} to the lists (one float64 tile of the selected queries). */
    private void visit(Scratch s, NearestLists qs, int leaf) {
        int nq = selectQueries(s, qs, leaf);
        if (nq == 0) return;
        int w = idx.blockWidth();
        // a leaf starts at a multiple of W and holds at most 64 points: column c of its tile is position cs + c
        int cs = idx.leafStart(leaf);
        int cnt = idx.leafCount(leaf);
        int bf = cs / w, bt = (cs + cnt + w - 1) / w;
        // each row's values are compared with its threshold only, which falls as the row fills its list: a
        // value the kernel leaves above the threshold as it stands now stays above it (squaredDistancesWithin)
        for (int r = 0; r < nq; r++) {
            double kd = qs.kth(s.act[r]);
            s.limit[r] = kd * kd * (1 + FILTER_SLACK);
        }
        backend.squaredDistancesSelected(idx, s.actPos, nq, bf, bt, s.limit, s.tile, s.selected);
        int stride = (bt - bf) * w;
        long points = cnt == Long.SIZE ? -1L : (1L << cnt) - 1;   // not the padding after the leaf's points
        for (int r = 0; r < nq; r++) {
            int q = s.act[r];
            int row = r * stride;
            double thr = s.limit[r];
            // the row's values within its threshold as it stood, then each re-checked against the threshold
            // as the list fills: the same values in the same order as reading every value
            long bits = s.selected[r] & points;
            for (int e = 0; e < Long.SIZE && bits != 0; e++) {
                int at = Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                double sq = s.tile[row + at];
                if (sq > thr) continue;
                if (qs.insert(q, Math.sqrt(sq), idx.original(cs + at))) {
                    double kd = qs.kth(q);
                    thr = kd * kd * (1 + FILTER_SLACK);
                }
            }
        }
    }
}
