package org.sylva.balltree;

import java.util.Arrays;

/**
 * The working copy of the points while a tree is built, and the one operation on it: splitting a node.
 *
 * <p>Coordinates are copied column by column ({@code cols[j][p]}: coordinate {@code j} of the point at
 * working position {@code p}) next to {@code idx[p]}, the point's global row. A node is a contiguous
 * range {@code [s, e)} of working positions; {@link #split} rearranges it in place so that
 * {@code [s, s + floor(m/2))} holds the left child. Memory: the copy ({@code 4 n d} bytes), {@code idx}
 * and {@code cand} ({@code 4 n} bytes each), so {@code (d + 2) / d} times the input, plus small
 * per-thread buffers.
 *
 * <p>The split of one node is a pure function of the node's contents, touches only {@code [s, e)} of
 * every array (candidates included), and allocates nothing; so nodes can be split concurrently and the
 * result never depends on the thread count.
 *
 * <pre>{@code
 * SplitWorkspace w = SplitWorkspace.copyOf(points);
 * w.split(0, points.size(), SplitWorkspace.scratch());
 * }</pre>
 */
final class SplitWorkspace {
    /** Nodes up to this size select among all their points directly, without a histogram. */
    static final int SMALL = 24;
    /** Most histogram buckets per node. */
    static final int MAX_BUCKETS = 4096;
    /** Positions gathered per block of the branch-free partition. */
    static final int BLOCK = 128;

    final int n;
    final int d;
    final float[][] cols;
    final int[] idx;
    /** Candidate positions of the selection; a node uses only its own range [s, e). */
    final int[] cand;

    /** Per-thread buffers, reused across nodes and builds (no allocation per node or level). */
    static final class Scratch {
        final int[] hist = new int[MAX_BUCKETS];
        final int[] offL = new int[BLOCK];
        final int[] offR = new int[BLOCK];
        int[] bounds = new int[0];

        int[] bounds(int size) {
            if (bounds.length < size) bounds = new int[Math.max(size, 2 * bounds.length)];
            return bounds;
        }
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    static Scratch scratch() {
        return SCRATCH.get();
    }

    SplitWorkspace(int n, int d) {
        this.n = n;
        this.d = d;
        this.cols = new float[d][n];
        this.idx = new int[n];
        this.cand = new int[n];
    }

    /**
     * Copies rows {@code [from, to)} of the row-major {@code coords} into the columns and sets
     * {@code idx[p] = p}. Returns a value whose sign bit is set iff some copied coordinate is NaN or
     * infinite (an exponent of all ones), so the caller can check finiteness without a second pass.
     */
    int copyRows(float[] coords, int from, int to) {
        int bad = 0;
        if (d == 3) {
            float[] c0 = cols[0], c1 = cols[1], c2 = cols[2];
            for (int i = from; i < to; i++) {
                float a = coords[3 * i], b = coords[3 * i + 1], c = coords[3 * i + 2];
                c0[i] = a;
                c1[i] = b;
                c2[i] = c;
                bad |= nonFinite(a) | nonFinite(b) | nonFinite(c);
            }
        } else {
            for (int j = 0; j < d; j++) {
                float[] cj = cols[j];
                for (int i = from; i < to; i++) {
                    float v = coords[i * d + j];
                    cj[i] = v;
                    bad |= nonFinite(v);
                }
            }
        }
        for (int i = from; i < to; i++) idx[i] = i;
        return bad;
    }

    /** Sign bit set iff {@code v}'s exponent is all ones (NaN or infinity). */
    private static int nonFinite(float v) {
        return (Float.floatToRawIntBits(v) & 0x7f800000) + 0x00800000;
    }

    /**
     * Splits node {@code [s, e)} ({@code e - s >= 2}): afterwards {@code [s, s + floor(m/2))} holds the
     * {@code floor(m/2)} points that come first by {@code (coordinate, index)} along the first dimension
     * with the strictly largest float64 spread, and {@code [s + floor(m/2), e)} the rest.
     */
    void split(int s, int e, Scratch sc) {
        int m = e - s;
        if (m == 2) {
            split2(s);
            return;
        }
        int k = m >>> 1;
        // 1. the split dimension: first strictly largest max - min, in float64 (exact for float32 inputs)
        int dim = 0;
        double best = -1.0;
        float lo = 0f, hi = 0f;
        for (int j = 0; j < d; j++) {
            float[] c = cols[j];
            float mn = c[s], mx = mn;
            for (int i = s + 1; i < e; i++) {
                float v = c[i];
                mn = Math.min(mn, v);
                mx = Math.max(mx, v);
            }
            double spread = (double) mx - (double) mn;
            if (spread > best) {
                best = spread;
                dim = j;
                lo = mn;
                hi = mx;
            }
        }
        float[] x = cols[dim];
        // 2. the pivot: the point of rank k by (x, idx). A histogram over [lo, hi] narrows it to one
        //    bucket (monotone bucketing keeps every lower bucket entirely below it), then an exact
        //    selection runs among that bucket's points only.
        int[] cand = this.cand;
        int c, r;
        if (m <= SMALL || lo == hi) {
            for (int i = s; i < e; i++) cand[i] = i;
            c = m;
            r = k;
        } else {
            int buckets = bucketCount(m);
            float scale = bucketScale(lo, hi, buckets);
            int last = buckets - 1;
            int[] h = sc.hist;
            Arrays.fill(h, 0, buckets, 0);
            for (int i = s; i < e; i++) {
                h[Math.min((int) ((x[i] - lo) * scale), last)]++;
            }
            int below = 0, bk = 0;
            for (; bk < last; bk++) {
                int cnt = h[bk];
                if (below + cnt > k) break;
                below += cnt;
            }
            r = k - below;
            c = 0;
            for (int i = s; i < e; i++) {
                int b = Math.min((int) ((x[i] - lo) * scale), last);
                cand[s + c] = i;
                c += b == bk ? 1 : 0;
            }
        }
        int p = KeySelect.select(cand, s, s + c, r, x, idx);
        float pc = x[p];
        int pi = idx[p];
        // Points sharing the pivot's coordinate all sit among the candidates.
        int same = 0;
        for (int t = s; t < s + c; t++) same += x[cand[t]] == pc ? 1 : 0;
        // 3. move the points below the pivot to [s, s + k)
        partition(s, s + k, e, x, pc, pi, same > 1, sc);
    }

