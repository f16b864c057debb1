package org.sylva.hdbscan.core;

import java.util.Arrays;

import org.sylva.backend.DistanceBackend;
import org.sylva.backend.PointIndex;

/**
 * Exact k-nearest-neighbour lists of every point, one leaf of queries per work unit. A unit scans its
 * own leaf first, then walks the partition nearest ball first and skips every ball whose lower bound
 * exceeds the largest current k-th distance of its queries, and, leaf by leaf, each query whose own
 * bound does (strictly: equal distances can still enter a list through the index tie rule). Lists are
 * ordered by (distance, original index); that order is total, so the final lists do not depend on the
 * order in which candidates arrive.
 *
 * <p><b>Filtered mode</b> (backend with a float32 pre-filter, index with float32 coordinates): the walk
 * keeps, per query, the {@code k2 > k} smallest <em>approximate</em> squared distances. With
 * {@code A} the k-th of them and {@code eps} the proven relative error, the exact k-th squared distance
 * is at most {@code A (1 + eps) + abs}, so every true member has an approximation at most
 * {@code L = A (1 + eps)^2 (1 + 1e-12) + 3 abs}; candidates above {@code L} are dropped, balls beyond
 * {@code sqrt(L)} skipped. At the end the exact float64 distance is computed for every kept candidate
 * with approximation {@code <= L}, which provably includes the true list. If the approximate list
 * overflowed below {@code L} (masses of duplicates), that query is redone in exact mode.
 */
final class KnnSearch {
    /** Relative widening of the squared-distance pre-filter; sqrt rounding moves a value by far less. */
    private static final double FILTER_SLACK = 1e-13;

    private final PointIndex idx;
    private final DistanceBackend backend;
    private final int k;
    private final int k2;
    private final boolean prune;
    private final boolean filtered;
    private final double limitFactor;
    private final double limitAbs;
    private final int[] outIdx;
    private final double[] outDist;
    private final Scratch[] scratch;

    KnnSearch(PointIndex idx, DistanceBackend backend, int k, boolean prune, int threads) {
        this.idx = idx;
        this.backend = backend;
        this.k = k;
        this.k2 = k + 12;
        this.prune = prune;
        this.filtered = prune && backend.approximates() && idx.hasFloat32();
        double eps = DistanceBackend.approximationError(idx.dimensions());
        this.limitFactor = (1 + eps) * (1 + eps) * (1 + 1e-12);
        this.limitAbs = 3 * DistanceBackend.APPROXIMATION_ABSOLUTE;
        this.outIdx = new int[idx.size() * k];
        this.outDist = new double[idx.size() * k];
        this.scratch = new Scratch[threads];
        for (int t = 0; t < threads; t++) scratch[t] = new Scratch(idx, backend, k, k2, filtered);
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
        final double[] apS;
        final int[] apP;
        final int[] apCount = new int[PointIndex.LEAF_SIZE];
        final int[] sel = new int[PointIndex.LEAF_SIZE + 16];
        final double[] exact;
        final double[] limit = new double[PointIndex.LEAF_SIZE];
        final int[] stackNode;
        final double[] stackLb;

        Scratch(PointIndex idx, DistanceBackend b, int k, int k2, boolean filtered) {
            int w = idx.blockWidth();
            int len = b.tileLength(PointIndex.LEAF_SIZE, (PointIndex.LEAF_SIZE + w - 1) / w, idx);
            tile = new double[len];
            tile32 = filtered ? new float[len] : null;
            apS = filtered ? new double[PointIndex.LEAF_SIZE * k2] : null;
            apP = filtered ? new int[PointIndex.LEAF_SIZE * k2] : null;
            exact = new double[k2];
            main = new Queries(PointIndex.LEAF_SIZE, k);
            single = new Queries(1, k);
            stackNode = new int[2 * idx.depth() + 4];
            stackLb = new double[2 * idx.depth() + 4];
        }
    }

