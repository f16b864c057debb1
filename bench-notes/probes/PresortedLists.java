package org.sylva.balltree;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.sylva.data.PointSet;

/**
 * A design that was prototyped and not kept: every subtree built from per-dimension lists of its points
 * sorted by {@code (coordinate, row)}, so that no level needs a selection. A node's spread along each
 * dimension is then read from the ends of its lists, its left child is the first half of the list of
 * its split dimension, and the other lists are partitioned stably by a side flag per point. Checks that
 * the prototype builds the engine's tree, then times both (one thread, alternating in one JVM) and
 * prints medians, their ratio (engine / prototype), and the prototype's time by phase and by level.
 * Arguments: number of points, and 0 for uniform points or 1 for points on a grid of 40 values per axis.
 *
 * <p>A probe, not part of the build: it sits in the core's package to reach package-private classes.
 * <pre>
 * javac --add-modules jdk.incubator.vector -cp sylva-core/target/classes -d /tmp/probes bench-notes/probes/PresortedLists.java
 * java --add-modules jdk.incubator.vector -cp sylva-core/target/classes:/tmp/probes org.sylva.balltree.PresortedLists 16384 0
 * </pre>
 */
public class PresortedLists {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int kind = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        int d = 3;
        float[] rows = new float[n * d];
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < rows.length; i++) rows[i] = kind == 0 ? (float) r.nextDouble() : (float) r.nextInt(40);
        PointSet ps = PointSet.of(n, d, rows);
        BallTreeBuilder bb = new BallTreeBuilder().threads(1);
        BallTree ref = bb.build(ps);
        int depth = TreeEngine.ceilLog2(n) - 1;
        int slots = 2 << depth;
        SplitWorkspace ws = new SplitWorkspace(n, d);
        PresortedSubtree ps2 = new PresortedSubtree(n, d);
        int[] ti = new int[slots];
        byte[] mk = new byte[slots];
        ws.copyRows(rows, 0, n);
        ps2.build(ws, 0, n, depth, 0, ti, mk);
        System.out.println("same idx: " + Arrays.equals(ti, ref.indices()) + " same mask: " + Arrays.equals(mk, ref.maskBytes()));
        int reps = 400;
        long[] a = new long[reps], b = new long[reps];
        for (int round = 0; round < 2; round++) {
            ps2.tSort = ps2.tLevels = ps2.tLeaves = 0; java.util.Arrays.fill(ps2.perLevel, 0);
            for (int it = 0; it < reps; it++) {
                long t0 = System.nanoTime();
                bb.build(ps);
                long t1 = System.nanoTime();
                ti = new int[slots];
                mk = new byte[slots];
                ws.copyRows(rows, 0, n);
                ps2.build(ws, 0, n, depth, 0, ti, mk);
                long t2 = System.nanoTime();
                a[it] = t1 - t0;
                b[it] = t2 - t1;
            }
            long[] sa = a.clone(), sb = b.clone();
            Arrays.sort(sa);
            Arrays.sort(sb);
            double[] ratio = new double[reps];
            for (int i = 0; i < reps; i++) ratio[i] = (double) a[i] / b[i];
            Arrays.sort(ratio);
            System.out.printf("engine %.1f us, presort %.1f us, ratio %.3f | sort %.1f levels %.1f leaves %.1f us%n",
                    sa[reps / 2] / 1e3, sb[reps / 2] / 1e3, ratio[reps / 2],
                    ps2.tSort / 1e3 / reps, ps2.tLevels / 1e3 / reps, ps2.tLeaves / 1e3 / reps);
            StringBuilder sbl = new StringBuilder("per level us:");
            for (int l = 0; l <= depth; l++) sbl.append(String.format(" %.0f", ps2.perLevel[l] / 1e3 / reps));
            System.out.println(sbl);
        }
    }
}

/** The prototype: a subtree built from per-dimension sorted lists of local ids (no selection per level). */
final class PresortedSubtree {
    int cap;
    int d;
    int[][] lists, next;
    long[] ka, kb;
    byte[] side;
    int[] rtmp;
    int[] bnd = new int[2];
    final int[] hist = new int[3 << 12];
    long tSort, tLevels, tLeaves;
    final long[] perLevel = new long[32];

    PresortedSubtree(int cap, int d) {
        this.cap = cap;
        this.d = d;
        lists = new int[d][cap];
        next = new int[d][cap];
        ka = new long[cap];
        kb = new long[cap];
        side = new byte[cap];
        rtmp = new int[cap];
    }

