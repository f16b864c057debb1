package org.sylva.hdbscan.hierarchy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.mst.SpanningTree;

/**
 * Condensing and selection on small trees whose every expected value is derived by hand in the
 * comments (lambda = 1/distance; stability = sum over a cluster's rows of (lambda - birth) * size).
 */
class HandMadeTreesTest {
    private static final double TOL = 1e-12;
    private static final double L = 1.0 / 0.375; // 2.666..., lambda at which groups A and B dissolve

    static SpanningTree tree(int n, double[][] edges) {
        int[] a = new int[edges.length], b = new int[edges.length];
        double[] w = new double[edges.length];
        for (int i = 0; i < edges.length; i++) {
            a[i] = (int) edges[i][0];
            b[i] = (int) edges[i][1];
            w[i] = edges[i][2];
        }
        return SpanningTree.of(n, a, b, w);
    }

    /**
     * Ten points: A = {0,1,2} (edges 0.25, 0.375), B = {3,4,5} (0.25, 0.375), A-B at 0.5,
     * C = {6,7,8,9} (0.125, 0.25, 0.5), AB-C at {@code join}.
     */
    static SingleLinkageTree tenPoints(double join) {
        return SingleLinkageTree.of(tree(10, new double[][] {
            {6, 7, 0.125}, {0, 1, 0.25}, {3, 4, 0.25}, {7, 8, 0.25}, {1, 2, 0.375}, {4, 5, 0.375},
            {2, 3, 0.5}, {8, 9, 0.5}, {5, 6, join}}));
    }

    static Clustering select(CondensedTree t, SelectionParameters.Builder b) {
        Clustering c = ClusterSelector.select(t, b.build());
        org.junit.jupiter.api.Assertions.assertArrayEquals(c.selectedNodes(), ClusterSelector.selectedNodes(t, b.build()));
        return c;
    }

    // ---- condensing ----

    @Test
    void singleLinkageOfTheTenPointTree() {
        // nodes 10.. : (6,7) (0,1) (3,4) (10,8) (11,2) (12,5) (14,15) (13,9) (16,17)
        assertArrayEquals(new double[] {
            6, 7, 0.125, 2,
            0, 1, 0.25, 2,
            3, 4, 0.25, 2,
            10, 8, 0.25, 3,
            11, 2, 0.375, 3,
            12, 5, 0.375, 3,
            14, 15, 0.5, 6,
            13, 9, 0.5, 4,
            16, 17, 4.0, 10}, tenPoints(4.0).toMatrix());
    }

    @Test
    void condenseWithThreeSplitsTwiceAndDropsPointsInBreadthFirstOrder() {
        CondensedTree ct = CondensedTree.condense(tenPoints(4.0), 3);
        // root 10 -> 11 (node 16, six points) and 12 (node 17, four); 11 -> 13 (A), 14 (B);
        // 12 loses point 9 at lambda 2 and dissolves at lambda 4; A and B dissolve at L.
        assertArrayEquals(new double[] {
            10, 11, 0.25, 6,
            10, 12, 0.25, 4,
            11, 13, 2, 3,
            11, 14, 2, 3,
            12, 9, 2, 1,
            13, 0, L, 1,
            13, 1, L, 1,
            13, 2, L, 1,
            14, 3, L, 1,
            14, 4, L, 1,
            14, 5, L, 1,
            12, 6, 4, 1,
            12, 7, 4, 1,
            12, 8, 4, 1}, ct.toMatrix());
        assertEquals(10, ct.root());
        assertEquals(5, ct.clusterCount());
        // 10: 0.25*6 + 0.25*4; 11: (2-0.25)*3*2; 12: (2-0.25) + 3*(4-0.25); 13, 14: 3*(L-2)
        double[] s = ct.stabilities();
        assertEquals(2.5, s[0], TOL);
        assertEquals(10.5, s[1], TOL);
        assertEquals(13.0, s[2], TOL);
        assertEquals(2.0, s[3], TOL);
        assertEquals(2.0, s[4], TOL);
    }

