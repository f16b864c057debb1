package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Comparator;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.engine.FittedPoints;

/**
 * The device's nearest lists, read back through {@link KernelFit}, against a brute force on the host:
 * the same squared distances (summed in dimension order) and, where distances tie, the smaller original
 * index first, although the device stores the points in its spatial order and skips whole tiles.
 */
class KernelFitTest {
    @Test
    void listsAreInDistanceThenIndexOrderOnATieHeavyGrid() {
        listsAgainstABruteForce(1 << 20);
    }

    @Test
    void copiesInManySmallChunksGiveTheSameLists() {
        // 100 entries a copy: 33 rows of points and 11 rows of lists per chunk, a ragged last chunk of each
        int old = KernelFit.stageEntries;
        KernelFit.stageEntries = 100;
        try {
            listsAgainstABruteForce(100);
        } finally {
            KernelFit.stageEntries = old;
        }
    }

    private static void listsAgainstABruteForce(int stage) {
        assertEquals(stage, KernelFit.stageEntries);
        int n = 700, d = 3, k = 9;
        double[] x = new double[n * d];
        java.util.SplittableRandom r = new java.util.SplittableRandom(5);
        for (int i = 0; i < x.length; i++) x[i] = r.nextInt(6);   // 216 grid nodes: equal distances everywhere
        double[] sq = new double[n * k];
        int[] idx = new int[n * k];
        try (DeviceFit f = TestDevice.openCl().open(new FittedPoints(x, n, d), k)) {
            f.coreLists(0, 300);
            f.coreLists(300, n - 300);
            f.readLists(sq, idx);
        }
        for (int p = 0; p < n; p++) {
            Integer[] q = new Integer[n];
            double[] s = new double[n];
            for (int o = 0; o < n; o++) {
                q[o] = o;
                double sum = 0;
                for (int j = 0; j < d; j++) {
                    double t = x[p * d + j] - x[o * d + j];
                    sum += t * t;
                }
                s[o] = sum;
            }
            Arrays.sort(q, Comparator.<Integer>comparingDouble(o -> s[o]).thenComparingInt(o -> o));
            for (int t = 0; t < k; t++) {
                assertEquals(q[t], idx[p * k + t], "point " + p + ", entry " + t);
                assertEquals(s[q[t]], sq[p * k + t], "point " + p + ", entry " + t);
            }
        }
    }
}
