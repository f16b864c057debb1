package org.sylva.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.index.PointIndex;

class IntegerGridTest {
    private static boolean exact(double[] rows, int n, int d, DistanceKernel b) {
        PointIndex idx = PointIndex.build(rows, n, d, b);
        return IntegerGrid.exactApproximations(idx, idx.positions(), idx::original);
    }

    private static DistanceKernel vector() {
        DistanceKernel b = KernelProvider.get().bestDistance();
        assumeTrue(b.approximates(), "no float32 pre-filter in this JVM (vector kernels unavailable)");
        return b;
    }

    @Test
    void binaryVectorsPixelsAndCountsQualify() {
        DistanceKernel b = vector();
        SplittableRandom r = new SplittableRandom(1);
        int n = 300;
        double[] bits = new double[n * 61];
        for (int i = 0; i < bits.length; i++) bits[i] = r.nextInt(2);
        assertTrue(exact(bits, n, 61, b));
        double[] pixels = new double[n * 3];
        for (int i = 0; i < pixels.length; i++) pixels[i] = r.nextInt(256);
        assertTrue(exact(pixels, n, 3, b));
        // far from zero, small range: the differences are what count
        double[] offset = new double[n * 2];
        for (int i = 0; i < offset.length; i++) offset[i] = 1_000_000 + r.nextInt(100);
        assertTrue(exact(offset, n, 2, b));
    }

    @Test
    void fractionsAndWideRangesDoNot() {
        DistanceKernel b = vector();
        assertFalse(exact(new double[] {0, 0, 1, 0.5, 2, 1}, 3, 2, b));
        // 2 dimensions of range 2^12: 2 * 2^24 > 2^24
        assertFalse(exact(new double[] {0, 0, 4096, 4096}, 2, 2, b));
        assertTrue(exact(new double[] {0, 0, 4096, 0}, 2, 2, b));
        // a rounded float32 copy (a coordinate that is not a float32 value): never exact
        assertFalse(exact(new double[] {0, 0, 1 + 0x1p-40, 0}, 2, 2, b));
        // integers beyond float32's 2^24 with a small range: their copy is rounded too, so not exact
        int n = 1200;
        double[] big = new double[2 * n];
        for (int i = 0; i < n; i++) big[2 * i] = 0x1p25 + 1 + i % 7;
        assertTrue(PointIndex.build(big, n, 2, b).float32Rounding() > 0);
        assertFalse(exact(big, n, 2, b));
    }

    /** The claim itself: at the limit (four dimensions of range 2048), every approximation equals the exact value. */
    @Test
    void approximationsEqualTheReferenceAtTheLimit() {
        DistanceKernel b = vector();
        SplittableRandom r = new SplittableRandom(7);
        int n = 200, d = 4;
        double[] rows = new double[n * d];
        for (int i = 0; i < rows.length; i++) rows[i] = -700 + r.nextInt(2049);
        for (int j = 0; j < d; j++) {
            rows[j] = -700;
            rows[d + j] = -700 + 2048;   // each range exactly 2048: sum of squares 2^24
        }
        PointIndex idx = PointIndex.build(rows, n, d, b);
        assertTrue(IntegerGrid.exactApproximations(idx, idx.positions(), idx::original));
        int w = idx.blockWidth(), blocks = idx.positions() / w;
        double[] ex = new double[b.tileLength(1, blocks, idx)];
        float[] ap = new float[b.tileLength(1, blocks, idx)];
        for (int p = 0; p < idx.positions(); p++) {
            if (idx.original(p) < 0) continue;
            int[] q = {p};
            b.squaredDistances(idx, q, 1, 0, blocks, ex);
            b.approximateSquaredDistances(idx, q, 1, 0, blocks, ap);
            for (int c = 0; c < idx.positions(); c++) {
                if (idx.original(c) < 0) continue;
                assertEquals(ex[c], (double) ap[c], "pair " + p + ", " + c);
            }
        }
    }
}