    void build(SplitWorkspace ws, int s, int m, int depth, int slot, int[] treeIdx, byte[] mask) {
        long t0 = System.nanoTime();
        for (int j = 0; j < d; j++) sortDim(ws.cols[j], ws.idx, s, m, lists[j]);
        long t1 = System.nanoTime();
        int levels = Math.min(depth, TreeEngine.ceilLog2(m));
        if (bnd.length < (1 << levels) + 1) bnd = new int[(1 << levels) + 1];
        bnd[0] = 0;
        bnd[1] = m;
        int count = 1;
        for (int level = 0; level < levels; level++) {
            long tl = System.nanoTime();
            for (int t = 0; t < count; t++) {
                int a = bnd[t], b = bnd[t + 1];
                if (b - a >= 2) {
                    split(ws, s, a, b);
                } else {
                    for (int j = 0; j < d; j++) System.arraycopy(lists[j], a, next[j], a, b - a);
                }
            }
            int[][] tmp = lists;
            lists = next;
            next = tmp;
            bnd[2 * count] = bnd[count];
            for (int t = count - 1; t >= 0; t--) {
                int a = bnd[t], b = bnd[t + 1];
                bnd[2 * t + 1] = a + ((b - a) >>> 1);
                bnd[2 * t] = a;
            }
            count *= 2;
            perLevel[level] += System.nanoTime() - tl;
        }
        long t2 = System.nanoTime();
        int[] l0 = lists[0];
        int[] idx = ws.idx;
        for (int t = 0; t < count; t++) {
            int a = bnd[t], size = bnd[t + 1] - a;
            int o = slot + 2 * t;
            int p = idx[s + l0[a]];
            if (size == 2) {
                int q = idx[s + l0[a + 1]];
                treeIdx[o] = Math.min(p, q);
                treeIdx[o + 1] = Math.max(p, q);
                mask[o] = 1;
                mask[o + 1] = 1;
            } else {
                treeIdx[o] = p;
                treeIdx[o + 1] = p;
                mask[o] = 1;
            }
        }
        long t3 = System.nanoTime();
        tSort += t1 - t0;
        tLevels += t2 - t1;
        tLeaves += t3 - t2;
    }

    private void split(SplitWorkspace ws, int s, int a, int b) {
        int dim = 0;
        double best = -1.0;
        for (int j = 0; j < d; j++) {
            int[] c = ws.cols[j];
            int[] l = lists[j];
            double spread = OrderedBits.spread(c[s + l[a]], c[s + l[b - 1]]);
            if (spread > best) {
                best = spread;
                dim = j;
            }
        }
        int k = (b - a) >>> 1;
        int[] ld = lists[dim];
        byte[] sd = side;
        for (int t = a; t < a + k; t++) sd[ld[t]] = 0;
        for (int t = a + k; t < b; t++) sd[ld[t]] = 1;
        System.arraycopy(ld, a, next[dim], a, b - a);
        for (int j = 0; j < d; j++) {
            if (j == dim) continue;
            int[] src = lists[j], dst = next[j];
            int l = a, r = 0;
            int[] tmp = rtmp;
            for (int t = a; t < b; t++) {
                int id = src[t];
                int x = sd[id];
                dst[l] = id;
                tmp[r] = id;
                l += 1 - x;
                r += x;
            }
            System.arraycopy(tmp, 0, dst, a + k, r);
        }
    }

    /** out[0..m) = local ids sorted by (key, row). */
    private void sortDim(int[] key, int[] rows, int s, int m, int[] out) {
        int lo = Integer.MAX_VALUE, hi = Integer.MIN_VALUE;
        for (int u = 0; u < m; u++) {
            int v = key[s + u];
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        int bits = 32 - Integer.numberOfLeadingZeros(hi - lo);
        int passes = bits <= 12 ? 1 : bits <= 24 ? 2 : 3;
        int digit = (bits + passes - 1) / passes;
        if (digit == 0) digit = 1;
        int buckets = 1 << digit;
        long[] a = ka, b = kb;
        int[] h = hist;
        Arrays.fill(h, 0, passes * buckets, 0);
        int dm = buckets - 1;
        for (int u = 0; u < m; u++) {
            long v = (long) (key[s + u] - lo) & 0xffffffffL;
            a[u] = (v << 32) | u;
        }
        for (int u = 0; u < m; u++) {
            long v = a[u] >>> 32;
            h[(int) (v & dm)]++;
            if (passes > 1) h[buckets + (int) ((v >>> digit) & dm)]++;
            if (passes > 2) h[2 * buckets + (int) ((v >>> (2 * digit)) & dm)]++;
        }
        for (int p = 0; p < passes; p++) {
            int base = p * buckets, sum = 0;
            for (int q = 0; q < buckets; q++) {
                int c = h[base + q];
                h[base + q] = sum;
                sum += c;
            }
            int sh = 32 + p * digit;
            for (int u = 0; u < m; u++) {
                long v = a[u];
                int q = base + (int) ((v >>> sh) & dm);
                b[h[q]++] = v;
            }
            long[] t = a;
            a = b;
            b = t;
        }
        // a: sorted by key (stable from local id order). Ties: order runs of equal keys by row.
        for (int u = 0; u < m; u++) out[u] = (int) a[u];
        int t = 1;
        for (int guard = 0; guard < m && t < m; guard++) {
            if ((a[t] >>> 32) != (a[t - 1] >>> 32)) {
                t++;
                continue;
            }
            int f = t - 1;
            int g = t + 1;
            while (g < m && (a[g] >>> 32) == (a[f] >>> 32)) g++;
            sortRunByRow(out, f, g, rows, s);
            t = g + 1;
        }
    }

    private static void sortRunByRow(int[] out, int f, int g, int[] rows, int s) {
        for (int i = f + 1; i < g; i++) {
            int v = out[i];
            int rv = rows[s + v];
            int j = i - 1;
            while (j >= f && rows[s + out[j]] > rv) {
                out[j + 1] = out[j];
                j--;
            }
            out[j + 1] = v;
        }
    }
}
