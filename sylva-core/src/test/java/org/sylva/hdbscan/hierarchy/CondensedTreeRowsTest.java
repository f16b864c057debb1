package org.sylva.hdbscan.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;

/** {@link CondensedTree#of}: a tree's rows give the same tree back; rows that are no condensed tree are refused. */
class CondensedTreeRowsTest {
    private static final CondensedTree TEN = CondensedTree.condense(HandMadeTreesTest.tenPoints(0.75), 3);

    @Test
    void rowsGiveTheSameTree() {
        for (double join : new double[] {0.75, 4.0}) {
            for (int mcs : new int[] {2, 3, 4, 11}) {
                CondensedTree t = CondensedTree.condense(HandMadeTreesTest.tenPoints(join), mcs);
                CondensedTree back = CondensedTree.of(t.points(), t.minClusterSize(), t.parentArray(), t.childArray(),
                        t.lambdaArray(), t.childSizeArray());
                assertEquals(t, back);
                assertEquals(ClusterSelector.select(t, SelectionParameters.defaults()),
                        ClusterSelector.select(back, SelectionParameters.defaults()));
            }
        }
        assertTrue(TEN.clusterCount() > 1, "the test tree splits");
    }

    /** The rows of TEN with one edit. */
    private static String refused(Consumer<Rows> edit) {
        Rows r = new Rows();
        edit.accept(r);
        return assertThrows(InvalidInputException.class,
                () -> CondensedTree.of(r.n, 3, r.parent, r.child, r.lambda, r.size)).getMessage();
    }

    private static final class Rows {
        int n = TEN.points();
        int[] parent = TEN.parentArray(), child = TEN.childArray(), size = TEN.childSizeArray();
        double[] lambda = TEN.lambdaArray();

        void dropLast() {
            int m = parent.length - 1;
            parent = java.util.Arrays.copyOf(parent, m);
            child = java.util.Arrays.copyOf(child, m);
            size = java.util.Arrays.copyOf(size, m);
            lambda = java.util.Arrays.copyOf(lambda, m);
        }

        int firstClusterRow() {
            for (int i = 0; i < child.length; i++) if (child[i] >= n) return i;
            throw new AssertionError("no cluster row");
        }
    }

    @Test
    void brokenRowsAreRefused() {
        assertTrue(refused(r -> r.child[0] = r.n).contains("ids outside the tree"));
        assertTrue(refused(r -> r.parent[0] = 3).contains("ids outside the tree"));
        assertTrue(refused(r -> r.child[1] = r.child[0]).contains("child of a second row"));
        assertTrue(refused(r -> r.lambda[0] = Double.NaN).contains("bad lambda"));
        assertTrue(refused(r -> r.lambda[0] = -1).contains("bad lambda"));
        assertTrue(refused(r -> r.size[0] = 0).contains("bad size"));
        assertTrue(refused(r -> r.lambda[r.firstClusterRow()] *= 2).contains("born at"));
        assertTrue(refused(r -> r.dropLast()).contains("is the child of no row"));
        assertTrue(refused(r -> {
            int i = r.firstClusterRow();
            r.parent[i] = r.child[i];
        }).contains("must exceed its parent"));
        assertThrows(InvalidInputException.class, () -> CondensedTree.of(10, 3, new int[1], new int[2], new double[1],
                new int[1]));
    }

    /** Rows that form a tree but no condensation: sizes that do not count the points, lambdas out of order. */
    @Test
    void rowsThatNoCondensationGivesAreRefused() {
        assertTrue(refused(r -> r.size[r.firstClusterRow()] *= 3).matches(".*: cluster \\d+ has size \\d+ and \\d+ points under it"));
        int smallest = Integer.MAX_VALUE;
        for (int i = 0; i < TEN.childArray().length; i++) {
            if (TEN.childArray()[i] >= TEN.points()) smallest = Math.min(smallest, TEN.childSizeArray()[i]);
        }
        int tooBig = smallest + 1;
        String small = assertThrows(InvalidInputException.class, () -> CondensedTree.of(TEN.points(), tooBig,
                TEN.parentArray(), TEN.childArray(), TEN.lambdaArray(), TEN.childSizeArray())).getMessage();
        assertTrue(small.endsWith(smallest + " points under it, fewer than min_cluster_size " + tooBig), small);
        assertTrue(refused(r -> {
            int i = pointRowUnderACluster(r);
            r.lambda[i] = birth(r, r.parent[i]) / 2;
        }).contains("comes before the birth of its parent cluster"));
        // point 9 leaves C = {6, 7, 8, 9} at lambda 2; moved under the root (C one smaller), it leaves the root after
        // the root's split at 1 / 0.75
        assertTrue(refused(r -> {
            int i = rowOf(r, 9);
            r.size[rowOf(r, r.parent[i])]--;
            r.parent[i] = r.n;
        }).contains("point 9 leaves cluster 10 at lambda 2.0, after the cluster splits at 1.3333333333333333"));
    }

    /** A point's row whose parent is a cluster other than the root, born after lambda 0. */
    private static int pointRowUnderACluster(Rows r) {
        for (int i = 0; i < r.child.length; i++) {
            if (r.child[i] < r.n && r.parent[i] != r.n && birth(r, r.parent[i]) > 0) return i;
        }
        throw new AssertionError("no such point row in the test tree");
    }

    private static int rowOf(Rows r, int child) {
        for (int i = 0; i < r.child.length; i++) if (r.child[i] == child) return i;
        throw new AssertionError(child + " is the child of no row");
    }

    private static double birth(Rows r, int cluster) {
        for (int i = 0; i < r.child.length; i++) if (r.child[i] == cluster) return r.lambda[i];
        return 0;
    }
}
