package org.sylva.bench.balltree;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.sylva.balltree.BallTree;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.balltree.engine.TreeEngine;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.bench.hdbscan.BenchControl;
import org.sylva.data.PointSet;
import org.sylva.progress.CancellationToken;

/**
 * In-process timing of ball-tree builds, behind {@code sylva bench balltree}: warms up, then builds the
 * tree {@code repeat} times on points already in memory (no I/O) and reports the median and the minimum
 * in milliseconds. {@link #main} prints the table on generated uniform data.
 *
 * <pre>{@code
 * BallTreeBench.Result r = BallTreeBench.run(points, batchIds, 21, 2);
 * System.out.println(r.line());
 * }</pre>
 */
public final class BallTreeBench {
    /*
     * Warm-up: blocks of builds of at least BLOCK_NANOS (and BLOCK_MIN_BUILDS builds per thread count),
     * until a block's median build time is no longer SETTLED times below the block's before (for every
     * thread count), after at least WARMUP_MIN_NANOS per thread count and at most WARMUP_MAX_NANOS in all.
     * A fixed warm-up is not enough: builds of 16 384 points with the vector kernels took four to five
     * seconds of repetition to reach their steady speed here (the JIT compiles the kernels late), so a
     * two-second warm-up reported 8-19 ms for a 1 ms build.
     */
    private static final long BLOCK_NANOS = 500_000_000L;
    private static final int BLOCK_MIN_BUILDS = 3;
    private static final int BLOCK_MAX_BUILDS = 20_000;
    private static final double SETTLED = 0.95;
    private static final long WARMUP_MIN_NANOS = 2_000_000_000L;
    private static final long WARMUP_MAX_NANOS = 60_000_000_000L;
    private static final int WARMUP_MAX_BLOCKS = (int) (WARMUP_MAX_NANOS / BLOCK_NANOS);

    private BallTreeBench() { }

    /** Timings of one input: median and minimum over {@code repeat} builds, in milliseconds. */
    public record Result(int points, int dimensions, int batches, int threads, int repeat, double medianMs,
                         double minMs, boolean vectorKernels) {
        /**
         * One line: {@code balltree n=... d=... batches=... threads=... repeat=... median_ms=... min_ms=...
         * kernels=vector|scalar} (scalar: asked for, or the JVM has no Vector API kernels; see
         * {@link BallTreeBuilder#vectorKernelsAvailable()}).
         */
        public String line() {
            return String.format(Locale.ROOT,
                    "balltree n=%d d=%d batches=%d threads=%d repeat=%d median_ms=%.3f min_ms=%.3f kernels=%s",
                    points, dimensions, batches, threads, repeat, medianMs, minMs, vectorKernels ? "vector" : "scalar");
        }
    }

    /** Times {@code repeat} builds of {@code points} with 32-bit batch ids ({@code null}: one batch). */
    public static Result run(PointSet points, int[] batchIds, int repeat, int threads) {
        return run(points, BatchLayout.of(points.size(), batchIds), repeat, threads);
    }

    /** As {@link #run(PointSet, int[], int, int)} for 64-bit batch ids. */
    public static Result run(PointSet points, long[] batchIds, int repeat, int threads) {
        return run(points, BatchLayout.of(points.size(), batchIds), repeat, threads);
    }

    /** Times {@code repeat >= 1} builds after a warm-up; the layout is validated once, outside the timing. */
    public static Result run(PointSet points, BatchLayout layout, int repeat, int threads) {
        return runInterleaved(points, layout, repeat, true, threads)[0];
    }

    /** As {@link #run(PointSet, BatchLayout, int, int)}, with or without the vector kernels. */
    public static Result run(PointSet points, BatchLayout layout, int repeat, int threads, boolean vectorKernels) {
        return run(points, layout, repeat, threads, vectorKernels, CancellationToken.NEVER);
    }

    /**
     * As {@link #run(PointSet, BatchLayout, int, int, boolean)}, every build given {@code cancel}: a cancelled
     * benchmark ends with the library's {@link org.sylva.progress.CancelledException} within a build's own
     * cancellation latency, not at the end of a build of millions of points.
     */
    public static Result run(PointSet points, BatchLayout layout, int repeat, int threads, boolean vectorKernels,
                             CancellationToken cancel) {
        return run(points, layout, repeat, threads, vectorKernels, new BenchControl(line -> { }, cancel));
    }

