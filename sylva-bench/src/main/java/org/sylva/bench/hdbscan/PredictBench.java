package org.sylva.bench.hdbscan;

import java.util.Arrays;
import java.util.Locale;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.parallel.Execution;
import org.sylva.progress.ProgressListener;

/**
 * In-process timing of predictions, behind {@code sylva bench predict}: labels, probabilities, outlier
 * scores and membership vectors of new points against a saved model
 * ({@link HdbscanModel#predictWithMembership}, what {@code sylva predict} computes), after untimed warm-up
 * runs (at least those and the seconds asked for, and until the process counts as long-lived:
 * {@link WarmUp}), on points already in memory (no I/O); reports the median and the minimum in seconds.
 *
 * <pre>{@code
 * PredictBench.Result r = PredictBench.run(HdbscanModel.load(file), newPoints, 5, 1, 2);
 * System.out.println(r.line());
 * }</pre>
 */
public final class PredictBench {
    private PredictBench() { }

    /** Timings of one model and one set of new points: median and minimum over {@code repeat} runs, in seconds. */
    public record Result(int fitted, int points, int dimensions, int threads, int repeat, int warmup,
                         double medianSeconds, double minSeconds) {
        /**
         * One line: {@code predict fitted=... n=... d=... threads=... repeat=... warmup=... median_s=... min_s=...},
         * the seconds to the millisecond, or to the microsecond where the median is under a second (a prediction of
         * a few points would print as 0.000), as {@link HdbscanBench.Result#table} prints them.
         */
        public String line() {
            String seconds = medianSeconds < 1.0 ? "%.6f" : "%.3f";
            return String.format(Locale.ROOT,
                    "predict fitted=%d n=%d d=%d threads=%d repeat=%d warmup=%d median_s=" + seconds + " min_s="
                            + seconds, fitted, points, dimensions, threads, repeat, warmup, medianSeconds, minSeconds);
        }
    }

    /** As {@link #run(HdbscanModel, PointSet, int, int, double, int)} with {@link HdbscanBench#WARMUP_SECONDS}. */
    public static Result run(HdbscanModel model, PointSet points, int repeat, int warmup, int threads) {
        return run(model, points, repeat, warmup, HdbscanBench.WARMUP_SECONDS, threads);
    }

    /**
     * Times {@code repeat} predictions of {@code points} against {@code model} after at least {@code warmup}
     * untimed ones (with one or more, also for {@code warmupSeconds} and until the process counts as
     * long-lived: {@link WarmUp}).
     */
    public static Result run(HdbscanModel model, PointSet points, int repeat, int warmup, double warmupSeconds,
                             int threads) {
        return run(model, points, repeat, warmup, warmupSeconds, threads, BenchControl.QUIET);
    }

    /**
     * As {@link #run(HdbscanModel, PointSet, int, int, double, int)}, telling each prediction to {@code control} and
     * giving each its token.
     */
    public static Result run(HdbscanModel model, PointSet points, int repeat, int warmup, double warmupSeconds,
                             int threads, BenchControl control) {
        if (repeat < 1 || warmup < 0) throw new IllegalArgumentException("repeat " + repeat + ", warmup " + warmup);
        Execution ex = new Execution(threads, ProgressListener.NONE, control.cancel());
        int warmupRuns = WarmUp.run(warmup, warmupSeconds, control.warmUps(() -> model.predictWithMembership(points, ex)));
        double[] s = new double[repeat];
        for (int i = 0; i < repeat; i++) {
            long t0 = System.nanoTime();
            model.predictWithMembership(points, ex);
            s[i] = (System.nanoTime() - t0) / 1e9;
            control.timed(i, repeat, s[i]);
        }
        Arrays.sort(s);
        double median = repeat % 2 == 1 ? s[repeat / 2] : (s[repeat / 2 - 1] + s[repeat / 2]) / 2;
        return new Result(model.fittedSize(), points.size(), points.dimensions(), threads, repeat, warmupRuns, median,
                s[0]);
    }
}
