package org.sylva.balltree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Java port of {@code check_balltree.py}'s CANONICAL rule (see the oracle README): mask identical, each
 * point once per batch, padding only as the odd slot repeating the even one, validity
 * {@code max(left[dim*]) <= min(right[dim*])} at every internal node of the candidate, and agreement of
 * node contents (multisets of coordinate rows) with the reference for every node whose ancestors are all
 * unambiguous in the reference. Also the partition variant.
 */
final class CanonicalCheck {
    private final int d;
    private final double[][] cols;
    /** Class id per point: equal ids = bit-identical coordinate rows. */
    private final int[] cls;
    final List<String> failures = new ArrayList<>();
    int compared;
    int ambiguous;

    CanonicalCheck(BallTreeOracle.Input in) {
        this.d = in.d();
        int n = in.n();
        cols = new double[d][n];
        cls = new int[n];
        Map<String, Integer> ids = new HashMap<>();
        for (int i = 0; i < n; i++) {
            StringBuilder key = new StringBuilder();
            for (int j = 0; j < d; j++) {
                cols[j][i] = in.coords()[i * d + j];
                key.append(Float.floatToRawIntBits(in.coords()[i * d + j])).append(',');
            }
            cls[i] = ids.computeIfAbsent(key.toString(), k -> ids.size());
        }
    }

    private void bad(String msg) {
        if (failures.size() < 8) failures.add(msg);
    }

