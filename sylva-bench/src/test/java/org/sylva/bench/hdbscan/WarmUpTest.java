package org.sylva.bench.hdbscan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WarmUpTest {
    private static final long SECOND = 1_000_000_000L;

    /** A clock that advances one second per run. */
    private final AtomicLong clock = new AtomicLong();
    private final AtomicInteger runs = new AtomicInteger();

    private void once() {
        runs.incrementAndGet();
        clock.addAndGet(SECOND);
    }

    @Test
    void runsTheWarmUpAskedForInALongLivedProcessWhenTheTimeHasPassed() {
        assertEquals(3, WarmUp.run(3, 2.0, () -> true, clock::get, this::once));
        assertEquals(3, runs.get());
    }

    @Test
    void goesOnUntilTheProcessCountsAsLongLived() {
        AtomicInteger asked = new AtomicInteger();
        // long-lived from the fifth question on: one run asked for, four more while the answer is no
        assertEquals(5, WarmUp.run(1, 0.0, () -> asked.incrementAndGet() >= 5, clock::get, this::once));
        assertEquals(5, runs.get());
        assertEquals(5, asked.get());
    }

    @Test
    void goesOnUntilTheTimeHasPassed() {
        // one second per run: 7.5 s take eight runs, whatever the number asked for below that
        assertEquals(8, WarmUp.run(1, 7.5, () -> true, clock::get, this::once));
        clock.set(0);
        assertEquals(8, WarmUp.run(8, 7.5, () -> true, clock::get, this::once));
        clock.set(0);
        assertEquals(12, WarmUp.run(12, 7.5, () -> true, clock::get, this::once));
        assertEquals(28, runs.get());
    }

    @Test
    void theTimeCountsFromTheFirstRunOfALongLivedProcess() {
        AtomicInteger asked = new AtomicInteger();
        // long-lived from the fourth question on (three runs made, 3 s gone): 2.5 s more take three more runs
        assertEquals(6, WarmUp.run(1, 2.5, () -> asked.incrementAndGet() >= 4, clock::get, this::once));
        assertEquals(6, runs.get());
        // no time asked for: still one run of a long-lived process, so its code is compiled before any timed run
        asked.set(0);
        clock.set(0);
        runs.set(0);
        assertEquals(4, WarmUp.run(3, 0.0, () -> asked.incrementAndGet() >= 4, clock::get, this::once));
    }

    @Test
    void noWarmUpTimesAFreshProcess() {
        AtomicInteger asked = new AtomicInteger();
        assertEquals(0, WarmUp.run(0, 60.0, () -> asked.incrementAndGet() > 100, clock::get, this::once));
        assertEquals(0, runs.get());
        assertEquals(0, asked.get(), "not even asked");
    }

    @Test
    void stopsAtItsBoundAndRefusesNonsense() {
        assertEquals(WarmUp.MAX_RUNS, WarmUp.run(1, 0.0, () -> false, clock::get, runs::incrementAndGet));
        assertEquals(WarmUp.MAX_RUNS, runs.get());
        assertThrows(IllegalArgumentException.class, () -> WarmUp.run(-1, 0.0, () -> true, clock::get, this::once));
        assertThrows(IllegalArgumentException.class, () -> WarmUp.run(1, -1.0, () -> true, clock::get, this::once));
        assertThrows(IllegalArgumentException.class, () -> WarmUp.run(1, Double.NaN, () -> true, clock::get, this::once));
    }
}
