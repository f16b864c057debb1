package org.sylva.balltree;

import java.util.Arrays;

/**
 * A deliberately simple model of Sylva's tree and partition for tests: recursion with a full sort of
 * every node by {@code (coordinate, index)} (boxed comparator, numeric float comparison). Slow, obviously
 * right, and independent of the production code (shares nothing but the spec).
 */
public final class NaiveModel {
    private NaiveModel() { }

    public record Tree(int[] idx, byte[] mask) { }

    static int levelsFor(int m) {
        if (m <= 2) return 0;
        return 32 - Integer.numberOfLeadingZeros(m - 1) - 1;
    }

    public static Tree tree(float[] x, int d, int[] offsets) {
        int total = 0;
        for (int b = 0; b + 1 < offsets.length; b++) total += 2 << levelsFor(offsets[b + 1] - offsets[b]);
        int[] idx = new int[total];
        byte[] mask = new byte[total];
        int slot = 0;
        for (int b = 0; b + 1 < offsets.length; b++) {
            int m = offsets[b + 1] - offsets[b];
            Integer[] pts = new Integer[m];
            for (int i = 0; i < m; i++) pts[i] = offsets[b] + i;
            int lv = levelsFor(m);
            build(x, d, pts, 0, lv, idx, mask, slot);
            slot += 2 << lv;
        }
        return new Tree(idx, mask);
    }

    private static void build(float[] x, int d, Integer[] pts, int level, int lv, int[] idx, byte[] mask, int slot) {
        if (level == lv) {
            Integer[] s = pts.clone();
            Arrays.sort(s);
            idx[slot] = s[0];
            mask[slot] = 1;
            idx[slot + 1] = s.length == 2 ? s[1] : s[0];
            mask[slot + 1] = (byte) (s.length == 2 ? 1 : 0);
            return;
        }
        Integer[][] halves = split(x, d, pts);
        build(x, d, halves[0], level + 1, lv, idx, mask, slot);
        build(x, d, halves[1], level + 1, lv, idx, mask, slot + (1 << (lv - level)));
    }

    static int splitDim(float[] x, int d, Integer[] pts) {
        int dim = 0;
        double best = 0.0;
        for (int j = 0; j < d; j++) {
            double mn = Double.POSITIVE_INFINITY, mx = Double.NEGATIVE_INFINITY;
            for (int p : pts) {
                mn = Math.min(mn, x[p * d + j]);
                mx = Math.max(mx, x[p * d + j]);
            }
            if (mx - mn > best) {
                best = mx - mn;
                dim = j;
            }
        }
        return dim;
    }

    static Integer[][] split(float[] x, int d, Integer[] pts) {
        int dim = splitDim(x, d, pts);
        Integer[] s = pts.clone();
        Arrays.sort(s, (a, b) -> {
            float xa = x[a * d + dim], xb = x[b * d + dim];
            if (xa < xb) return -1;
            if (xa > xb) return 1;
            return Integer.compare(a, b);
        });
        int k = s.length / 2;
        return new Integer[][] {Arrays.copyOfRange(s, 0, k), Arrays.copyOfRange(s, k, s.length)};
    }

    static int[] partition(float[] x, int d, int[] offsets, int target) {
        int n = offsets[offsets.length - 1];
        int[] out = new int[n];
        for (int b = 0; b + 1 < offsets.length; b++) {
            int m = offsets[b + 1] - offsets[b];
            Integer[] pts = new Integer[m];
            for (int i = 0; i < m; i++) pts[i] = offsets[b] + i;
            part(x, d, pts, 0, target, out, offsets[b]);
        }
        return out;
    }

    private static void part(float[] x, int d, Integer[] pts, int level, int target, int[] out, int pos) {
        if (level == target || pts.length <= 1) {
            Integer[] s = pts.clone();
            Arrays.sort(s);
            for (int i = 0; i < s.length; i++) out[pos + i] = s[i];
            return;
        }
        Integer[][] h = split(x, d, pts);
        part(x, d, h[0], level + 1, target, out, pos);
        part(x, d, h[1], level + 1, target, out, pos + h[0].length);
    }
}
