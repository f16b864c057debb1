package org.sylva.hdbscan.mst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.hierarchy.DbscanCut;
import org.sylva.hdbscan.quality.RelativeValidity;

/** {@link SpanningTree#requireTree}: edges that are no spanning tree, or a negative weight, are named; the stages that take a tree from a caller check it. */
class SpanningTreeCheckTest {
    private static SpanningTree tree(double... rows) {
        int m = rows.length / 3;
        int[] from = new int[m], to = new int[m];
        double[] w = new double[m];
        for (int e = 0; e < m; e++) {
            from[e] = (int) rows[3 * e];
            to[e] = (int) rows[3 * e + 1];
            w[e] = rows[3 * e + 2];
        }
        return SpanningTree.of(m + 1, from, to, w);
    }

    @Test
    void aSpanningTreePassesAsItIs() {
        SpanningTree t = tree(0, 1, 0.5, 2, 1, Double.POSITIVE_INFINITY, 3, 0, 0.0);
        assertSame(t, t.requireTree());
    }

    @Test
    void loopsRepeatsCyclesAndNegativeWeightsAreNamed() {
        String[][] cases = {
            {"loop", "spanning tree edge 0 (0, 0) joins points that the edges before it already connect"},
            {"repeat", "spanning tree edge 1 (1, 0) joins points that the edges before it already connect"},
            {"cycle", "spanning tree edge 2 (2, 0) joins points that the edges before it already connect"},
            {"negative", "spanning tree edge 1 (1, 2) has negative weight -0.5"}};
        SpanningTree[] trees = {
            tree(0, 0, 0.1, 1, 2, 0.1),
            tree(0, 1, 0.1, 1, 0, 0.2),
            tree(0, 1, 0.1, 1, 2, 0.1, 2, 0, 0.3),
            tree(0, 1, 0.1, 1, 2, -0.5)};
        for (int i = 0; i < trees.length; i++) {
            SpanningTree t = trees[i];
            InvalidInputException e = assertThrows(InvalidInputException.class, t::requireTree, cases[i][0]);
            assertEquals(true, e.getMessage().startsWith(cases[i][1]), e.getMessage());
            // the library's stages that take a caller's tree refuse it the same way
            assertEquals(e.getMessage(), assertThrows(InvalidInputException.class,
                    () -> DbscanCut.labels(t, 1.0, 2)).getMessage());
            assertEquals(e.getMessage(), assertThrows(InvalidInputException.class,
                    () -> RelativeValidity.of(t, new int[t.points()])).getMessage());
        }
    }
}
