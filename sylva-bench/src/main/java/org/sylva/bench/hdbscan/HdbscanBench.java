package org.sylva.bench.hdbscan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.engine.CpuHdbscanEngine;
import org.sylva.hdbscan.metric.DistanceGraph;
import org.sylva.hdbscan.metric.GraphSpanningTree;
import org.sylva.progress.ProgressListener;

/**
 * The in-process HDBSCAN benchmark behind {@code sylva bench hdbscan}: warms up (at least the fits and the
 * seconds asked for, and until the process counts as long-lived: {@link WarmUp}), fits the same data
 * {@code repeat} times, and reports the median and minimum of each stage and of the whole fit, the peak heap
 * in use during the fits (sampled every 20 ms) and a fingerprint of the result, which must be the same for
 * every repetition (the benchmark fails otherwise).
 *
 * <pre>{@code
 * HdbscanBench.Result r = HdbscanBench.run(points, Hdbscan.builder().minClusterSize(20).build(), 3, 1);
 * System.out.println(r.table());
 * }</pre>
 */
public final class HdbscanBench {
    private HdbscanBench() {
    }

    /**
     * Figures of one benchmark run.
     *
     * @param points number of points
     * @param dims dimensions
     * @param threads worker threads
     * @param backend backend name asked for
     * @param repeat timed repetitions
     * @param warmup untimed warm-up fits made before them
     * @param medianSeconds per stage (and "total"), median over repetitions
     * @param minSeconds per stage (and "total"), minimum over repetitions
     * @param peakHeapBytes largest heap in use sampled during the timed fits
     * @param clusters clusters found
     * @param noise points labelled noise
     * @param minClusterSize the fit's min_cluster_size
     * @param minSamples the fit's min_samples
     */
    public record Result(int points, int dims, int threads, String backend, int repeat, int warmup,
            Map<String, Double> medianSeconds, Map<String, Double> minSeconds, long peakHeapBytes, int clusters,
            int noise, int minClusterSize, int minSamples) {
        /**
         * One line per stage: median and minimum seconds, to the millisecond, or to the microsecond where the
         * whole fit's median is under a second (a small fit's stages would all print as 0.000 or 0.001).
         */
        public String table() {
            String row = medianSeconds.getOrDefault("total", 1.0) < 1.0
                    ? "  %-16s median %11.6f s   min %11.6f s%n" : "  %-16s median %9.3f s   min %9.3f s%n";
            StringBuilder sb = new StringBuilder();
            // one key=value per word: a device's name keeps its words joined
            sb.append(String.format(Locale.ROOT, "hdbscan n=%d d=%d threads=%d backend=%s repeat=%d warmup=%d "
                    + "min_cluster_size=%d min_samples=%d clusters=%d noise=%d peak-heap=%.0f MiB%n",
                    points, dims, threads, backend.replace(' ', '_'), repeat, warmup, minClusterSize, minSamples,
                    clusters, noise, peakHeapBytes / 1048576.0));
            for (String stage : medianSeconds.keySet()) {
                sb.append(String.format(Locale.ROOT, row, stage,
                        medianSeconds.get(stage), minSeconds.get(stage)));
            }
            return sb.toString();
        }
    }

    /** Default of {@link #run}'s warm-up seconds: where 20 000 clips' fits had settled (BENCHMARKS.md). */
    public static final double WARMUP_SECONDS = 10.0;

    /** As {@link #run(PointSet, Hdbscan, int, int, double)} with {@link #WARMUP_SECONDS}. */
    public static Result run(PointSet points, Hdbscan params, int repeat, int warmup) {
        return run(points, params, repeat, warmup, WARMUP_SECONDS);
    }

    /**
     * Runs at least {@code warmup} untimed fits (with one or more, also for {@code warmupSeconds} and, on the
     * CPU engine, until the process counts as long-lived: {@link WarmUp}), then {@code repeat} timed ones.
     */
    public static Result run(PointSet points, Hdbscan params, int repeat, int warmup, double warmupSeconds) {
        return run(points, params, repeat, warmup, warmupSeconds, BenchControl.QUIET);
    }

    /**
     * As {@link #run(PointSet, Hdbscan, int, int, double)}, telling each fit to {@code control} and giving each its
     * token (a cancelled benchmark ends with the library's {@link org.sylva.progress.CancelledException}).
     */
    public static Result run(PointSet points, Hdbscan params, int repeat, int warmup, double warmupSeconds,
                             BenchControl control) {
        if (repeat < 1) throw new IllegalArgumentException("repeat must be >= 1");
        Runnable fit = () -> params.fit(points, ProgressListener.NONE, control.cancel());
        // the process's age decides only the CPU engine's choices (StageKernels)
        int warmupFits = params.engine() instanceof CpuHdbscanEngine
                ? WarmUp.run(warmup, warmupSeconds, control.warmUps(fit))
                : WarmUp.runAgeless(warmup, warmupSeconds, control.warmUps(fit));
        String backend = params.engine() instanceof CpuHdbscanEngine ? params.backend().id() : params.engine().name();
        return timed(points.size(), points.dimensions(), params, backend, repeat, warmupFits, control,
                times -> params.fit(points, ProgressListener.NONE, control.cancel()));
    }