    /** Bucket count for a node of {@code m} points: about four points per bucket, at most MAX_BUCKETS. */
    static int bucketCount(int m) {
        return Math.min(MAX_BUCKETS, Math.max(8, m >>> 2));
    }

    /**
     * {@code buckets / (hi - lo)} as a float, finite and positive: {@code (int) ((v - lo) * scale)} is then
     * non-decreasing in {@code v}, whatever the rounding (0 * inf = NaN casts to 0, the bottom bucket).
     */
    static float bucketScale(float lo, float hi, int buckets) {
        double s = buckets / ((double) hi - (double) lo);
        return (float) Math.min(s, Float.MAX_VALUE);
    }

    private void split2(int s) {
        int dim = 0;
        double best = -1.0;
        for (int j = 0; j < d; j++) {
            float[] c = cols[j];
            double spread = Math.abs((double) c[s] - (double) c[s + 1]);
            if (spread > best) {
                best = spread;
                dim = j;
            }
        }
        if (KeySelect.less(cols[dim], idx, s + 1, s)) swapRecords(s, s + 1);
    }

    private void swapRecords(int a, int b) {
        for (int j = 0; j < d; j++) {
            float[] c = cols[j];
            float t = c[a];
            c[a] = c[b];
            c[b] = t;
        }
        int t = idx[a];
        idx[a] = idx[b];
        idx[b] = t;
    }

    /**
     * Block partition with a known boundary: exactly {@code mid - s} points of {@code [s, e)} are below
     * the pivot {@code (pc, pi)}. Positions of misplaced points are collected branch-free, a block at a
     * time from each side, and swapped in pairs; the two sides hold equally many misplaced points.
     */
    private void partition(int s, int mid, int e, float[] x, float pc, int pi, boolean ties, Scratch sc) {
        int[] offL = sc.offL, offR = sc.offR;
        int[] id = idx;
        int i = s, j = mid;
        int nL = 0, pL = 0, nR = 0, pR = 0;
        int rounds = 2 * ((e - s) / BLOCK + 2);
        for (int round = 0; ; round++) {
            if (round > rounds) throw new IllegalStateException("partition did not converge");
            if (pL == nL) {
                if (i >= mid) break;
                int len = Math.min(BLOCK, mid - i);
                nL = 0;
                pL = 0;
                if (ties) {
                    for (int t = 0; t < len; t++) {
                        int q = i + t;
                        float v = x[q];
                        offL[nL] = q;
                        nL += (v > pc) | (v == pc & id[q] >= pi) ? 1 : 0;
                    }
                } else {
                    for (int t = 0; t < len; t++) {
                        offL[nL] = i + t;
                        nL += x[i + t] >= pc ? 1 : 0;
                    }
                }
                i += len;
            }
            if (pR == nR) {
                if (j >= e) {
                    if (pL == nL) continue;
                    throw new IllegalStateException("partition: unmatched misplaced points");
                }
                int len = Math.min(BLOCK, e - j);
                nR = 0;
                pR = 0;
                if (ties) {
                    for (int t = 0; t < len; t++) {
                        int q = j + t;
                        float v = x[q];
                        offR[nR] = q;
                        nR += (v < pc) | (v == pc & id[q] < pi) ? 1 : 0;
                    }
                } else {
                    for (int t = 0; t < len; t++) {
                        offR[nR] = j + t;
                        nR += x[j + t] < pc ? 1 : 0;
                    }
                }
                j += len;
            }
            int cnt = Math.min(nL - pL, nR - pR);
            if (cnt > 0) {
                swapPairs(offL, pL, offR, pR, cnt);
                pL += cnt;
                pR += cnt;
            }
        }
    }

    private void swapPairs(int[] offL, int pL, int[] offR, int pR, int cnt) {
        for (int j = 0; j < d; j++) {
            float[] c = cols[j];
            for (int t = 0; t < cnt; t++) {
                int a = offL[pL + t], b = offR[pR + t];
                float v = c[a];
                c[a] = c[b];
                c[b] = v;
            }
        }
        int[] id = idx;
        for (int t = 0; t < cnt; t++) {
            int a = offL[pL + t], b = offR[pR + t];
            int v = id[a];
            id[a] = id[b];
            id[b] = v;
        }
    }
}
