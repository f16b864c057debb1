package org.sylva.hdbscan.mst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link SpanningTree#orientedFrom}: each edge written (parent, child) for the tree rooted at the point given. */
class SpanningTreeOrientationTest {
    @Test
    void writesEachEdgeParentFirstKeepingOrderAndWeights() {
        // path 3 - 1 - 0 - 2 - 4, edges listed lower index first as Sylva lists them
        SpanningTree t = SpanningTree.of(5, new int[] {0, 0, 1, 2}, new int[] {1, 2, 3, 4}, new double[] {1, 2, 3, 4});
        SpanningTree o = t.orientedFrom(0);
        assertArrayEquals(new int[] {0, 0, 1, 2}, o.fromArray());
        assertArrayEquals(new int[] {1, 2, 3, 4}, o.toArray());
        SpanningTree o3 = t.orientedFrom(3);
        assertArrayEquals(new int[] {1, 0, 3, 2}, o3.fromArray());
        assertArrayEquals(new int[] {0, 2, 1, 4}, o3.toArray());
        assertArrayEquals(t.weightArray(), o3.weightArray());
    }

    @Test
    void everyChildHasExactlyOneParentOnARandomTree() {
        Random r = new Random(3);
        int n = 2000;
        int[] f = new int[n - 1], to = new int[n - 1];
        double[] w = new double[n - 1];
        for (int i = 1; i < n; i++) {   // point i hangs below a random earlier point, written either way round
            int p = r.nextInt(i);
            boolean flip = r.nextBoolean();
            f[i - 1] = flip ? i : p;
            to[i - 1] = flip ? p : i;
            w[i - 1] = r.nextDouble();
        }
        SpanningTree o = SpanningTree.of(n, f, to, w).orientedFrom(0);
        int[] parents = new int[n];
        for (int e = 0; e < n - 1; e++) parents[o.to(e)]++;
        assertEquals(0, parents[0], "the root is nobody's child");
        for (int i = 1; i < n; i++) assertEquals(1, parents[i], "point " + i);
        for (int e = 0; e < n - 1; e++) assertEquals(Math.max(f[e], to[e]), o.to(e), "edge " + e);
    }

    @Test
    void emptyAndBadRoots() {
        SpanningTree one = SpanningTree.of(1, new int[0], new int[0], new double[0]);
        assertSame(one, one.orientedFrom(0));
        SpanningTree t = SpanningTree.of(2, new int[] {0}, new int[] {1}, new double[] {1});
        assertThrows(IllegalArgumentException.class, () -> t.orientedFrom(2));
    }
}
