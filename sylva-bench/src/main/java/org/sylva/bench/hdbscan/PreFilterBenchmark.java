package org.sylva.bench.hdbscan;

import java.util.Arrays;
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
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;

/**
 * JMH benchmark of the float32 pre-filter's tile kernel on 61-dimensional clip-like points: 64 tiles of
 * {@code queries} query rows against one 64-point leaf each, through {@code approximateSquaredDistances}
 * ({@code plain}) or {@code approximateSquaredDistancesWithin} with limits that never let a block stop
 * ({@code none}), that stop every block at the first check ({@code all}), or that give each block of
 * columns no limit or an infinite one at random ({@code half}: a register block of two column blocks stops
 * where both have none, a quarter of them). Divide the time by {@code 64 * queries * 64} for a pair.
 *
 * <pre>{@code
 * java -jar sylva-bench/target/benchmarks.jar PreFilterBenchmark
 * java -jar sylva-bench/target/benchmarks.jar PreFilterBenchmark -p stops=plain,none -p queries=8
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class PreFilterBenchmark {
    private static final int TILES = 64;

    /** {@code plain}, {@code none}, {@code all} or {@code half} (see the class comment). */
    @Param({"plain", "none", "all", "half"})
    public String stops;

    /** Query rows per tile (the search's tiles hold about 24 on 12-template clips). */
    @Param({"32"})
    public int queries;

    private DistanceKernel kernel;
    private PointIndex index;
    private int[][] rows;
    private int[] blockFrom;
    private int[] blockTo;
    private float[] rowLimits;
    private long[] rowBlocks;
    private float[][] colLimits;
    private float[] out;

    @Setup(Level.Trial)
    public void setUp() {
        ClipTiles tiles = ClipTiles.of(TILES, queries);
        kernel = tiles.kernel();
        index = tiles.index();
        rows = tiles.rows();
        blockFrom = tiles.blockFrom();
        blockTo = tiles.blockTo();
        int w = index.blockWidth();
        colLimits = new float[TILES][];
        java.util.Random coin = new java.util.Random(11);   // the column limits of "half"
        for (int t = 0; t < TILES; t++) {
            float[] c = new float[(blockTo[t] - blockFrom[t]) * w];
            for (int b = 0; b < c.length; b += w) {
                float v = switch (stops) {
                    case "none" -> Float.POSITIVE_INFINITY;
                    case "half" -> coin.nextBoolean() ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY;
                    default -> Float.NEGATIVE_INFINITY;
                };
                Arrays.fill(c, b, Math.min(c.length, b + w), v);
            }
            colLimits[t] = c;
        }
        rowLimits = new float[queries];
        rowBlocks = new long[queries];
        Arrays.fill(rowLimits, Float.NEGATIVE_INFINITY);
        out = tiles.newOut();
    }

    @Benchmark
    public float tiles() {
        float s = 0;
        boolean plain = stops.equals("plain");
        for (int t = 0; t < TILES; t++) {
            if (plain) {
                kernel.approximateSquaredDistances(index, rows[t], queries, blockFrom[t], blockTo[t], out);
            } else {
                kernel.approximateSquaredDistancesWithin(index, rows[t], queries, blockFrom[t], blockTo[t],
                        rowLimits, colLimits[t], out, rowBlocks);
            }
            s += out[0];
        }
        return s;
    }
}
