package org.sylva.hdbscan.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.sylva.kernels.KernelProvider;
import org.sylva.data.InvalidInputException;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

class PointIndexTest {
    static double[] randomRows(int n, int d, long seed) {
        Random r = new Random(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = r.nextGaussian() * 10 + (i / d % 3) * 20;
        return x;
    }

    /** Building looks at the token while it partitions (issue 24: Ctrl-C while indexing), not only at the start. */
    @Test
    void aCancelDuringThePartitionStopsTheBuild() {
        int n = 20_000, d = 5;
        double[] rows = randomRows(n, d, 2);
        AtomicInteger looks = new AtomicInteger();
        CancellationToken token = CancellationToken.polling(() -> looks.incrementAndGet() > 10);
        assertThrows(CancelledException.class,
                () -> PointIndex.build(rows, n, d, KernelProvider.get().scalarDistance(), 1, token));
        assertEquals(11, looks.get(), "cancelled at the eleventh look, inside the partition");
        PointIndex same = PointIndex.build(rows, n, d, KernelProvider.get().scalarDistance(), 1, new CancellationToken());
        PointIndex plain = PointIndex.build(rows, n, d, KernelProvider.get().scalarDistance());
        assertEquals(plain.positions(), same.positions());
        for (int p = 0; p < plain.positions(); p++) assertEquals(plain.original(p), same.original(p));
    }

    @Test
    void everyPointHasOnePositionAndItsCoordinates() {
        int n = 1000, d = 7;
        double[] rows = randomRows(n, d, 1);
        PointIndex idx = PointIndex.build(rows, n, d, KernelProvider.get().scalarDistance());
        boolean[] seen = new boolean[n];
        int real = 0;
        for (int p = 0; p < idx.positions(); p++) {
            int o = idx.original(p);
            if (o < 0) continue;
            real++;
            assertTrue(!seen[o], "point " + o + " twice");
            seen[o] = true;
            assertEquals(p, idx.position(o));
            for (int j = 0; j < d; j++) assertEquals(rows[o * d + j], idx.coordinate(p, j));
        }
        assertEquals(n, real);
        int covered = 0;
        for (int l = 0; l < idx.leaves(); l++) {
            assertTrue(idx.leafCount(l) <= PointIndex.LEAF_SIZE && idx.leafCount(l) >= 1);
            assertEquals(0, idx.leafStart(l) % idx.blockWidth());
            for (int i = 0; i < idx.leafCount(l); i++) assertTrue(idx.original(idx.leafStart(l) + i) >= 0);
            covered += idx.leafCount(l);
        }
        assertEquals(n, covered);
        assertEquals(n, idx.nodeSize(0));
    }

    /**
     * Leaves reordered by a key (the spanning tree's core distances): each leaf keeps its points, now by
     * (key, original index), with their coordinates (float64 and float32 blocks) and position maps; nodes
     * unchanged; the source index untouched; the same for any thread count; a cancel stops it.
     */
    @Test
    void leavesOrderedByAKeyKeepTheirPointsAndCoordinates() {
        int n = 3000, d = 9;
        double[] rows = randomRows(n, d, 5);
        for (int i = 0; i < rows.length; i++) rows[i] = (float) rows[i];   // float32-exact: the float32 copy exists
        PointIndex idx = PointIndex.build(rows, n, d, KernelProvider.get().bestDistance());
        assertTrue(idx.hasFloat32());
        Random r = new Random(6);
        double[] key = new double[n];
        for (int i = 0; i < n; i++) key[i] = r.nextInt(40);   // many ties: the original index decides
        int[] before = new int[idx.positions()];
        for (int p = 0; p < before.length; p++) before[p] = idx.original(p);
        PointIndex sorted = idx.withLeavesOrderedBy(key, 1, CancellationToken.NEVER);
        for (int p = 0; p < before.length; p++) assertEquals(before[p], idx.original(p), "source untouched");
        assertEquals(idx.nodes(), sorted.nodes());
        assertEquals(idx.leaves(), sorted.leaves());
        for (int node = 0; node < idx.nodes(); node++) {
            assertEquals(idx.radius(node), sorted.radius(node));
            assertEquals(idx.nodeStart(node), sorted.nodeStart(node));
        }
        int w = idx.blockWidth();
        for (int l = 0; l < idx.leaves(); l++) {
            int s = idx.leafStart(l), c = idx.leafCount(l);
            assertEquals(s, sorted.leafStart(l));
            assertEquals(c, sorted.leafCount(l));
            java.util.Set<Integer> was = new java.util.HashSet<>(), now = new java.util.HashSet<>();
            for (int p = s; p < s + c; p++) {
                was.add(idx.original(p));
                now.add(sorted.original(p));
                if (p > s) {
                    int a = sorted.original(p - 1), b = sorted.original(p);
                    assertTrue(key[a] < key[b] || (key[a] == key[b] && a < b), "leaf " + l + " in (key, index) order");
                }
            }
            assertEquals(was, now, "leaf " + l + " keeps its points");
        }
        int[] order = Float32Copy.order(rows, n, d);
        for (int o = 0; o < n; o++) {
            int p = sorted.position(o);
            assertEquals(o, sorted.original(p));
            for (int j = 0; j < d; j++) {
                assertEquals(rows[o * d + j], sorted.coordinate(p, j));
                assertEquals((float) rows[o * d + order[j]], sorted.blocks32()[(p / w) * d * w + j * w + p % w]);
            }
        }
        for (int p = 0; p < sorted.positions(); p++) {
            if (sorted.original(p) < 0) {
                for (int j = 0; j < d; j++) assertEquals(0.0, sorted.coordinate(p, j), "padding stays zero");
            }
        }
        PointIndex three = idx.withLeavesOrderedBy(key, 3, CancellationToken.NEVER);
        assertArrayEquals(sorted.blocks(), three.blocks());
        assertArrayEquals(sorted.blocks32(), three.blocks32());
        for (int p = 0; p < sorted.positions(); p++) assertEquals(sorted.original(p), three.original(p));
        CancellationToken cancelled = new CancellationToken();
        cancelled.cancel();
        assertThrows(CancelledException.class, () -> idx.withLeavesOrderedBy(key, 2, cancelled));
        assertThrows(IllegalArgumentException.class, () -> idx.withLeavesOrderedBy(new double[n - 1], 1,
                CancellationToken.NEVER));
    }

    /**
     * An index rebuilt from another's leaf order ({@link PointIndex#fromOrder}) has its partition: every node holds
     * the same points, every leaf the same points in the same order, with their coordinates, whatever block width
     * the blocks are laid out in; in the order's own width the positions, blocks and float32 copy are the same too.
     * Any permutation gives an index whose balls hold their points and whose bounds are lower bounds.
     */
    @Test
    void anIndexRebuiltFromItsLeafOrderHasItsPartition() {
        var scalar = KernelProvider.get().scalarDistance();
        var best = KernelProvider.get().bestDistance();
        for (int n : new int[] {1, 50, 1000, 5000}) {
            for (boolean grid : new boolean[] {false, true}) {
                int d = 5;
                double[] rows = randomRows(n, d, n);
                if (grid) for (int i = 0; i < rows.length; i++) rows[i] = Math.floor(rows[i] / 20);   // ties, copies
                for (var source : java.util.List.of(scalar, best)) {
                    PointIndex idx = PointIndex.build(rows, n, d, source, 2, CancellationToken.NEVER);
                    LeafOrder order = idx.leafOrder();
                    assertEquals(PointIndexBuilder.CUT_WIDTH, order.cutWidth(), "one cut width for every kernel");
                    for (int w : new int[] {scalar.blockWidth(), best.blockWidth(), 4}) {
                        String what = "n " + n + ", grid " + grid + ", from width " + source.blockWidth() + " to " + w;
                        PointIndex again = new PointIndexBuilder(rows, n, d, w, 2, CancellationToken.NEVER, order).build();
                        assertArrayEquals(order.points(), again.leafOrder().points(), what);
                        assertEquals(order.cutWidth(), again.leafOrder().cutWidth(), what);
                        assertEquals(idx.nodes(), again.nodes(), what);
                        for (int node = 0; node < idx.nodes(); node++) {
                            assertArrayEquals(pointsOf(idx, node), pointsOf(again, node), what + ", node " + node);
                            assertEquals(idx.radius(node), again.radius(node), 1e-9 * (1 + idx.radius(node)), what);
                        }
                        for (int p = 0; p < again.positions(); p++) {
                            int o = again.original(p);
                            if (o < 0) continue;
                            for (int j = 0; j < d; j++) assertEquals(rows[o * d + j], again.coordinate(p, j), what);
                        }
                        if (w == source.blockWidth()) {
                            assertArrayEquals(idx.blocks(), again.blocks(), what);
                            assertArrayEquals(idx.blocks32(), again.blocks32(), what);
                            assertEquals(idx.radius(0), again.radius(0), 0.0, what);
                        }
                    }
                }
                int[] shuffled = new int[n];
                for (int i = 0; i < n; i++) shuffled[i] = i;
                Random r = new Random(n);
                for (int i = n - 1; i > 0; i--) {
                    int j = r.nextInt(i + 1), t = shuffled[i];
                    shuffled[i] = shuffled[j];
                    shuffled[j] = t;
                }
                PointIndex any = PointIndex.fromOrder(rows, n, d, scalar, new LeafOrder(8, shuffled), false, 1,
                        CancellationToken.NEVER);
                int[] runs = shuffled.clone();   // each leaf holds its run of the order, listed ascending
                for (int leaf = 0, at = 0; leaf < any.leaves(); at += any.leafCount(leaf), leaf++) {
                    java.util.Arrays.sort(runs, at, at + any.leafCount(leaf));
                }
                assertArrayEquals(runs, any.leafOrder().points());
                assertEquals(8, any.leafOrder().cutWidth(), "the order's own cut width");
                for (int t = 0; t < 100; t++) {
                    int a = r.nextInt(any.nodes()), b = r.nextInt(any.nodes());
                    double min = Double.POSITIVE_INFINITY;
                    for (int p = any.nodeStart(a); p < any.nodeEnd(a); p++) {
                        if (any.original(p) < 0) continue;
                        for (int q = any.nodeStart(b); q < any.nodeEnd(b); q++) {
                            if (any.original(q) >= 0) min = Math.min(min, Math.sqrt(any.squaredDistance(p, q)));
                        }
                    }
                    double lb = any.lowerBound(a, b);
                    assertTrue(lb < min || (lb <= 0 && min == 0), "bound " + lb + " > min distance " + min);
                }
            }
        }
        assertThrows(InvalidInputException.class, () -> new LeafOrder(8, new int[] {0, 2, 1, 2}));
        assertThrows(InvalidInputException.class, () -> new LeafOrder(8, new int[] {0, 4, 1, 2}));
        assertThrows(InvalidInputException.class, () -> new LeafOrder(0, new int[] {0}));
        assertThrows(InvalidInputException.class, () -> new LeafOrder(LeafOrder.MAX_CUT_WIDTH + 1, new int[] {0}));
        assertThrows(IllegalArgumentException.class, () -> PointIndex.fromOrder(new double[6], 3, 2, scalar,
                new LeafOrder(8, new int[] {0, 1}), true, 1, CancellationToken.NEVER));
    }

    /** The points node {@code node} holds, ascending. */
    private static int[] pointsOf(PointIndex idx, int node) {
        return java.util.stream.IntStream.range(idx.nodeStart(node), idx.nodeEnd(node)).map(idx::original)
                .filter(o -> o >= 0).sorted().toArray();
    }

    @Test
    void ballsContainTheirPointsAndBoundsAreLowerBounds() {
        int n = 700, d = 5;
        double[] rows = randomRows(n, d, 2);
        PointIndex idx = PointIndex.build(rows, n, d, KernelProvider.get().scalarDistance());
        Random r = new Random(3);
        for (int t = 0; t < 200; t++) {
            int a = r.nextInt(idx.nodes()), b = r.nextInt(idx.nodes());
            double lb = idx.lowerBound(a, b);
            double min = Double.POSITIVE_INFINITY;
            for (int p = idx.nodeStart(a); p < idx.nodeEnd(a); p++) {
                if (idx.original(p) < 0) continue;
                for (int q = idx.nodeStart(b); q < idx.nodeEnd(b); q++) {
                    if (idx.original(q) < 0) continue;
                    min = Math.min(min, Math.sqrt(idx.squaredDistance(p, q)));
                }
            }
            assertTrue(lb < min || (lb <= 0 && min == 0), "bound " + lb + " > min distance " + min);
        }
    }

    @Test
    void duplicatesAndTinyInputs() {
        double[] same = new double[300 * 3];
        PointIndex idx = PointIndex.build(same, 300, 3, KernelProvider.get().scalarDistance());
        assertTrue(idx.depth() <= 6, "depth " + idx.depth());
        assertEquals(0, PointIndex.build(new double[0], 0, 3, KernelProvider.get().scalarDistance()).leaves());
        assertEquals(1, PointIndex.build(new double[] {1, 2}, 1, 2, KernelProvider.get().scalarDistance()).leaves());
    }

    @Test
    void buildIsDeterministic() {
        double[] rows = randomRows(900, 4, 5);
        PointIndex a = PointIndex.build(rows, 900, 4, KernelProvider.get().scalarDistance());
        PointIndex b = PointIndex.build(rows, 900, 4, KernelProvider.get().scalarDistance());
        int[] pa = new int[900], pb = new int[900];
        for (int i = 0; i < 900; i++) {
            pa[i] = a.position(i);
            pb[i] = b.position(i);
        }
        assertArrayEquals(pa, pb);
    }

    @Test
    void withoutTheFloat32CopyTheIndexIsTheSameLessTheCopy() {
        int n = 5_000, d = 7;
        double[] rows = randomRows(n, d, 11);
        for (int i = 0; i < rows.length; i++) rows[i] = (float) rows[i];   // float32 values: an exact copy is made
        for (var kernel : java.util.List.of(KernelProvider.get().scalarDistance(), KernelProvider.get().bestDistance())) {
            PointIndex with = PointIndex.build(rows, n, d, kernel, 2, CancellationToken.NEVER);
            PointIndex without = PointIndex.buildWithoutFloat32Copy(rows, n, d, kernel, 2, CancellationToken.NEVER);
            assertTrue(with.hasFloat32(), kernel.name());
            assertTrue(!without.hasFloat32() && without.blocks32() == null, kernel.name());
            assertArrayEquals(with.blocks(), without.blocks(), kernel.name());
            assertEquals(with.nodes(), without.nodes());
            for (int i = 0; i < n; i++) assertEquals(with.position(i), without.position(i));
            for (int node = 0; node < with.nodes(); node++) {
                assertEquals(with.radius(node), without.radius(node), 0.0);
                assertEquals(with.lowerBound(node, with.nodes() - 1), without.lowerBound(node, with.nodes() - 1), 0.0);
            }
        }
        assertThrows(InvalidInputException.class, () -> PointIndex.buildWithoutFloat32Copy(new double[] {1, Double.NaN},
                1, 2, KernelProvider.get().scalarDistance(), 1, CancellationToken.NEVER));
    }

    @Test
    void refusesNonFiniteAndBadShapes() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> PointIndex.build(new double[] {0, 1, Double.NaN, 2}, 2, 2, KernelProvider.get().scalarDistance()));
        assertTrue(e.getMessage().contains("point 1, coordinate 0"), e.getMessage());
        assertThrows(InvalidInputException.class, () -> PointIndex.build(new double[3], 2, 2, KernelProvider.get().scalarDistance()));
    }
}
