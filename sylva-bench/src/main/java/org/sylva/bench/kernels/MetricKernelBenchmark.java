package org.sylva.bench.kernels;

import java.util.Random;
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
import org.sylva.kernels.BlockedRows;
import org.sylva.kernels.KernelProvider;
import org.sylva.kernels.MetricKernel;

/**
 * JMH benchmark of the metric kernel (the brute-force engine's distances): {@code queries} query rows (1, as
 * a Prim pass of one row, or 4, as the core distances) against 4 096 rows of 128 Gaussian coordinates, one
 * call, on the vector kernel where the Vector API runs. With {@code others = true} the set-up first runs the
 * kernel with every other metric, as a long-lived process (the Python engine, a Spark executor) that has fitted
 * with several metrics has done; the figure should not change. Divide the time by
 * {@code 4096 * queries * 128} for one coordinate of one pair.
 *
 * <pre>{@code
 * java -jar sylva-bench/target/benchmarks.jar MetricKernelBenchmark
 * java -jar sylva-bench/target/benchmarks.jar MetricKernelBenchmark -p form=MANHATTAN -p others=false,true
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class MetricKernelBenchmark {
    private static final int ROWS = 4096;
    private static final int DIMENSIONS = 128;

    /** The metric measured. */
    @Param({"EUCLIDEAN", "MANHATTAN", "CHEBYSHEV", "COSINE"})
    public MetricKernel.Form form;

    /** Query rows per call: 1 or 4. */
    @Param({"1", "4"})
    public int queries;

    /** Whether the other metrics ran on the kernel first, in the same process. */
    @Param({"false", "true"})
    public boolean others;

    private MetricKernel kernel;
    private double[] x;
    private BlockedRows rows;
    private final int[] offsets = {0, DIMENSIONS, 2 * DIMENSIONS, 3 * DIMENSIONS};
    private double[] out;

    @Setup(Level.Trial)
    public void setUp() {
        kernel = KernelProvider.get().bestMetric();
        Random r = new Random(1);
        x = new double[ROWS * DIMENSIONS];
        for (int i = 0; i < x.length; i++) x[i] = r.nextGaussian();
        rows = BlockedRows.of(x, 0, ROWS, DIMENSIONS, kernel.blockWidth());
        out = new double[MetricKernel.MAX_QUERIES * rows.blockCount() * kernel.blockWidth()];
        if (!others) return;
        // long enough for C2 to compile the kernel's code of each of the other metrics
        for (int rep = 0; rep < 2000; rep++) {
            for (MetricKernel.Form f : MetricKernel.Form.values()) {
                if (f != form) kernel.distances(f, x, offsets, 1 + rep % 4, rows, 0, rows.blockCount(), out);
            }
        }
    }

    /** One call: the distances from the query rows to every row. */
    @Benchmark
    public double[] distances() {
        kernel.distances(form, x, offsets, queries, rows, 0, rows.blockCount(), out);
        return out;
    }
}
