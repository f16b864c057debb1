package org.sylva.hdbscan.index;

import java.util.Arrays;

/**
 * The sequential index build as it was before the build ran on several threads (commit 1f7ad91's
 * {@code PointIndexBuilder}, verbatim but for its name and its result): the reference the threaded build
 * must reproduce bit for bit. Test code only.
 */
final class ReferenceIndexBuild {
    final int n, d, w;
    final double[] rows;
    double[] data;
    float[] data32;
    int[] posToOrig;
    int[] origToPos;
    int pos;

    int nodeCount;
    int[] left, right, nodePosStart, nodePosEnd, nodeRealCount, nodeLeaf;
    double[] centre, radius;
    int leafCount;
    int[] leafNode, leafStart, leafSize;
    int farthest;
    int maxDepth;

    final int[] idx;
    final int[] tmp;
    final double[] proj;
    final double[] sortBuf;
    final double[] dir;
    final double[] aRow;
    /** The rows in current segment order (and a buffer for partitions), so every pass streams. */
    final double[] work;
    final double[] workTmp;

    ReferenceIndexBuild(double[] rows, int n, int d, int w) {
        this.rows = rows;
        this.n = n;
        this.d = d;
        this.w = w;
        int maxNodes = Math.max(1, 4 * (n / (PointIndex.LEAF_SIZE / 2) + 1));
        left = new int[maxNodes];
        right = new int[maxNodes];
        nodePosStart = new int[maxNodes];
        nodePosEnd = new int[maxNodes];
        nodeRealCount = new int[maxNodes];
        nodeLeaf = new int[maxNodes];
        centre = new double[maxNodes * d];
        radius = new double[maxNodes];
        leafNode = new int[maxNodes];
        leafStart = new int[maxNodes];
        leafSize = new int[maxNodes];
        idx = new int[n];
        for (int i = 0; i < n; i++) idx[i] = i;
        tmp = new int[n];
        proj = new double[n];
        sortBuf = new double[n];
        dir = new double[d];
        aRow = new double[d];
        work = rows.clone();
        workTmp = new double[rows.length];
    }

    /** Builds the index (call once); the arrays are the fields, untrimmed. */
    ReferenceIndexBuild build() {
        // Upper bound on positions: every leaf pads at most W - 1 slots.
        int maxLeaves = n == 0 ? 0 : (n + PointIndex.LEAF_SIZE / 2 - 1) / (PointIndex.LEAF_SIZE / 2) * 2 + 2;
        long cap = (long) n + (long) maxLeaves * (w - 1) + w;
        posToOrig = new int[(int) cap];
        Arrays.fill(posToOrig, -1);
        origToPos = new int[n];
        if (n > 0) {
            // Explicit stack of (from, to, parent, side, depth); pre-order with left first so that the
            // leaves of every subtree get consecutive positions.
            int stackCap = 4 * 64 + 16;
            int[] sFrom = new int[stackCap], sTo = new int[stackCap], sParent = new int[stackCap];
            int[] sSide = new int[stackCap], sDepth = new int[stackCap];
            int sp = 0;
            sFrom[sp] = 0; sTo[sp] = n; sParent[sp] = -1; sSide[sp] = 0; sDepth[sp] = 0; sp++;
            int maxIter = 4 * n + 4;
            for (int it = 0; it < maxIter && sp > 0; it++) {
                sp--;
                int from = sFrom[sp], to = sTo[sp], parent = sParent[sp], side = sSide[sp], dep = sDepth[sp];
                int node = nodeCount++;
                maxDepth = Math.max(maxDepth, dep);
                if (parent >= 0) {
                    if (side == 0) left[parent] = node; else right[parent] = node;
                }
                left[node] = -1;
                right[node] = -1;
                nodeLeaf[node] = -1;
                nodeRealCount[node] = to - from;
                centreAndRadius(node, from, to);
                if (to - from <= PointIndex.LEAF_SIZE) {
                    makeLeaf(node, from, to);
                } else {
                    int mid = split(from, to);
                    if (sp + 2 > stackCap) throw new IllegalStateException("partition deeper than expected");
                    sFrom[sp] = mid; sTo[sp] = to; sParent[sp] = node; sSide[sp] = 1; sDepth[sp] = dep + 1; sp++;
                    sFrom[sp] = from; sTo[sp] = mid; sParent[sp] = node; sSide[sp] = 0; sDepth[sp] = dep + 1; sp++;
                }
            }
            if (sp != 0) throw new IllegalStateException("partition did not finish");
            // Position ranges of internal nodes, bottom-up (children have larger ids than parents).
            for (int node = nodeCount - 1; node >= 0; node--) {
                if (left[node] >= 0) {
                    nodePosStart[node] = nodePosStart[left[node]];
                    nodePosEnd[node] = nodePosEnd[right[node]];
                }
            }
        }
        int blocksTotal = Math.max(pos / w, 0);
        data = new double[blocksTotal * d * w];
        // The working copy is in final segment (leaf) order: copy it out sequentially.
        for (int i = 0; i < n; i++) {
            int p = origToPos[idx[i]];
            int base = (p / w) * d * w + p % w;
            int src = i * d;
            for (int j = 0; j < d; j++) data[base + j * w] = work[src + j];
        }
        if (float32Exact()) {
            // (since the float32 copy holds the coordinates in Float32Copy.order: the same
            // values, each block's coordinate rows in that order)
            int[] order = Float32Copy.order(rows, n, d);
            data32 = new float[data.length];
            for (int b = 0; b < data.length / (d * w); b++) {
                for (int j = 0; j < d; j++) {
                    for (int l = 0; l < w; l++) data32[b * d * w + j * w + l] = (float) data[b * d * w + order[j] * w + l];
                }
            }
        }
        posToOrig = Arrays.copyOf(posToOrig, pos);
        return this;
    }

