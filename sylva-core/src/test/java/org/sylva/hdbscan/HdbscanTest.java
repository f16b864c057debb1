package org.sylva.hdbscan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.sylva.kernels.KernelProvider;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/** The facade: parameters, determinism across threads and backends, re-selection, bad input, cancellation. */
class HdbscanTest {
    private static final PointSet CLIPS = ClipLikeData.generate(3000, 7).points();

    private static PointSet withDuplicates() {
        // clip-like data where every 10th clip is an exact copy of another one
        PointSet p = ClipLikeData.generate(2000, 11).points();
        float[] c = p.coordinates().clone();
        int d = p.dimensions();
        for (int i = 0; i < p.size(); i += 10) System.arraycopy(c, ((i * 7 + 3) % p.size()) * d, c, i * d, d);
        return PointSet.of(p.size(), d, c);
    }

    private static void assertSameResult(HdbscanResult a, HdbscanResult b) {
        assertEquals(a.spanningTree(), b.spanningTree());
        assertArrayEquals(a.labels(), b.labels());
        assertArrayEquals(a.probabilities(), b.probabilities());
        assertArrayEquals(a.outlierScores(), b.outlierScores());
        assertArrayEquals(a.coreDistances(), b.coreDistances());
        assertEquals(a.condensedTree(), b.condensedTree());
        assertArrayEquals(a.clusterPersistence(), b.clusterPersistence());
    }

    @Test
    void defaultsAreScikitLearns() {
        Hdbscan h = Hdbscan.builder().build();
        assertEquals(5, h.minClusterSize());
        assertEquals(5, h.minSamples());
        assertEquals(0.0, h.clusterSelectionEpsilon());
        assertEquals(0, h.maxClusterSize());
        assertEquals(1.0, h.alpha());
        assertEquals(SelectionMethod.EOM, h.clusterSelectionMethod());
        assertEquals(false, h.allowSingleCluster());
        assertEquals(NonFinitePolicy.REJECT, h.nonFinitePolicy());
        assertEquals(7, Hdbscan.builder().minClusterSize(7).build().minSamples());
        assertEquals(3, Hdbscan.builder().minClusterSize(7).minSamples(3).build().minSamples());
    }

    @Test
    void describeTypedHasDescribesKeysWithTypedValues() {
        HdbscanParameters p = Hdbscan.builder().minClusterSize(20).minSamples(7).build().parameters();
        java.util.Map<String, Object> t = p.describeTyped();
        assertEquals(java.util.List.copyOf(p.describe().keySet()), java.util.List.copyOf(t.keySet()));
        assertEquals(20, t.get("min_cluster_size"));
        assertEquals(7, t.get("min_samples"));
        assertEquals(0.0, t.get("cluster_selection_epsilon"));
        assertTrue(t.containsKey("max_cluster_size") && t.get("max_cluster_size") == null, "None is null");
        assertEquals(1.0, t.get("alpha"));
        assertEquals("eom", t.get("cluster_selection_method"));
        assertEquals(false, t.get("allow_single_cluster"));
        HdbscanParameters q = p.toBuilder().maxClusterSize(50).clusterSelectionEpsilon(Double.POSITIVE_INFINITY)
                .clusterSelectionMethod(SelectionMethod.LEAF).allowSingleCluster(true).build().parameters();
        assertEquals(50, q.describeTyped().get("max_cluster_size"));
        assertEquals(Double.POSITIVE_INFINITY, q.describeTyped().get("cluster_selection_epsilon"));
        assertEquals("leaf", q.describeTyped().get("cluster_selection_method"));
        assertEquals(true, q.describeTyped().get("allow_single_cluster"));
    }

    @Test
    void identicalForAnyThreadCountBackendAndRun() {
        PointSet p = withDuplicates();
        HdbscanResult base = Hdbscan.builder().minClusterSize(20).threads(1).backend(Backend.SCALAR).build().fit(p);
        assertTrue(base.clusterCount() >= 2, "the data has clusters: " + base);
        for (int threads : new int[] {1, 2, 8}) {
            for (Backend backend : KernelProvider.get().vectorDistanceAvailable() ? Backend.values() : new Backend[] {Backend.SCALAR, Backend.AUTO}) {
                HdbscanResult r = Hdbscan.builder().minClusterSize(20).threads(threads).backend(backend).build().fit(p);
                assertSameResult(base, r);
            }
        }
    }

