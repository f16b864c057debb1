package org.sylva.hdbscan.mst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Backend;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;

/**
 * The determinism contract, pinned literally: equal mutual-reachability weights are broken by
 * {@code (weight, lower index, higher index)} and the tree is listed in that order. Each input below is
 * made of exact ties; its tree and labels were worked out by hand (Kruskal over the edges in the
 * documented order, then single linkage, condensing and EOM). Another tie order, e.g.
 * {@code (weight, higher, lower)} or {@code (weight, lower)} with the other endpoint taken as found,
 * gives another tree and other labels, noted next to each case. Every backend and thread count must give
 * exactly the literal result.
 */
class TieOrderContractTest {
    private static final Backend[] BACKENDS = Backend.values();
    private static final int[] THREADS = {1, 2};

    /**
     * Two vertical pairs 5 apart; indices alternate sides so the two tied bridges disagree on which end
     * is lower and which higher.
     *
     * <pre>
     *   2 (0,1) ---5--- 1 (5,1)
     *     |1              |1
     *   0 (0,0) ---5--- 3 (5,0)
     * </pre>
     *
     * min_samples = 2: every core distance is 1, so the sides weigh 1 and both bridges weigh exactly 5
     * (the diagonals sqrt(26)). Documented order: bridge (0,3) precedes (1,2) (lower end 0 < 1), so
     * (0,3) is the tree edge. Its lower end 0 is the dendrogram's left side: the root splits into {0,2}
     * (cluster id n+1, label 0) and {1,3} (label 1).
     *
     * <p>Under (weight, higher, lower) the bridge is (1,2) (higher end 2 < 3): tree
     * [0,2,1] [1,3,1] [1,2,5], the left side is {1,3} and the labels swap to [1, 0, 1, 0]. An order
     * preferring the larger lower endpoint picks (1,2) as well.
     */
    @Test
    void tiedBridgesTakeTheLowerLowerEndpoint() {
        float[] xy = {
            0, 0, // 0
            5, 1, // 1
            0, 1, // 2
            5, 0, // 3
        };
        double[][] tree = {{0, 2, 1}, {1, 3, 1}, {0, 3, 5}};
        int[] labels = {0, 1, 0, 1};
        assertEveryRunGives(PointSet.of(4, 2, xy), 2, 2, tree, labels);
    }

    /**
     * Points on a line, indices out of position order, the last two copies of one point:
     *
     * <pre>
     *   x:      0   1   2   3   4
     *   index:  1   3   2   0   4,5
     * </pre>
     *
     * min_samples = 2: the core distance is 1 for x = 0..3 and 0 for the copies, so the copies' edge
     * weighs 0 and every edge between line neighbours weighs exactly 1 (longer ones more). The weight-1
     * edges in documented order: (0,2) (0,4) (0,5) (1,3) (2,3); Kruskal drops (0,5), which closes the
     * cycle 0-4-5 (so the lower copy 4 is the one joined). Single linkage, in that order: {4,5} at
     * distance 0, {0,2}, {0,2}+{4,5}, {1,3}, then (2,3) joins {0,2,4,5} (left) and {1,3}. With
     * min_cluster_size = 2 each of these joins of two parts of >= 2 points is a split at lambda 1;
     * breadth-first, left first: {0,2,4,5} = 7, {1,3} = 8, {0,2} = 9, {4,5} = 10. Clusters born and gone
     * at lambda 1 have stability 0, {4,5} infinite (its points leave at distance 0), so EOM keeps the
     * leaves 8, 9, 10 (7's children sum to more than its 0) and labels them 0, 1, 2 by id.
     *
     * <p>Under (weight, higher, lower) the same edges are listed (1,3) (2,3) before (0,4), so the last
     * merge is {0,1,2,3} + {4,5}: tree [4,5,0] [0,2,1] [1,3,1] [2,3,1] [0,4,1], labels
     * [0, 0, 0, 0, 1, 1]. Under (weight, lower) with the copy found last taken: (0,5) instead of (0,4),
     * labels [0, 1, 0, 1, 0, 0].
     */
    @Test
    void tiesOnALineWithACopiedPoint() {
        float[] x = {3, 0, 2, 1, 4, 4};
        double[][] tree = {{4, 5, 0}, {0, 2, 1}, {0, 4, 1}, {1, 3, 1}, {2, 3, 1}};
        int[] labels = {1, 0, 1, 0, 2, 2};
        assertEveryRunGives(PointSet.of(6, 1, x), 2, 2, tree, labels);
    }