    @Test
    void condenseWithFourDropsWholeSmallPartsBreadthFirst() {
        CondensedTree ct = CondensedTree.condense(tenPoints(4.0), 4);
        // Node 16 splits into two parts of 3 < 4: all six fall out of 11 at lambda 2, in BFS order of
        // node 14 (14 -> 11, 2 -> 0, 1: points 2, 0, 1), then node 15 (points 5, 3, 4).
        assertArrayEquals(new double[] {
            10, 11, 0.25, 6,
            10, 12, 0.25, 4,
            11, 2, 2, 1, 11, 0, 2, 1, 11, 1, 2, 1,
            11, 5, 2, 1, 11, 3, 2, 1, 11, 4, 2, 1,
            12, 8, 2, 1, 12, 6, 2, 1, 12, 7, 2, 1,
            12, 9, 2, 1}, ct.toMatrix());
    }

    @Test
    void zeroDistanceGivesInfiniteLambda() {
        SingleLinkageTree slt = SingleLinkageTree.of(tree(3, new double[][] {{0, 1, 0.0}, {1, 2, 2.0}}));
        CondensedTree ct = CondensedTree.condense(slt, 2);
        // root: left = node 3 (size 2, a cluster), right = point 2 (falls out at 0.5); node 3 dissolves at inf.
        assertArrayEquals(new double[] {3, 2, 0.5, 1, 3, 0, Double.POSITIVE_INFINITY, 1,
            3, 1, Double.POSITIVE_INFINITY, 1}, ct.toMatrix());
    }