    @Test
    void reselectGivesWhatAFreshFitGives() {
        Hdbscan eom = Hdbscan.builder().minClusterSize(15).minSamples(10).build();
        HdbscanResult r = eom.fit(CLIPS);
        Hdbscan[] others = {
            eom.toBuilder().clusterSelectionMethod(SelectionMethod.LEAF).build(),
            eom.toBuilder().minClusterSize(40).build(),
            eom.toBuilder().clusterSelectionEpsilon(30.0).build(),
            eom.toBuilder().maxClusterSize(500).build(),
            eom.toBuilder().allowSingleCluster(true).minClusterSize(100).build(),
        };
        for (Hdbscan o : others) {
            HdbscanResult re = r.reselect(o);
            assertSameResult(o.fit(CLIPS), re);
            assertTrue(re.spanningTree() == r.spanningTree(), "the spanning tree is reused, not recomputed");
        }
        assertThrows(InvalidInputException.class, () -> r.reselect(eom.toBuilder().minSamples(11).build()));
        assertThrows(InvalidInputException.class, () -> r.reselect(eom.toBuilder().alpha(2.0).build()));
    }

    @Test
    void badParametersAreRefusedByName() {
        assertParameter("min_cluster_size", "got 1", () -> Hdbscan.builder().minClusterSize(1).build());
        assertParameter("min_samples", "got 0", () -> Hdbscan.builder().minSamples(0).build());
        assertParameter("alpha", "got 0.0", () -> Hdbscan.builder().alpha(0).build());
        assertParameter("alpha", "got NaN", () -> Hdbscan.builder().alpha(Double.NaN).build());
        assertParameter("cluster_selection_epsilon", "got -1.0",
                () -> Hdbscan.builder().clusterSelectionEpsilon(-1).build());
        assertParameter("max_cluster_size", "got -1", () -> Hdbscan.builder().maxClusterSize(-1).build());
        assertParameter("threads", "got 0", () -> Hdbscan.builder().threads(0).build());
        assertParameter("backend", "got gpu", () -> Backend.parse("gpu"));
        assertParameter("min_cluster_size", "got 1",
                () -> new HdbscanParameters(1, 1, 0, 0, 1, SelectionMethod.EOM, false));
    }

    /** The message names the parameter and the value, and the exception carries the parameter's name. */
    private static void assertParameter(String parameter, String value, Runnable r) {
        InvalidInputException e = assertMessage(parameter, r);
        assertTrue(e.getMessage().contains(value), e.getMessage());
        assertEquals(Optional.of(parameter), e.parameter(), e.getMessage());
    }

    private static InvalidInputException assertMessage(String word, Runnable r) {
        InvalidInputException e = assertThrows(InvalidInputException.class, r::run);
        assertTrue(e.getMessage().contains(word), e.getMessage());
        return e;
    }

    @Test
    void tooFewPointsAsScikitLearn() {
        PointSet one = PointSet.of(1, 2, new float[] {1, 2});
        assertEquals(Optional.empty(),
                assertMessage("at least two points", () -> Hdbscan.builder().build().fit(one)).parameter());
        PointSet four = PointSet.of(4, 1, new float[] {0, 1, 2, 3});
        assertParameter("min_samples", "min_samples (5) must be at most the number of samples in X (4)",
                () -> Hdbscan.builder().build().fit(four));
        // min_cluster_size larger than the data: everything is noise (scikit-learn does the same)
        HdbscanResult r = Hdbscan.builder().minClusterSize(10).minSamples(2).build().fit(four);
        assertArrayEquals(new int[] {-1, -1, -1, -1}, r.labels());
    }

    @Test
    void allIdenticalPointsAreOneClusterOrNoise() {
        float[] c = new float[60];
        Arrays.fill(c, 3f);
        PointSet same = PointSet.of(30, 2, c);
        HdbscanResult r = Hdbscan.builder().minClusterSize(5).build().fit(same);
        for (double core : r.coreDistances()) assertEquals(0.0, core);
        for (int l : r.labels()) assertEquals(-1, l);   // one pile, never split: no cluster without allow_single_cluster
        HdbscanResult single = Hdbscan.builder().minClusterSize(5).allowSingleCluster(true).build().fit(same);
        for (int l : single.labels()) assertEquals(0, l);
    }

