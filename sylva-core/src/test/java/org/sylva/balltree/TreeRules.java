package org.sylva.balltree;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Checks the rules on a built tree directly, without any model: every point exactly once per
 * batch, padding only in odd slots repeating the even one, at every internal node the left half holding
 * exactly {@code floor(m/2)} points that all come before every right point by {@code (coordinate on the
 * widest float64 dimension, index)} (so {@code max(left[dim]) <= min(right[dim])}, and on equal
 * coordinates the smaller indices are left), and two-point leaves in index order.
 */
public final class TreeRules {
    private TreeRules() { }

    /** Failures (empty = all rules hold). */
    public static List<String> check(float[] x, int d, int[] offsets, int[] idx, byte[] mask) {
        List<String> fails = new ArrayList<>();
        int slot = 0;
        for (int b = 0; b + 1 < offsets.length; b++) {
            int s = offsets[b], m = offsets[b + 1] - s;
            int lv = NaiveModel.levelsFor(m);
            int size = 2 << lv;
            if (slot + size > idx.length) {
                fails.add("batch " + b + ": tree arrays too short");
                return fails;
            }
            int[] seen = new int[m];
            for (int k = 0; k < size; k++) {
                int o = slot + k;
                if (mask[o] == 1) {
                    int p = idx[o] - s;
                    if (p < 0 || p >= m) {
                        fails.add("slot " + o + " holds row " + idx[o] + " outside batch " + b);
                        return fails;
                    }
                    seen[p]++;
                } else if (mask[o] == 0) {
                    if (k % 2 == 0 || mask[o - 1] != 1 || idx[o] != idx[o - 1]) {
                        fails.add("slot " + o + ": padding must be an odd slot repeating its even slot");
                    }
                } else {
                    fails.add("slot " + o + ": mask value " + mask[o]);
                }
            }
            for (int p = 0; p < m; p++) {
                if (seen[p] != 1) fails.add("batch " + b + ": row " + (s + p) + " appears " + seen[p] + " times");
            }
            if (!fails.isEmpty()) return fails;
            node(x, d, idx, mask, slot, size, 0, lv, fails);
            slot += size;
        }
        if (slot != idx.length) fails.add("tree has " + idx.length + " slots, batches need " + slot);
        return fails;
    }

    private static int[] real(int[] idx, byte[] mask, int from, int to) {
        int c = 0;
        for (int i = from; i < to; i++) c += mask[i];
        int[] out = new int[c];
        c = 0;
        for (int i = from; i < to; i++) if (mask[i] == 1) out[c++] = idx[i];
        return out;
    }

    private static void node(float[] x, int d, int[] idx, byte[] mask, int from, int size, int level, int lv,
                             List<String> fails) {
        if (fails.size() > 5) return;
        if (level == lv) {
            if (mask[from + 1] == 1 && idx[from] > idx[from + 1]) {
                fails.add("leaf at slot " + from + ": rows " + idx[from] + ", " + idx[from + 1] + " not in index order");
            }
            return;
        }
        int half = size / 2;
        int[] left = real(idx, mask, from, from + half), right = real(idx, mask, from + half, from + size);
        int m = left.length + right.length;
        if (left.length != m / 2) {
            fails.add("node at slot " + from + " level " + level + ": left has " + left.length + " of " + m + " points");
            return;
        }
        int[] all = Arrays.copyOf(left, m);
        System.arraycopy(right, 0, all, left.length, right.length);
        int dim = 0;
        double best = 0.0;
        for (int j = 0; j < d; j++) {
            double mn = Double.POSITIVE_INFINITY, mx = Double.NEGATIVE_INFINITY;
            for (int p : all) {
                mn = Math.min(mn, x[p * d + j]);
                mx = Math.max(mx, x[p * d + j]);
            }
            if (mx - mn > best) {
                best = mx - mn;
                dim = j;
            }
        }
        // The largest left key and the smallest right key, by (coordinate, index).
        int maxL = left[0], minR = right[0];
        for (int p : left) if (before(x, d, dim, maxL, p)) maxL = p;
        for (int p : right) if (before(x, d, dim, p, minR)) minR = p;
        if (!before(x, d, dim, maxL, minR)) {
            fails.add("node at slot " + from + " level " + level + " dim " + dim + ": left row " + maxL + " ("
                    + x[maxL * d + dim] + ") does not come before right row " + minR + " (" + x[minR * d + dim] + ")");
        }
        node(x, d, idx, mask, from, half, level + 1, lv, fails);
        node(x, d, idx, mask, from + half, half, level + 1, lv, fails);
    }

    /** Row p comes before row q by (coordinate on dim, compared numerically, then index). */
    static boolean before(float[] x, int d, int dim, int p, int q) {
        float a = x[p * d + dim], b = x[q * d + dim];
        return a < b || (a == b && p < q);
    }
}
