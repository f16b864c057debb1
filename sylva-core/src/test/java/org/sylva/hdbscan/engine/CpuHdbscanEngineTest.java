package org.sylva.hdbscan.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** The CPU engine's choice of workers: the smallest fits stay on the calling thread, with the same result. */
class CpuHdbscanEngineTest {

    @Test
    void fitsBelowTheBoundRunOnOneWorkerAndLargerOnesOnAllAskedFor() {
        int bound = CpuHdbscanEngine.ONE_WORKER_POINTS;
        assertEquals(1, CpuHdbscanEngine.workers(1, 2));
        assertEquals(1, CpuHdbscanEngine.workers(bound - 1, 8));
        assertEquals(8, CpuHdbscanEngine.workers(bound, 8));
        assertEquals(1, CpuHdbscanEngine.workers(bound, 1));
    }

    @Test
    void aSmallFitAskingForTwoThreadsChecksItsTokenOnTheCallingThreadOnlyAndGivesTheOneThreadResult() {
        PointSet small = ClipLikeData.generate(CpuHdbscanEngine.ONE_WORKER_POINTS - 1, 3).points();
        Set<Thread> seen = ConcurrentHashMap.newKeySet();
        // every pass's workers check the token between their units: the threads that checked it are the workers
        CancellationToken token = CancellationToken.polling(() -> {
            seen.add(Thread.currentThread());
            return false;
        });
        Hdbscan two = Hdbscan.builder().minClusterSize(10).threads(2).build();
        HdbscanResult r2 = null;
        for (int i = 0; i < 20; i++) r2 = two.fit(small, ProgressListener.NONE, token);   // many passes, many chances
        assertEquals(Set.of(Thread.currentThread()), seen);
        HdbscanResult r1 = Hdbscan.builder().minClusterSize(10).threads(1).build().fit(small);
        assertArrayEquals(r1.labels(), r2.labels());
        assertEquals(r1.spanningTree(), r2.spanningTree());
    }

    @Test
    void aFitAtTheBoundUsesTheOtherWorkerToo() {
        PointSet pts = ClipLikeData.generate(4 * CpuHdbscanEngine.ONE_WORKER_POINTS, 4).points();
        Set<Thread> seen = ConcurrentHashMap.newKeySet();
        CancellationToken token = CancellationToken.polling(() -> {
            seen.add(Thread.currentThread());
            return false;
        });
        Hdbscan two = Hdbscan.builder().minClusterSize(10).threads(2).build();
        for (int i = 0; i < 20 && seen.size() < 2; i++) two.fit(pts, ProgressListener.NONE, token);
        assertTrue(seen.size() >= 2, "a second worker checked the token in 20 fits: " + seen);
    }
}