    @Test
    void nonFiniteRowsAreRefusedByDefaultAndLabelledAsScikitLearnOnRequest() {
        float[] c = CLIPS.coordinates().clone();
        int d = CLIPS.dimensions();
        c[5 * d + 7] = Float.NaN;
        c[9 * d] = Float.POSITIVE_INFINITY;
        c[12 * d + 1] = Float.NEGATIVE_INFINITY;
        c[12 * d + 2] = Float.NaN;
        PointSet bad = PointSet.unchecked(CLIPS.size(), d, c);
        assertMessage("point 5, coordinate 7 is NaN", () -> Hdbscan.builder().build().fit(bad));
        HdbscanResult r = Hdbscan.builder().minClusterSize(15).nonFinite(NonFinitePolicy.SKLEARN).build().fit(bad);
        int[] l = r.labels();
        double[] p = r.probabilities();
        assertEquals(-3, l[5]);
        assertTrue(Double.isNaN(p[5]));
        assertEquals(-2, l[9]);
        assertEquals(0.0, p[9]);
        assertEquals(-3, l[12]);
        // the other rows get exactly what a fit without the bad rows gives
        int[] keep = new int[CLIPS.size() - 3];
        for (int i = 0, k = 0; i < CLIPS.size(); i++) if (i != 5 && i != 9 && i != 12) keep[k++] = i;
        HdbscanResult clean = Hdbscan.builder().minClusterSize(15).build().fit(CLIPS.select(keep));
        int[] cl = clean.labels();
        for (int k = 0; k < keep.length; k++) assertEquals(cl[k], l[keep[k]]);
        assertArrayEquals(keep, r.fittedRows());
    }

    @Test
    void hugeFloat64CoordinatesAreRefusedBeforeTheyOverflow() {
        double[] x = {0, 0, 1, 1, 2e160, 0, 3, 3};
        assertMessage("point 2, coordinate 0", () -> Hdbscan.builder().minClusterSize(2).minSamples(2).build()
                .fit(x, 4, 2, ProgressListener.NONE, CancellationToken.NEVER));
    }

    @Test
    void float64InputIsNotRoundedToFloat32() {
        double[] x = {0, 0, 1e-9, 0, 1, 1, 1 + 1e-9, 1, 5, 5, 5 + 1e-9, 5};
        HdbscanResult r = Hdbscan.builder().minClusterSize(2).minSamples(2).build()
                .fit(x, 6, 2, ProgressListener.NONE, CancellationToken.NEVER);
        double core0 = r.coreDistances()[0];
        assertEquals(1e-9, core0, 1e-24);   // float32 would make the two points identical (core 0)
    }

    @Test
    void progressIsReportedAndCancellationStopsTheFit() {
        AtomicInteger calls = new AtomicInteger();
        CancellationToken token = new CancellationToken();
        ProgressListener cancelOnFirst = (stage, done, total) -> {
            calls.incrementAndGet();
            token.cancel();
        };
        assertThrows(CancelledException.class,
                () -> Hdbscan.builder().minClusterSize(20).build().fit(CLIPS, cancelOnFirst, token));
        assertTrue(calls.get() >= 1);
        CancellationToken already = new CancellationToken();
        already.cancel();
        assertThrows(CancelledException.class,
                () -> Hdbscan.builder().build().fit(CLIPS, ProgressListener.NONE, already));
    }

    @Test
    void theFirstStageIsReportedWhenTheFitStartsAndStagesComeInPipelineOrder() {
        java.util.List<String> stages = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.List<long[]> first = new java.util.ArrayList<>();
        Hdbscan.builder().minClusterSize(20).threads(2).build().fit(CLIPS, (stage, done, total) -> {
            synchronized (stages) {
                if (stages.isEmpty()) first.add(new long[] {done, total});
                if (stages.isEmpty() || !stages.get(stages.size() - 1).equals(stage)) stages.add(stage);
            }
        }, CancellationToken.NEVER);
        assertEquals("core distances", stages.get(0));
        assertArrayEquals(new long[] {0, 1}, first.get(0), "reported before the index is built");
        for (int k = 1; k < stages.size(); k++) {
            assertEquals("spanning tree round " + k, stages.get(k), "stages " + stages);
        }
    }

