package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The device's point order: a permutation, the same every time, and one whose tiles are compact. */
class SpatialOrderTest {
    @Test
    void aDeterministicPermutation() {
        int n = 5_000, d = 7;
        double[] x = GpuEdgeCaseTest.clipLike(n, d, 11);
        int[] order = SpatialOrder.of(x, n, d);
        int[] sorted = order.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < n; i++) assertEquals(i, sorted[i]);
        assertArrayEquals(order, SpatialOrder.of(x.clone(), n, d));
        assertArrayEquals(new int[0], SpatialOrder.of(new double[0], 0, 3));
        assertArrayEquals(new int[] {0}, SpatialOrder.of(new double[] {1, 2}, 1, 2));
    }

    @Test
    void equalCoordinatesKeepIndexOrderInsideALeaf() {
        int n = 40, d = 2;
        double[] x = new double[n * d];   // all equal: the widest coordinate has no spread
        int[] order = SpatialOrder.of(x, n, d);
        for (int i = 0; i < n; i++) assertEquals(i, order[i]);
    }

    @Test
    void tilesInTheOrderAreFarSmallerThanTilesInIndexOrder() {
        // what the kernels' tile bounds need: consecutive points near each other
        int n = 8_000, d = 12, tile = 64;
        double[] x = GpuEdgeCaseTest.clipLike(n, d, 12);
        int[] identity = new int[n];
        for (int i = 0; i < n; i++) identity[i] = i;
        double ordered = meanTileRadius(x, d, SpatialOrder.of(x, n, d), tile);
        double plain = meanTileRadius(x, d, identity, tile);
        assertTrue(ordered < 0.5 * plain, ordered + " vs " + plain);
    }

    private static double meanTileRadius(double[] x, int d, int[] order, int tile) {
        double total = 0;
        int tiles = 0;
        for (int base = 0; base < order.length; base += tile, tiles++) {
            int m = Math.min(tile, order.length - base);
            double[] c = new double[d];
            for (int r = 0; r < m; r++) for (int j = 0; j < d; j++) c[j] += x[order[base + r] * d + j] / m;
            double max = 0;
            for (int r = 0; r < m; r++) {
                double s = 0;
                for (int j = 0; j < d; j++) s += Math.pow(x[order[base + r] * d + j] - c[j], 2);
                max = Math.max(max, Math.sqrt(s));
            }
            total += max;
        }
        return total / tiles;
    }
}
