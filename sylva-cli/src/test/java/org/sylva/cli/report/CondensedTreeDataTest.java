package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;

class CondensedTreeDataTest {
    private static InvalidInputException bad(int n, int[] p, int[] c, double[] l, int[] s) {
        return assertThrows(InvalidInputException.class, () -> new CondensedTreeData(n, p, c, l, s));
    }

    @Test
    void acceptsTheJavadocExample() {
        CondensedTreeData t = new CondensedTreeData(4, new int[] {4, 4, 5, 5, 6, 6}, new int[] {5, 6, 0, 1, 2, 3},
                new double[] {0.5, 0.5, 2.0, 2.0, 3.0, Double.POSITIVE_INFINITY}, new int[] {2, 2, 1, 1, 1, 1});
        assertEquals(3, t.clusterCount());
        assertEquals(6, t.rows());
        assertEquals(0, CondensedTreeData.empty(10).clusterCount());
    }

    @Test
    void namesTheFirstBadRow() {
        assertTrue(bad(4, new int[] {4, 4}, new int[] {0, 1}, new double[] {1, Double.NaN}, new int[] {1, 1})
                .getMessage().contains("row 1: lambda NaN"));
        assertTrue(bad(4, new int[] {4, 4}, new int[] {0, 0}, new double[] {1, 1}, new int[] {1, 1})
                .getMessage().contains("row 1: point 0 appears twice"));
        assertTrue(bad(4, new int[] {4, 3}, new int[] {0, 1}, new double[] {1, 1}, new int[] {1, 1})
                .getMessage().contains("row 1: parent 3 is not a cluster id"));
        assertTrue(bad(4, new int[] {4, 5}, new int[] {5, 4}, new double[] {1, 1}, new int[] {2, 2})
                .getMessage().contains("row 1: cluster 4 must have a larger id than its parent 5"));
        assertTrue(bad(4, new int[] {4, 4}, new int[] {0, 1}, new double[] {1, 1}, new int[] {1, 2})
                .getMessage().contains("row 1: point 1 has childSize 2"));
        assertTrue(bad(4, new int[] {5, 5}, new int[] {0, 1}, new double[] {1, 1}, new int[] {1, 1})
                .getMessage().contains("no row has the root 4 as parent"));
        assertTrue(bad(4, new int[] {4}, new int[] {0}, new double[] {1, 2}, new int[] {1})
                .getMessage().contains("column lengths differ"));
        assertTrue(bad(4, new int[] {4, 4, 6}, new int[] {0, 6, 1}, new double[] {1, 1, 2}, new int[] {1, 1, 1})
                .getMessage().contains("cluster id 5 appears in no row"));
    }
}
