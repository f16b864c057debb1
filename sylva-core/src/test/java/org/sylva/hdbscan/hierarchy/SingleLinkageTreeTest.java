package org.sylva.hdbscan.hierarchy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.mst.SpanningTree;

class SingleLinkageTreeTest {

    @Test
    void javadocExample() {
        SpanningTree mst = SpanningTree.of(3, new int[] {0, 1}, new int[] {1, 2}, new double[] {0.5, 0.7});
        SingleLinkageTree slt = SingleLinkageTree.of(mst);
        assertArrayEquals(new double[] {0, 1, 0.5, 2, 3, 2, 0.7, 3}, slt.toMatrix());
        assertEquals(3, slt.points());
        assertEquals(2, slt.merges());
    }

    @Test
    void leftIsTheRootOfFromAndRightTheRootOfTo() {
        // Orientation follows the edge, not the index order: (2 -> 0) first gives left 2, right 0.
        SpanningTree mst = SpanningTree.of(4, new int[] {2, 3, 1}, new int[] {0, 0, 3}, new double[] {1, 2, 3});
        SingleLinkageTree slt = SingleLinkageTree.of(mst);
        assertArrayEquals(new double[] {
            2, 0, 1, 2,
            3, 4, 2, 3,
            1, 5, 3, 4}, slt.toMatrix());
    }

    @Test
    void sortIsStableAmongEqualWeights() {
        // Input out of weight order with a three-way tie: ties keep their given order (edges 0, 1, 3).
        SpanningTree mst = SpanningTree.of(5,
                new int[] {3, 0, 4, 1},
                new int[] {4, 1, 0, 2},
                new double[] {1.0, 1.0, 2.0, 1.0});
        SingleLinkageTree slt = SingleLinkageTree.of(mst);
        assertArrayEquals(new double[] {
            3, 4, 1.0, 2,   // edge 0 (3, 4) -> node 5
            0, 1, 1.0, 2,   // edge 1 (0, 1) -> node 6
            6, 2, 1.0, 3,   // edge 3 (1, 2): root of 1 is node 6 -> node 7
            5, 7, 2.0, 5},  // edge 2 (4, 0): root of 4 is node 5, of 0 node 7
                slt.toMatrix());
        assertArrayEquals(new int[] {3, 0, 6, 5}, slt.leftArray());
        assertArrayEquals(new int[] {4, 1, 2, 7}, slt.rightArray());
        assertArrayEquals(new int[] {2, 2, 3, 5}, slt.sizeArray());
        assertArrayEquals(new double[] {1, 1, 1, 2}, slt.distanceArray());
    }

    @Test
    void stableSortMatchesAStableReferenceOnManyRandomOrders() {
        java.util.Random rnd = new java.util.Random(11);
        for (int t = 0; t < 200; t++) {
            int m = rnd.nextInt(60);
            double[] w = new double[m];
            for (int i = 0; i < m; i++) w[i] = rnd.nextInt(5) * 0.5;
            int[] got = StableWeightSort.order(w);
            Integer[] ref = new Integer[m];
            for (int i = 0; i < m; i++) ref[i] = i;
            java.util.Arrays.sort(ref, (a, b) -> Double.compare(w[a], w[b])); // TimSort: stable
            for (int i = 0; i < m; i++) assertEquals((int) ref[i], got[i], "trial " + t + " position " + i);
        }
    }

    @Test
    void emptyAndSinglePoint() {
        assertEquals(0, SingleLinkageTree.of(SpanningTree.of(0, new int[0], new int[0], new double[0])).merges());
        SingleLinkageTree one = SingleLinkageTree.of(SpanningTree.of(1, new int[0], new int[0], new double[0]));
        assertEquals(1, one.points());
        assertEquals(0, one.toMatrix().length);
    }

    @Test
    void refusesNegativeWeights() {
        SpanningTree mst = SpanningTree.of(3, new int[] {0, 1}, new int[] {1, 2}, new double[] {0.5, -1});
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> SingleLinkageTree.of(mst));
        assertTrue(e.getMessage().contains("edge 1"), e.getMessage());
    }

    @Test
    void refusesEdgesThatAreNotATree() {
        SpanningTree mst = SpanningTree.of(3, new int[] {0, 1}, new int[] {1, 0}, new double[] {0.5, 0.6});
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> SingleLinkageTree.of(mst));
        assertTrue(e.getMessage().contains("edge 1 (1, 0)"), e.getMessage());
    }
}
