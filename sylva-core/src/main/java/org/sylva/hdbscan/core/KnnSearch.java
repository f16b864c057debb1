package org.sylva.hdbscan.core;

import java.util.Arrays;

import org.sylva.kernels.DistanceKernel;
import org.sylva.hdbscan.index.PointIndex;

/**
 * Exact k-nearest-neighbour lists of every point.
 *
 * <p><b>Exact mode</b> (float64 distances only; one leaf of queries per work unit). A unit scans its
 * own leaf first, then walks the partition nearest ball first and skips every ball whose lower bound
 * exceeds the largest current k-th distance of its queries, and, leaf by leaf, each query whose own
 * bound does (strictly: equal distances can still enter a list through the index tie rule). Lists are
 * ordered by (distance, original index); that order is total, so the final lists do not depend on the
 * order in which candidates arrive.
 *
 * <p><b>Filtered mode</b> (backend with a float32 pre-filter, index with float32 coordinates), three
 * passes. Each point keeps the {@code k2 > k} smallest <em>approximate</em> squared distances offered to
 * it. With {@code A} the k-th of them and {@code eps} the proven relative error, the exact k-th squared
 * distance is at most {@code A (1 + eps) + abs}, so every true member has an approximation at most
 * {@code L = A (1 + eps)^2 (1 + 1e-12) + 3 abs}; candidates above {@code L} are dropped.
 * (1) Each leaf offers its own points and those of its nearest leaves to its lists, which fixes a
 * static distance bound {@code t0} per point (all true members lie within it). (2) Each unordered pair
 * of leaves that one side may need (ball bound within the larger static bound) is computed once, as one
 * approximate tile offered to both leaves' lists, each under its leaf's lock. (3) The exact float64
 * distance of every kept candidate with approximation {@code <= L} decides the list, which provably
 * includes the true list; a list that overflowed below its limit (masses of duplicates) is redone in
 * exact mode. Offer order changes only entries above the final limit, so results never depend on threads.
 */
final class KnnSearch {
    /** Relative widening of the squared-distance pre-filter; sqrt rounding moves a value by far less. */
    private static final double FILTER_SLACK = 1e-13;

    private final PointIndex idx;
    private final DistanceKernel backend;
    private final int k;
    private final int k2;
    private final boolean prune;
    private final boolean filtered;
    private final double limitFactor;
    private final double limitAbs;
    private final double eps;
    private final int[] outIdx;
    private final double[] outDist;
    private final Scratch[] scratch;

    /** Filtered mode: approximate lists by position ({@code k2} each), limits, static bounds, first-pass leaves. */
    private static final int FIRST_PASS_LEAVES = 8;
    private final float[] apS;
    private final int[] apP;
    private final int[] apCount;
    private final double[] limit;
    private final double[] t0;
    private final double[] leafMaxT0;
    private final double[] nodeMaxT0;
    private final int[] nodeLastLeaf;
    private final int[] p1;
    private final int[] p1Count;
    private final Object[] locks;

    KnnSearch(PointIndex idx, DistanceKernel backend, int k, boolean prune, int threads) {
        this.idx = idx;
        this.backend = backend;
        this.k = k;
        this.k2 = k + 12;
        this.prune = prune;
        this.filtered = prune && backend.approximates() && idx.hasFloat32();
        this.eps = DistanceKernel.approximationError(idx.dimensions());
        this.limitFactor = (1 + eps) * (1 + eps) * (1 + 1e-12);
        this.limitAbs = 3 * DistanceKernel.APPROXIMATION_ABSOLUTE;
        this.outIdx = new int[idx.size() * k];
        this.outDist = new double[idx.size() * k];
        this.scratch = new Scratch[threads];
        for (int t = 0; t < threads; t++) scratch[t] = new Scratch(idx, backend, k, k2, filtered);
        int positions = filtered ? idx.positions() : 0;
        int leaves = filtered ? idx.leaves() : 0;
        apS = new float[positions * k2];
        apP = new int[positions * k2];
        apCount = new int[positions];
        limit = new double[positions];
        t0 = new double[positions];
        leafMaxT0 = new double[leaves];
        nodeMaxT0 = new double[filtered ? idx.nodes() : 0];
        nodeLastLeaf = new int[filtered ? idx.nodes() : 0];
        p1 = new int[leaves * FIRST_PASS_LEAVES];
        p1Count = new int[leaves];
        locks = new Object[leaves];
        for (int l = 0; l < leaves; l++) locks[l] = new Object();
    }

    int[] neighbourIndices() {
        return outIdx;
    }

    double[] neighbourDistances() {
        return outDist;
    }

    /** A set of queries from one leaf with their exact lists (distances ascending, ties by index). */
    private static final class Queries {
        final int[] pos;
        final double[] dist;
        final int[] orig;
        int m;
        int leaf;

