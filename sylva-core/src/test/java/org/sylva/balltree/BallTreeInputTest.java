package org.sylva.balltree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

/** Bad input is refused with a precise message; empty input gives an empty tree; cancellation works. */
class BallTreeInputTest {
    private static final BallTreeBuilder B = new BallTreeBuilder().threads(1);

    private static String message(Runnable r) {
        return assertThrows(InvalidInputException.class, r::run).getMessage();
    }

    @Test
    void nanAndInfinityNameTheRow() {
        float[] x = new float[30];
        x[3 * 7 + 2] = Float.NaN;
        String msg = message(() -> B.build(PointSet.unchecked(10, 3, x)));
        assertTrue(msg.contains("point 7") && msg.contains("coordinate 2") && msg.contains("NaN"), msg);
        float[] y = new float[30];
        y[3 * 4] = Float.NEGATIVE_INFINITY;
        y[3 * 9] = Float.NaN;
        msg = message(() -> new BallTreeBuilder().threads(2).build(PointSet.unchecked(10, 3, y), new int[] {0, 0, 0, 0, 0, 1, 1, 1, 1, 1}));
        assertTrue(msg.contains("point 4") && msg.contains("Infinity"), msg);
        msg = message(() -> B.partition(PointSet.unchecked(10, 3, y), 2));
        assertTrue(msg.contains("point 4"), msg);
    }

    @Test
    void float64BeyondFloat32IsRefusedNamingTheValueAndOtherFloat64BuildsItsRoundedTree() {
        double[] x = new double[30];
        for (int i = 0; i < x.length; i++) x[i] = i * 0.1;
        x[3 * 6 + 1] = 1e39;
        PointSet huge = PointSet.ofFloat64(10, 3, x);
        for (int threads : new int[] {1, 2}) {
            BallTreeBuilder b = new BallTreeBuilder().threads(threads);
            String msg = message(() -> b.build(huge));
            assertTrue(msg.contains("point 6, coordinate 1 is 1.0E39, beyond float32's range"), msg);
            msg = message(() -> b.partition(huge, 2));
            assertTrue(msg.contains("point 6, coordinate 1 is 1.0E39"), msg);
        }
        x[3 * 6 + 1] = 0.7;
        PointSet decimals = PointSet.ofFloat64(10, 3, x);
        PointSet rounded = PointSet.of(10, 3, decimals.coordinates().clone());
        assertEquals(B.build(rounded), B.build(decimals));
        assertArrayEquals(B.partition(rounded, 2), B.partition(decimals, 2));
    }

    @Test
    void nanInALargeParallelInputNamesTheFirstRow() {
        int n = 100_000;
        float[] x = new float[n * 2];
        for (int i = 0; i < x.length; i++) x[i] = i % 97;
        x[2 * 77_777 + 1] = Float.POSITIVE_INFINITY;
        x[2 * 99_000] = Float.NaN;
        String msg = message(() -> new BallTreeBuilder().threads(2).build(PointSet.unchecked(n, 2, x)));
        assertTrue(msg.contains("point 77777"), msg);
    }

    @Test
    void zeroDimensionsAreRefusedByThePointSet() {
        String msg = message(() -> PointSet.of(3, 0, new float[0]));
        assertTrue(msg.contains("dimension"), msg);
    }

    @Test
    void mismatchedLengthsAreRefused() {
        PointSet p = PointSet.of(4, 1, new float[] {1, 2, 3, 4});
        String msg = message(() -> B.build(p, new int[] {0, 0, 0}));
        assertTrue(msg.contains("length 3") && msg.contains("4 points"), msg);
        msg = message(() -> B.build(p, new long[] {0, 0, 0, 0, 0}));
        assertTrue(msg.contains("length 5"), msg);
        msg = message(() -> B.build(p, BatchLayout.single(5)));
        assertTrue(msg.contains("5 points"), msg);
    }

