package org.sylva.bench.hdbscan;

import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.sylva.hdbscan.engine.StageKernels;

/**
 * The warm-up of the in-process HDBSCAN benchmarks ({@link HdbscanBench}, {@link PredictBench}): the
 * untimed runs asked for and, when there is at least one, more until the process counts as long-lived
 * ({@link StageKernels#longLived()}) and then at least one run more and a given time more. A fresh JVM makes the
 * choices of a one-shot run for its first seconds (the scalar kernels for small inputs, no principal-axis bounds
 * below 100 000 points), and the JIT compiles the code of a long-lived process's choices only once they are
 * made, so the time is counted from the first run that makes them: timed runs that start before that code is
 * compiled report neither kind of process (measured in {@code BENCHMARKS.md}, "The benchmark's warm-up": with
 * the time counted from the first run instead, a warm-up of 2 s left the first timed fit of 4 000 points ten
 * times as long as the others). A one-shot run is what
 * {@code scripts/cold-start-bench.sh} times; no warm-up at all ({@code 0} runs) times a fresh JVM's first runs.
 *
 * <pre>{@code
 * int runs = WarmUp.run(1, 10.0, () -> hdbscan.fit(points));   // at least one fit and 10 s
 * }</pre>
 */
final class WarmUp {
    /** Bound on the runs made (the time and the 5 s rule of {@link StageKernels#longLived()} end them sooner). */
    static final int MAX_RUNS = 1_000_000;

    private WarmUp() {
    }

    /**
     * Runs {@code once} at least {@code atLeast} times and, when {@code atLeast >= 1}, until the process is
     * long-lived, at least once more after it was found long-lived, and until {@code seconds} have passed since that
     * run began; returns the runs made.
     */
    static int run(int atLeast, double seconds, Runnable once) {
        return run(atLeast, seconds, StageKernels::longLived, System::nanoTime, once);
    }

    /**
     * As {@link #run(int, double, Runnable)} for work whose choices do not depend on the process's age (a GPU
     * engine's fits): the runs and the time only.
     */
    static int runAgeless(int atLeast, double seconds, Runnable once) {
        return run(atLeast, seconds, () -> true, System::nanoTime, once);
    }

    /**
     * As {@link #run(int, double, Runnable)} with the process's age told by {@code longLived} and the time by
     * {@code nanoClock}; at most {@link #MAX_RUNS} runs.
     */
    static int run(int atLeast, double seconds, BooleanSupplier longLived, LongSupplier nanoClock, Runnable once) {
        if (atLeast < 0) throw new IllegalArgumentException("warm-up runs must be >= 0, got " + atLeast);
        if (!(seconds >= 0 && seconds <= 86_400)) {
            throw new IllegalArgumentException("warm-up seconds must be in [0, 86400], got " + seconds);
        }
        long minNanos = (long) (seconds * 1e9);
        int runs = 0;
        long since = 0;   // when the first run of a long-lived process began
        boolean lived = false;
        for (; runs < atLeast; runs++) {
            if (!lived && longLived.getAsBoolean()) {
                lived = true;
                since = nanoClock.getAsLong();
            }
            once.run();
        }
        for (; runs > 0 && runs < MAX_RUNS; runs++) {
            if (lived && nanoClock.getAsLong() - since >= minNanos) break;
            if (!lived && longLived.getAsBoolean()) {
                lived = true;
                since = nanoClock.getAsLong();
            }
            once.run();
        }
        return runs;
    }
}