        Queries(int capacity, int k) {
            pos = new int[capacity];
            dist = new double[capacity * k];
            orig = new int[capacity * k];
        }
    }

    /** Per-worker buffers, allocated once. */
    private static final class Scratch {
        final Queries main;
        final Queries single;
        final int[] act = new int[PointIndex.LEAF_SIZE];
        final int[] actPos = new int[PointIndex.LEAF_SIZE];
        final double[] centre = new double[2 * PointIndex.LEAF_SIZE + 32];
        final double[] tile;
        final float[] tile32;
        final int[] sel = new int[PointIndex.LEAF_SIZE + 16];
        final float[] colLimit = new float[PointIndex.LEAF_SIZE + 16];
        final double[] exact;
        final int[] stackNode;
        final double[] stackLb;

        Scratch(PointIndex idx, DistanceKernel b, int k, int k2, boolean filtered) {
            int w = idx.blockWidth();
            int len = b.tileLength(PointIndex.LEAF_SIZE, (PointIndex.LEAF_SIZE + w - 1) / w, idx);
            tile = new double[len];
            tile32 = filtered ? new float[len] : null;
            exact = new double[k2];
            main = new Queries(PointIndex.LEAF_SIZE, k);
            single = new Queries(1, k);
            stackNode = new int[2 * idx.depth() + 4];
            stackLb = new double[2 * idx.depth() + 4];
        }
    }

    /** Exact mode: computes the lists of the points of leaf {@code leaf}. */
    void unit(int worker, int leaf) {
        Scratch s = scratch[worker];
        Queries qs = s.main;
        qs.m = idx.leafCount(leaf);
        qs.leaf = leaf;
        int start = idx.leafStart(leaf);
        for (int i = 0; i < qs.m; i++) qs.pos[i] = start + i;
        exactSearch(s, qs);
        for (int i = 0; i < qs.m; i++) {
            int o = idx.original(qs.pos[i]);
            System.arraycopy(qs.dist, i * k, outDist, o * k, k);
            System.arraycopy(qs.orig, i * k, outIdx, o * k, k);
        }
    }

    // ------------------------------------------------------------------------------------ exact mode