    /**
     * As {@link #run(PointSet, BatchLayout, int, int, boolean, CancellationToken)}, telling {@code control} of
     * the warm-up builds (the first, then at most one a second) and of every timed build, and giving each
     * build its token ({@code sylva bench balltree} prints them on stderr).
     */
    public static Result run(PointSet points, BatchLayout layout, int repeat, int threads, boolean vectorKernels,
                             BenchControl control) {
        boolean vector = vectorKernels && BallTreeBuilder.vectorKernelsAvailable();
        BallTreeBuilder b = new BallTreeBuilder().threads(threads).vectorKernels(vector).cancellation(control.cancel());
        return time(new BallTreeBuilder[] {b}, points, layout, repeat, vector, control)[0];
    }

    /**
     * Times one build per thread count in turn, {@code repeat} rounds, after a common warm-up: every
     * thread count sees the same machine conditions, which on a shared virtual machine vary more from
     * minute to minute than the difference being measured.
     */
    public static Result[] runInterleaved(PointSet points, BatchLayout layout, int repeat, int... threadCounts) {
        return runInterleaved(points, layout, repeat, true, threadCounts);
    }

    /**
     * As {@link #runInterleaved(PointSet, BatchLayout, int, int...)}, with the vector kernels where the JVM
     * has them ({@code vectorKernels}) or the scalar code only; each result says which ran.
     */
    public static Result[] runInterleaved(PointSet points, BatchLayout layout, int repeat, boolean vectorKernels,
                                          int... threadCounts) {
        boolean vector = vectorKernels && BallTreeBuilder.vectorKernelsAvailable();
        int k = threadCounts.length;
        BallTreeBuilder[] builders = new BallTreeBuilder[k];
        for (int i = 0; i < k; i++) builders[i] = new BallTreeBuilder().threads(threadCounts[i]).vectorKernels(vector);
        return time(builders, points, layout, repeat, vector, BenchControl.QUIET);
    }

    /**
     * Times {@code repeat >= 1} builds on {@code engine} (a GPU engine, say) after the same warm-up, host
     * memory to host memory; the result's thread count is 1 and its kernels scalar (the engine's own).
     */
    public static Result runOn(TreeEngine engine, PointSet points, BatchLayout layout, int repeat) {
        return runOn(engine, points, layout, repeat, BenchControl.QUIET);
    }

    /**
     * As {@link #runOn(TreeEngine, PointSet, BatchLayout, int)}, telling {@code control} of the builds as
     * {@link #run(PointSet, BatchLayout, int, int, boolean, BenchControl)} does, each build given its token.
     */
    public static Result runOn(TreeEngine engine, PointSet points, BatchLayout layout, int repeat, BenchControl control) {
        BallTreeBuilder b = new BallTreeBuilder().threads(1).engine(engine).cancellation(control.cancel());
        return time(new BallTreeBuilder[] {b}, points, layout, repeat, false, control)[0];
    }

    private static Result[] time(BallTreeBuilder[] builders, PointSet points, BatchLayout layout, int repeat, boolean vector,
                                 BenchControl control) {
        if (repeat < 1) throw new IllegalArgumentException("repeat must be >= 1, got " + repeat);
        int k = builders.length;
        long sink = warmUp(builders, points, layout, control);
        double[][] ms = new double[k][repeat];
        for (int r = 0; r < repeat; r++) {
            for (int i = 0; i < k; i++) {
                long t0 = System.nanoTime();
                BallTree t = builders[i].build(points, layout);
                ms[i][r] = (System.nanoTime() - t0) / 1e6;
                if (t.size() > 0) sink += t.index(t.size() - 1);
                if (k == 1) control.timed(r, repeat, ms[i][r] / 1e3);
            }
        }
        if (sink == 42) System.out.print("");
        Result[] out = new Result[k];
        for (int i = 0; i < k; i++) {
            Arrays.sort(ms[i]);
            double median = repeat % 2 == 1 ? ms[i][repeat / 2] : (ms[i][repeat / 2 - 1] + ms[i][repeat / 2]) / 2;
            out[i] = new Result(points.size(), points.dimensions(), layout.batchCount(), builders[i].threads(), repeat,
                    median, ms[i][0], vector);
        }
        return out;
    }

