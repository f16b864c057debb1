package org.sylva.hdbscan.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.sylva.numeric.DoubleOrder;

class ProjectionCutTest {
    /** The sorted value's bits against the selection's, for every rank and for {@code rounds} quickselect rounds. */
    private static void sameAsSort(double[] x, int rounds, String what) {
        double[] sorted = x.clone();
        Arrays.sort(sorted);
        long[] keys = new long[x.length + 6];
        for (int k = 0; k < x.length; k++) {
            for (int i = 0; i < x.length; i++) keys[3 + i] = DoubleOrder.key(x[i]);
            double got = ProjectionCut.select(keys, 3, 3 + x.length, k, rounds);
            assertEquals(Double.doubleToLongBits(sorted[k]), Double.doubleToLongBits(got),
                    what + ": rank " + k + " of " + x.length + " after " + rounds + " rounds");
        }
    }

    private static void sameAsSortForEveryRoundLimit(double[] x, String what) {
        for (int rounds : new int[] {0, 1, 2, 3, ProjectionCut.MAX_ROUNDS}) sameAsSort(x, rounds, what);
    }

    @Test
    void randomValuesWithTiesSignedZerosInfinitiesAndNaN() {
        Random r = new Random(21);
        for (int trial = 0; trial < 60; trial++) {
            int n = 1 + r.nextInt(trial < 30 ? 40 : 300);
            double[] x = new double[n];
            for (int i = 0; i < n; i++) {
                switch (r.nextInt(8)) {
                    case 0 -> x[i] = r.nextInt(4);              // ties
                    case 1 -> x[i] = r.nextBoolean() ? 0.0 : -0.0;
                    case 2 -> x[i] = r.nextInt(20) == 0 ? Double.NaN : Double.POSITIVE_INFINITY;
                    case 3 -> x[i] = Double.NEGATIVE_INFINITY;
                    default -> x[i] = r.nextGaussian();
                }
            }
            sameAsSortForEveryRoundLimit(x, "trial " + trial);
        }
    }

    @Test
    void orderedReversedConstantAndOrganPipeInputs() {
        int n = 257;
        double[] up = new double[n], down = new double[n], same = new double[n], pipe = new double[n];
        for (int i = 0; i < n; i++) {
            up[i] = i;
            down[i] = n - i;
            same[i] = 7.25;
            pipe[i] = Math.min(i, n - 1 - i);
        }
        sameAsSortForEveryRoundLimit(up, "ascending");
        sameAsSortForEveryRoundLimit(down, "descending");
        sameAsSortForEveryRoundLimit(same, "constant");
        sameAsSortForEveryRoundLimit(pipe, "organ pipe");
    }

    @Test
    void selectionOnlyReordersItsRangeAndRefusesABadRank() {
        long[] keys = {9, 8, 7, 3, 1, 2, 6, 5};
        double got = ProjectionCut.select(keys, 2, 6, 1);
        assertEquals(DoubleOrder.value(2), got);
        assertEquals(9, keys[0]);
        assertEquals(8, keys[1]);
        assertEquals(6, keys[6]);
        assertEquals(5, keys[7]);
        long[] inside = Arrays.copyOfRange(keys, 2, 6);
        Arrays.sort(inside);
        assertTrue(Arrays.equals(new long[] {1, 2, 3, 7}, inside));
        assertThrows(IllegalArgumentException.class, () -> ProjectionCut.select(keys, 2, 6, 4));
        assertThrows(IllegalArgumentException.class, () -> ProjectionCut.select(keys, 2, 6, -1));
    }
}