    /** Computes the lists of the points of leaf {@code leaf}. */
    void unit(int worker, int leaf) {
        Scratch s = scratch[worker];
        Queries qs = s.main;
        qs.m = idx.leafCount(leaf);
        qs.leaf = leaf;
        int start = idx.leafStart(leaf);
        for (int i = 0; i < qs.m; i++) qs.pos[i] = start + i;
        if (filtered) {
            filteredSearch(s, qs);
        } else {
            exactSearch(s, qs);
        }
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

    private void filteredSearch(Scratch s, Queries qs) {
        int m = qs.m;
        for (int i = 0; i < m; i++) {
            s.apCount[i] = 0;
            s.limit[i] = Double.POSITIVE_INFINITY;
        }
        filteredVisit(s, qs, qs.leaf);
        int own = idx.leafNode(qs.leaf);
        double maxDist = filteredMaxDist(s, m);
        int sp = 0;
        s.stackNode[sp] = 0;
        s.stackLb[sp] = Double.NEGATIVE_INFINITY;
        sp++;
        int limit = 2 * idx.nodes() + 2;
        for (int it = 0; it < limit && sp > 0; it++) {
            sp--;
            int node = s.stackNode[sp];
            if (s.stackLb[sp] > maxDist) continue;
            int leaf = idx.leafOf(node);
            if (leaf >= 0) {
                if (leaf != qs.leaf) {
                    filteredVisit(s, qs, leaf);
                    maxDist = filteredMaxDist(s, m);
                }
                continue;
            }
            sp = pushChildren(s, sp, own, node, maxDist);
        }
        if (sp != 0) throw new IllegalStateException("neighbour search did not finish its traversal");
        // Exact re-decision of the kept candidates.
        Arrays.fill(qs.dist, 0, m * k, Double.POSITIVE_INFINITY);
        Arrays.fill(qs.orig, 0, m * k, Integer.MAX_VALUE);
        for (int i = 0; i < m; i++) {
            int base = i * k2;
            int count = s.apCount[i];
            double lim = s.limit[i];
            if (count == k2 && s.apS[base + k2 - 1] <= lim) {
                exactSingle(s, qs, i);
                continue;
            }
            int keep = 0;
            for (int e = 0; e < count && s.apS[base + e] <= lim; e++) keep++;
            idx.squaredDistances(qs.pos[i], s.apP, base, keep, s.exact);
            for (int e = 0; e < keep; e++) {
                insertExact(qs, i, Math.sqrt(s.exact[e]), idx.original(s.apP[base + e]));
            }
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

    /** Largest distance any query still needs: {@code sqrt(limit)} widened; a ball beyond it is skipped. */
    private double filteredMaxDist(Scratch s, int m) {
        double mx = 0.0;
        for (int i = 0; i < m; i++) mx = Math.max(mx, s.limit[i]);
        return Math.sqrt(mx) * (1 + 1e-12);
    }

    private void filteredVisit(Scratch s, Queries qs, int leaf) {
        int nq = selectQueriesFiltered(s, qs, leaf);
        if (nq == 0) return;
        int w = idx.blockWidth();
        int cs = idx.leafStart(leaf);
        int cnt = idx.leafCount(leaf);
        int bf = cs / w, bt = (cs + cnt + w - 1) / w;
        backend.approximateSquaredDistances(idx, s.actPos, nq, bf, bt, s.tile32);
        int stride = (bt - bf) * w;
        int off = cs - bf * w;
        for (int r = 0; r < nq; r++) {
            int q = s.act[r];
            int row = r * stride + off;
            double lim = s.limit[q];
            int sel = backend.select(s.tile32, row, cnt, lim, s.sel);
            for (int e = 0; e < sel; e++) {
                int c = s.sel[e];
                double a = s.tile32[row + c];
                if (a > lim) continue;
                lim = insertApprox(s, q, a, cs + c);
            }
        }
    }

    private int selectQueriesFiltered(Scratch s, Queries qs, int leaf) {
        int nq = 0;
        if (leaf == qs.leaf) {
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
            double maxDist = Math.sqrt(s.limit[i]) * (1 + 1e-12);
            if (idx.lowerBoundFromCentre(s.centre[qs.pos[i] - off], node) > maxDist) continue;
            s.act[nq] = i;
            s.actPos[nq] = qs.pos[i];
            nq++;
        }
        return nq;
    }

    /**
     * Inserts {@code (a, pos)} into query {@code q}'s approximate list (ascending by value, then position;
     * capacity {@code k2}) and returns the query's new limit {@code L}.
     */
    private double insertApprox(Scratch s, int q, double a, int pos) {
        int base = q * k2;
        int count = s.apCount[q];
        double[] as = s.apS;
        int[] ap = s.apP;
        if (count == k2) {
            int last = base + k2 - 1;
            if (a > as[last] || (a == as[last] && pos > ap[last])) return s.limit[q];
            count--;
        }
        int j = count;
        for (; j > 0; j--) {
            double pa = as[base + j - 1];
            int pp = ap[base + j - 1];
            if (pa < a || (pa == a && pp < pos)) break;
            as[base + j] = pa;
            ap[base + j] = pp;
        }
        as[base + j] = a;
        ap[base + j] = pos;
        s.apCount[q] = count + 1;
        if (count + 1 >= k) {
            double lim = as[base + k - 1] * limitFactor + limitAbs;
            if (lim < s.limit[q]) s.limit[q] = lim;
        }
        return s.limit[q];
    }
}
