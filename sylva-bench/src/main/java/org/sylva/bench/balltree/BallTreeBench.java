package org.sylva.bench.balltree;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.sylva.balltree.BallTree;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.balltree.BatchLayout;
import org.sylva.data.PointSet;

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
    /** Warm-up: at least this many builds ... */
    private static final int WARMUP_MIN_BUILDS = 30;
    /** ... and at least this long (the JIT compiles the hot paths meanwhile), at most WARMUP_MAX_BUILDS builds. */
    private static final long WARMUP_NANOS = 2_000_000_000L;
    private static final int WARMUP_MAX_BUILDS = 5000;

    private BallTreeBench() { }

    /** Timings of one input: median and minimum over {@code repeat} builds, in milliseconds. */
    public record Result(int points, int dimensions, int batches, int threads, int repeat, double medianMs,
                         double minMs) {
        /** One line: {@code balltree n=... d=... batches=... threads=... repeat=... median_ms=... min_ms=...}. */
        public String line() {
            return String.format(Locale.ROOT, "balltree n=%d d=%d batches=%d threads=%d repeat=%d median_ms=%.3f min_ms=%.3f",
                    points, dimensions, batches, threads, repeat, medianMs, minMs);
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
        return runInterleaved(points, layout, repeat, threads)[0];
    }

    /**
     * Times one build per thread count in turn, {@code repeat} rounds, after a common warm-up: every
     * thread count sees the same machine conditions, which on a shared virtual machine vary more from
     * minute to minute than the difference being measured.
     */
    public static Result[] runInterleaved(PointSet points, BatchLayout layout, int repeat, int... threadCounts) {
        if (repeat < 1) throw new IllegalArgumentException("repeat must be >= 1, got " + repeat);
        int k = threadCounts.length;
        BallTreeBuilder[] builders = new BallTreeBuilder[k];
        for (int i = 0; i < k; i++) builders[i] = new BallTreeBuilder().threads(threadCounts[i]);
        long sink = 0;
        long warmStart = System.nanoTime();
        for (int w = 0; w < WARMUP_MAX_BUILDS; w++) {
            for (BallTreeBuilder b : builders) sink += b.build(points, layout).size();
            if (w + 1 >= WARMUP_MIN_BUILDS && System.nanoTime() - warmStart >= WARMUP_NANOS * k) break;
        }
        double[][] ms = new double[k][repeat];
        for (int r = 0; r < repeat; r++) {
            for (int i = 0; i < k; i++) {
                long t0 = System.nanoTime();
                BallTree t = builders[i].build(points, layout);
                ms[i][r] = (System.nanoTime() - t0) / 1e6;
                sink += t.index(t.size() - 1);
            }
        }
        if (sink == 42) System.out.print("");
        Result[] out = new Result[k];
        for (int i = 0; i < k; i++) {
            Arrays.sort(ms[i]);
            double median = repeat % 2 == 1 ? ms[i][repeat / 2] : (ms[i][repeat / 2 - 1] + ms[i][repeat / 2]) / 2;
            out[i] = new Result(points.size(), points.dimensions(), layout.batchCount(), threadCounts[i], repeat,
                    median, ms[i][0]);
        }
        return out;
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
     */
    public static void main(String[] args) {
        int repeat = args.length > 0 ? Integer.parseInt(args[0]) : 21;
        String only = args.length > 1 ? args[1] : null;
        int[][] cases = {{1, 16384}, {64, 256}, {8, 16384}, {64, 16384}, {1, 1 << 20}};
        System.out.printf(Locale.ROOT, "%-22s %8s %12s %12s%n", "input (d=3)", "threads", "median ms", "min ms");
        for (int[] c : cases) {
            int batches = c[0], size = c[1];
            String name = batches == 1 ? size + " one batch" : batches + " x " + size;
            if (only != null && !only.equals(name)) continue;
            PointSet pts = uniform(batches * size, 3, 42);
            int[] ids = batches == 1 ? null : evenBatches(batches, size);
            Result[] r = runInterleaved(pts, BatchLayout.of(pts.size(), ids), repeat, 1, 2);
            for (Result x : r) {
                System.out.printf(Locale.ROOT, "%-22s %8d %12.3f %12.3f%n", name, x.threads(), x.medianMs(), x.minMs());
            }
            System.out.printf(Locale.ROOT, "%-22s %8s %12.2fx%n", "", "speedup", r[0].medianMs() / r[1].medianMs());
        }
    }
}