    @Test
    void badBatchIdsNameThePosition() {
        PointSet p = PointSet.of(5, 1, new float[] {1, 2, 3, 4, 5});
        String msg = message(() -> B.build(p, new int[] {1, 1, 1, 2, 2}));
        assertTrue(msg.contains("position 0") && msg.contains("is 1"), msg);
        msg = message(() -> B.build(p, new int[] {0, 0, 1, 0, 1}));
        assertTrue(msg.contains("position 3") && msg.contains("is 0 after 1") && msg.contains("decrease"), msg);
        msg = message(() -> B.build(p, new long[] {0, 0, 0, 3, 3}));
        assertTrue(msg.contains("position 3") && msg.contains("is 3 after 0") && msg.contains("skip"), msg);
        msg = message(() -> B.build(p, new long[] {0, -1, 0, 0, 0}));
        assertTrue(msg.contains("position 1"), msg);
        msg = message(() -> B.build(p, new int[] {-1, 0, 0, 0, 0}));
        assertTrue(msg.contains("position 0"), msg);
    }

    @Test
    void otherParametersAreChecked() {
        PointSet p = PointSet.of(2, 1, new float[] {1, 2});
        assertTrue(message(() -> new BallTreeBuilder().threads(0)).contains("threads"));
        assertTrue(message(() -> B.partition(p, -1)).contains("target level"));
        assertTrue(message(() -> B.build(null)).contains("null"));
    }

    @Test
    void noPointsGiveAnEmptyTree() {
        PointSet empty = PointSet.of(0, 3, new float[0]);
        BallTree t = B.build(empty);
        assertEquals(0, t.size());
        assertEquals(0, t.layout().batchCount());
        assertArrayEquals(new int[0], t.indices());
        assertEquals(0, B.build(empty, new int[0]).size());
        assertEquals(0, new BallTreeBuilder().threads(4).build(empty, new long[0]).size());
        assertArrayEquals(new int[0], B.partition(empty, 3));
    }

    @Test
    void singlePointsAndPairs() {
        PointSet p = PointSet.of(3, 2, new float[] {5, 5, 1, 1, 0, 0});
        BallTree t = B.build(p, new int[] {0, 1, 1});
        // batch 0: [0, 0] mask [1, 0]; batch 1 (rows 1, 2): the smaller index first
        assertArrayEquals(new int[] {0, 0, 1, 2}, t.indices());
        assertArrayEquals(new boolean[] {true, false, true, true}, t.mask());
        assertArrayEquals(new int[] {0, 2, 4}, t.layout().slotOffsets());
        assertArrayEquals(new int[] {0, 0}, t.layout().levels());
    }

    @Test
    void cancelledBuildThrows() {
        CancellationToken token = new CancellationToken();
        token.cancel();
        PointSet p = BallTreeDeterminismTest.points(50_000, 3, false, 1);
        assertThrows(CancelledException.class, () -> new BallTreeBuilder().threads(1).cancellation(token).build(p));
        assertThrows(CancelledException.class, () -> new BallTreeBuilder().threads(2).cancellation(token).build(p));
        // a token cancelled before the call stops it before any engine work (workspace, copy)
        org.sylva.balltree.engine.TreeEngine untouched = new org.sylva.balltree.engine.TreeEngine() {
            public String name() {
                return "untouched";
            }

            public TreeArrays buildTree(PointSet points, org.sylva.balltree.layout.BatchLayout layout,
                                        org.sylva.parallel.Execution execution) {
                throw new AssertionError("a cancelled build reached the engine");
            }

            public int[] partition(PointSet points, org.sylva.balltree.layout.BatchLayout layout, int targetLevel,
                                   org.sylva.parallel.Execution execution) {
                throw new AssertionError("a cancelled partition reached the engine");
            }
        };
        BallTreeBuilder b = new BallTreeBuilder().engine(untouched).cancellation(token);
        assertThrows(CancelledException.class, () -> b.build(p));
        assertThrows(CancelledException.class, () -> b.partition(p, 3));
    }

