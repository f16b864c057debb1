package org.sylva.hdbscan.mst;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** {@link SpanningTree#inEdgeOrder} against a comparator sort under {@link EdgeOrder#compare}. */
class SpanningTreeEdgeOrderTest {
    /** A random tree on {@code n} points (each point joins an earlier one), endpoints in random order. */
    private static SpanningTree randomTree(Random r, int n, int distinctWeights) {
        int m = Math.max(n - 1, 0);
        int[] f = new int[m], t = new int[m];
        double[] w = new double[m];
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) perm[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1), x = perm[i];
            perm[i] = perm[j];
            perm[j] = x;
        }
        for (int e = 0; e < m; e++) {
            int a = perm[e + 1], b = perm[r.nextInt(e + 1)];
            boolean swap = r.nextBoolean();
            f[e] = swap ? b : a;
            t[e] = swap ? a : b;
            int v = r.nextInt(distinctWeights);
            w[e] = v == 0 ? (r.nextBoolean() ? -0.0 : 0.0) : v == 1 ? Double.POSITIVE_INFINITY : Math.sqrt(v);
        }
        return SpanningTree.of(n, f, t, w);
    }

    private static void sameAsComparatorSort(SpanningTree tree, String what) {
        int m = tree.edges();
        Integer[] order = new Integer[Math.max(m, 0)];
        for (int e = 0; e < m; e++) order[e] = e;
        Arrays.sort(order, (x, y) -> EdgeOrder.compare(tree.weight(x), Math.min(tree.from(x), tree.to(x)),
                Math.max(tree.from(x), tree.to(x)), tree.weight(y), Math.min(tree.from(y), tree.to(y)),
                Math.max(tree.from(y), tree.to(y))));
        SpanningTree sorted = tree.inEdgeOrder();
        for (int e = 0; e < m; e++) {
            int o = order[e];
            assertEquals(Math.min(tree.from(o), tree.to(o)), sorted.from(e), what + ": edge " + e);
            assertEquals(Math.max(tree.from(o), tree.to(o)), sorted.to(e), what + ": edge " + e);
            assertEquals(Double.doubleToRawLongBits(tree.weight(o)), Double.doubleToRawLongBits(sorted.weight(e)),
                    what + ": edge " + e);
        }
    }

    @Test
    void sortsByWeightThenLowerThenHigherEndpointWithSignedZerosAndInfinities() {
        Random r = new Random(5);
        for (int n : new int[] {0, 1, 2, 3, 31, 32, 33, 34, 64, 65, 100, 1000, 4097}) {
            for (int distinct : new int[] {2, 3, 5, 1_000_000}) {
                sameAsComparatorSort(randomTree(r, n, distinct), n + " points, " + distinct + " weights");
            }
        }
    }
}
