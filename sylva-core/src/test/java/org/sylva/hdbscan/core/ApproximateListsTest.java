package org.sylva.hdbscan.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.ApproximationBound;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;

class ApproximateListsTest {
    @Test
    void keepsTheSmallestByValueThenPositionAndTheirLimit() {
        Random rnd = new Random(11);
        ApproximationBound bound = ApproximationBound.of(61, 0.0);
        double factor = bound.factor() * bound.factor() * (1 + 1e-12);
        double slack = bound.absolute() * (1 + bound.factor()) * (1 + 1e-12);
        // 70, 130 and 700 are buffers while the lists fill (k > BUFFER_ABOVE): the same entries and limit once sorted
        for (int k : new int[] {1, 3, 21, ApproximateLists.BUFFER_ABOVE + 6, 130, 700}) {
            int capacity = k + 12;
            for (int trial = 0; trial < (k > 200 ? 20 : 100); trial++) {
                int positions = 3;
                ApproximateLists ap = new ApproximateLists(positions, k, capacity, bound);
                int p = rnd.nextInt(positions);
                ap.reset(p);
                int count = rnd.nextInt(3 * capacity);
                float[] v = new float[count];
                int[] c = new int[count];
                for (int i = 0; i < count; i++) {
                    v[i] = rnd.nextInt(5) * 0.75f + (rnd.nextBoolean() ? 0f : 1e-7f);
                    c[i] = rnd.nextInt(k > 21 ? 400 : 40);   // repeated candidates are fine: the order stays total per entry
                }
                double lim = Double.POSITIVE_INFINITY;
                for (int i = 0; i < count; i++) {
                    double after = ap.insert(p, v[i], c[i]);
                    assertTrue(after <= lim, "limit never rises");
                    lim = after;
                    assertEquals(lim, ap.limit[p]);
                }
                Integer[] order = new Integer[count];
                for (int i = 0; i < count; i++) order[i] = i;
                Arrays.sort(order, (a, b) -> {
                    int r = Float.compare(v[a], v[b]);
                    return r != 0 ? r : Integer.compare(c[a], c[b]);
                });
                ap.finish(p);
                // a sorted run drops what falls above its limit as it goes (the limit only falls, and nothing
                // reads those entries), so it keeps the smallest entries within the final limit, at least k
                int kept = Math.min(count, capacity);
                if (k <= ApproximateLists.BUFFER_ABOVE && count >= k) {
                    int within = 0;
                    for (int r = 0; r < kept && v[order[r]] <= ap.limit[p]; r++) within++;
                    kept = within;
                }
                assertEquals(kept, ap.count[p]);
                int base = p * ap.stride();
                // the kept entries (a buffer's in no order: compared sorted), those within the limit first
                long[] want = new long[kept];
                long[] got = new long[kept];
                for (int r = 0; r < kept; r++) {
                    want[r] = key(v[order[r]], c[order[r]]);
                    got[r] = key(ap.value[base + r], ap.cand[base + r]);
                }
                if (k <= ApproximateLists.BUFFER_ABOVE) assertArrayEquals(want, got, "sorted run, k=" + k);
                Arrays.sort(got);
                assertArrayEquals(want, got, "k=" + k);
                boolean beyond = false;
                for (int r = 0; r < kept; r++) {
                    boolean within = ap.value[base + r] <= ap.limit[p];
                    if (!within) beyond = true;
                    else assertFalse(beyond, "an entry within the limit after one beyond it, k=" + k);
                }
                double wantLimit = count < k ? Double.POSITIVE_INFINITY
                        : v[order[k - 1]] * factor + slack;
                assertEquals(wantLimit, ap.limit[p]);
                assertEquals(count >= k, ap.allFull(p, 1));
            }
        }
    }

    /** A selection that runs out of partitions sorts what is left: the same entries and limits. */
    @Test
    void theSelectionsFallbackSortKeepsTheSameEntries() {
        Random rnd = new Random(5);
        ApproximationBound bound = ApproximationBound.of(61, 0.0);
        int k = 300, capacity = k + 12;
        for (int trial = 0; trial < 20; trial++) {
            int count = 4 * capacity + rnd.nextInt(capacity);
            float[] v = new float[count];
            int[] c = new int[count];
            for (int i = 0; i < count; i++) {
                v[i] = rnd.nextInt(50) * 0.5f;
                c[i] = rnd.nextInt(5000);
            }
            long[][] kept = new long[3][];
            double[] limits = new double[3];
            int[] budgets = {-1, 0, 1};
            for (int b = 0; b < 3; b++) {
                ApproximateLists ap = new ApproximateLists(1, k, capacity, bound);
                ap.partitionBudget = budgets[b];
                ap.reset(0);
                for (int i = 0; i < count; i++) ap.insert(0, v[i], c[i]);
                ap.finish(0);
                kept[b] = new long[ap.count[0]];
                for (int r = 0; r < ap.count[0]; r++) kept[b][r] = key(ap.value[r], ap.cand[r]);
                Arrays.sort(kept[b]);
                limits[b] = ap.limit[0];
            }
            assertArrayEquals(kept[0], kept[1]);
            assertArrayEquals(kept[0], kept[2]);
            assertEquals(limits[0], limits[1]);
            assertEquals(limits[0], limits[2]);
        }
    }