    @Test
    void cancelledMidwayLeavesTheBuilderUsable() {
        // Cancel from inside the build (at the first finished subtree) while several threads work; the
        // failed build must not disturb the builder's next one. 100 000 points: the calling thread
        // works alongside the pool; 200 000: the build is handed over to the pool.
        for (int n : new int[] {100_000, 200_000}) {
            cancelMidway(BallTreeDeterminismTest.points(n, 3, false, 4));
        }
    }

    private static void cancelMidway(PointSet p) {
        BallTree expected = new BallTreeBuilder().threads(1).build(p);
        for (int threads : new int[] {2, 3}) {
            CancellationToken token = new CancellationToken();
            BallTreeBuilder b = new BallTreeBuilder().threads(threads).cancellation(token)
                    .progress((stage, done, total) -> token.cancel());
            assertThrows(CancelledException.class, () -> b.build(p));
            assertEquals(expected, b.cancellation(CancellationToken.NEVER).progress(null).build(p));
        }
    }

    @Test
    void aFailureInAnyThreadOfASmallBuildReachesTheCaller() {
        // In a build below the hand-over size the threads run each other's offered subtrees: a failure
        // (here thrown by the progress listener) in a subtree run by a pool worker, or by the calling
        // thread on a worker's behalf, must surface from build() and leave the builder usable.
        PointSet p = BallTreeDeterminismTest.points(40_000, 3, false, 6);
        BallTree expected = new BallTreeBuilder().threads(1).build(p);
        Thread caller = Thread.currentThread();
        int failedOnWorkers = 0;
        for (int threads : new int[] {2, 3, 4}) {
            // mode 0: any thread fails; 1: only the calling thread; 2: only pool workers
            for (int mode = 0; mode < 3; mode++) {
                for (int at : new int[] {1, 3, 7}) {
                    java.util.concurrent.atomic.AtomicInteger reports = new java.util.concurrent.atomic.AtomicInteger();
                    java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
                    int m = mode;
                    BallTreeBuilder b = new BallTreeBuilder().threads(threads).progress((stage, done, total) -> {
                        boolean onCaller = Thread.currentThread() == caller;
                        boolean eligible = m == 0 || (m == 1) == onCaller;
                        if (eligible && reports.incrementAndGet() == at) {
                            failed.set(true);
                            throw new IllegalStateException("listener failed");
                        }
                    });
                    String where = threads + " threads, mode " + m + ", report " + at;
                    boolean threw = false;
                    try {
                        b.build(p);
                    } catch (IllegalStateException e) {
                        assertEquals("listener failed", e.getMessage());
                        threw = true;
                    }
                    assertEquals(failed.get(), threw, "a failed subtree must fail the build: " + where);
                    if (threw && m == 2) failedOnWorkers++;
                    assertEquals(expected, b.progress(null).build(p), where);
                }
            }
        }
        assertTrue(failedOnWorkers > 0, "no failure was thrown on a pool worker: the test did not test that path");
    }

    @Test
    void progressReachesTheTotal() {
        PointSet p = BallTreeDeterminismTest.points(40_000, 3, false, 2);
        // One large batch; batches of 20 points (their nodes wait in a shared lane queue, and their
        // progress is reported once their leaves are final); a mix of small and large batches.
        int[] twenties = new int[40_000], mixed = new int[40_000];
        for (int i = 0; i < 40_000; i++) {
            twenties[i] = i / 20;
            mixed[i] = i < 600 ? i / 20 : i < 30_600 ? 30 : 31 + (i - 30_600) / 47;
        }
        for (int[] ids : new int[][] {null, twenties, mixed}) {
            for (int threads : new int[] {1, 2}) {
                java.util.concurrent.atomic.AtomicLong last = new java.util.concurrent.atomic.AtomicLong();
                new BallTreeBuilder().threads(threads).progress((stage, done, total) -> {
                    assertEquals(40_000, total);
                    last.accumulateAndGet(done, Math::max);
                }).build(p, ids);
                assertEquals(40_000, last.get(), "threads " + threads);
            }
        }
    }
}
