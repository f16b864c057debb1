package org.sylva.hdbscan.hierarchy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.mst.SpanningTree;

/**
 * Half a million points in the deepest shapes a hierarchy can take: every stage must run without
 * recursion (no stack overflow) and in (near-)linear time; a quadratic epsilon walk or subtree scan
 * would take hours here and hit the timeout.
 */
class DeepTreeTest {
    private static final int N = 500_000;
    private static final Duration LIMIT = Duration.ofSeconds(60); // generous: the machine is shared

    @Test
    void chainOfSinglePointsFallsOutOfTheRoot() {
        assertTimeoutPreemptively(LIMIT, () -> {
            // Edge i joins point i + 1 at distance i + 1: a dendrogram of depth n - 1.
            int[] a = new int[N - 1], b = new int[N - 1];
            double[] w = new double[N - 1];
            for (int i = 0; i < N - 1; i++) {
                a[i] = i;
                b[i] = i + 1;
                w[i] = i + 1;
            }
            SingleLinkageTree slt = SingleLinkageTree.of(SpanningTree.of(N, a, b, w));
            CondensedTree ct = CondensedTree.condense(slt, 2);
            // Only the root: point N-1 leaves first (lambda 1/(N-1)), ..., points 1 and 0 last (lambda 1).
            assertEquals(1, ct.clusterCount());
            assertEquals(N, ct.rows());
            assertEquals(N - 1, ct.child(0));
            assertEquals(1.0, ct.lambda(N - 1));
            Clustering c = ClusterSelector.select(ct, SelectionParameters.builder().allowSingleCluster(true).build());
            // Single cluster: only points at the root's largest lambda (1.0) are members.
            assertEquals(0, c.label(0));
            assertEquals(0, c.label(1));
            assertEquals(-1, c.label(2));
            double[] glosh = OutlierScores.of(ct).scores();
            assertEquals(1.0 - 1.0 / (N - 1), glosh[N - 1], 1e-15);
        });
    }

    @Test
    void chainOfPairClustersGivesACondensedTreeOfDepthHalfN() {
        assertTimeoutPreemptively(LIMIT, () -> {
            // Pairs {2i, 2i+1} at 0.5; pair i+1 joins the chain of pairs 0..i at distance i+1.
            int k = N / 2 - 1; // the root splits into the chain C_{k-1} and pair k
            int[] a = new int[N - 1], b = new int[N - 1];
            double[] w = new double[N - 1];
            int e = 0;
            for (int i = 0; i < N / 2; i++) {
                a[e] = 2 * i;
                b[e] = 2 * i + 1;
                w[e++] = 0.5;
            }
            for (int i = 0; i < N / 2 - 1; i++) {
                a[e] = 2 * i + 1;
                b[e] = 2 * i + 2;
                w[e++] = i + 1;
            }
            CondensedTree ct = CondensedTree.condense(SingleLinkageTree.of(SpanningTree.of(N, a, b, w)), 2);
            assertEquals(2 * k + 1, ct.clusterCount()); // the root and two clusters per chain split
            // Stabilities: chain C_j gets 2/j, pair j 2(2 - 1/j): children always win, so EOM = leaf = the pairs.
            Clustering eom = ClusterSelector.select(ct, SelectionParameters.defaults());
            Clustering leaf = ClusterSelector.select(ct, SelectionParameters.builder().method(SelectionMethod.LEAF).build());
            assertEquals(N / 2, eom.clusterCount());
            assertArrayEquals(eom.labels(), leaf.labels());
            // Pair i (i >= 2) has id n + 2(k - i + 1): label k - i; pair 0 (id n + 2k - 1) k - 1; pair 1 k.
            int[] labels = eom.labels();
            for (int i = 2; i <= k; i++) {
                assertEquals(k - i, labels[2 * i]);
                assertEquals(k - i, labels[2 * i + 1]);
            }
            assertEquals(k - 1, labels[0]);
            assertEquals(k, labels[3]);
            // A huge epsilon sends every leaf up to the root's children (n + 1: chain, n + 2: pair k).
            Clustering eps = ClusterSelector.select(ct, SelectionParameters.builder().method(SelectionMethod.LEAF)
                    .clusterSelectionEpsilon(1e9).build());
            assertArrayEquals(new int[] {N + 1, N + 2}, eps.selectedNodes());
            assertEquals(1, eps.label(N - 1));
            assertEquals(0, eps.label(0));
            Clustering root = ClusterSelector.select(ct, SelectionParameters.builder().method(SelectionMethod.LEAF)
                    .clusterSelectionEpsilon(1e9).allowSingleCluster(true).build());
            assertArrayEquals(new int[] {N}, root.selectedNodes());
            assertArrayEquals(new double[N], OutlierScores.of(ct).scores());
        });
    }
}
