package org.sylva.balltree.engine;

import java.util.Arrays;

/**
 * The median search of a split: the position of the point of rank {@code k} by {@code (coordinate, index)}
 * among a node's points, found without sorting. Radix rounds on the order-preserving integer keys
 * narrow the candidates to one bucket at a time ({@link #radix}); with a kernel that gathers fast, a
 * sample first brackets the rank between two keys ({@link #sampled}); where many candidates share one
 * coordinate, rounds on the global index decide ({@link #narrowByIndex}). Each step is a function of the
 * node's contents only, and every loop is bounded by the key width. The candidates are left in the
 * workspace's {@code cand[s..s+c)} and the rank among them in {@code sc.rank}; {@link KeySelect} then picks
 * the pivot.
 *
 * <pre>{@code
 * int c = MedianSelection.radix(ws, x, s, e, k, lo, hi, sc);   // candidates, rank in sc.rank
 * }</pre>
 */
final class MedianSelection {
    private MedianSelection() { }

    /**
     * Selection of rank {@code k} from a sample (Floyd and Rivest's idea): the keys of {@link SplitWorkspace#SAMPLE}
     * evenly spaced points bracket rank {@code k} between two keys {@code a <= b} with high probability;
     * one vector pass counts the points below {@code a} and gathers the positions of those in
     * {@code [a, b]} (about a fifth of the node) into {@code cand}, and radix rounds continue on those
     * alone. Returns the number of candidates (rank among them in {@code sc.rank}), or -1 when the
     * bracket missed rank {@code k}, in which case the caller runs the full radix selection.
     * Which way it goes depends only on the node's contents, never on timing.
     */
    static int sampled(SplitWorkspace ws, int[] x, int s, int e, int k, int lo, int hi, SplitWorkspace.Scratch sc) {
        int m = e - s;
        int[] smp = sc.sample;
        for (int t = 0; t < SplitWorkspace.SAMPLE; t++) smp[t] = x[s + (int) ((long) (2 * t + 1) * m / (2 * SplitWorkspace.SAMPLE))];
        Arrays.sort(smp, 0, SplitWorkspace.SAMPLE);
        int at = (int) ((long) k * SplitWorkspace.SAMPLE / m);
        int a = at - SplitWorkspace.SAMPLE_MARGIN < 0 ? lo : smp[at - SplitWorkspace.SAMPLE_MARGIN];
        int b = at + SplitWorkspace.SAMPLE_MARGIN >= SplitWorkspace.SAMPLE ? hi : smp[at + SplitWorkspace.SAMPLE_MARGIN];
        long counts = ws.kernel.countAndGather(x, s, e, a, b, ws.cand);
        int below = (int) (counts >>> 32);
        int c = (int) counts;
        if (k < below || k >= below + c) return -1;
        sc.rank = k - below;
        long span = (long) b - a;
        int shift = 64 - Long.numberOfLeadingZeros(span);
        // About half as many buckets as candidates: clearing and scanning the histogram stays cheap.
        int bits = Math.max(3, Math.min(SplitWorkspace.RADIX_BITS, 30 - Integer.numberOfLeadingZeros(Math.max(1, c))));
        return narrow(ws, x, s, c, a, shift, bits, sc);
    }

