package org.sylva.bench.hdbscan;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import org.sylva.progress.CancellationToken;

/**
 * What an in-process benchmark ({@link HdbscanBench}, {@link PredictBench},
 * {@link org.sylva.bench.balltree.BallTreeBench}) says as it goes and what stops it: a
 * line per timed run and per warm-up run, with its time ({@code "warm-up run 2: 3.104 s"}, {@code "run 1 of 3: 2.977
 * s"}), so a benchmark of large inputs is not silent for minutes, and the token each run is given, so that it stops
 * within the library's own cancellation latency rather than at the end of a run. Warm-up runs are told at most once
 * a second (the first always): a small input makes thousands of them in its warm-up seconds.
 *
 * <pre>{@code
 * BenchControl control = new BenchControl(line -> System.err.println("sylva: bench " + line), token);
 * HdbscanBench.Result r = HdbscanBench.run(points, hdbscan, 3, 1, 10.0, control);
 * }</pre>
 *
 * @param lines receives each line, without a line end
 * @param cancel given to every run
 */
public record BenchControl(Consumer<String> lines, CancellationToken cancel) {
    /** Least time between two warm-up lines. */
    static final long WARM_UP_LINE_NANOS = 1_000_000_000L;

    /** No lines, never cancelled. */
    public static final BenchControl QUIET = new BenchControl(line -> { }, CancellationToken.NEVER);

    public BenchControl {
        Objects.requireNonNull(lines, "lines");
        Objects.requireNonNull(cancel, "cancel");
    }

    /** {@code once}, telling its runs as warm-up runs with their number and time, the first and then one a second. */
    public Runnable warmUps(Runnable once) {
        int[] runs = {0};
        long[] told = {0};
        return () -> {
            long t0 = System.nanoTime();
            once.run();
            long t1 = System.nanoTime();
            if (++runs[0] == 1 || t1 - told[0] >= WARM_UP_LINE_NANOS) {
                told[0] = t1;
                lines.accept(String.format(Locale.ROOT, "warm-up run %d: " + format((t1 - t0) / 1e9), runs[0],
                        (t1 - t0) / 1e9));
            }
        };
    }

    /** Tells timed run {@code i} (from 0) of {@code repeat}, which took {@code seconds}. */
    public void timed(int i, int repeat, double seconds) {
        lines.accept(String.format(Locale.ROOT, "run %d of %d: " + format(seconds), i + 1, repeat, seconds));
    }

    /** Seconds to the millisecond, or to the microsecond under a second (a small run would read 0.000 s). */
    private static String format(double seconds) {
        return seconds < 1.0 ? "%.6f s" : "%.3f s";
    }
}
