package org.sylva.hdbscan.mst;

/**
 * Plain O(n^2) Prim over the mutual-reachability graph, for tests. With {@code edgeOrderTies} the
 * cheapest crossing edge is chosen under the full {@link EdgeOrder}, which makes Prim produce the same
 * unique tree as Borůvka; without it only weights are compared (first found wins), like the textbook
 * algorithm, so only the weights are comparable.
 */
public final class PrimReference {
    private PrimReference() {
    }

    public static double distance(double[] rows, int d, int a, int b) {
        double s = 0.0;
        for (int j = 0; j < d; j++) {
            double t = rows[a * d + j] - rows[b * d + j];
            s += t * t;
        }
        return Math.sqrt(s);
    }

    public static double weight(double[] rows, int d, double[] core, double alpha, int a, int b) {
        double dist = distance(rows, d, a, b);
        if (alpha != 1.0) dist /= alpha;
        return Math.max(Math.max(core[a], core[b]), dist);
    }

    /** The tree, listed in {@link EdgeOrder}. */
    public static SpanningTree prim(double[] rows, int n, int d, double[] core, double alpha, boolean edgeOrderTies) {
        if (n <= 1) return SpanningTree.of(n, new int[0], new int[0], new double[0]);
        boolean[] in = new boolean[n];
        double[] bw = new double[n];
        int[] bv = new int[n];
        java.util.Arrays.fill(bw, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(bv, -1);
        int[] from = new int[n - 1], to = new int[n - 1];
        double[] w = new double[n - 1];
        int cur = 0;
        in[0] = true;
        for (int e = 0; e < n - 1; e++) {
            for (int v = 0; v < n; v++) {
                if (in[v]) continue;
                double x = weight(rows, d, core, alpha, cur, v);
                boolean better = edgeOrderTies ? (bv[v] < 0 || EdgeOrder.less(x, cur, v, bw[v], bv[v], v)) : x < bw[v];
                if (better) {
                    bw[v] = x;
                    bv[v] = cur;
                }
            }
            int pick = -1;
            for (int v = 0; v < n; v++) {
                if (in[v]) continue;
                if (pick < 0) {
                    pick = v;
                    continue;
                }
                boolean better = edgeOrderTies ? EdgeOrder.less(bw[v], bv[v], v, bw[pick], bv[pick], pick)
                        : bw[v] < bw[pick];
                if (better) pick = v;
            }
            in[pick] = true;
            from[e] = bv[pick];
            to[e] = pick;
            w[e] = bw[pick];
            cur = pick;
        }
        return SpanningTree.of(n, from, to, w).inEdgeOrder();
    }

    /** Brute-force core distances: the {@code minSamples}-th smallest distance, the point itself included. */
    public static double[] coreDistances(double[] rows, int n, int d, int minSamples) {
        double[] core = new double[n];
        double[] ds = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) ds[j] = distance(rows, d, i, j);
            java.util.Arrays.sort(ds);
            core[i] = ds[Math.min(minSamples, n) - 1];
        }
        return core;
    }
}
