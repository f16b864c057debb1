package org.sylva.bench.balltree;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.sylva.balltree.BallTree;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.PointSet;

/**
 * JMH benchmark of ball-tree builds on the inputs: uniform random float32 points, d = 3, fixed
 * seed, already in memory (no I/O), for 1 and 2 threads.
 *
 * <pre>{@code
 * java -jar sylva-bench/target/benchmarks.jar BallTreeBenchmark -p threads=2 -p input=64x16384
 * java -jar sylva-bench/target/benchmarks.jar BallTreeBenchmark -p input=1x16384 -p kernels=vector,scalar
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// Ten seconds of warm-up: the JIT compiles the vector kernels late (16 384-point builds reach their
// steady speed after four to five seconds of repetition here; BENCHMARKS.md, "Cold start").
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class BallTreeBenchmark {
    /** {@code BATCHESxSIZE}: 1x16384, 64x256, 8x16384, 64x16384, 1x1048576. */
    @Param({"1x16384", "64x256", "8x16384", "64x16384", "1x1048576"})
    public String input;

    @Param({"1", "2"})
    public int threads;

    /** {@code vector} (the Vector API kernels, where the JVM has them) or {@code scalar}: {@code -p kernels=vector,scalar}. */
    @Param({"vector"})
    public String kernels;

    private PointSet points;
    private BatchLayout layout;
    private BallTreeBuilder builder;

    @Setup(Level.Trial)
    public void setUp() {
        String[] parts = input.split("x");
        int batches = Integer.parseInt(parts[0]), size = Integer.parseInt(parts[1]);
        points = BallTreeBench.uniform(batches * size, 3, 42);
        layout = BatchLayout.of(batches * size, batches == 1 ? null : BallTreeBench.evenBatches(batches, size));
        if (!kernels.equals("vector") && !kernels.equals("scalar")) {
            throw new IllegalArgumentException("kernels must be vector or scalar, got " + kernels);
        }
        builder = new BallTreeBuilder().threads(threads).vectorKernels(kernels.equals("vector"));
    }

    @Benchmark
    public BallTree build() {
        return builder.build(points, layout);
    }
}
