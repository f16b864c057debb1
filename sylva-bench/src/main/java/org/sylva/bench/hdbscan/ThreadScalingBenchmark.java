package org.sylva.bench.hdbscan;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;

/**
 * How much a second thread adds on this machine, for work that shares nothing: the ceiling of the fit's
 * "two threads against one". JMH runs each method on {@code -t} threads at once and sums their operations
 * (throughput), so the score with {@code -t 2} over the score with {@code -t 1} is the machine's scaling.
 * {@link #preFilterTiles}: the pre-filter's tile kernel, the fit's largest cost, each thread on its own
 * output, all reading one index of 20 000 clip-like points (61 dimensions, float32 copy about 5 MB).
 * {@link #registerArithmetic}: eight independent float64 multiply-add chains, no memory at all.
 *
 * <pre>{@code
 * java -jar sylva-bench/target/benchmarks.jar ThreadScalingBenchmark -t 1
 * java -jar sylva-bench/target/benchmarks.jar ThreadScalingBenchmark -t 2
 * }</pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class ThreadScalingBenchmark {
    static final int TILES = 64;
    static final int QUERIES = 32;
    static final int STEPS = 10_000;

    /** The index and the tiles, shared by every thread (read only). */
    @State(Scope.Benchmark)
    public static class Shared {
        DistanceKernel kernel;
        PointIndex index;
        int[][] rows;
        int[] blockFrom;
        int[] blockTo;

        @Setup(Level.Trial)
        public void setUp() {
            kernel = KernelProvider.get().bestDistance();
            if (!kernel.approximates()) throw new IllegalStateException("no float32 pre-filter in this JVM: " + kernel);
            int n = 20_000, d = 61;
            index = PointIndex.build(ClipLikeData.generate(n, 42).points().coordinates64(), n, d, kernel);
            int w = index.blockWidth(), leaves = index.leaves();
            rows = new int[TILES][QUERIES];
            blockFrom = new int[TILES];
            blockTo = new int[TILES];
            java.util.Random rnd = new java.util.Random(7);
            for (int t = 0; t < TILES; t++) {
                int leaf = rnd.nextInt(leaves);
                int start = index.leafStart(leaf);
                blockFrom[t] = start / w;
                blockTo[t] = (start + index.leafCount(leaf) + w - 1) / w;
                int from = index.leafStart(rnd.nextInt(leaves));
                for (int q = 0; q < QUERIES; q++) rows[t][q] = Math.min(index.positions() - 1, from + q);
            }
        }
    }

    /** One thread's output tile, so that threads never write the same cache lines. */
    @State(Scope.Thread)
    public static class Own {
        float[] out;
        double seed;

        @Setup(Level.Trial)
        public void setUp(Shared s) {
            int w = s.index.blockWidth();
            out = new float[s.kernel.tileLength(QUERIES, (PointIndex.LEAF_SIZE + w - 1) / w + 1, s.index)];
            seed = 1.0 + Thread.currentThread().getId() % 7;
        }
    }

    /** 64 tiles of 32 query rows against 64 points each: 131 072 approximate distances an operation. */
    @Benchmark
    public float preFilterTiles(Shared s, Own o) {
        float sum = 0;
        for (int t = 0; t < TILES; t++) {
            s.kernel.approximateSquaredDistances(s.index, s.rows[t], QUERIES, s.blockFrom[t], s.blockTo[t], o.out);
            sum += o.out[0];
        }
        return sum;
    }

    /** {@value #STEPS} steps of eight independent multiply-add chains in registers an operation. */
    @Benchmark
    public double registerArithmetic(Own o) {
        double a0 = o.seed, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
        for (int i = 0; i < STEPS; i++) {
            a0 = a0 * 0.9999999 + 1e-7;
            a1 = a1 * 0.9999999 + 1e-7;
            a2 = a2 * 0.9999999 + 1e-7;
            a3 = a3 * 0.9999999 + 1e-7;
            a4 = a4 * 0.9999999 + 1e-7;
            a5 = a5 * 0.9999999 + 1e-7;
            a6 = a6 * 0.9999999 + 1e-7;
            a7 = a7 * 0.9999999 + 1e-7;
        }
        return ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
    }
}