    /**
     * Radix selection of rank {@code k} among the keys {@code x[s..e)} (all in {@code [lo, hi]},
     * {@code lo < hi}): bucket {@code (x - lo) >>> shift} with at most {@code 2^SplitWorkspace.RADIX_BITS} buckets, keep
     * the bucket holding rank {@code k}, and repeat on its points while they are many and the bucket
     * still spans several keys (a bounded number of rounds: each one shortens the key range). Gathers the final candidates'
     * positions into {@code cand[s..s+c)}, returns {@code c} and leaves the rank among them in
     * {@code sc.rank}. With a kernel that gathers fast, the chosen bucket's points are gathered by
     * {@link org.sylva.kernels.PartitionKernel#countAndGather} (one pass over the keys); otherwise, in nodes that fit
     * the caches, the first round's bucket numbers are computed in a separate loop (into {@code cand})
     * so that the JIT can vectorise it.
     */
    static int radix(SplitWorkspace ws, int[] x, int s, int e, int k, int lo, int hi, SplitWorkspace.Scratch sc) {
        int m = e - s;
        int[] cand = ws.cand;
        int[] h = sc.hist;
        int radixBits = Math.max(3, Math.min(SplitWorkspace.RADIX_BITS, 30 - Integer.numberOfLeadingZeros(m)));
        long span = (long) hi - lo;
        int shift = Math.max(0, 64 - Long.numberOfLeadingZeros(span) - radixBits);
        int buckets = (int) (span >>> shift) + 1;
        Arrays.fill(h, 0, buckets, 0);
        boolean inCache = m <= SplitWorkspace.STORED_BUCKETS_MAX;
        // Bucket numbers are stored (a loop the JIT vectorises) and re-read only by the scalar code in
        // nodes that fit the caches: beyond them, reading the keys twice is cheaper, and the vector
        // kernel gathers the chosen bucket's points from the keys in one pass anyway.
        boolean storeBuckets = inCache && !ws.kernel.gathersFast();
        if (storeBuckets) {
            for (int i = s; i < e; i++) cand[i] = (x[i] - lo) >>> shift;
            for (int i = s; i < e; i++) h[cand[i]]++;
        } else {
            for (int i = s; i < e; i++) h[(x[i] - lo) >>> shift]++;
        }
        int bk = 0, below = 0;
        for (; bk < buckets - 1; bk++) {
            if (below + h[bk] > k) break;
            below += h[bk];
        }
        int c = 0;
        if (storeBuckets) {
            for (int i = s; i < e; i++) {
                if (cand[i] == bk) cand[s + c++] = i;
            }
        } else if (ws.kernel.gathersFast()) {
            long first = lo + ((long) bk << shift);
            c = (int) ws.kernel.countAndGather(x, s, e, (int) first, (int) Math.min(hi, first + (1L << shift) - 1), cand);
        } else {
            for (int i = s; i < e; i++) {
                if ((x[i] - lo) >>> shift == bk) cand[s + c++] = i;
            }
        }
        sc.rank = k - below;
        return narrow(ws, x, s, c, lo + ((long) bk << shift), shift, radixBits, sc);
    }

    /**
     * Further radix rounds on the candidates {@code cand[s..s+c)}, whose keys {@code key[cand[t]]} lie
     * in {@code [base, base + 2^shift)}, while they are many and the range spans several keys; each
     * round keeps the bucket holding rank {@code sc.rank}. At most {@code ceil(32 / bits)} rounds.
     */
    private static int narrow(SplitWorkspace ws, int[] key, int s, int c, long base, int shift, int bits,
                              SplitWorkspace.Scratch sc) {
        int[] cand = ws.cand;
        int[] h = sc.hist;
        int r = sc.rank;
        for (int round = 0; round < 32 && c > SplitWorkspace.RADIX_FINISH && shift > 0; round++) {
            int prevShift = shift;
            shift = Math.max(0, shift - bits);
            int buckets = 1 << (prevShift - shift);
            Arrays.fill(h, 0, buckets, 0);
            for (int t = s; t < s + c; t++) h[(int) ((key[cand[t]] - base) >>> shift)]++;
            int bk = 0, below = 0;
            for (; bk < buckets - 1; bk++) {
                if (below + h[bk] > r) break;
                below += h[bk];
            }
            int c2 = 0;
            for (int t = s; t < s + c; t++) {
                int q = cand[t];
                cand[s + c2] = q;
                c2 += (int) ((key[q] - base) >>> shift) == bk ? 1 : 0;
            }
            c = c2;
            r -= below;
            base += (long) bk << shift;
        }
        sc.rank = r;
        return c;
    }

    /**
     * Narrows the candidates {@code cand[s..s+c)} by radix rounds on their global indices (distinct,
     * non-negative ints): used when many candidates share a coordinate, where the index decides.
     */
    static int narrowByIndex(SplitWorkspace ws, int s, int c, int r, SplitWorkspace.Scratch sc) {
        int[] cand = ws.cand;
        int mn = Integer.MAX_VALUE, mx = 0;
        for (int t = s; t < s + c; t++) {
            int v = ws.idx[cand[t]];
            mn = Math.min(mn, v);
            mx = Math.max(mx, v);
        }
        // Start one round "above" the index range so that narrow() performs the first round itself.
        int span = mx - mn;
        int shift = 32 - Integer.numberOfLeadingZeros(span);
        sc.rank = r;
        return narrow(ws, ws.idx, s, c, mn, shift, SplitWorkspace.RADIX_BITS, sc);
    }
}