    static List<int[]> runs(long[] b) {
        List<int[]> out = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= b.length; i++) {
            if (i == b.length || b[i] != b[i - 1]) {
                out.add(new int[] {start, i});
                start = i;
            }
        }
        return out;
    }

    private int splitDim(List<Long> pts) {
        int best = 0;
        double bestSpread = 0.0;
        for (int j = 0; j < d; j++) {
            double mn = Double.POSITIVE_INFINITY, mx = Double.NEGATIVE_INFINITY;
            for (long p : pts) {
                double v = cols[j][(int) p];
                mn = Math.min(mn, v);
                mx = Math.max(mx, v);
            }
            double s = mx - mn;
            if (s > bestSpread) {
                best = j;
                bestSpread = s;
            }
        }
        return best;
    }

    /** {dim, maxLeft, minRight, ambiguous(0/1)}. */
    private double[] nodeInfo(List<Long> left, List<Long> right) {
        List<Long> pts = new ArrayList<>(left);
        pts.addAll(right);
        int dim = splitDim(pts);
        double[] c = cols[dim];
        double ml = Double.NEGATIVE_INFINITY, mr = Double.POSITIVE_INFINITY;
        for (long p : left) ml = Math.max(ml, c[(int) p]);
        for (long p : right) mr = Math.min(mr, c[(int) p]);
        boolean amb = false;
        if (ml == mr) {
            LinkedHashSet<Integer> tied = new LinkedHashSet<>();
            for (long p : pts) if (c[(int) p] == ml) tied.add(cls[(int) p]);
            amb = tied.size() > 1;
        }
        return new double[] {dim, ml, mr, amb ? 1 : 0};
    }

    private int[] content(List<Long> pts) {
        int[] out = new int[pts.size()];
        for (int i = 0; i < out.length; i++) out[i] = cls[(int) (long) pts.get(i)];
        Arrays.sort(out);
        return out;
    }

    /** Distinct values of {@code arr[o + a .. o + b)} in order of first appearance. */
    private static List<Long> distinct(long[] arr, int o, int a, int b) {
        LinkedHashSet<Long> s = new LinkedHashSet<>();
        for (int i = o + a; i < o + b; i++) s.add(arr[i]);
        return new ArrayList<>(s);
    }

    private static List<Long> plain(long[] arr, int a, int b) {
        List<Long> out = new ArrayList<>(b - a);
        for (int i = a; i < b; i++) out.add(arr[i]);
        return out;
    }

    private interface Lists {
        List<Long> get(int a, int b);
    }

    private interface LeafTest {
        boolean leaf(int a, int b, int level);
    }

    private void rec(Lists ref, Lists cand, LeafTest leafOf, int a, int b, int level, boolean trusted) {
        List<Long> cpts = cand.get(a, b), rpts = ref.get(a, b);
        if (trusted) {
            compared++;
            if (!Arrays.equals(content(cpts), content(rpts))) {
                bad("node slots [" + a + "," + b + ") level " + level + ": point content differs from reference");
                trusted = false;
            }
        }
        if (leafOf.leaf(a, b, level)) return;
        int mid = a + (b - a) / 2;
        List<Long> cl = cand.get(a, mid), cr = cand.get(mid, b);
        if (!cl.isEmpty() && !cr.isEmpty()) {
            double[] info = nodeInfo(cl, cr);
            if (info[1] > info[2]) {
                bad("node slots [" + a + "," + b + ") level " + level + ": not split at the median along dim "
                        + (int) info[0] + " (max left " + info[1] + " > min right " + info[2] + ")");
            }
        }
        boolean amb = false;
        List<Long> rl = ref.get(a, mid), rr = ref.get(mid, b);
        if (!rl.isEmpty() && !rr.isEmpty()) amb = nodeInfo(rl, rr)[3] != 0;
        if (amb) ambiguous++;
        rec(ref, cand, leafOf, a, mid, level + 1, trusted && !amb);
        rec(ref, cand, leafOf, mid, b, level + 1, trusted && !amb);
    }

    /** Checks a build; returns the failures (empty = PASS). */
    List<String> checkBuild(long[] batch, long[] refIdx, byte[] refMask, long[] candIdx, byte[] candMask) {
        if (candIdx.length != refIdx.length || candMask.length != refMask.length) {
            bad("length: candidate idx " + candIdx.length + " / mask " + candMask.length + " vs reference " + refIdx.length);
            return failures;
        }
        if (!Arrays.equals(candMask, refMask)) bad("mask differs from reference");
        int off = 0;
        for (int[] run : runs(batch)) {
            int s = run[0], e = run[1], m = e - s;
            int lv = 31 - Integer.numberOfLeadingZeros(Math.max(1, m - 1));
            if (m <= 2) lv = 0;
            int size = 2 << lv;
            long[] real = new long[m];
            int cnt = 0;
            boolean countOk = true;
            for (int k = 0; k < size; k++) {
                if (candMask[off + k] != 0) {
                    if (cnt < m) real[cnt] = candIdx[off + k];
                    cnt++;
                }
            }
            if (cnt != m) countOk = false;
            Arrays.sort(real);
            for (int i = 0; i < m && countOk; i++) if (real[i] != s + i) countOk = false;
            if (!countOk) bad("batch [" + s + "," + e + "): masked-true indices are not exactly its points, each once");
            for (int k = 0; k < size; k++) {
                if (candMask[off + k] == 0 && !(k % 2 == 1 && candMask[off + k - 1] != 0
                        && candIdx[off + k] == candIdx[off + k - 1])) {
                    bad("slot " + (off + k) + ": padding must be the odd slot of a leaf and repeat its even slot");
                }
            }
            if (failures.isEmpty()) {
                int o = off;
                rec((a, b) -> distinct(refIdx, o, a, b), (a, b) -> distinct(candIdx, o, a, b),
                        (a, b, level) -> b - a == 2, 0, size, 0, true);
            }
            off += size;
        }
        return failures;
    }

    /** Checks one partition output; returns the failures (empty = PASS). */
    List<String> checkPartition(long[] batch, int level, long[] ref, long[] cand) {
        if (cand.length != ref.length) {
            bad("length " + cand.length + " vs " + ref.length);
            return failures;
        }
        for (int[] run : runs(batch)) {
            int s = run[0], e = run[1];
            long[] seg = Arrays.copyOfRange(cand, s, e);
            Arrays.sort(seg);
            boolean ok = true;
            for (int i = 0; i < seg.length; i++) if (seg[i] != s + i) ok = false;
            if (!ok) {
                bad("batch [" + s + "," + e + "): not a permutation of its rows");
                continue;
            }
            rec((a, b) -> plain(ref, a, b), (a, b) -> plain(cand, a, b),
                    (a, b, lv) -> lv == level || b - a <= 1, s, e, 0, true);
        }
        return failures;
    }
}