    /** (value, candidate) as one number in their order (non-negative values). */
    private static long key(float v, int c) {
        return ((long) Float.floatToRawIntBits(v) << 32) | c;
    }

    /**
     * Exact lists (integer data): ties, however many, ordered by the candidates' original indices, which the
     * index's positions do not follow; exactly {@code k} entries and the {@code k}-th value as the limit.
     */
    @Test
    void exactListsOrderTiesByOriginalIndex() {
        Random rnd = new Random(17);
        int n = 300;
        double[] rows = new double[2 * n];
        for (int i = 0; i < rows.length; i++) rows[i] = rnd.nextInt(50);
        PointIndex idx = PointIndex.build(rows, n, 2, KernelProvider.get().scalarDistance());
        boolean moved = false;
        for (int pos = 0; pos < n; pos++) moved |= idx.original(pos) != pos;
        assertTrue(moved, "positions that are not the original order");
        for (int k : new int[] {1, 3, 21, 40}) {
            for (int trial = 0; trial < 100; trial++) {
                ApproximateLists ap = ApproximateLists.exact(2, k, idx);
                int p = rnd.nextInt(2);
                ap.reset(p);
                int count = rnd.nextInt(3 * k + 2);
                Integer[] cands = new Integer[n];
                for (int i = 0; i < n; i++) cands[i] = i;
                java.util.Collections.shuffle(Arrays.asList(cands), rnd);
                float[] v = new float[count];
                int[] c = new int[count];
                double lim = Double.POSITIVE_INFINITY;
                for (int i = 0; i < count; i++) {
                    v[i] = rnd.nextInt(4);   // three or four values among dozens of candidates: ties everywhere
                    c[i] = cands[i];
                    double after = ap.insert(p, v[i], c[i]);
                    assertTrue(after <= lim, "limit never rises");
                    lim = after;
                }
                Integer[] order = new Integer[count];
                for (int i = 0; i < count; i++) order[i] = i;
                Arrays.sort(order, (a, b) -> {
                    int r = Float.compare(v[a], v[b]);
                    return r != 0 ? r : Integer.compare(idx.original(c[a]), idx.original(c[b]));
                });
                int kept = Math.min(count, k);
                assertEquals(kept, ap.count[p]);
                int base = p * ap.stride();
                for (int r = 0; r < kept; r++) {
                    assertEquals(v[order[r]], ap.value[base + r], "value " + r + ", k=" + k);
                    assertEquals(c[order[r]], ap.cand[base + r], "candidate " + r + ", k=" + k);
                }
                assertEquals(count < k ? Double.POSITIVE_INFINITY : v[order[k - 1]], ap.limit[p], "k=" + k);
            }
        }
    }

    @Test
    void resetAndAllFull() {
        ApproximationBound exact = new ApproximationBound(1.0, DistanceKernel.APPROXIMATION_ABSOLUTE);
        ApproximateLists ap = new ApproximateLists(4, 2, 3, exact);
        double limit = 1.0 * (1 + 1e-12) + 2 * DistanceKernel.APPROXIMATION_ABSOLUTE * (1 + 1e-12);
        for (int p = 0; p < 4; p++) ap.reset(p);
        assertEquals(3, ap.capacity());
        assertFalse(ap.allFull(0, 2));
        ap.insert(0, 1f, 5);
        ap.insert(0, 1f, 4);
        assertEquals(limit, ap.limit[0]);
        assertFalse(ap.allFull(0, 2));
        ap.insert(1, 2f, 0);
        ap.insert(1, 3f, 0);
        assertTrue(ap.allFull(0, 2));
        // A full list drops its last entry; an equal value with a larger position does not enter.
        ap.insert(0, 1f, 6);
        assertEquals(3, ap.count[0]);
        assertEquals(limit, ap.insert(0, 1f, 7));
        assertArrayEquals(new int[] {4, 5, 6}, Arrays.copyOfRange(ap.cand, 0, 3));
        ap.insert(0, 0.5f, 9);
        assertArrayEquals(new int[] {9, 4, 5}, Arrays.copyOfRange(ap.cand, 0, 3));
        ap.reset(0);
        assertEquals(0, ap.count[0]);
        assertEquals(Double.POSITIVE_INFINITY, ap.limit[0]);
    }
}
