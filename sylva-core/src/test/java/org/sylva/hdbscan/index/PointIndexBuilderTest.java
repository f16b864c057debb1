package org.sylva.hdbscan.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.sylva.progress.CancellationToken;

class PointIndexBuilderTest {
    @Test
    void partitionIsPreOrderWithConsecutiveLeavesAndWholeBlocks() {
        int n = 3000, d = 5;
        double[] rows = PointIndexTest.randomRows(n, d, 9);
        for (int w : new int[] {1, 4, 8}) {
            PointIndex idx = new PointIndexBuilder(rows, n, d, w).build();
            assertEquals(w, idx.blockWidth());
            int nextLeaf = 0;
            for (int node = 0; node < idx.nodes(); node++) {
                int leaf = idx.leafOf(node);
                if (leaf >= 0) {
                    // Pre-order, left first: leaves are met in id order and fill whole blocks.
                    assertEquals(nextLeaf++, leaf);
                    assertEquals(node, idx.leafNode(leaf));
                    assertEquals(idx.leafStart(leaf), idx.nodeStart(node));
                    assertEquals(0, idx.nodeEnd(node) % w);
                    assertTrue(idx.leafCount(leaf) <= PointIndex.LEAF_SIZE);
                    continue;
                }
                int l = idx.left(node), r = idx.right(node);
                assertEquals(node + 1, l, "left child follows its parent");
                assertTrue(r > l);
                assertEquals(idx.nodeStart(node), idx.nodeStart(l));
                assertEquals(idx.nodeEnd(l), idx.nodeStart(r), "siblings' positions are adjacent");
                assertEquals(idx.nodeEnd(node), idx.nodeEnd(r));
                assertEquals(idx.nodeSize(node), idx.nodeSize(l) + idx.nodeSize(r));
                assertTrue(idx.nodeSize(node) > PointIndex.LEAF_SIZE);
                assertEquals(0, idx.nodeSize(l) % w, "cut at a multiple of the block width");
                // Every point lies in its node's ball (the radius is the largest centre distance).
                for (int p = idx.nodeStart(node); p < idx.nodeEnd(node); p++) {
                    if (idx.original(p) < 0) continue;
                    double c = Math.sqrt(idx.centreSquaredDistance(node, p));
                    assertTrue(c <= idx.radius(node) * (1 + 1e-12) + 1e-12);
                }
            }
            assertEquals(idx.leaves(), nextLeaf);
            assertEquals(0, idx.positions() % w);
        }
    }

    @Test
    void anExactFloat32CopyWhenEveryCoordinateIsAFloat() {
        double[] exact = {0.5, -2, 1e6, 3.25};
        PointIndex a = new PointIndexBuilder(exact, 2, 2, 4).build();
        assertNotNull(a.blocks32());
        // the coordinates by decreasing variance: column 1 (-2, 3.25) varies less than column 0 (0.5, 1e6)
        assertArrayEquals(new int[] {0, 1}, Float32Copy.order(exact, 2, 2));
        for (int i = 0; i < a.blocks().length; i++) assertEquals(a.blocks()[i], a.blocks32()[i]);
        double[] swapped = {-2, 0.5, 3.25, 1e6};
        PointIndex b = new PointIndexBuilder(swapped, 2, 2, 4).build();
        assertArrayEquals(new int[] {1, 0}, Float32Copy.order(swapped, 2, 2));
        for (int blk = 0; blk < b.blocks().length / 8; blk++) {
            for (int l = 0; l < 4; l++) {
                assertEquals(b.blocks()[blk * 8 + 4 + l], b.blocks32()[blk * 8 + l], "coordinate 1 first");
                assertEquals(b.blocks()[blk * 8 + l], b.blocks32()[blk * 8 + 4 + l], "coordinate 0 second");
            }
        }
        // ties keep the index order
        assertArrayEquals(new int[] {0, 1, 2}, Float32Copy.order(new double[] {1, 1, 1, 2, 2, 2}, 2, 3));
        assertEquals(0.0, a.float32Rounding());
    }

    /** The coordinates' order: a boxed sort's by (descending variance, index), for every length and many ties. */
    @Test
    void theCoordinatesOrderIsTheComparatorsForAnyLength() {
        java.util.Random r = new java.util.Random(17);
        for (int d = 0; d <= 70; d++) {
            for (int trial = 0; trial < 20; trial++) {
                double[] v = new double[d];
                int distinct = 1 + r.nextInt(Math.max(1, d));
                for (int j = 0; j < d; j++) v[j] = trial % 4 == 0 ? -0.0 + r.nextInt(2) * 0.0 : r.nextInt(distinct) * 0.5;
                Integer[] want = new Integer[d];
                for (int j = 0; j < d; j++) want[j] = j;
                java.util.Arrays.sort(want, (a, b) -> {
                    int c = Double.compare(v[b], v[a]);
                    return c != 0 ? c : Integer.compare(a, b);
                });
                int[] got = Float32Copy.byDescending(v);
                for (int j = 0; j < d; j++) assertEquals(want[j].intValue(), got[j], "d " + d + ", trial " + trial);
            }
        }
    }