    private void exactSearch(Scratch s, Queries qs) {
        Arrays.fill(qs.dist, 0, qs.m * k, Double.POSITIVE_INFINITY);
        Arrays.fill(qs.orig, 0, qs.m * k, Integer.MAX_VALUE);
        exactVisit(s, qs, qs.leaf);
        if (!prune) {
            int leaves = idx.leaves();
            for (int other = 0; other < leaves; other++) if (other != qs.leaf) exactVisit(s, qs, other);
            return;
        }
        int own = idx.leafNode(qs.leaf);
        double maxKth = exactMaxKth(qs);
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
                    exactVisit(s, qs, leaf);
                    maxKth = exactMaxKth(qs);
                }
                continue;
            }
            sp = pushChildren(s, sp, own, node, maxKth);
        }
        if (sp != 0) throw new IllegalStateException("neighbour search did not finish its traversal");
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

    private double exactMaxKth(Queries qs) {
        double mx = 0.0;
        for (int i = 0; i < qs.m; i++) mx = Math.max(mx, qs.dist[i * k + k - 1]);
        return mx;
    }

    /**
     * Selects the queries that {@code leaf} can still improve: all of them for their own leaf, else those
     * whose ball bound is within {@code bound[i]} (a distance). Returns how many, in {@code s.act}.
     */
    private int selectQueries(Scratch s, Queries qs, int leaf, double[] bound, int boundStride, int boundOffset) {
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
            if (idx.lowerBoundFromCentre(s.centre[qs.pos[i] - off], node) > bound[i * boundStride + boundOffset]) continue;
            s.act[nq] = i;
            s.actPos[nq] = qs.pos[i];
            nq++;
        }
        return nq;
    }

    /** Offers the points of {@code leaf} to the exact lists. */
    private void exactVisit(Scratch s, Queries qs, int leaf) {
        int nq = selectQueries(s, qs, leaf, qs.dist, k, k - 1);
        if (nq == 0) return;
        int w = idx.blockWidth();
        int cs = idx.leafStart(leaf);
        int cnt = idx.leafCount(leaf);
        int bf = cs / w, bt = (cs + cnt + w - 1) / w;
        backend.squaredDistances(idx, s.actPos, nq, bf, bt, s.tile);
        int stride = (bt - bf) * w;
        int off = cs - bf * w;
        for (int r = 0; r < nq; r++) {
            int q = s.act[r];
            int row = r * stride + off;
            double kd = qs.dist[q * k + k - 1];
            double thr = kd * kd * (1 + FILTER_SLACK);
            for (int c = 0; c < cnt; c++) {
                double sq = s.tile[row + c];
                if (sq > thr) continue;
                if (insertExact(qs, q, Math.sqrt(sq), idx.original(cs + c))) {
                    kd = qs.dist[q * k + k - 1];
                    thr = kd * kd * (1 + FILTER_SLACK);
                }
            }
        }
    }

    /** Inserts {@code (dist, o)} into query {@code q}'s exact list if it precedes the last entry. */
    private boolean insertExact(Queries qs, int q, double dist, int o) {
        double[] ld = qs.dist;
        int[] li = qs.orig;
        int base = q * k;
        int lastPos = base + k - 1;
        if (dist > ld[lastPos] || (dist == ld[lastPos] && o >= li[lastPos])) return false;
        int j = k - 1;
        for (; j > 0; j--) {
            double pd = ld[base + j - 1];
            int pi = li[base + j - 1];
            if (pd < dist || (pd == dist && pi < o)) break;
            ld[base + j] = pd;
            li[base + j] = pi;
        }
        ld[base + j] = dist;
        li[base + j] = o;
        return true;
    }

    // ---------------------------------------------------------------------------------- filtered mode

    /** True when the filtered (float32 pre-filter, symmetric) mode runs. */
    boolean filtered() {
        return filtered;
    }

    /**
     * Pass 1 of the filtered mode, for leaf {@code q}: its own tile, then the nearest leaves (at most
     * {@value #FIRST_PASS_LEAVES}) until every list holds {@code k} entries; these leaves are remembered so
     * that pass 2 never offers the same pair to a list twice. Ends with the static distance bounds
     * {@code t0}: every true list member of a point lies within its {@code t0}.
     */
    void firstPass(int worker, int q) {
        Scratch s = scratch[worker];
        int start = idx.leafStart(q), m = idx.leafCount(q);
        for (int p = start; p < start + m; p++) {
            apCount[p] = 0;
            limit[p] = Double.POSITIVE_INFINITY;
        }
        for (int i = 0; i < m; i++) {
            s.act[i] = i;
            s.actPos[i] = start + i;
        }
        offerRows(s, m, q, q);
        p1Count[q] = 0;
        if (!allFull(start, m)) {
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
                    if (allFull(start, m)) break;
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
            double b = Double.isInfinite(limit[p]) ? Double.POSITIVE_INFINITY
                    : Math.sqrt(limit[p] * (1 + eps) + DistanceKernel.APPROXIMATION_ABSOLUTE) * (1 + 1e-12);
            t0[p] = b;
            mx = Math.max(mx, b);
        }
        leafMaxT0[q] = mx;
    }

    private boolean allFull(int start, int m) {
        for (int p = start; p < start + m; p++) if (apCount[p] < k) return false;
        return true;
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
        Scratch s = scratch[worker];
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
                pairVisit(s, q, leaf);
                continue;
            }
            int l = idx.left(node), r = idx.right(node);
            s.stackNode[sp] = r;
            s.stackLb[sp] = idx.lowerBound(own, r);
            sp++;
            s.stackNode[sp] = l;
            s.stackLb[sp] = idx.lowerBound(own, l);
            sp++;
        }
        if (sp != 0) throw new IllegalStateException("neighbour search did not finish its traversal");
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
        backend.centreDistances(idx, node, qbf, qbt, s.centre);
        double nMax = leafMaxT0[n];
        int nq = 0;
        for (int i = 0; i < qm; i++) {
            int p = qs + i;
            double lb = idx.lowerBoundFromCentre(s.centre[p - qbf * w], node);
            if ((qSide && lb <= t0[p]) || (nSide && lb <= nMax)) {
                s.act[nq] = i;
                s.actPos[nq] = p;
                nq++;
            }
        }
        if (nq == 0) return;
        int cs = idx.leafStart(n), cnt = idx.leafCount(n);
        int bf = cs / w, bt = (cs + cnt + w - 1) / w;
        backend.approximateSquaredDistances(idx, s.actPos, nq, bf, bt, s.tile32);
        int stride = (bt - bf) * w;
        int off = cs - bf * w;
        if (qSide) {
            synchronized (locks[q]) {
                for (int r = 0; r < nq; r++) offerRow(s, r, stride, off, s.actPos[r], cs, cnt);
            }
        }
        if (nSide) {
            synchronized (locks[n]) {
                // Columns go to the lists of n's points: per row, one vector compare against every
                // column's limit (rounded up to float32, so nothing within a limit is missed), then an
                // exact re-check and insertion for the few that pass.
                for (int c = 0; c < cnt; c++) s.colLimit[c] = roundUp(limit[cs + c]);
                for (int r = 0; r < nq; r++) {
                    int row = r * stride + off;
                    int sel = backend.selectEach(s.tile32, row, s.colLimit, cnt, s.sel);
                    for (int e = 0; e < sel; e++) {
                        int c = s.sel[e];
                        int p = cs + c;
                        double a = s.tile32[row + c];
                        if (a > limit[p]) continue;
                        s.colLimit[c] = roundUp(insertApprox(p, a, s.actPos[r]));
                    }
                }
            }
        }
    }

    /** The smallest float32 value not below {@code x}. */
    private static float roundUp(double x) {
        float f = (float) x;
        return f < x ? Math.nextUp(f) : f;
    }

    /** Computes the tile of the selected rows ({@code s.act}) of leaf {@code q} against leaf {@code n} and offers the rows. */
    private void offerRows(Scratch s, int nq, int q, int n) {
        int w = idx.blockWidth();
        int cs = idx.leafStart(n), cnt = idx.leafCount(n);
        int bf = cs / w, bt = (cs + cnt + w - 1) / w;
        backend.approximateSquaredDistances(idx, s.actPos, nq, bf, bt, s.tile32);
        int stride = (bt - bf) * w;
        int off = cs - bf * w;
        for (int r = 0; r < nq; r++) offerRow(s, r, stride, off, s.actPos[r], cs, cnt);
    }

    /** Offers row {@code r} of the tile (query position {@code p}) to its approximate list. */
    private void offerRow(Scratch s, int r, int stride, int off, int p, int cs, int cnt) {
        int row = r * stride + off;
        double lim = limit[p];
        int sel = backend.select(s.tile32, row, cnt, lim, s.sel);
        for (int e = 0; e < sel; e++) {
            int c = s.sel[e];
            double a = s.tile32[row + c];
            if (a > lim) continue;
            lim = insertApprox(p, a, cs + c);
        }
    }

    /**
     * Inserts {@code (a, cand)} into the approximate list of position {@code p} (ascending by value, then
     * position; capacity {@code k2}) and returns the point's new limit {@code L}.
     */
    private double insertApprox(int p, double a, int cand) {
        int base = p * k2;
        int count = apCount[p];
        if (count == k2) {
            int last = base + k2 - 1;
            if (a > apS[last] || (a == apS[last] && cand > apP[last])) return limit[p];
            count--;
        }
        int j = count;
        for (; j > 0; j--) {
            double pa = apS[base + j - 1];
            int pp = apP[base + j - 1];
            if (pa < a || (pa == a && pp < cand)) break;
            apS[base + j] = (float) pa;
            apP[base + j] = pp;
        }
        apS[base + j] = (float) a;
        apP[base + j] = cand;
        apCount[p] = count + 1;
        if (count + 1 >= k) {
            double lim = apS[base + k - 1] * limitFactor + limitAbs;
            if (lim < limit[p]) limit[p] = lim;
        }
        return limit[p];
    }

    /**
     * Pass 3, for leaf {@code q}: the exact float64 distance of every kept candidate whose approximation is
     * within the final limit decides the list; a list that overflowed below its limit is redone exactly.
     */
    void finalPass(int worker, int q) {
        Scratch s = scratch[worker];
        Queries qs = s.main;
        qs.m = idx.leafCount(q);
        qs.leaf = q;
        int start = idx.leafStart(q);
        for (int i = 0; i < qs.m; i++) qs.pos[i] = start + i;
        Arrays.fill(qs.dist, 0, qs.m * k, Double.POSITIVE_INFINITY);
        Arrays.fill(qs.orig, 0, qs.m * k, Integer.MAX_VALUE);
        for (int i = 0; i < qs.m; i++) {
            int p = qs.pos[i];
            int base = p * k2;
            int count = apCount[p];
            double lim = limit[p];
            if (count == k2 && apS[base + k2 - 1] <= lim) {
                exactSingle(s, qs, i);
                continue;
            }
            int keep = 0;
            for (int e = 0; e < count && apS[base + e] <= lim; e++) keep++;
            idx.squaredDistances(p, apP, base, keep, s.exact);
            for (int e = 0; e < keep; e++) {
                insertExact(qs, i, Math.sqrt(s.exact[e]), idx.original(apP[base + e]));
            }
        }
        for (int i = 0; i < qs.m; i++) {
            int o = idx.original(qs.pos[i]);
            System.arraycopy(qs.dist, i * k, outDist, o * k, k);
            System.arraycopy(qs.orig, i * k, outIdx, o * k, k);
        }
    }

    /** Redoes query {@code i} of {@code qs} alone in exact mode (its approximate list overflowed). */
    private void exactSingle(Scratch s, Queries qs, int i) {
        Queries one = s.single;
        one.m = 1;
        one.leaf = qs.leaf;
        one.pos[0] = qs.pos[i];
        exactSearch(s, one);
        System.arraycopy(one.dist, 0, qs.dist, i * k, k);
        System.arraycopy(one.orig, 0, qs.orig, i * k, k);
    }
}
