package org.sylva.hdbscan.hierarchy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.sylva.hdbscan.mst.SpanningTree;

/**
 * The linear-time hierarchy code equals a literal transliteration of the Python code
 * ({@link LiteralPort}) on random spanning trees with many tied and zero weights, in random edge order
 * and orientation, for random minimum cluster sizes and every combination of method, epsilon (0, a
 * merge distance exactly, a random value), maximum cluster size and single-cluster mode: same
 * single-linkage tree, condensed tree, labels, probabilities, persistence, selected ids and GLOSH, bit
 * for bit.
 */
class LiteralPortPropertyTest {

    @Property(tries = 300)
    void productionEqualsLiteralPort(@ForAll long seed) {
        Random rnd = new Random(seed);
        int n = 2 + rnd.nextInt(70);
        int m = n - 1;
        int[] from = new int[m], to = new int[m];
        double[] w = new double[m];
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) perm[i] = i;
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        int ties = 1 + rnd.nextInt(8);
        for (int i = 1; i < n; i++) {
            int a = perm[i], b = perm[rnd.nextInt(i)];
            boolean swap = rnd.nextBoolean();
            from[i - 1] = swap ? b : a;
            to[i - 1] = swap ? a : b;
            w[i - 1] = rnd.nextInt(4) == 0 ? rnd.nextDouble() * 3 : rnd.nextInt(ties) * 0.5; // many ties, some 0
        }
        SpanningTree mst = SpanningTree.of(n, from, to, w);
        SingleLinkageTree slt = SingleLinkageTree.of(mst);
        double[][] h = LiteralPort.label(n, from, to, w);
        double[] flat = new double[4 * m];
        for (int i = 0; i < m; i++) System.arraycopy(h[i], 0, flat, 4 * i, 4);
        assertArrayEquals(flat, slt.toMatrix(), "single-linkage tree");

        int mcs = 2 + rnd.nextInt(Math.min(8, n));
        CondensedTree ct = CondensedTree.condense(slt, mcs);
        java.util.List<LiteralPort.Row> rows = LiteralPort.condense(h, mcs);
        assertEquals(rows.size(), ct.rows(), "rows");
        for (int r = 0; r < rows.size(); r++) {
            LiteralPort.Row row = rows.get(r);
            assertEquals(row.parent(), ct.parent(r), "parent of row " + r);
            assertEquals(row.child(), ct.child(r), "child of row " + r);
            assertEquals(row.lambda(), ct.lambda(r), "lambda of row " + r);
            assertEquals(row.size(), ct.childSize(r), "size of row " + r);
        }
        double[] epsilons = {0.0, slt.distance(rnd.nextInt(m)), rnd.nextDouble() * 2};
        int[] maxSizes = {0, 2 + rnd.nextInt(n), mcs};
        for (SelectionMethod method : SelectionMethod.values()) {
            for (double eps : epsilons) {
                for (int maxSize : maxSizes) {
                    for (boolean allow : new boolean[] {false, true}) {
                        SelectionParameters p = new SelectionParameters(method, eps, maxSize, allow);
                        LiteralPort.Result ref = LiteralPort.run(h, mcs, p, new Random(rnd.nextLong()));
                        Clustering c = ClusterSelector.select(ct, p);
                        assertArrayEquals(c.selectedNodes(), ClusterSelector.selectedNodes(ct, p), "selectedNodes alone");
                        String what = "seed " + seed + " n " + n + " mcs " + mcs + " " + p;
                        assertArrayEquals(ref.selected(), c.selectedNodes(), what + " selected");
                        assertArrayEquals(ref.labels(), c.labels(), what + " labels");
                        assertArrayEquals(ref.probabilities(), c.probabilities(), what + " probabilities");
                        assertArrayEquals(ref.persistence(), c.persistence(), what + " persistence");
                    }
                }
            }
        }
        assertArrayEquals(LiteralPort.glosh(rows), OutlierScores.of(ct).scores(), "GLOSH");
    }
}