    @Test
    void minClusterSizeBelowTwoIsRefused() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> CondensedTree.condense(tenPoints(4.0), 1));
        assertEquals("minClusterSize must be at least 2; got 1", e.getMessage());
    }

    // ---- EOM and leaf ----

    @Test
    void eomKeepsTheParentWhoseStabilityBeatsItsChildren() {
        CondensedTree ct = CondensedTree.condense(tenPoints(4.0), 3);
        Clustering c = ClusterSelector.select(ct, SelectionParameters.defaults());
        // 13 + 14 = 4 < 10.5: cluster 11 is kept; 12 is a leaf. Labels by id: 11 -> 0, 12 -> 1.
        assertArrayEquals(new int[] {11, 12}, c.selectedNodes());
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0, 1, 1, 1, 1}, c.labels());
        // 11's direct rows have lambda 2 (its two child clusters): points at L > 2 get 1.0.
        // 12's largest direct lambda is 4: point 9 (lambda 2) gets 0.5.
        assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 0.5}, c.probabilities(), TOL);
        // persistence: stability / (members * 4): 10.5 / 24, 13 / 16
        assertArrayEquals(new double[] {0.4375, 0.8125}, c.persistence(), TOL);
    }

    @Test
    void leafSelectsTheLeaves() {
        CondensedTree ct = CondensedTree.condense(tenPoints(4.0), 3);
        Clustering c = select(ct, SelectionParameters.builder().method(SelectionMethod.LEAF));
        assertArrayEquals(new int[] {12, 13, 14}, c.selectedNodes());
        assertArrayEquals(new int[] {1, 1, 1, 2, 2, 2, 0, 0, 0, 0}, c.labels());
        assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 0.5}, c.probabilities(), TOL);
        // 13 / 16, 2 / 12, 2 / 12
        assertArrayEquals(new double[] {0.8125, 1.0 / 6, 1.0 / 6}, c.persistence(), TOL);
    }

    @Test
    void leafWithoutAnySplitSelectsNothingEvenWithSingleCluster() {
        CondensedTree ct = CondensedTree.condense(tenPoints(4.0), 7);
        for (boolean allow : new boolean[] {false, true}) {
            Clustering c = select(ct, SelectionParameters.builder().method(SelectionMethod.LEAF)
                    .allowSingleCluster(allow));
            assertEquals(0, c.clusterCount());
            assertArrayEquals(new int[] {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1}, c.labels());
            assertArrayEquals(new double[10], c.probabilities());
        }
    }

    // ---- max_cluster_size ----

    @Test
    void maxClusterSizeSplitsClustersThatAreTooBig() {
        CondensedTree ct = CondensedTree.condense(tenPoints(4.0), 3);
        // 11 has 6 points > 5: not kept, its stability becomes 13 + 14 = 4; then 12, 13, 14.
        Clustering five = select(ct, SelectionParameters.builder().maxClusterSize(5));
        assertArrayEquals(new int[] {12, 13, 14}, five.selectedNodes());
        assertArrayEquals(new int[] {1, 1, 1, 2, 2, 2, 0, 0, 0, 0}, five.labels());
        // 12 (4 points) > 3 as well: it is a leaf, so nothing replaces it and its points are noise.
        Clustering three = select(ct, SelectionParameters.builder().maxClusterSize(3));
        assertArrayEquals(new int[] {13, 14}, three.selectedNodes());
        assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1, -1, -1, -1, -1}, three.labels());
        assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1, 0, 0, 0, 0}, three.probabilities(), TOL);
        // leaf ignores max_cluster_size
        assertEquals(3, select(ct, SelectionParameters.builder().method(SelectionMethod.LEAF).maxClusterSize(3))
                .clusterCount());
    }

    @Test
    void singleClusterModeWithOneNonRootSelectionLeavesTheRestNoise() {
        // mcs 4: root -> 11 (6 points, leaf) and 12 (4 points, leaf). Max size 5 rejects 11 and the
        // root (children's sizes 6 + 4 = 10 > 5): only 12 is selected. scikit-learn would raise a
        // KeyError here (its root label is missing); Sylva, like the hdbscan package, calls 0..5 noise.
        CondensedTree ct = CondensedTree.condense(tenPoints(4.0), 4);
        Clustering c = select(ct, SelectionParameters.builder().maxClusterSize(5).allowSingleCluster(true));
        assertArrayEquals(new int[] {12}, c.selectedNodes());
        assertArrayEquals(new int[] {-1, -1, -1, -1, -1, -1, 0, 0, 0, 0}, c.labels());
    }

    // ---- allow_single_cluster ----

    @Test
    void singleClusterWhenTheRootIsMostStable() {
        // AB-C joined at 0.75 (lambda 4/3), mcs 4: root 10 * 4/3 = 13.33 beats 6 * (2 - 4/3) + 4 * (2 - 4/3).
        CondensedTree ct = CondensedTree.condense(tenPoints(0.75), 4);
        Clustering without = ClusterSelector.select(ct, SelectionParameters.defaults());
        assertArrayEquals(new int[] {11, 12}, without.selectedNodes());
        Clustering with = select(ct, SelectionParameters.builder().allowSingleCluster(true));
        assertArrayEquals(new int[] {10}, with.selectedNodes());
        // threshold = largest lambda among the root's rows = 4/3; every point falls out at 2 >= 4/3.
        assertArrayEquals(new int[10], with.labels());
        double[] ones = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
        assertArrayEquals(ones, with.probabilities(), TOL);
        // (40/3) / (10 * 2)
        assertArrayEquals(new double[] {2.0 / 3}, with.persistence(), TOL);
        // epsilon 1 => threshold 1/1 = 1: still every point; epsilon 0.4 => threshold 2.5 > 2: all noise
        assertArrayEquals(new int[10], select(ct, SelectionParameters.builder().allowSingleCluster(true)
                .clusterSelectionEpsilon(1.0)).labels());
        Clustering strict = select(ct, SelectionParameters.builder().allowSingleCluster(true)
                .clusterSelectionEpsilon(0.4));
        assertArrayEquals(new int[] {10}, strict.selectedNodes());
        assertArrayEquals(new int[] {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1}, strict.labels());
        assertArrayEquals(new double[] {1.0}, strict.persistence()); // no member: 1.0
    }

    @Test
    void sklearnLabellingThresholdTree() {
        // The condensed tree of scikit-learn's test_labelling_thresholding, with lambdas 0.1, 0.2, 0.4,
        // 2, 2 (scikit-learn uses 0.3 and 1.5): five points falling one by one out of the root.
        SingleLinkageTree slt = SingleLinkageTree.of(tree(5, new double[][] {
            {0, 2, 0.5}, {2, 4, 2.5}, {4, 3, 5}, {3, 1, 10}}));
        CondensedTree ct = CondensedTree.condense(slt, 2);
        assertArrayEquals(new double[] {
            5, 1, 0.1, 1,
            5, 3, 0.2, 1,
            5, 4, 0.4, 1,
            5, 0, 2, 1,
            5, 2, 2, 1}, ct.toMatrix());
        SelectionParameters.Builder single = SelectionParameters.builder().allowSingleCluster(true);
        // epsilon 1: threshold 1, noise = points with lambda < 1 (as the scikit-learn test counts)
        assertArrayEquals(new int[] {0, -1, 0, -1, -1}, select(ct, single.clusterSelectionEpsilon(1)).labels());
        // epsilon 0: threshold = max lambda 2: noise = points with lambda < 2
        assertArrayEquals(new int[] {0, -1, 0, -1, -1}, select(ct, single.clusterSelectionEpsilon(0)).labels());
        // epsilon 3: threshold 1/3: point 4 (0.4) joins, probability 0.4 / 2
        Clustering c = select(ct, single.clusterSelectionEpsilon(3));
        assertArrayEquals(new int[] {0, -1, 0, -1, 0}, c.labels());
        assertArrayEquals(new double[] {1, 0, 1, 0, 0.2}, c.probabilities(), TOL);
        // stability 0.1 + 0.2 + 0.4 + 2 + 2 = 4.7 over 3 members * lambda_max 2
        assertArrayEquals(new double[] {4.7 / 6}, c.persistence(), TOL);
        // without single-cluster mode nothing can be selected
        assertEquals(0, ClusterSelector.select(ct, SelectionParameters.defaults()).clusterCount());
        // GLOSH: (2 - lambda) / 2
        assertArrayEquals(new double[] {0, 0.95, 0, 0.9, 0.8}, OutlierScores.of(ct).scores(), TOL);
    }

    // ---- epsilon ----

    @Test
    void leafEpsilonMergesLeavesBornBelowIt() {
        CondensedTree ct = CondensedTree.condense(tenPoints(4.0), 3);
        // 13 and 14 are born at distance 1/2 = 0.5, 11 and 12 at 4.
        SelectionParameters.Builder leaf = SelectionParameters.builder().method(SelectionMethod.LEAF);
        // 0.5 < 0.6: 13 and 14 climb to 11 (born at 4 > 0.6); 12 stays.
        assertArrayEquals(new int[] {11, 12}, select(ct, leaf.clusterSelectionEpsilon(0.6)).selectedNodes());
        // 0.5 < 0.5 is false: the leaves stay (the comparison is strict).
        assertArrayEquals(new int[] {12, 13, 14}, select(ct, leaf.clusterSelectionEpsilon(0.5)).selectedNodes());
        // 5: everything is born below it; without single-cluster mode the walk stops at the root's children.
        Clustering five = select(ct, leaf.clusterSelectionEpsilon(5));
        assertArrayEquals(new int[] {11, 12}, five.selectedNodes());
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0, 1, 1, 1, 1}, five.labels());
        // ... with it, at the root; threshold 1/5: every point (lambda >= 2) is labelled.
        Clustering root = select(ct, leaf.clusterSelectionEpsilon(5).allowSingleCluster(true));
        assertArrayEquals(new int[] {10}, root.selectedNodes());
        assertArrayEquals(new int[10], root.labels());
        // root's largest direct lambda is 0.25, below every point's: probabilities 1
        assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, root.probabilities(), TOL);
        // 2.5 / (10 * 4)
        assertArrayEquals(new double[] {0.0625}, root.persistence(), TOL);
    }

    @Test
    void eomEpsilonClimbsFromTheEomSelection() {
        CondensedTree ct = CondensedTree.condense(tenPoints(4.0), 3);
        // Max size 5 makes EOM pick {12, 13, 14}; epsilon 0.6 lifts 13 and 14 back to 11.
        Clustering c = select(ct, SelectionParameters.builder().maxClusterSize(5).clusterSelectionEpsilon(0.6));
        assertArrayEquals(new int[] {11, 12}, c.selectedNodes());
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0, 1, 1, 1, 1}, c.labels());
        // 11's stability was replaced by its children's sum 3*(L-2)*2 = 4 (float64, as scikit-learn):
        // persistence 4 / (6 * 4); 12: 13 / 16.
        assertArrayEquals(new double[] {1.0 / 6, 0.8125}, c.persistence(), TOL);
        // The EOM selection {root} is left alone by epsilon.
        CondensedTree rootWins = CondensedTree.condense(tenPoints(0.75), 4);
        assertArrayEquals(new int[] {10}, select(rootWins, SelectionParameters.builder().allowSingleCluster(true)
                .clusterSelectionEpsilon(100)).selectedNodes());
    }

    // ---- GLOSH ----

    @Test
    void gloshUsesTheLargestLambdaOfTheWholeSubtree() {
        CondensedTree ct = CondensedTree.condense(tenPoints(4.0), 4);
        // mcs 4: 11 and 12 are leaves, every point leaves at lambda 2 = the subtree maximum: all 0.
        assertArrayEquals(new double[10], OutlierScores.of(ct).scores());
        // A point falling out of the root above a deeper cluster: chain 0-1 at 0.5, 1-2 at 0.5 (cluster of 3),
        // 3 joins at 4. mcs 2: root loses point 3 at lambda 0.25; the subtree maximum below is 2.
        SingleLinkageTree slt = SingleLinkageTree.of(tree(4, new double[][] {{0, 1, 0.5}, {1, 2, 0.5}, {2, 3, 4}}));
        CondensedTree small = CondensedTree.condense(slt, 2);
        // root 4: node 6 (size 3) and point 3: point 3 falls out at 0.25; node 6 -> node 4 (relabelled 4):
        // node 5 (size 2) and point 2: falls at 2; node 5: points 0, 1 at 2.
        assertArrayEquals(new double[] {4, 3, 0.25, 1, 4, 2, 2, 1, 4, 0, 2, 1, 4, 1, 2, 1}, small.toMatrix());
        assertArrayEquals(new double[] {0, 0, 0, (2 - 0.25) / 2}, OutlierScores.of(small).scores(), TOL);
    }

    @Test
    void gloshIsOneWhereDuplicatesMakeTheSubtreeMaximumInfinite() {
        // Points 0, 1, 2 coincide; 3 joins at 1, 4 at 2; mcs 3.
        SingleLinkageTree slt = SingleLinkageTree.of(tree(5, new double[][] {
            {0, 1, 0}, {1, 2, 0}, {2, 3, 1}, {3, 4, 2}}));
        CondensedTree ct = CondensedTree.condense(slt, 3);
        assertArrayEquals(new double[] {
            5, 4, 0.5, 1,
            5, 3, 1, 1,
            5, 0, Double.POSITIVE_INFINITY, 1,
            5, 1, Double.POSITIVE_INFINITY, 1,
            5, 2, Double.POSITIVE_INFINITY, 1}, ct.toMatrix());
        // The Python formula gives (inf - 0.5) / inf = NaN for points 3 and 4; Sylva gives 1.0.
        // Points at lambda inf score 0.
        assertArrayEquals(new double[] {0, 0, 0, 1, 1}, OutlierScores.of(ct).scores());
    }

    // ---- tiny inputs ----

    @Test
    void noPointsAndOnePoint() {
        for (int n = 0; n <= 1; n++) {
            CondensedTree ct = CondensedTree.condense(
                    SingleLinkageTree.of(SpanningTree.of(n, new int[0], new int[0], new double[0])), 5);
            assertEquals(0, ct.rows());
            assertEquals(0, ct.clusterCount());
            for (boolean allow : new boolean[] {false, true}) {
                for (SelectionMethod m : SelectionMethod.values()) {
                    Clustering c = select(ct, SelectionParameters.builder().method(m).allowSingleCluster(allow));
                    assertEquals(n, c.points());
                    assertEquals(0, c.clusterCount());
                    if (n == 1) assertEquals(-1, c.label(0));
                }
            }
            assertArrayEquals(new double[n], OutlierScores.of(ct).scores());
        }
    }

    @Test
    void twoPoints() {
        CondensedTree ct = CondensedTree.condense(SingleLinkageTree.of(tree(2, new double[][] {{0, 1, 0.5}})), 2);
        assertArrayEquals(new double[] {2, 0, 2, 1, 2, 1, 2, 1}, ct.toMatrix());
        assertArrayEquals(new int[] {-1, -1}, ClusterSelector.select(ct, SelectionParameters.defaults()).labels());
        Clustering single = select(ct, SelectionParameters.builder().allowSingleCluster(true));
        assertArrayEquals(new int[] {0, 0}, single.labels());
        assertArrayEquals(new double[] {1, 1}, single.probabilities());
        assertArrayEquals(new double[] {1.0}, single.persistence()); // (2 + 2) / (2 * 2)
    }

    @Test
    void fewerPointsThanMinClusterSize() {
        // n = 3 < mcs = 5: the root never splits. As in scikit-learn: all noise by default; in
        // single-cluster mode EOM selects the root and labels the points at its largest lambda.
        CondensedTree ct = CondensedTree.condense(SingleLinkageTree.of(tree(3, new double[][] {
            {0, 1, 1.0}, {1, 2, 2.0}})), 5);
        assertArrayEquals(new double[] {3, 0, 0.5, 1, 3, 1, 0.5, 1, 3, 2, 0.5, 1}, ct.toMatrix());
        for (SelectionMethod m : SelectionMethod.values()) {
            assertArrayEquals(new int[] {-1, -1, -1},
                    select(ct, SelectionParameters.builder().method(m)).labels());
        }
        assertArrayEquals(new int[] {0, 0, 0}, select(ct, SelectionParameters.builder().allowSingleCluster(true))
                .labels());
    }

    // ---- parameters and re-selection ----

    @Test
    void badParametersAreRefusedByName() {
        InvalidInputException eps = assertThrows(InvalidInputException.class,
                () -> SelectionParameters.builder().clusterSelectionEpsilon(-0.1).build());
        assertEquals("cluster_selection_epsilon must be >= 0; got -0.1", eps.getMessage());
        assertEquals(java.util.Optional.of("cluster_selection_epsilon"), eps.parameter());
        assertThrows(InvalidInputException.class,
                () -> SelectionParameters.builder().clusterSelectionEpsilon(Double.NaN).build());
        InvalidInputException max = assertThrows(InvalidInputException.class,
                () -> SelectionParameters.builder().maxClusterSize(-1).build());
        assertEquals("max_cluster_size must be >= 0 (0 = no limit); got -1", max.getMessage());
        assertEquals(java.util.Optional.of("max_cluster_size"), max.parameter());
    }

    @Test
    void reselectionReadsTheTreeWithoutChangingIt() {
        SingleLinkageTree slt = tenPoints(4.0);
        CondensedTree ct = CondensedTree.condense(slt, 3);
        double[] before = ct.stabilities();
        Clustering first = ClusterSelector.select(ct, SelectionParameters.defaults());
        select(ct, SelectionParameters.builder().maxClusterSize(5).clusterSelectionEpsilon(0.6));
        select(ct, SelectionParameters.builder().method(SelectionMethod.LEAF));
        assertArrayEquals(before, ct.stabilities());
        assertEquals(first, ClusterSelector.select(ct, SelectionParameters.defaults()));
        // another min cluster size from the same single-linkage tree
        assertEquals(CondensedTree.condense(slt, 4), CondensedTree.condense(tenPoints(4.0), 4));
        assertEquals(SelectionParameters.defaults(), SelectionParameters.defaults().toBuilder().build());
    }

    /**
     * A cluster's persistence divides by the largest lambda of all its rows, wherever that row stands: in a tree given
     * to {@link CondensedTree#of}, unlike one made by {@code condense}, the largest may be the last row alone.
     * Root 4 holds points 0-2 until lambda 1 and point 3 until lambda 2: stability 1 + 1 + 1 + 2 = 5; with the single
     * cluster allowed its threshold is the largest lambda, 2, which only point 3 reaches; persistence 5 / (1 * 2).
     */
    @Test
    void persistenceDividesByTheLargestLambdaOfEveryRowTheLastIncluded() {
        CondensedTree ct = CondensedTree.of(4, 2, new int[] {4, 4, 4, 4}, new int[] {0, 1, 2, 3},
                new double[] {1, 1, 1, 2}, new int[] {1, 1, 1, 1});
        Clustering c = select(ct, SelectionParameters.builder().allowSingleCluster(true));
        assertArrayEquals(new int[] {-1, -1, -1, 0}, c.labels());
        assertArrayEquals(new double[] {2.5}, c.persistence(), TOL);
    }
}