    /**
     * Coordinates that are not all float32 values give a copy of the points minus their mean (the root's
     * centre), rounded, coordinates by decreasing variance, padding 0, each point within
     * {@code float32Rounding} of its shifted self; a shifted value beyond the float32 limit gives no copy.
     */
    @Test
    void aRoundedCopyHoldsThePointsMinusTheirMean() {
        int n = 5, d = 2;
        double[] rows = {0.1, 1000.5, 0.7, 1003, 0.4, 998, 0.2, 1001.25, 0.35, 999.9};
        assertNull(new PointIndexBuilder(rows, n, d, 4).build().blocks32(), "too few points for a rounded copy");
        PointIndexBuilder b = new PointIndexBuilder(rows, n, d, 4);
        b.roundedCopyMinPoints = 0;
        PointIndex idx = b.build();
        assertNotNull(idx.blocks32());
        double r = idx.float32Rounding();
        assertTrue(r > 0 && r < 1e-6, "rounding " + r);
        int[] order = Float32Copy.order(rows, n, d);
        assertArrayEquals(new int[] {1, 0}, order);
        double[] mean = Arrays.copyOf(idx.centres(), d);
        int w = idx.blockWidth();
        for (int p = 0; p < idx.positions(); p++) {
            int at = (p / w) * d * w + p % w;
            int o = idx.original(p);
            double err = 0;
            for (int j = 0; j < d; j++) {
                float got = idx.blocks32()[at + j * w];
                if (o < 0) {
                    assertEquals(0f, got, "padding");
                    continue;
                }
                double shifted = rows[o * d + order[j]] - mean[order[j]];
                assertEquals((float) shifted, got);
                err += (got - shifted) * (got - shifted);
            }
            assertTrue(Math.sqrt(err) <= r, "point " + o + " is " + Math.sqrt(err) + " from its copy, above " + r);
        }
        // Points 1e-165 across: float32 holds none of them (every copy is 0) and their squared errors are
        // below float64's smallest value, yet the rounding still covers each point's distance from its copy.
        int m = 40;
        double[] tiny = new double[m * d];
        Random rnd = new Random(3);
        for (int i = 0; i < tiny.length; i++) tiny[i] = rnd.nextGaussian() * 1e-165;
        PointIndexBuilder tb = new PointIndexBuilder(tiny, m, d, 4);
        tb.roundedCopyMinPoints = 0;
        PointIndex t = tb.build();
        double[] tmean = Arrays.copyOf(t.centres(), d);
        for (int i = 0; i < m; i++) {
            double sq = 0;   // in units of 1e-165, where the squares do not underflow
            for (int j = 0; j < d; j++) {
                double s = (tiny[i * d + j] - tmean[j]) * 1e165;
                sq += s * s;
            }
            assertTrue(Math.sqrt(sq) * 1e-165 <= t.float32Rounding(),
                    "point " + i + ": " + Math.sqrt(sq) * 1e-165 + " from its copy, above " + t.float32Rounding());
        }
        PointIndexBuilder far = new PointIndexBuilder(
                new double[] {4 * PointIndex.FLOAT32_LIMIT, 1, -4 * PointIndex.FLOAT32_LIMIT, 1}, 2, 2, 4);
        far.roundedCopyMinPoints = 0;
        assertNull(far.build().blocks32());
    }

    @Test
    void overflowingProjectionsStillPartitionEveryPointOnce() {
        // Coordinates near the largest double: differences overflow and projections can be NaN.
        int n = 700, d = 3;
        Random r = new Random(2);
        double[] rows = new double[n * d];
        for (int i = 0; i < rows.length; i++) rows[i] = (r.nextBoolean() ? 1 : -1) * Double.MAX_VALUE * r.nextDouble();
        PointIndex one = new PointIndexBuilder(rows, n, d, 4).build();
        boolean[] seen = new boolean[n];
        for (int p = 0; p < one.positions(); p++) {
            int o = one.original(p);
            if (o < 0) continue;
            assertTrue(!seen[o], "point " + o + " twice");
            seen[o] = true;
            assertEquals(p, one.position(o));
        }
        for (boolean b : seen) assertTrue(b);
        for (int t : new int[] {2, 3}) {
            PointIndex idx = new PointIndexBuilder(rows, n, d, 4, t, CancellationToken.NEVER, 0).build();
            for (int p = 0; p < one.positions(); p++) assertEquals(one.original(p), idx.original(p));
            assertArrayEquals(one.blocks(), idx.blocks());
            assertArrayEquals(one.centres(), idx.centres());
        }
    }

    @Test
    void emptyInputHasNoLeaves() {
        PointIndex idx = new PointIndexBuilder(new double[0], 0, 3, 8).build();
        assertEquals(0, idx.leaves());
        assertEquals(0, idx.positions());
        assertEquals(0, idx.size());
    }
}
