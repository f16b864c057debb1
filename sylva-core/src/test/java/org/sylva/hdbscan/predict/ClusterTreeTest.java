package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.hierarchy.CondensedTree;
import org.sylva.hdbscan.hierarchy.SelectionMethod;

/**
 * {@link ClusterTree#mergeHeight} (binary lifting) against a literal port of the package's
 * {@code merge_height} loop, for every pair of clusters of deep condensed trees, and the labels of
 * clusters against a walk to the selected ancestor.
 */
class ClusterTreeTest {
    /** The package's merge_height, line by line: climb the larger id, remember the last cluster moved. */
    static double literal(CondensedTree t, int c, double lambda, int k) {
        int n = t.points();
        int left = c + n, right = k + n;
        boolean tookLeft = false, tookRight = false;
        int last = -1;
        while (left != right) {
            if (left > right) {
                tookLeft = true;
                last = left;
                left = parentOf(t, left);
            } else {
                tookRight = true;
                last = right;
                right = parentOf(t, right);
            }
        }
        if (tookLeft && tookRight) {
            for (int r = 0; r < t.rows(); r++) if (t.child(r) == last) return t.lambda(r);
        }
        return lambda;
    }

    private static int parentOf(CondensedTree t, int cluster) {
        for (int r = 0; r < t.rows(); r++) if (t.child(r) == cluster) return t.parent(r);
        throw new AssertionError("cluster " + cluster + " has no row");
    }

    @Test
    void mergeHeightsAreThePackagesOnEveryPair() {
        for (long seed : new long[] {1, 2}) {
            HdbscanResult r = Hdbscan.builder().minClusterSize(5).minSamples(3).threads(2).build()
                    .fit(ClipLikeData.generate(1500, seed).points());
            HdbscanResult leaf = r.reselect(r.parameters().toBuilder().clusterSelectionMethod(SelectionMethod.LEAF).build());
            CondensedTree t = leaf.condensedTree();
            ClusterTree ct = new ClusterTree(t, leaf.selectedClusters());
            int nc = ct.clusters();
            int maxDepth = 0;
            for (int k = 0; k < nc; k++) maxDepth = Math.max(maxDepth, ct.depth(k));
            assertTrue(nc > 30 && maxDepth > 5, "a deep tree: " + nc + " clusters, depth " + maxDepth);
            for (int c = 0; c < nc; c++) {
                for (int k = 0; k < nc; k++) {
                    double lam = 0.25 + c;
                    assertEquals(literal(t, c, lam, k), ct.mergeHeight(c, lam, k), "clusters " + c + ", " + k);
                }
            }
            int[] sel = leaf.selectedClusters();
            for (int k = 0; k < nc; k++) {
                int want = -1;
                for (int x = k; x >= 0 && want < 0; x = ct.parent(x)) {
                    for (int l = 0; l < sel.length; l++) if (sel[l] - t.points() == x) want = l;
                }
                assertEquals(want, ct.label(k), "label of cluster " + k);
            }
        }
    }
}