    /**
     * As {@link #run(PointSet, Hdbscan, int, int, double)} for a sparse distance matrix given as its CSR arrays
     * ({@code params}' metric precomputed): each fit makes the {@link DistanceGraph} from the arrays, its checks
     * timed as the stage {@code "graph checks"}, then fits it.
     */
    public static Result runGraph(int n, int[] indptr, int[] indices, double[] data, Hdbscan params, int repeat,
            int warmup, double warmupSeconds) {
        return runGraph(n, indptr, indices, data, params, repeat, warmup, warmupSeconds, BenchControl.QUIET);
    }

    /** As {@link #runGraph(int, int[], int[], double[], Hdbscan, int, int, double)}, told to {@code control}. */
    public static Result runGraph(int n, int[] indptr, int[] indices, double[] data, Hdbscan params, int repeat,
            int warmup, double warmupSeconds, BenchControl control) {
        if (repeat < 1) throw new IllegalArgumentException("repeat must be >= 1");
        int warmupFits = WarmUp.runAgeless(warmup, warmupSeconds, control.warmUps(
                () -> params.fit(DistanceGraph.ofCsr(n, indptr, indices, data), ProgressListener.NONE, control.cancel())));
        return timed(n, n, params, GraphSpanningTree.ENGINE, repeat, warmupFits, control, times -> {
            long t0 = System.nanoTime();
            DistanceGraph g = DistanceGraph.ofCsr(n, indptr, indices, data);
            times.computeIfAbsent("graph checks", k -> new ArrayList<>()).add((System.nanoTime() - t0) / 1e9);
            return params.fit(g, ProgressListener.NONE, control.cancel());
        });
    }

    /** One timed fit; it may add stages of its own to {@code times}. */
    private interface TimedFit {
        HdbscanResult fit(Map<String, List<Double>> times);
    }

    private static Result timed(int n, int d, Hdbscan params, String backend, int repeat, int warmupFits,
                                BenchControl control, TimedFit fit) {
        Map<String, List<Double>> times = new LinkedHashMap<>();
        HeapSampler sampler = new HeapSampler();
        Thread t = Thread.ofPlatform().daemon().start(sampler);
        HdbscanResult last = null;
        int[] firstLabels = null;
        try {
            for (int i = 0; i < repeat; i++) {
                long t0 = System.nanoTime();
                HdbscanResult r = fit.fit(times);
                double total = (System.nanoTime() - t0) / 1e9;
                control.timed(i, repeat, total);
                for (Map.Entry<String, Double> e : r.timings().seconds().entrySet()) {
                    times.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
                }
                times.computeIfAbsent("total", k -> new ArrayList<>()).add(total);
                int[] labels = r.labels();
                if (firstLabels == null) {
                    firstLabels = labels;
                } else if (!Arrays.equals(firstLabels, labels) || !r.spanningTree().equals(last.spanningTree())) {
                    throw new IllegalStateException("repetition " + i + " gave a different result: not deterministic");
                }
                last = r;
            }
        } finally {
            t.interrupt();
        }
        Map<String, Double> med = new LinkedHashMap<>(), min = new LinkedHashMap<>();
        for (Map.Entry<String, List<Double>> e : times.entrySet()) {
            double[] v = e.getValue().stream().mapToDouble(Double::doubleValue).sorted().toArray();
            med.put(e.getKey(), v.length % 2 == 1 ? v[v.length / 2] : 0.5 * (v[v.length / 2 - 1] + v[v.length / 2]));
            min.put(e.getKey(), v[0]);
        }
        return new Result(n, d, params.threads(), backend, repeat, warmupFits, med, min, sampler.peak,
                last.clusterCount(), last.noiseCount(), params.minClusterSize(), params.minSamples());
    }

    /** Samples the heap in use every 20 ms. */
    private static final class HeapSampler implements Runnable {
        volatile long peak;

        @Override
        public void run() {
            Runtime rt = Runtime.getRuntime();
            for (long i = 0; i < Long.MAX_VALUE; i++) {
                long used = rt.totalMemory() - rt.freeMemory();
                if (used > peak) peak = used;
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /**
     * Runs the table on generated clip-like data: {@code java -cp ... HdbscanBench [n ...]}
     * (default 20000 50000), min_cluster_size = min_samples = 20, threads 1 and all.
     */
    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[] {20_000, 50_000} : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        int cores = Runtime.getRuntime().availableProcessors();
        for (int n : sizes) {
            PointSet pts = ClipLikeData.generate(n, 20240L + n).points();
            for (int threads : cores > 1 ? new int[] {cores, 1} : new int[] {1}) {
                Hdbscan h = Hdbscan.builder().minClusterSize(20).minSamples(20).threads(threads).build();
                System.out.print(run(pts, h, 3, 1).table());
            }
        }
    }
}