    private boolean float32Exact() {
        for (double v : rows) {
            if ((double) (float) v != v || Math.abs(v) > PointIndex.FLOAT32_LIMIT) return false;
        }
        return true;
    }

    private void makeLeaf(int node, int from, int to) {
        int leaf = leafCount++;
        nodeLeaf[node] = leaf;
        leafNode[leaf] = node;
        leafStart[leaf] = pos;
        leafSize[leaf] = to - from;
        for (int i = from; i < to; i++) {
            posToOrig[pos] = idx[i];
            origToPos[idx[i]] = pos;
            pos++;
        }
        pos = (pos + w - 1) / w * w;
        nodePosStart[node] = leafStart[leaf];
        nodePosEnd[node] = pos;
    }

    /**
     * Centre = mean of the points; radius = largest distance from the centre to one of them (the
     * farthest point is remembered for the split). Reads the segment-ordered copy, so it streams.
     */
    private void centreAndRadius(int node, int from, int to) {
        int oc = node * d;
        for (int j = 0; j < d; j++) centre[oc + j] = 0.0;
        for (int i = from; i < to; i++) {
            int o = i * d;
            for (int j = 0; j < d; j++) centre[oc + j] += work[o + j];
        }
        double inv = 1.0 / (to - from);
        for (int j = 0; j < d; j++) centre[oc + j] *= inv;
        double r2 = -1.0;
        for (int i = from; i < to; i++) {
            double s = sqRows(work, i * d, centre, oc, d);
            if (s > r2) {
                r2 = s;
                farthest = i;
            }
        }
        // Any summation order is within 1e-15 of the exact radius; the bounds' margin covers it.
        radius[node] = Math.sqrt(r2);
    }

    /**
     * Squared distance between {@code d} coordinates of {@code x} from {@code ox} and of {@code y} from
     * {@code oy}, in four partial sums: splits, radii and centre distances need no particular order.
     */
    static double sqRows(double[] x, int ox, double[] y, int oy, int d) {
        double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
        int j = 0;
        for (; j + 3 < d; j += 4) {
            double t0 = x[ox + j] - y[oy + j];
            double t1 = x[ox + j + 1] - y[oy + j + 1];
            double t2 = x[ox + j + 2] - y[oy + j + 2];
            double t3 = x[ox + j + 3] - y[oy + j + 3];
            s0 += t0 * t0;
            s1 += t1 * t1;
            s2 += t2 * t2;
            s3 += t3 * t3;
        }
        for (; j < d; j++) {
            double t = x[ox + j] - y[oy + j];
            s0 += t * t;
        }
        return (s0 + s1) + (s2 + s3);
    }

    /**
     * Reorders segment {@code [from, to)} (indices and rows) so that the points left of the split lie
     * on one side of the projection on the line through two far-apart points; returns the split point.
     */
    private int split(int from, int to) {
        int m = to - from;
        // Split near the middle at a multiple of W so that leaves fill whole blocks (only the nodes on
        // the right edge can be ragged); the depth stays logarithmic even with duplicate points.
        int c = PointIndexBuilder.CUT_WIDTH;
        int left = (m / 2 + c / 2) / c * c;
        if (left < 1 || left >= m) left = m / 2;
        int mid = from + left;
        // a = the point farthest from the centre (found with the radius), b = the point farthest from a.
        int a = farthest;
        System.arraycopy(work, a * d, aRow, 0, d);
        int b = a;
        double best = -1;
        for (int i = from; i < to; i++) {
            double s = sqRows(work, i * d, aRow, 0, d);
            if (s > best) {
                best = s;
                b = i;
            }
        }
        int ob = b * d;
        for (int j = 0; j < d; j++) dir[j] = work[ob + j] - aRow[j];
        for (int i = from; i < to; i++) {
            int o = i * d;
            double s0 = 0.0, s1 = 0.0;
            int j = 0;
            for (; j + 1 < d; j += 2) {
                s0 += (work[o + j] - aRow[j]) * dir[j];
                s1 += (work[o + j + 1] - aRow[j + 1]) * dir[j + 1];
            }
            if (j < d) s0 += (work[o + j] - aRow[j]) * dir[j];
            proj[i] = s0 + s1;
        }
        System.arraycopy(proj, from, sortBuf, from, m);
        Arrays.sort(sortBuf, from, to);
        double cut = sortBuf[mid - 1];
        // Stable partition: strictly below the cut first, then equal ones in segment order until
        // the left part is full, the rest to the right; rows move with their indices.
        int below = 0;
        for (int i = from; i < to; i++) if (proj[i] < cut) below++;
        int equalLeft = (mid - from) - below;
        int l = from, r = mid;
        for (int i = from; i < to; i++) {
            double p = proj[i];
            int dst;
            if (p < cut) {
                dst = l++;
            } else if (p == cut && equalLeft > 0) {
                dst = l++;
                equalLeft--;
            } else {
                dst = r++;
            }
            tmp[dst] = idx[i];
            System.arraycopy(work, i * d, workTmp, dst * d, d);
        }
        System.arraycopy(tmp, from, idx, from, m);
        System.arraycopy(workTmp, from * d, work, from * d, m * d);
        return mid;
    }
}