    /** Builds until the build times have settled (see the constants); returns a value that uses the trees. */
    private static long warmUp(BallTreeBuilder[] builders, PointSet points, BatchLayout layout, BenchControl control) {
        int k = builders.length;
        long[] sink = {0};
        Runnable[] build = new Runnable[k];   // each builder's build, told to control as a warm-up run
        for (int i = 0; i < k; i++) {
            BallTreeBuilder b = builders[i];
            Runnable once = () -> sink[0] += b.build(points, layout).size();
            build[i] = k == 1 ? control.warmUps(once) : once;
        }
        long start = System.nanoTime();
        double[][] times = new double[k][BLOCK_MAX_BUILDS];
        double[] previous = null;
        for (int block = 0; block < WARMUP_MAX_BLOCKS; block++) {
            long blockStart = System.nanoTime();
            int count = 0;
            while (count < BLOCK_MAX_BUILDS && (count < BLOCK_MIN_BUILDS || System.nanoTime() - blockStart < BLOCK_NANOS)) {
                for (int i = 0; i < k; i++) {
                    long t0 = System.nanoTime();
                    build[i].run();
                    times[i][count] = System.nanoTime() - t0;
                }
                count++;
            }
            double[] median = new double[k];
            boolean settled = previous != null;
            for (int i = 0; i < k; i++) {
                double[] t = Arrays.copyOf(times[i], count);
                Arrays.sort(t);
                median[i] = t[count / 2];
                if (settled && median[i] < SETTLED * previous[i]) settled = false;
            }
            previous = median;
            long elapsed = System.nanoTime() - start;
            if (elapsed >= WARMUP_MAX_NANOS || settled && elapsed >= WARMUP_MIN_NANOS * k) break;
        }
        return sink[0];
    }

    /** Uniform random float32 points in [0, 1)^d from a fixed seed. */
    public static PointSet uniform(int n, int d, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        float[] c = new float[n * d];
        for (int i = 0; i < c.length; i++) c[i] = (float) rnd.nextDouble();
        return PointSet.of(n, d, c);
    }

    /** Ids of {@code batches} consecutive batches of {@code size} points each. */
    public static int[] evenBatches(int batches, int size) {
        int[] ids = new int[batches * size];
        for (int b = 0; b < batches; b++) Arrays.fill(ids, b * size, (b + 1) * size, b);
        return ids;
    }

    /**
     * Prints the table (uniform d = 3, seed 42) for 1 and 2 threads, timed alternately
     * ({@link #runInterleaved}). Arguments: optional {@code repeat} (default 21), then optionally the
     * name of one input to run alone, as printed ({@code "1048576 one batch"}, {@code "64 x 16384"}):
     * the two-thread speed-up of one input is measured more steadily over a few hundred rounds.
     *
     * <p>With {@code --back-to-back} (anywhere among the arguments) each thread count is instead warmed
     * up and timed on its own, builds following each other as in {@code sylva bench balltree}. On this
     * project's virtual machine a two-thread build that alternates with one-thread builds starts with
     * the second vCPU idle for a millisecond or more, and waking a vCPU idle that long is several times
     * slower than waking a recently busy one (figures in BENCHMARKS.md).
     */
    public static void main(String[] args) {
        boolean backToBack = Arrays.asList(args).contains("--back-to-back");
        args = Arrays.stream(args).filter(a -> !a.equals("--back-to-back")).toArray(String[]::new);
        int repeat = args.length > 0 ? Integer.parseInt(args[0]) : 21;
        String only = args.length > 1 ? args[1] : null;
        int[][] cases = {{1, 16384}, {64, 256}, {8, 16384}, {64, 16384}, {1, 1 << 20}};
        System.out.println("vector kernels: " + (BallTreeBuilder.vectorKernelsAvailable() ? "yes" : "no (scalar code)")
                + "; thread counts timed " + (backToBack ? "one after the other (back to back)" : "alternately"));
        System.out.printf(Locale.ROOT, "%-22s %8s %12s %12s%n", "input (d=3)", "threads", "median ms", "min ms");
        for (int[] c : cases) {
            int batches = c[0], size = c[1];
            String name = batches == 1 ? size + " one batch" : batches + " x " + size;
            if (only != null && !only.equals(name)) continue;
            PointSet pts = uniform(batches * size, 3, 42);
            int[] ids = batches == 1 ? null : evenBatches(batches, size);
            BatchLayout layout = BatchLayout.of(pts.size(), ids);
            Result[] r = backToBack
                    ? new Result[] {run(pts, layout, repeat, 1), run(pts, layout, repeat, 2)}
                    : runInterleaved(pts, layout, repeat, 1, 2);
            for (Result x : r) {
                System.out.printf(Locale.ROOT, "%-22s %8d %12.3f %12.3f%n", name, x.threads(), x.medianMs(), x.minMs());
            }
            System.out.printf(Locale.ROOT, "%-22s %8s %12.2fx%n", "", "speedup", r[0].medianMs() / r[1].medianMs());
        }
    }
}
