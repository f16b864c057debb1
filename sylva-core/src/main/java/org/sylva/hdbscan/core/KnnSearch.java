package org.sylva.hdbscan.core;

import java.util.Arrays;

import org.sylva.backend.DistanceBackend;
import org.sylva.backend.PointIndex;

/**
 * Exact k-nearest-neighbour lists of every point, one leaf of queries per work unit. A unit scans its
 * own leaf first, then walks the partition nearest ball first and skips every ball whose lower bound
 * exceeds the largest current k-th distance of its queries (strictly: equal distances can still enter a
 * list through the index tie rule). Lists are ordered by (distance, original index); since that order is
 * total, the final lists do not depend on the order in which candidates arrive.
 */
final class KnnSearch {
    /** Relative widening of the squared-distance pre-filter; sqrt rounding moves a value by far less. */
    private static final double FILTER_SLACK = 1e-13;

    private final PointIndex idx;
    private final DistanceBackend backend;
    private final int k;
    private final boolean prune;
    private final int[] outIdx;
    private final double[] outDist;
    private final Scratch[] scratch;

    KnnSearch(PointIndex idx, DistanceBackend backend, int k, boolean prune, int threads) {
        this.idx = idx;
        this.backend = backend;
        this.k = k;
        this.prune = prune;
        this.outIdx = new int[idx.size() * k];
        this.outDist = new double[idx.size() * k];
        this.scratch = new Scratch[threads];
        for (int t = 0; t < threads; t++) scratch[t] = new Scratch(idx, backend, k);
    }

    int[] neighbourIndices() {
        return outIdx;
    }

    double[] neighbourDistances() {
        return outDist;
    }

    /** Per-worker buffers, allocated once. */
    private static final class Scratch {
        final int[] qPos = new int[PointIndex.LEAF_SIZE];
        final int[] act = new int[PointIndex.LEAF_SIZE];
        final int[] actPos = new int[PointIndex.LEAF_SIZE];
        final double[] centre = new double[2 * PointIndex.LEAF_SIZE + 16];
        final double[] tile;
        final double[] listDist;
        final int[] listIdx;
        final int[] stackNode;
        final double[] stackLb;

        Scratch(PointIndex idx, DistanceBackend b, int k) {
            int w = idx.blockWidth();
            int blocks = (PointIndex.LEAF_SIZE + w - 1) / w;
            tile = new double[b.tileLength(PointIndex.LEAF_SIZE, blocks, idx)];
            listDist = new double[PointIndex.LEAF_SIZE * k];
            listIdx = new int[PointIndex.LEAF_SIZE * k];
            stackNode = new int[2 * idx.depth() + 4];
            stackLb = new double[2 * idx.depth() + 4];
        }
    }

    /** Computes the lists of the points of leaf {@code leaf}. */
    void unit(int worker, int leaf) {
        Scratch s = scratch[worker];
        int m = idx.leafCount(leaf);
        int start = idx.leafStart(leaf);
        for (int i = 0; i < m; i++) s.qPos[i] = start + i;
        Arrays.fill(s.listDist, 0, m * k, Double.POSITIVE_INFINITY);
        Arrays.fill(s.listIdx, 0, m * k, Integer.MAX_VALUE);
        visitLeaf(s, m, leaf, leaf);
        if (prune) {
            traverse(s, m, leaf);
        } else {
            int leaves = idx.leaves();
            for (int other = 0; other < leaves; other++) if (other != leaf) visitLeaf(s, m, leaf, other);
        }
        for (int i = 0; i < m; i++) {
            int o = idx.original(s.qPos[i]);
            System.arraycopy(s.listDist, i * k, outDist, o * k, k);
            System.arraycopy(s.listIdx, i * k, outIdx, o * k, k);
        }
    }

    private void traverse(Scratch s, int m, int ownLeaf) {
        int own = idx.leafNode(ownLeaf);
        double maxKth = maxKth(s, m);
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
                if (leaf != ownLeaf) {
                    visitLeaf(s, m, ownLeaf, leaf);
                    maxKth = maxKth(s, m);
                }
                continue;
            }
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
            if (lbFar <= maxKth) {
                s.stackNode[sp] = far;
                s.stackLb[sp] = lbFar;
                sp++;
            }
            if (lbNear <= maxKth) {
                s.stackNode[sp] = near;
                s.stackLb[sp] = lbNear;
                sp++;
            }
        }
        if (sp != 0) throw new IllegalStateException("neighbour search did not finish its traversal");
    }

    private double maxKth(Scratch s, int m) {
        double mx = 0.0;
        for (int i = 0; i < m; i++) mx = Math.max(mx, s.listDist[i * k + k - 1]);
        return mx;
    }

    /**
     * Offers the points of {@code leaf} to the lists of the queries. For a leaf other than the queries'
     * own, a query is skipped when the ball of {@code leaf} lies strictly beyond its current k-th distance.
     */
    private void visitLeaf(Scratch s, int m, int ownLeaf, int leaf) {
        int w = idx.blockWidth();
        int cs = idx.leafStart(leaf);
        int cnt = idx.leafCount(leaf);
        int bf = cs / w, bt = (cs + cnt + w - 1) / w;
        double[] ld = s.listDist;
        int[] li = s.listIdx;
        int nq = 0;
        if (prune && leaf != ownLeaf) {
            int qs = idx.leafStart(ownLeaf);
            int qbf = qs / w, qbt = (qs + m + w - 1) / w;
            int node = idx.leafNode(leaf);
            backend.centreDistances(idx, node, qbf, qbt, s.centre);
            int off = qs - qbf * w;
            for (int i = 0; i < m; i++) {
                if (idx.lowerBoundFromCentre(s.centre[off + i], node) > ld[i * k + k - 1]) continue;
                s.act[nq] = i;
                s.actPos[nq] = s.qPos[i];
                nq++;
            }
        } else {
            for (int i = 0; i < m; i++) {
                s.act[nq] = i;
                s.actPos[nq] = s.qPos[i];
                nq++;
            }
        }
        if (nq == 0) return;
        backend.squaredDistances(idx, s.actPos, nq, bf, bt, s.tile);
        int stride = (bt - bf) * w;
        int off = cs - bf * w;
        for (int r = 0; r < nq; r++) {
            int q = s.act[r];
            int row = r * stride + off;
            int base = q * k;
            int lastPos = base + k - 1;
            double kd = ld[lastPos];
            double thr = kd * kd * (1 + FILTER_SLACK);
            for (int c = 0; c < cnt; c++) {
                double sq = s.tile[row + c];
                if (sq > thr) continue;
                double dist = Math.sqrt(sq);
                int o = idx.original(cs + c);
                if (dist > kd || (dist == kd && o >= li[lastPos])) continue;
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
                kd = ld[lastPos];
                thr = kd * kd * (1 + FILTER_SLACK);
            }
        }
    }
}
