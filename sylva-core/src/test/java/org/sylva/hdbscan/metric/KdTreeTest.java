package org.sylva.hdbscan.metric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

/**
 * The k-d tree: a permutation of the rows in leaves of at most {@link KdTree#LEAF_SIZE}, each node's box the
 * tight box of its points, its smallest row index right, the same tree from the same rows, and the box bound
 * never above the computed distance to any point in the box (the pruning's whole claim), checked bitwise on
 * points inside, on the boxes' faces and far out, at scales where rounding decides.
 */
class KdTreeTest {
    private static final Metric[] METRICS = {Metric.manhattan(), Metric.chebyshev(), Metric.minkowski(3),
        Metric.minkowski(1.5), Metric.minkowski(40), Metric.minkowski(1.01)};

    @Test
    void isAPermutationInTightBoxes() {
        int n = 1000, d = 3;
        double[] x = BruteForceEngineTest.grid(n, d, 31);
        KdTree t = KdTree.build(Metric.manhattan(), x, n, d, CancellationToken.NEVER);
        boolean[] seen = new boolean[n];
        for (int i = 0; i < n; i++) {
            assertTrue(!seen[t.row(i)], "row " + t.row(i) + " twice");
            seen[t.row(i)] = true;
            for (int j = 0; j < d; j++) assertEquals(x[t.row(i) * d + j], t.sortedRows()[i * d + j]);
        }
        double[] q = new double[d];
        for (int node = 0; node < t.nodes(); node++) {
            if (t.isLeaf(node)) {
                assertTrue(t.end(node) - t.start(node) <= KdTree.LEAF_SIZE && t.end(node) > t.start(node));
            } else {
                assertEquals(t.start(node), t.start(t.left(node)));
                assertEquals(t.end(t.left(node)), t.start(t.right(node)));
                assertEquals(t.end(node), t.end(t.right(node)));
            }
            int smallest = Integer.MAX_VALUE;
            for (int i = t.start(node); i < t.end(node); i++) {
                smallest = Math.min(smallest, t.row(i));
                System.arraycopy(t.sortedRows(), i * d, q, 0, d);
                assertEquals(0.0, t.lowerBound(q, 0, node), "a point of the node lies in its box");
            }
            assertEquals(smallest, t.minRow(node));
        }
        KdTree again = KdTree.build(Metric.manhattan(), x, n, d, CancellationToken.NEVER);
        for (int i = 0; i < n; i++) assertEquals(t.row(i), again.row(i));
    }

    @Test
    void theBoundIsNeverAboveADistanceInTheBox() {
        Random r = new Random(32);
        int n = 600, d = 4;
        for (Metric m : METRICS) {
            // at 1e-5, p = 40 raises the differences into the subnormal range
            for (double scale : new double[] {1e-9, 1e-5, 1, 3e7}) {
                if (m.p() > 10 && scale > 1) continue;   // refused: |a - b|^40 would overflow
                double[] x = new double[n * d];
                // coordinates near 1 + tiny steps: differences land where rounding decides
                for (int i = 0; i < x.length; i++) x[i] = (1 + r.nextInt(50) * 1e-13 + r.nextGaussian() * 1e-3) * scale;
                KdTree t = KdTree.build(m, x, n, d, CancellationToken.NEVER);
                PairDistances dist = m.pairs(t.sortedRows(), n, d);
                double[] q = new double[d];
                for (int trial = 0; trial < 60; trial++) {
                    // a query: a fitted row with some coordinates moved onto box faces, or a random point
                    int base = r.nextInt(n);
                    for (int j = 0; j < d; j++) {
                        q[j] = trial % 3 == 0 ? x[r.nextInt(n) * d + j] : x[base * d + j] + (r.nextGaussian() * 1e-3 * scale);
                    }
                    for (int node = 0; node < t.nodes(); node++) {
                        double lb = t.lowerBound(q, 0, node);
                        for (int p = t.start(node); p < t.end(node); p++) {
                            double got = dist.toRow(q, 0, p);
                            assertTrue(lb <= got, m.describe() + ": bound " + lb + " above distance " + got);
                        }
                    }
                }
            }
        }
    }

    @Test
    void aDuplicateHeavyInputSplitsByRowIndex() {
        int n = 200, d = 2;
        double[] x = new double[n * d];   // every row equal: the order is the row index, the boxes points
        KdTree t = KdTree.build(Metric.chebyshev(), x, n, d, CancellationToken.NEVER);
        int lastLeafMax = -1;
        for (int node = 0; node < t.nodes(); node++) {
            if (!t.isLeaf(node)) continue;
            int max = -1;
            for (int i = t.start(node); i < t.end(node); i++) {
                assertTrue(t.row(i) > lastLeafMax, "leaves hold consecutive row indices");
                max = Math.max(max, t.row(i));
            }
            lastLeafMax = max;
        }
    }

    @Test
    void theMedianSearchsHeapSortMakesTheSameNodes() {
        int n = 3000, d = 3;
        double[] x = BruteForceEngineTest.grid(n, d, 33);   // many equal coordinates: only row indices order them
        KdTree quick = KdTree.build(Metric.manhattan(), x, n, d, CancellationToken.NEVER);
        KdTree heap = KdTree.build(Metric.manhattan(), x, n, d, CancellationToken.NEVER, 0);
        assertEquals(quick.nodes(), heap.nodes());
        for (int node = 0; node < quick.nodes(); node++) {
            assertEquals(quick.start(node), heap.start(node));
            assertEquals(quick.end(node), heap.end(node));
            assertEquals(quick.minRow(node), heap.minRow(node));
            if (!quick.isLeaf(node)) continue;
            java.util.Set<Integer> a = new java.util.HashSet<>(), b = new java.util.HashSet<>();
            for (int i = quick.start(node); i < quick.end(node); i++) {
                a.add(quick.row(i));
                b.add(heap.row(i));
            }
            assertEquals(a, b, "leaf " + node);
        }
    }

    @Test
    void refusesWhatItCannotBound() {
        assertThrows(IllegalArgumentException.class,
                () -> KdTree.build(Metric.cosine(), new double[4], 2, 2, CancellationToken.NEVER));
        assertThrows(IllegalArgumentException.class,
                () -> KdTree.build(Metric.manhattan(), new double[5], 2, 2, CancellationToken.NEVER));
        CancellationToken c = new CancellationToken();
        c.cancel();
        assertThrows(CancelledException.class,
                () -> KdTree.build(Metric.manhattan(), new double[4000], 2000, 2, c));
    }
}