    /** The order itself, on literal edges: weight first, then the lower endpoint, then the higher. */
    @Test
    void edgeOrderComparesWeightThenLowerThenHigher() {
        // weight decides before any index
        assertTrue(EdgeOrder.compare(0.5, 7, 9, 1.0, 0, 1) < 0);
        assertTrue(EdgeOrder.compare(1.0, 0, 1, 0.5, 7, 9) > 0);
        // equal weight: the lower endpoint decides, even though the higher one says the opposite
        assertTrue(EdgeOrder.compare(5.0, 0, 3, 5.0, 1, 2) < 0);
        assertTrue(EdgeOrder.compare(5.0, 1, 2, 5.0, 0, 3) > 0);
        // equal weight and lower endpoint: the higher endpoint decides
        assertTrue(EdgeOrder.compare(1.0, 0, 4, 1.0, 0, 5) < 0);
        assertTrue(EdgeOrder.compare(1.0, 0, 5, 1.0, 0, 4) > 0);
        assertEquals(0, EdgeOrder.compare(1.0, 0, 4, 1.0, 0, 4));

        // less: the same order with endpoints given in any order, and strict
        assertTrue(EdgeOrder.less(5.0, 3, 0, 5.0, 2, 1));
        assertFalse(EdgeOrder.less(5.0, 2, 1, 5.0, 3, 0));
        assertTrue(EdgeOrder.less(1.0, 4, 0, 1.0, 0, 5));
        assertFalse(EdgeOrder.less(1.0, 5, 0, 1.0, 4, 0));
        assertFalse(EdgeOrder.less(1.0, 4, 0, 1.0, 0, 4));
        assertTrue(EdgeOrder.less(0.5, 9, 7, 1.0, 1, 0));
    }

    private static void assertEveryRunGives(PointSet points, int minSamples, int minClusterSize, double[][] tree,
            int[] labels) {
        for (Backend backend : BACKENDS) {
            for (int threads : THREADS) {
                HdbscanResult r = Hdbscan.builder().minSamples(minSamples).minClusterSize(minClusterSize)
                        .backend(backend).threads(threads).build().fit(points);
                String run = backend + ", " + threads + " thread(s)";
                assertEquals(Arrays.deepToString(tree), Arrays.deepToString(edges(r.spanningTree())), "tree, " + run);
                assertArrayEquals(labels, r.labels(), "labels, " + run + ": " + Arrays.toString(r.labels()));
            }
        }
    }

    /** The tree as literal rows {@code [from, to, weight]} in its listed order. */
    private static double[][] edges(SpanningTree t) {
        double[][] rows = new double[t.edges()][];
        for (int e = 0; e < t.edges(); e++) rows[e] = new double[] {t.from(e), t.to(e), t.weight(e)};
        return rows;
    }

    /**
     * The scans' pruning rule skips every candidate after the reference edge, ties included, but never the reference
     * edge itself: a scan that skipped it on an exact tie could leave a component its cheapest edge and merge a heavier
     * one.
     */
    @Test
    void thePruningRuleNeverSkipsTheReferenceEdgeItself() {
        long ref = EdgeOrder.endpoints(3, 7);
        assertFalse(EdgeOrder.allAfter(2.0, ref, 2.0, ref), "the reference edge itself");
        assertFalse(EdgeOrder.allAfter(2.0, EdgeOrder.endpoints(7, 3), 2.0, ref), "the same edge, endpoints swapped");
        assertTrue(EdgeOrder.allAfter(2.0, EdgeOrder.endpoints(3, 8), 2.0, ref), "same weight, higher end after");
        assertFalse(EdgeOrder.allAfter(2.0, EdgeOrder.endpoints(3, 6), 2.0, ref), "same weight, higher end before");
        assertFalse(EdgeOrder.allAfter(2.0, EdgeOrder.endpoints(2, 9), 2.0, ref), "same weight, lower end before");
        assertTrue(EdgeOrder.allAfter(Math.nextUp(2.0), EdgeOrder.endpoints(0, 1), 2.0, ref), "heavier");
        assertFalse(EdgeOrder.allAfter(Math.nextDown(2.0), EdgeOrder.NO_ENDPOINTS, 2.0, ref), "lighter");
    }
}
