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

    /** The index and the tiles ({@link ClipTiles}), shared by every thread (read only). */
    @State(Scope.Benchmark)
    public static class Shared {
        ClipTiles tiles;

        @Setup(Level.Trial)
        public void setUp() {
            tiles = ClipTiles.of(TILES, QUERIES);
        }
    }

    /** One thread's output tile, so that threads never write the same cache lines. */
    @State(Scope.Thread)
    public static class Own {
        float[] out;
        double seed;

        @Setup(Level.Trial)
        public void setUp(Shared s) {
            out = s.tiles.newOut();
            seed = 1.0 + Thread.currentThread().threadId() % 7;
        }
    }

    /** 64 tiles of 32 query rows against 64 points each: 131 072 approximate distances an operation. */
    @Benchmark
    public float preFilterTiles(Shared s, Own o) {
        ClipTiles c = s.tiles;
        float sum = 0;
        for (int t = 0; t < TILES; t++) {
            c.kernel().approximateSquaredDistances(c.index(), c.rows()[t], QUERIES, c.blockFrom()[t], c.blockTo()[t], o.out);
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
