package org.sylva.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The ball tree's scheduler in both regimes (the caller working, or the job handed to the pool) and on
 * one thread: every index runs exactly once; a failure anywhere reaches the caller as the original
 * exception; and no part of the job is still running when the call returns.
 */
class SplitSchedulerTest {

    @ParameterizedTest
    @CsvSource({"1, true", "1, false", "2, true", "2, false", "4, true", "4, false"})
    void everyIndexRunsOnce(int threads, boolean callerWorks) {
        SplitScheduler s = new SplitScheduler(threads, callerWorks);
        AtomicIntegerArray runs = new AtomicIntegerArray(1000);
        s.run(() -> s.forEach(0, 1000, i -> runs.incrementAndGet(i)));
        for (int i = 0; i < 1000; i++) assertEquals(1, runs.get(i), "index " + i);
    }

    @ParameterizedTest
    @CsvSource({"1, true", "2, true", "2, false", "4, false"})
    void aFailureReachesTheCallerAfterEveryPartStopped(int threads, boolean callerWorks) {
        SplitScheduler s = new SplitScheduler(threads, callerWorks);
        IllegalStateException boom = new IllegalStateException("boom at 3");
        AtomicInteger running = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> s.run(() -> s.forEach(0, 64, i -> {
            running.incrementAndGet();
            started.incrementAndGet();
            try {
                if (i == 3) throw boom;
                // Parts that are already running go on for a while after the failure.
                long until = System.nanoTime() + 2_000_000L;
                for (int spin = 0; spin < 1_000_000 && System.nanoTime() < until; spin++) Thread.onSpinWait();
            } finally {
                running.decrementAndGet();
            }
        })));
        assertEquals("boom at 3", thrown.getMessage());
        if (threads == 1) assertSame(boom, thrown);
        assertEquals(0, running.get(), "a part was still running when the call returned");
        assertEquals(true, started.get() >= 1);
    }

    /**
     * An interrupt that reaches the caller just as a large job ends is kept: the job itself interrupts the
     * waiting caller as its last act, many times over. ForkJoinTask.get(), which the scheduler waited with
     * before, can lose one (it consumes the interrupt, and returns normally if the task is done by its next
     * look); these runs did not catch that narrow window, so this guards the property, not that race.
     */
    @org.junit.jupiter.api.Test
    void anInterruptArrivingAsTheJobEndsIsKept() {
        SplitScheduler s = new SplitScheduler(2, false);
        Thread caller = Thread.currentThread();
        int lost = 0;
        for (int i = 0; i < 3000; i++) {
            AtomicInteger spin = new AtomicInteger();
            int wait = i % 64;
            s.run(() -> {
                for (int j = 0; j < wait; j++) spin.incrementAndGet();   // vary where the interrupt lands
                caller.interrupt();
            });
            if (!Thread.interrupted()) lost++;
        }
        assertEquals(0, lost, "interrupts lost");
    }

    /**
     * A large job started from a worker of its own pool (a progress listener calling back into the library) runs
     * there: every worker handing its nested job over and blocking left nothing to run them, a hang for good.
     * Five workers, each inside the outer job at once (a barrier), each starting a nested large job.
     */
    @org.junit.jupiter.api.Test
    void aLargeJobStartedFromAWorkerOfItsPoolRunsThereInsteadOfWaitingForever() {
        int threads = 5;
        SplitScheduler outer = new SplitScheduler(threads, false);
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(threads);
        AtomicIntegerArray runs = new AtomicIntegerArray(threads * 100);
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () ->
                outer.run(() -> outer.forEach(0, threads, i -> {
                    try {
                        together.await(20, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException("the workers did not meet", e);
                    }
                    SplitScheduler inner = new SplitScheduler(threads, false);
                    inner.run(() -> inner.forEach(0, 100, j -> runs.incrementAndGet(i * 100 + j)));
                })));
        for (int k = 0; k < runs.length(); k++) assertEquals(1, runs.get(k), "index " + k);
    }

    /**
     * Callbacks between two pools: every worker of one pool (6) waits on a large job of the other (7), whose parts each
     * start a large job of the first. The waiting workers block as managed blocks, so the first pool starts spares for
     * the jobs queued behind them (with plain waits every worker of both pools waited for good).
     */
    @org.junit.jupiter.api.Test
    void largeJobsCallingEachOthersPoolsBackAndForthAllFinish() {
        SplitScheduler outer = new SplitScheduler(6, false);
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(6);
        AtomicInteger innermost = new AtomicInteger();
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () ->
                outer.run(() -> outer.forEach(0, 6, i -> {
                    try {
                        together.await(20, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException("the workers did not meet", e);
                    }
                    SplitScheduler middle = new SplitScheduler(7, false);
                    middle.run(() -> middle.forEach(0, 7, j -> {
                        SplitScheduler inner = new SplitScheduler(6, false);
                        inner.run(() -> inner.forEach(0, 10, k -> innermost.incrementAndGet()));
                    }));
                })));
        assertEquals(6 * 7 * 10, innermost.get());
    }

    /** A caller's own exception around another of its type, with its own message, reaches the caller as thrown. */
    @ParameterizedTest
    @CsvSource({"2, true", "2, false"})
    void anExceptionWrappingOneOfItsTypeIsNotTakenForAForkJoinCopy(int threads, boolean callerWorks) {
        SplitScheduler s = new SplitScheduler(threads, callerWorks);
        IllegalStateException own = new IllegalStateException("request 42", new IllegalStateException("low level"));
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> s.run(() -> s.forEach(0, 64, i -> {
            if (Thread.currentThread() instanceof java.util.concurrent.ForkJoinWorkerThread) throw own;
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        })));
        assertSame(own, thrown);
        assertSame(Failures.original(new IllegalStateException(own)), own, "fork-join's copy is still taken off");
    }
}
