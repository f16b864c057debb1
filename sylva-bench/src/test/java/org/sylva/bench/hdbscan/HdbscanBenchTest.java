package org.sylva.bench.hdbscan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HdbscanBenchTest {
    private static HdbscanBench.Result result(double core, double total) {
        Map<String, Double> times = new LinkedHashMap<>();
        times.put("core distances", core);
        times.put("total", total);
        return new HdbscanBench.Result(2000, 2, 2, "auto", 3, 1, times, times, 1L << 20, 9, 68, 20, 20);
    }

    @Test
    void aSmallFitsStagesPrintToTheMicrosecond() {
        String table = result(0.0017125, 0.0034).table();
        assertTrue(table.contains("core distances   median    0.001713 s"), table);
        assertTrue(table.contains("total            median    0.003400 s"), table);
    }

    @Test
    void theHeaderIsOneKeyValuePerWordAndNamesTheParameters() {
        Map<String, Double> times = Map.of("total", 0.5);
        String head = new HdbscanBench.Result(500, 3, 1, "gpu/opencl: pthread-skylake AMD EPYC", 1, 0, times, times,
                1L << 20, 2, 7, 5, 10).table().lines().findFirst().orElseThrow();
        assertTrue(head.startsWith("hdbscan n=500 d=3 threads=1 backend=gpu/opencl:_pthread-skylake_AMD_EPYC repeat=1 "
                + "warmup=0 min_cluster_size=5 min_samples=10 clusters=2 noise=7 "), head);
    }

    @Test
    void aSmallPredictionPrintsToTheMicrosecond() {
        assertTrue(new PredictBench.Result(150, 3, 4, 1, 5, 9, 0.0000426, 0.000031).line()
                .endsWith("median_s=0.000043 min_s=0.000031"));
        assertTrue(new PredictBench.Result(150, 3, 4, 1, 5, 9, 1.25, 1.2).line().endsWith("median_s=1.250 min_s=1.200"));
    }

    @Test
    void aFitOfASecondOrMorePrintsToTheMillisecond() {
        String table = result(1.23456, 2.5).table();
        assertTrue(table.contains("core distances   median     1.235 s"), table);
        assertTrue(table.contains("total            median     2.500 s"), table);
    }

    /** Thousands of quick warm-up runs (a small input's warm-up seconds) are told once a second, not each. */
    @Test
    void quickWarmUpRunsAreToldOnceASecond() {
        java.util.List<String> lines = new java.util.ArrayList<>();
        Runnable warm = new BenchControl(lines::add, org.sylva.progress.CancellationToken.NEVER).warmUps(() -> { });
        long t0 = System.nanoTime();
        for (int i = 0; i < 10_000; i++) warm.run();
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(lines.get(0).matches("warm-up run 1: 0\\.\\d{6} s"), "a quick run to the microsecond: " + lines);
        assertTrue(lines.size() <= 1 + (int) seconds, lines.size() + " lines in " + seconds + " s");
        BenchControl told = new BenchControl(lines::add, org.sylva.progress.CancellationToken.NEVER);
        told.timed(0, 2, 0.0000426);
        told.timed(1, 2, 2.5);
        assertEquals(java.util.List.of("run 1 of 2: 0.000043 s", "run 2 of 2: 2.500 s"),
                lines.subList(lines.size() - 2, lines.size()));
    }

    /** Each run is told as it ends, and the token reaches the fits: a cancel stops the benchmark within its run. */
    @Test
    void eachRunIsToldAndACancelStopsTheRunningFit() {
        org.sylva.data.PointSet pts = org.sylva.demo.ClipLikeData.generate(3000, 5).points();
        org.sylva.hdbscan.Hdbscan h = org.sylva.hdbscan.Hdbscan.builder().minClusterSize(20).threads(1).build();
        java.util.List<String> lines = new java.util.ArrayList<>();
        HdbscanBench.run(pts, h, 2, 1, 0.0, new BenchControl(lines::add, org.sylva.progress.CancellationToken.NEVER));
        assertTrue(lines.size() >= 3 && lines.get(0).matches("warm-up run 1: \\d+\\.\\d{3}(\\d{3})? s")
                && lines.get(lines.size() - 1).matches("run 2 of 2: \\d+\\.\\d{3}(\\d{3})? s"), lines.toString());
        // a token that turns cancelled while the first warm-up fit runs: that fit stops, and no run is told
        java.util.concurrent.atomic.AtomicInteger polls = new java.util.concurrent.atomic.AtomicInteger();
        org.sylva.progress.CancellationToken token = org.sylva.progress.CancellationToken.polling(
                () -> polls.incrementAndGet() > 20);
        java.util.List<String> told = new java.util.ArrayList<>();
        org.junit.jupiter.api.Assertions.assertThrows(org.sylva.progress.CancelledException.class,
                () -> HdbscanBench.run(pts, h, 2, 1, 0.0, new BenchControl(told::add, token)));
        assertTrue(told.isEmpty(), told.toString());
    }
}
