package org.sylva.bench.balltree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.PointSet;

/** The harness behind {@code sylva bench balltree}: shape of its result and its inputs. */
class BallTreeBenchTest {

    @Test
    void reportsMedianAndMinimumOfTheTimedBuilds() {
        PointSet pts = BallTreeBench.uniform(2000, 3, 1);
        BallTreeBench.Result r = BallTreeBench.run(pts, BallTreeBench.evenBatches(4, 500), 5, 2);
        assertEquals(2000, r.points());
        assertEquals(3, r.dimensions());
        assertEquals(4, r.batches());
        assertEquals(2, r.threads());
        assertEquals(5, r.repeat());
        assertTrue(r.minMs() > 0 && r.minMs() <= r.medianMs(), r.line());
        assertTrue(r.line().startsWith("balltree n=2000 d=3 batches=4 threads=2 repeat=5 median_ms="), r.line());
        assertTrue(r.vectorKernels() && r.line().endsWith(" kernels=vector"), "tests run with the Vector API: " + r.line());
        BallTreeBench.Result s = BallTreeBench.run(pts, BatchLayout.of(2000, BallTreeBench.evenBatches(4, 500)), 3, 1, false);
        assertTrue(!s.vectorKernels() && s.line().endsWith(" kernels=scalar"), s.line());
        assertThrows(IllegalArgumentException.class, () -> BallTreeBench.run(pts, (int[]) null, 0, 1));
    }

    @Test
    void interleavedTimingReportsEachThreadCount() {
        PointSet pts = BallTreeBench.uniform(3000, 3, 2);
        BallTreeBench.Result[] r = BallTreeBench.runInterleaved(pts,
                org.sylva.balltree.layout.BatchLayout.of(3000, BallTreeBench.evenBatches(3, 1000)), 7, 1, 2);
        assertEquals(2, r.length);
        assertEquals(1, r[0].threads());
        assertEquals(2, r[1].threads());
        for (BallTreeBench.Result x : r) {
            assertEquals(7, x.repeat());
            assertEquals(3, x.batches());
            assertTrue(x.minMs() > 0 && x.minMs() <= x.medianMs(), x.line());
        }
        assertThrows(IllegalArgumentException.class,
                () -> BallTreeBench.runInterleaved(pts, org.sylva.balltree.layout.BatchLayout.single(3000), 0, 1));
    }

    @Test
    void generatedInputsAreFixed() {
        PointSet a = BallTreeBench.uniform(100, 3, 42), b = BallTreeBench.uniform(100, 3, 42);
        assertEquals(a.get(99, 2), b.get(99, 2));
        int[] ids = BallTreeBench.evenBatches(3, 2);
        assertEquals("[0, 0, 1, 1, 2, 2]", java.util.Arrays.toString(ids));
    }

    /** The token reaches the builds: one cancelled while the warm-up builds stops the benchmark. */
    @Test
    void aCancelStopsTheBuildInFlight() {
        PointSet pts = BallTreeBench.uniform(200_000, 3, 3);
        java.util.concurrent.atomic.AtomicInteger polls = new java.util.concurrent.atomic.AtomicInteger();
        org.sylva.progress.CancellationToken token = org.sylva.progress.CancellationToken.polling(
                () -> polls.incrementAndGet() > 5);
        assertThrows(org.sylva.progress.CancelledException.class,
                () -> BallTreeBench.run(pts, BatchLayout.single(200_000), 3, 1, true, token));
        assertTrue(polls.get() > 5, "the builds looked at the token");
    }
}
