package org.sylva.bench.balltree;

import java.util.Arrays;
import java.util.Locale;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.data.PointSet;

/**
 * Times ball-tree builds of the same 16 384 points (uniform in [0, 1)³, seed 42) cut into equal batches
 * of a few points to a few hundred, the shape of many small point clouds built together. Every batch
 * size has its own builder; one build of each per round, so all sizes see the same machine conditions;
 * a fixed warm-up of eight seconds first. Prints the median per batch size in microseconds.
 *
 * <p>It uses only {@code BallTreeBuilder.threads} and {@code build(points, ids)}, so it also runs
 * against older builds of {@code sylva-core} (put their classes first on the class path) to compare.
 *
 * <pre>{@code
 * java --add-modules jdk.incubator.vector -cp sylva-bench/target/benchmarks.jar \
 *      org.sylva.bench.balltree.BatchSizeBench 1 8,16,32,64,128,256
 * }</pre>
 */
public final class BatchSizeBench {
    private static final int POINTS = 16_384;
    private static final long WARMUP_NANOS = 8_000_000_000L;
    private static final int ROUNDS = 300;

    private BatchSizeBench() { }

    /** Arguments: threads (default 1), comma-separated batch sizes (default 8,16,20,32,50,64,100,128,256,16384). */
    public static void main(String[] args) {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        int[] sizes = Arrays.stream((args.length > 1 ? args[1] : "8,16,20,32,50,64,100,128,256,16384").split(","))
                .mapToInt(Integer::parseInt).toArray();
        PointSet points = BallTreeBench.uniform(POINTS, 3, 42);
        int k = sizes.length;
        BallTreeBuilder[] builders = new BallTreeBuilder[k];
        int[][] ids = new int[k][POINTS];
        for (int b = 0; b < k; b++) {
            builders[b] = new BallTreeBuilder().threads(threads);
            for (int i = 0; i < POINTS; i++) ids[b][i] = i / sizes[b];
        }
        long sink = 0;
        long end = System.nanoTime() + WARMUP_NANOS;
        for (int w = 0; w < 1_000_000 && System.nanoTime() < end; w++) {
            for (int b = 0; b < k; b++) sink += builders[b].build(points, ids[b]).size();
        }
        long[][] nanos = new long[k][ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            for (int b = 0; b < k; b++) {
                long t0 = System.nanoTime();
                sink += builders[b].build(points, ids[b]).size();
                nanos[b][r] = System.nanoTime() - t0;
            }
        }
        System.out.printf(Locale.ROOT, "%d points, d = 3, %d thread(s), median of %d rounds%n", POINTS, threads, ROUNDS);
        System.out.printf(Locale.ROOT, "%12s %12s%n", "batch size", "median us");
        for (int b = 0; b < k; b++) {
            Arrays.sort(nanos[b]);
            System.out.printf(Locale.ROOT, "%12d %12.0f%n", sizes[b], nanos[b][ROUNDS / 2] / 1e3);
        }
        if (sink == 42) System.out.print("");
    }
}