    @Test
    void cancellationFromAnotherThreadAtRandomMomentsReturnsPromptlyAndLeaksNoThreads() throws Exception {
        PointSet big = ClipLikeData.generate(8_000, 3).points();
        Hdbscan h = Hdbscan.builder().minClusterSize(20).threads(2).build();
        HdbscanResult expected = h.fit(big);
        // Cancel at random moments within about 0.75 of a fit, measured on this machine now (a fixed range
        // would leave most fits finished on a fast, idle machine and few on a loaded one; and within 1.25
        // fits, a load that eased after the measurement left under 20 of 100 fits cancelled mid-way).
        long fitMillis = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long t = System.nanoTime();
            h.fit(big);
            fitMillis = Math.min(fitMillis, (System.nanoTime() - t) / 1_000_000);
        }
        int range = (int) Math.max(5, Math.min(2_000, fitMillis * 3 / 4));
        int before = Thread.activeCount();
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(42);
        int cancelled = 0;
        ExecutorService ex = Executors.newSingleThreadExecutor();
        try {
            for (int trial = 0; trial < 100; trial++) {
                CancellationToken token = new CancellationToken();
                Future<HdbscanResult> f = ex.submit(() -> h.fit(big, ProgressListener.NONE, token));
                Thread.sleep(rnd.nextInt(range));
                long t0 = System.nanoTime();
                token.cancel();
                try {
                    HdbscanResult r = f.get(10, TimeUnit.SECONDS);
                    assertSameResult(expected, r);   // finished before the cancel: a complete, correct result
                } catch (java.util.concurrent.ExecutionException e) {
                    assertTrue(e.getCause() instanceof CancelledException, e.getCause().toString());
                    cancelled++;
                }
                double secs = (System.nanoTime() - t0) / 1e9;
                // 2 s, or twice a whole fit where the machine is so loaded that a fit takes longer than 1 s
                double limit = Math.max(2.0, 2 * fitMillis / 1000.0);
                assertTrue(secs < limit, "trial " + trial + ": cancellation took " + secs + " s (a fit " + fitMillis
                        + " ms)");
            }
        } finally {
            ex.shutdownNow();
            assertTrue(ex.awaitTermination(5, TimeUnit.SECONDS));
        }
        assertTrue(cancelled >= 20, "only " + cancelled + " of 100 trials were cancelled mid-fit (delays up to "
                + range + " ms, a fit " + fitMillis + " ms)");
        Thread.sleep(200);
        assertTrue(Thread.activeCount() <= before + 1, "threads before " + before + ", after " + Thread.activeCount());
    }

    @Test
    void concurrentFitsOfDifferentInputsEachGiveTheirSingleThreadedAnswer() throws Exception {
        PointSet[] inputs = new PointSet[4];
        HdbscanResult[] expected = new HdbscanResult[4];
        for (int i = 0; i < 4; i++) {
            inputs[i] = ClipLikeData.generate(1500 + 250 * i, 100 + i).points();
            expected[i] = Hdbscan.builder().minClusterSize(10).threads(1).build().fit(inputs[i]);
        }
        Hdbscan shared = Hdbscan.builder().minClusterSize(10).threads(2).build();
        ExecutorService ex = Executors.newFixedThreadPool(4);
        try {
            @SuppressWarnings({"unchecked", "rawtypes"})   // a generic array
            Future<HdbscanResult>[] f = new Future[8];
            for (int i = 0; i < 8; i++) {
                PointSet in = inputs[i % 4];
                f[i] = ex.submit(() -> shared.fit(in));
            }
            for (int i = 0; i < 8; i++) assertSameResult(expected[i % 4], f[i].get(60, TimeUnit.SECONDS));
        } finally {
            ex.shutdownNow();
        }
    }

    @Test
    void labelsSeparateTheDemoTemplates() {
        ClipLikeData demo = ClipLikeData.generate(4000, 5);
        HdbscanResult r = Hdbscan.builder().minClusterSize(20).build().fit(demo.points());
        assertTrue(r.clusterCount() >= 2, r.toString());
        assertNotEquals(r.size(), r.noiseCount());
    }
}
