package org.sylva.kernels;

/**
 * Finishes the subtree of a small node (at most {@link #MAX} points) in one go, on a private copy held
 * in L1: near the leaves there are very many nodes of very few points, and a general split would spend
 * more on loop set-up than on the points.
 *
 * <p>Coordinates arrive as order-preserving ints ({@link OrderedBits}). A node's points are ordered
 * along its split dimension by fixed sorting networks over packed keys {@code (coordinate << 5) | local
 * position}, so no branch depends on the data: up to 16 points one network of 4, 8 or 16 keys; up to
 * 32 points two networks of 16, a half-cleaner (the 16 pairwise minima of one sorted run against the
 * other reversed are the 16 smallest keys) and a network over those 16. Where equal coordinates
 * straddle the split, the points are reordered by global index (the tie rule). Nothing is written back
 * to the workspace: the caller reads the final order from {@link #row} and the node boundaries from
 * {@link #bound}.
 *
 * <pre>{@code
 * SmallSubtree small = new SmallSubtree();
 * int leaves = small.run(cols, idx, s, m, depth);   // then small.row(t), small.bound(i)
 * }</pre>
 */
public final class SmallSubtree {
    /** Largest node handled here. */
    public static final int MAX = 32;
    /** Bits of the local position in a packed key. */
    private static final int POS_BITS = 5;
    private static final long POS_MASK = MAX - 1;

    private int[] x = new int[3 * MAX];
    private final int[] id = new int[MAX];
    private final int[] ord = new int[MAX];
    private final long[] key = new long[MAX];
    private final long[] keyB = new long[16];
    private final int[] bnd = new int[MAX + 1];

    /**
     * Splits node {@code [s, s + m)} of the key columns {@code cols} (one per dimension) and the row
     * column {@code idx} ({@code m <= MAX}; both only read) for {@code levels} levels (at most
     * {@code ceil(log2 m)}), and returns the number of resulting nodes, {@code 2^levels}.
     */
    public int run(int[][] cols, int[] idx, int s, int m, int levels) {
        int d = cols.length;
        if (x.length < d * MAX) x = new int[d * MAX];
        int[] lx = x;
        for (int j = 0; j < d; j++) System.arraycopy(cols[j], s, lx, j * MAX, m);
        int[] wid = idx;
        for (int t = 0; t < m; t++) {
            id[t] = wid[s + t];
            ord[t] = t;
        }
        bnd[0] = 0;
        bnd[1] = m;
        int count = 1;
        for (int level = 0; level < levels; level++) {
            for (int u = 0; u < count; u++) {
                int a = bnd[u], b = bnd[u + 1];
                if (b - a >= 2) split(a, b, d);
            }
            bnd[2 * count] = bnd[count];
            for (int u = count - 1; u >= 0; u--) {
                int a = bnd[u], b = bnd[u + 1];
                bnd[2 * u + 1] = a + ((b - a) >>> 1);
                bnd[2 * u] = a;
            }
            count *= 2;
        }
        return count;
    }

    /** Global row at final position {@code t} (0-based within the node). */
    public int row(int t) {
        return id[ord[t]];
    }

    /** Boundary {@code i} of the final nodes ({@code i <= count}), relative to the node's start. */
    public int bound(int i) {
        return bnd[i];
    }

    /**
     * Writes the {@code leaves} final nodes of the last {@link #run} (each of one or two points) as tree
     * leaves from slot {@code slot}: two points in row order with mask {@code [1, 1]}, one point
     * {@code p} as {@code [p, p]} with mask {@code [1, 0]}.
     */
    public void writeLeaves(int leaves, int slot, int[] treeIdx, byte[] mask) {
        for (int t = 0; t < leaves; t++) {
            int a = bnd[t];
            writeLeaf(treeIdx, mask, slot + 2 * t, row(a), bnd[t + 1] - a == 2 ? row(a + 1) : -1);
        }
    }

    /**
     * The tree rule for one leaf at slots {@code o, o + 1}: two points {@code p, q} in row order with mask
     * {@code [1, 1]}, or one point {@code p} ({@code q < 0}) as {@code [p, p]} with mask {@code [1, 0]}.
     */
    public static void writeLeaf(int[] treeIdx, byte[] mask, int o, int p, int q) {
        if (q >= 0) {
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

    /** First dimension with the strictly largest float64 spread among the points {@code ord[a..b)}. */
    private int splitDim(int a, int b, int d) {
        int[] lx = x;
        int[] o = ord;
        if (d == 3) {
            // The common case in one pass: six independent minimum/maximum chains.
            int p = o[a];
            int mn0 = lx[p], mx0 = mn0, mn1 = lx[MAX + p], mx1 = mn1, mn2 = lx[2 * MAX + p], mx2 = mn2;
            for (int t = a + 1; t < b; t++) {
                p = o[t];
                int v0 = lx[p], v1 = lx[MAX + p], v2 = lx[2 * MAX + p];
                mn0 = Math.min(mn0, v0);
                mx0 = Math.max(mx0, v0);
                mn1 = Math.min(mn1, v1);
                mx1 = Math.max(mx1, v1);
                mn2 = Math.min(mn2, v2);
                mx2 = Math.max(mx2, v2);
            }
            return widest3(mn0, mx0, mn1, mx1, mn2, mx2);
        }
        int dim = 0;
        double best = -1.0;
        for (int j = 0, base = 0; j < d; j++, base += MAX) {
            int mn = lx[base + o[a]], mx = mn;
            for (int t = a + 1; t < b; t++) {
                int v = lx[base + o[t]];
                mn = Math.min(mn, v);
                mx = Math.max(mx, v);
            }
            double spread = OrderedBits.spread(mn, mx);
            if (spread > best) {
                best = spread;
                dim = j;
            }
        }
        return dim;
    }

    /** The first of three dimensions with the strictly largest float64 spread. */
    private static int widest3(int mn0, int mx0, int mn1, int mx1, int mn2, int mx2) {
        double s0 = OrderedBits.spread(mn0, mx0), s1 = OrderedBits.spread(mn1, mx1), s2 = OrderedBits.spread(mn2, mx2);
        int dim = 0;
        double best = s0;
        if (s1 > best) {
            best = s1;
            dim = 1;
        }
        return s2 > best ? 2 : dim;
    }

    private static int min4(int[] lx, int base, int p0, int p1, int p2, int p3) {
        return Math.min(Math.min(lx[base + p0], lx[base + p1]), Math.min(lx[base + p2], lx[base + p3]));
    }

    private static int max4(int[] lx, int base, int p0, int p1, int p2, int p3) {
        return Math.max(Math.max(lx[base + p0], lx[base + p1]), Math.max(lx[base + p2], lx[base + p3]));
    }

    private void split(int a, int b, int d) {
        int m = b - a;
        if (m == 4) {
            split4(a, d);
            return;
        }
        int base = splitDim(a, b, d) * MAX;
        int[] lx = x;
        int[] o = ord;
        long[] k = key;
        int half = m >>> 1;
        if (m > 16) {
            splitUpTo32(a, m, half, base);
            return;
        }
        for (int t = 0; t < m; t++) {
            int p = o[a + t];
            k[t] = ((long) lx[base + p] << POS_BITS) | p;
        }
        int size = m <= 4 ? 4 : m <= 8 ? 8 : 16;
        for (int t = m; t < size; t++) k[t] = Long.MAX_VALUE;
        if (size == 4) {
            SortingNetworks.sort4(k);
        } else if (size == 8) {
            SortingNetworks.sort8(k);
        } else {
            SortingNetworks.sort16(k);
        }
        if ((k[half - 1] >> POS_BITS) == (k[half] >> POS_BITS)) orderTieByIndex(k, m, half);
        for (int t = 0; t < m; t++) o[a + t] = (int) (k[t] & POS_MASK);
    }

    /**
     * 17 to 32 points: sort the first 16 and the rest (padded) separately; the pairwise minima of the
     * first run against the second reversed are the 16 smallest keys (a half-cleaner); sorting those
     * gives the {@code half <= 16} smallest, which go left. The order inside each child is free.
     */
    private void splitUpTo32(int a, int m, int half, int base) {
        int[] lx = x;
        int[] o = ord;
        long[] k = key, kb = keyB;
        for (int t = 0; t < 16; t++) {
            int p = o[a + t];
            k[t] = ((long) lx[base + p] << POS_BITS) | p;
        }
        for (int t = 16; t < m; t++) {
            int p = o[a + t];
            kb[t - 16] = ((long) lx[base + p] << POS_BITS) | p;
        }
        for (int t = m - 16; t < 16; t++) kb[t] = Long.MAX_VALUE;
        SortingNetworks.sort16(k);
        SortingNetworks.sort16(kb);
        for (int t = 0; t < 16; t++) {
            long u = k[t], v = kb[15 - t];
            k[t] = Math.min(u, v);
            kb[15 - t] = Math.max(u, v);
        }
        SortingNetworks.sort16(k);
        // The smallest key going right: k[half] if half < 16, else the smallest of the upper 16.
        long next = half < 16 ? k[half] : Long.MAX_VALUE;
        for (int t = 0; t < 16; t++) next = Math.min(next, kb[t]);
        if ((k[half - 1] >> POS_BITS) == (next >> POS_BITS)) {
            // Equal coordinates straddle the split (rare): sort all keys, then apply the index rule.
            System.arraycopy(kb, 0, k, 16, 16);
            insertionSort(k, 32);
            orderTieByIndex(k, m, half);
            for (int t = 0; t < m; t++) o[a + t] = (int) (k[t] & POS_MASK);
            return;
        }
        int w = a;
        for (int t = 0; t < 16; t++) o[w++] = (int) (k[t] & POS_MASK);
        for (int t = 0; t < 16; t++) {
            long v = kb[t];
            if (v != Long.MAX_VALUE) o[w++] = (int) (v & POS_MASK);
        }
    }

    private static void insertionSort(long[] k, int n) {
        for (int i = 1; i < n; i++) {
            long v = k[i];
            int j = i - 1;
            while (j >= 0 && k[j] > v) {
                k[j + 1] = k[j];
                j--;
            }
            k[j + 1] = v;
        }
    }

    /**
     * A node of four points, the most frequent size just above the leaves, without loops over the
     * points: the split dimension from the four keys per dimension, then a five-exchange network.
     */
    private void split4(int a, int d) {
        int[] lx = x;
        int[] o = ord;
        int p0 = o[a], p1 = o[a + 1], p2 = o[a + 2], p3 = o[a + 3];
        int dim = 0;
        if (d == 3) {
            dim = widest3(min4(lx, 0, p0, p1, p2, p3), max4(lx, 0, p0, p1, p2, p3),
                    min4(lx, MAX, p0, p1, p2, p3), max4(lx, MAX, p0, p1, p2, p3),
                    min4(lx, 2 * MAX, p0, p1, p2, p3), max4(lx, 2 * MAX, p0, p1, p2, p3));
        } else {
            double best = -1.0;
            for (int j = 0, base = 0; j < d; j++, base += MAX) {
                double spread = OrderedBits.spread(min4(lx, base, p0, p1, p2, p3), max4(lx, base, p0, p1, p2, p3));
                if (spread > best) {
                    best = spread;
                    dim = j;
                }
            }
        }
        int base = dim * MAX;
        long k0 = ((long) lx[base + p0] << POS_BITS) | p0, k1 = ((long) lx[base + p1] << POS_BITS) | p1;
        long k2 = ((long) lx[base + p2] << POS_BITS) | p2, k3 = ((long) lx[base + p3] << POS_BITS) | p3;
        long t = Math.min(k0, k1);
        k1 = Math.max(k0, k1);
        k0 = t;
        t = Math.min(k2, k3);
        k3 = Math.max(k2, k3);
        k2 = t;
        t = Math.min(k0, k2);
        k2 = Math.max(k0, k2);
        k0 = t;
        t = Math.min(k1, k3);
        k3 = Math.max(k1, k3);
        k1 = t;
        t = Math.min(k1, k2);
        k2 = Math.max(k1, k2);
        k1 = t;
        if ((k1 >> POS_BITS) == (k2 >> POS_BITS)) {
            long[] k = key;
            k[0] = k0;
            k[1] = k1;
            k[2] = k2;
            k[3] = k3;
            orderTieByIndex(k, 4, 2);
            k0 = k[0];
            k1 = k[1];
            k2 = k[2];
            k3 = k[3];
        }
        o[a] = (int) (k0 & POS_MASK);
        o[a + 1] = (int) (k1 & POS_MASK);
        o[a + 2] = (int) (k2 & POS_MASK);
        o[a + 3] = (int) (k3 & POS_MASK);
    }

    /**
     * The sorted keys {@code k[0..m)} have equal coordinates on both sides of the split: reorder that
     * run of equal coordinates by global index, so the smaller indices are the ones that go left.
     */
    private void orderTieByIndex(long[] k, int m, int half) {
        long v = k[half] >> POS_BITS;
        int f = half - 1, g = half + 1;
        while (f > 0 && (k[f - 1] >> POS_BITS) == v) f--;
        while (g < m && (k[g] >> POS_BITS) == v) g++;
        for (int i = f + 1; i < g; i++) {
            long kv = k[i];
            int iv = id[(int) (kv & POS_MASK)];
            int j = i - 1;
            while (j >= f && id[(int) (k[j] & POS_MASK)] > iv) {
                k[j + 1] = k[j];
                j--;
            }
            k[j + 1] = kv;
        }
    }
}
