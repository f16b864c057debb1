package org.sylva.cli.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.sylva.balltree.BallTree;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.progress.CancelledException;

/**
 * The engine in-process: an {@link EngineServer} reading requests from one OS pipe and answering on
 * another, a client made of the same {@link FrameWriter} and {@link FrameReader} on the other ends. The
 * answers must be the library's own results; errors, refusals and cancellations must leave the engine
 * serving the next request; the end of the requests and a broken stream must end it.
 */
class EngineServerTest {
    /** A request that never finishes on its own: it waits, checking its token, until cancelled (bounded). */
    static final class WaitHandler implements Handler {
        final CountDownLatch started = new CountDownLatch(1);
        final AtomicBoolean sawCancel = new AtomicBoolean();

        @Override
        public Frame handle(Frame request, org.sylva.progress.CancellationToken cancel) {
            started.countDown();
            for (int i = 0; i < 2_000; i++) {   // at most 20 s
                if (cancel.isCancelled()) {
                    sawCancel.set(true);
                    throw new CancelledException();
                }
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return new Frame("ok", Map.of());
        }
    }

    /** One engine on two pipes and the client's ends of them. */
    @SuppressWarnings("try")   // close() waits for the engine's end, so it may be interrupted
    static final class Session implements AutoCloseable {
        final FrameWriter requests;
        final FrameReader responses;
        final OutputStream requestsOut;
        final CompletableFuture<Integer> status;
        final StringWriter log = new StringWriter();
        final Frame hello;
        final EngineServer server;

        Session(Map<String, Handler> extra, FrameLimits limits) throws IOException {
            Pipe toServer = Pipe.open();
            Pipe toClient = Pipe.open();
            InputStream serverIn = Channels.newInputStream(toServer.source());
            OutputStream serverOut = Channels.newOutputStream(toClient.sink());
            Map<String, Handler> handlers = new LinkedHashMap<>(EngineServer.standardHandlers());
            handlers.putAll(extra);
            EngineServer server = new EngineServer(serverIn, serverOut, handlers, limits, "test",
                    new PrintWriter(log, true), false);
            this.server = server;
            status = CompletableFuture.supplyAsync(() -> {
                int s = server.run();
                try {
                    serverOut.close();
                } catch (IOException ignored) {
                    // the test sees the status
                }
                return s;
            });
            requestsOut = Channels.newOutputStream(toServer.sink());
            requests = new FrameWriter(requestsOut);
            responses = new FrameReader(Channels.newInputStream(toClient.source()), FrameLimits.defaults());
            hello = read();
        }

        Frame read() throws IOException {
            try {
                return responses.read();
            } catch (RefusedFrameException e) {
                throw new AssertionError(e);
            }
        }

        Frame call(String kind, Map<String, Object> params, WireArray... arrays) throws IOException {
            requests.write(new Frame(kind, params, List.of(arrays)));
            return read();
        }

        @Override
        public void close() throws Exception {
            requestsOut.close();
            status.get(15, TimeUnit.SECONDS);
        }
    }

    Session session;

    Session open() throws IOException {
        return open(Map.of(), FrameLimits.defaults());
    }

    Session open(Map<String, Handler> extra, FrameLimits limits) throws IOException {
        session = new Session(extra, limits);
        return session;
    }

    @AfterEach
    void closeSession() throws Exception {
        if (session != null) session.close();
    }

    static ClipLikeData clips(int n) {
        return ClipLikeData.generate(n, 7);
    }

    @Test
    void helloNamesTheProtocolAndTheLimits() throws Exception {
        Session s = open();
        assertEquals("hello", s.hello.kind());
        assertEquals((long) EngineServer.PROTOCOL, s.hello.params().get("protocol"));
        assertEquals(List.of("balltree", "cut", "hdbscan", "partition", "predict", "validity"), s.hello.params().get("commands"));
        assertEquals(FrameLimits.defaults().maxFrameBytes(), s.hello.params().get("max_frame_bytes"));
    }

    @Test
    void hdbscanAnswersTheLibrarysResultForFloat32AndFloat64() throws Exception {
        Session s = open();
        PointSet pts = clips(600).points();
        HdbscanResult expected = Hdbscan.builder().minClusterSize(20).build().fit(pts);
        Frame r = s.call("hdbscan", Map.of("min_cluster_size", 20L, "id", 7L),
                WireArray.of("points", pts.coordinates(), pts.size(), pts.dimensions()));
        assertEquals("ok", r.kind(), r.toString());
        assertEquals(7L, r.params().get("id"), "the request's id comes back");
        assertEquals((long) expected.clusterCount(), r.params().get("n_clusters"));
        assertArrayEquals(expected.labels(), (int[]) r.array("labels").data());
        assertArrayEquals(expected.probabilities(), (double[]) r.array("probabilities").data());
        assertArrayEquals(expected.outlierScores(), (double[]) r.array("outlier_scores").data());
        assertArrayEquals(expected.spanningTree().toMatrix(), (double[]) r.array("mst").data());
        assertArrayEquals(new long[] {pts.size() - 1, 3}, r.array("mst").shape());
        assertArrayEquals(expected.condensedTree().toMatrix(), (double[]) r.array("condensed_tree").data());

        double[] x64 = pts.coordinates64();
        x64[0] += 1e-9;   // a value float32 cannot hold
        HdbscanResult e64 = Hdbscan.builder().minClusterSize(20).build().fit(PointSet.ofFloat64(pts.size(), 61, x64));
        Frame r64 = s.call("hdbscan", Map.of("min_cluster_size", 20L),
                WireArray.of("points", x64, pts.size(), 61));
        assertArrayEquals(e64.coreDistances(), (double[]) r64.array("core_distances").data());
        assertArrayEquals(e64.labels(), (int[]) r64.array("labels").data());
    }

    /** Asked for, progress frames carrying the request's id come before its answer, which is the same. */
    @Test
    void aRequestThatAsksForProgressGetsItsFramesBeforeTheAnswer() throws Exception {
        Session s = open();
        PointSet pts = clips(600).points();
        HdbscanResult expected = Hdbscan.builder().minClusterSize(20).build().fit(pts);
        s.requests.write(new Frame("hdbscan", Map.of("min_cluster_size", 20L, "id", 8L, "progress", true),
                List.of(WireArray.of("points", pts.coordinates(), pts.size(), pts.dimensions()))));
        List<String> stages = new java.util.ArrayList<>();
        Frame r = s.read();
        for (int frames = 0; r.kind().equals("progress") && frames < 10_000; frames++) {
            assertEquals(8L, r.params().get("id"), r.toString());
            long done = (Long) r.params().get("done"), total = (Long) r.params().get("total");
            assertTrue(done >= 0 && done <= total, r.toString());
            String stage = (String) r.params().get("stage");
            if (stages.isEmpty() || !stages.getLast().equals(stage)) stages.add(stage);
            r = s.read();
        }
        assertEquals("ok", r.kind(), r.toString());
        assertEquals(8L, r.params().get("id"));
        assertArrayEquals(expected.labels(), (int[]) r.array("labels").data());
        assertTrue(stages.contains(org.sylva.hdbscan.core.CoreDistances.STAGE), stages.toString());
        // without asking, the answer comes alone, as before
        Frame plain = s.call("hdbscan", Map.of("min_cluster_size", 20L, "id", 9L),
                WireArray.of("points", pts.coordinates(), pts.size(), pts.dimensions()));
        assertEquals("ok", plain.kind(), plain.toString());
        assertEquals(9L, plain.params().get("id"));
    }

    @Test
    void aSparseDistanceMatrixIsFittedAsTheLibraryFitsItsGraph() throws Exception {
        Session s = open();
        // a path 0 - 1 - ... - 9 with distances 1, 2, ..., 9 and each point's diagonal 0 stored
        int n = 10;
        int[] indptr = new int[n + 1];
        java.util.List<Integer> cols = new java.util.ArrayList<>();
        java.util.List<Double> vals = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = Math.max(0, i - 1); j <= Math.min(n - 1, i + 1); j++) {
                cols.add(j);
                vals.add(i == j ? 0.0 : Math.max(i, j));
            }
            indptr[i + 1] = cols.size();
        }
        int[] indices = cols.stream().mapToInt(Integer::intValue).toArray();
        double[] data = vals.stream().mapToDouble(Double::doubleValue).toArray();
        HdbscanResult expected = Hdbscan.builder().metric(org.sylva.hdbscan.metric.Metric.precomputed())
                .minClusterSize(2).minSamples(2).build()
                .fit(org.sylva.hdbscan.metric.DistanceGraph.ofCsr(n, indptr, indices, data));
        long[] wide = new long[indices.length];
        for (int i = 0; i < wide.length; i++) wide[i] = indices[i];
        Frame r = s.call("hdbscan", Map.of("min_cluster_size", 2L, "min_samples", 2L, "metric", "precomputed"),
                WireArray.of("graph_indptr", indptr, n + 1), WireArray.of("graph_indices", wide, wide.length),
                WireArray.of("graph_data", data, data.length));
        assertEquals("ok", r.kind(), r.toString());
        assertEquals(HdbscanHandler.GRAPH_ENGINE, r.params().get("backend"));
        assertArrayEquals(expected.labels(), (int[]) r.array("labels").data());
        assertArrayEquals(expected.coreDistances(), (double[]) r.array("core_distances").data());
        assertArrayEquals(expected.spanningTree().toMatrix(), (double[]) r.array("mst").data());
        assertArrayEquals(expected.condensedTree().toMatrix(), (double[]) r.array("condensed_tree").data());
        assertError(s.call("hdbscan", Map.of("metric", "precomputed"), WireArray.of("graph_indptr", indptr, n + 1)),
                "ValueError", "needs the three arrays");
        assertError(s.call("hdbscan", Map.of("min_cluster_size", 2L), WireArray.of("graph_indptr", indptr, n + 1),
                WireArray.of("graph_indices", indices, indices.length), WireArray.of("graph_data", data, data.length)),
                "ValueError", "needs metric 'precomputed'");
        assertError(s.call("hdbscan", Map.of("metric", "precomputed"), WireArray.of("graph_indptr", indptr, n + 1),
                WireArray.of("graph_indices", new long[] {1L << 40}, 1), WireArray.of("graph_data", data, data.length)),
                "ValueError", "beyond a Java array's limit");
    }

    @Test
    void predictionDataIsTheModelFileAndPredictAnswersTheModelsResult() throws Exception {
        Session s = open();
        PointSet pts = clips(600).points();
        PointSet fresh = clips(700).points().select(java.util.stream.IntStream.range(600, 700).toArray());
        HdbscanResult fit = Hdbscan.builder().minClusterSize(20).build().fit(pts);
        HdbscanModel model = HdbscanModel.of(fit, pts);
        Frame r = s.call("hdbscan", Map.of("min_cluster_size", 20L, "prediction_data", true),
                WireArray.of("points", pts.coordinates(), pts.size(), pts.dimensions()));
        byte[] bytes = (byte[]) r.array("model").data();
        assertArrayEquals(model.toBytes(), bytes, "the model's bytes are its model file");
        WireArray m = WireArray.of("model", bytes, bytes.length);
        Frame p = s.call("predict", Map.of(), m, WireArray.of("points", fresh.coordinates(), 100, 61));
        assertEquals("ok", p.kind(), p.toString());
        var expected = model.approximatePredict(fresh);
        assertArrayEquals(expected.labels(), (int[]) p.array("labels").data());
        assertArrayEquals(expected.probabilities(), (double[]) p.array("probabilities").data());
        assertArrayEquals(expected.outlierScores(), (double[]) p.array("outlier_scores").data());
        Frame all = s.call("predict", Map.of("what", "all_membership"), m);
        assertArrayEquals(model.allPointsMembershipVectors().values(), (double[]) all.array("membership").data());
        bytes[bytes.length / 2] ^= 1;
        assertError(s.call("predict", Map.of(), WireArray.of("model", bytes, bytes.length),
                WireArray.of("points", fresh.coordinates(), 100, 61)), "ValueError", "checksum");
        bytes[bytes.length / 2] ^= 1;   // whole again
        assertError(s.call("predict", Map.of(), m, WireArray.of("points", new float[10], 5, 2)), "ValueError",
                "2 dimensions, the model 61");
    }

    @Test
    void predictionDataOfAWeightedFitIsItsVersion5Model() throws Exception {
        Session s = open();
        PointSet pts = clips(300).points();
        int[] w = new int[300];
        for (int i = 0; i < w.length; i++) w[i] = i % 4;   // 0..3: rows of weight 0 left out
        HdbscanResult fit = Hdbscan.builder().minClusterSize(20).build().fit(pts, org.sylva.hdbscan.SampleWeights.of(w));
        HdbscanModel model = HdbscanModel.of(fit, pts);
        Frame r = s.call("hdbscan", Map.of("min_cluster_size", 20L, "prediction_data", true),
                WireArray.of("points", pts.coordinates(), pts.size(), pts.dimensions()), WireArray.of("sample_weight", w, 300));
        assertEquals("ok", r.kind(), r.toString());
        byte[] bytes = (byte[]) r.array("model").data();
        assertArrayEquals(model.toBytes(), bytes, "the model's bytes are its model file");
        assertTrue(HdbscanModel.fromBytes(bytes, "wire").weighted());
        PointSet fresh = clips(350).points().select(java.util.stream.IntStream.range(300, 350).toArray());
        Frame p = s.call("predict", Map.of(), WireArray.of("model", bytes, bytes.length),
                WireArray.of("points", fresh.coordinates(), 50, 61));
        assertArrayEquals(model.approximatePredict(fresh).labels(), (int[]) p.array("labels").data());
        assertArrayEquals(model.approximatePredict(fresh).connectingPoints(), (int[]) p.array("connecting_points").data());
    }

    @Test
    void cutAndValidityAnswerTheLibrarysResult() throws Exception {
        Session s = open();
        PointSet pts = clips(600).points();
        HdbscanResult fit = Hdbscan.builder().minClusterSize(20).build().fit(pts);
        WireArray mst = WireArray.of("mst", fit.spanningTree().toMatrix(), fit.spanningTree().edges(), 3);
        double cut = fit.spanningTree().weight(fit.spanningTree().edges() / 2);
        Frame c = s.call("cut", Map.of("cut_distance", cut, "min_cluster_size", 10L), mst);
        assertArrayEquals(fit.dbscanClustering(cut, 10), (int[]) c.array("labels").data());
        WireArray labels = WireArray.of("labels", fit.labels(), 600);
        Frame r = s.call("validity", Map.of("what", "relative"), mst, labels);
        assertEquals(fit.relativeValidity(), (double) r.params().get("relative_validity"));
        Frame d = s.call("validity", Map.of("what", "dbcv"),
                WireArray.of("points", pts.coordinates(), 600, 61), labels);
        var v = fit.validityIndex(pts);
        assertEquals(v.index(), (double) d.params().get("validity_index"));
        assertArrayEquals(v.perCluster(), (double[]) d.array("per_cluster").data());
        // on a distance matrix, with d: the library's ofDistances; without d, refused naming it
        int m = 120;
        double[] matrix = new double[m * m];
        var pairs = org.sylva.hdbscan.metric.Metric.manhattan().pairs(pts.coordinates64(), 600, 61);
        for (int a = 0; a < m; a++) for (int b = 0; b < m; b++) matrix[a * m + b] = pairs.between(a, b);
        int[] some = java.util.Arrays.copyOf(fit.labels(), m);
        for (int i = 0; i < m; i++) some[i] = i % 3;   // three clusters of 40
        Frame dm = s.call("validity", Map.of("what", "dbcv", "metric", "precomputed", "d", 61L),
                WireArray.of("points", matrix, m, m), WireArray.of("labels", some, m));
        var vm = org.sylva.hdbscan.quality.DensityValidity.ofDistances(matrix, m, some, 61,
                org.sylva.progress.CancellationToken.NEVER);
        assertEquals(vm.index(), (double) dm.params().get("validity_index"));
        assertError(s.call("validity", Map.of("what", "dbcv", "metric", "precomputed"),
                WireArray.of("points", matrix, m, m), WireArray.of("labels", some, m)), "ValueError",
                "a precomputed distance matrix needs d");
        assertError(s.call("cut", Map.of("cut_distance", 1.0), WireArray.of("mst", new double[] {0, 5, 1}, 1, 3)),
                "ValueError", "ids must be whole numbers in [0, 2)");
        assertError(s.call("cut", Map.of("min_cluster_size", 2L), WireArray.of("mst", new double[] {0, 1, 1}, 1, 3)),
                "ValueError", "cut needs 'cut_distance'");
        // edges that are no spanning tree, and negative weights, are refused by both requests that take a tree
        double[][] notTrees = {{0, 0, 0.1, 1, 1, 0.1}, {0, 1, 0.1, 1, 0, 0.2}, {0, 1, 0.1, 1, 2, -0.5}};
        for (double[] t : notTrees) {
            WireArray bad = WireArray.of("mst", t, 2, 3);
            assertError(s.call("cut", Map.of("cut_distance", 1.0), bad), "ValueError", "spanning tree edge");
            assertError(s.call("validity", Map.of("what", "relative"), bad, WireArray.of("labels", new int[3], 3)),
                    "ValueError", "spanning tree edge");
        }
    }

    @Test
    void ballTreeAndPartitionAnswerTheBuildersResult() throws Exception {
        Session s = open();
        int n = 3000;
        float[] xyz = new float[n * 3];
        java.util.Random rnd = new java.util.Random(3);
        for (int i = 0; i < xyz.length; i++) xyz[i] = rnd.nextFloat();
        long[] batch = new long[n];
        for (int i = 0; i < n; i++) batch[i] = i < 1000 ? 0 : 1;
        PointSet pts = PointSet.of(n, 3, xyz.clone());
        BallTree expected = new BallTreeBuilder().build(pts, batch);
        Frame r = s.call("balltree", Map.of(), WireArray.of("points", xyz, n, 3), WireArray.of("batch_idx", batch, n));
        assertEquals("ok", r.kind(), r.toString());
        assertArrayEquals(expected.indicesAsLong(), (long[]) r.array("tree_idx").data());
        assertArrayEquals(expected.mask(), (boolean[]) r.array("mask").data());
        assertArrayEquals(new long[] {0, 1024, 1024 + 2048}, (long[]) r.array("offsets").data());
        assertArrayEquals(new int[] {9, 10}, (int[]) r.array("levels").data());
        Frame v = s.call("balltree", Map.of("kernels", "vector", "threads", 1L), WireArray.of("points", xyz, n, 3),
                WireArray.of("batch_idx", batch, n));
        assertArrayEquals(expected.indicesAsLong(), (long[]) v.array("tree_idx").data(), "the same tree either way");

        int[] perm = new BallTreeBuilder().partition(pts, batch, 4);
        Frame p = s.call("partition", Map.of("level", 4L), WireArray.of("points", xyz, n, 3),
                WireArray.of("batch_idx", batch, n));
        long[] got = (long[]) p.array("perm").data();
        assertEquals(n, got.length);
        for (int i = 0; i < n; i++) assertEquals(perm[i], got[i], "perm " + i);
    }

    @Test
    void badRequestsAreValueErrorsAndTheEngineGoesOn() throws Exception {
        Session s = open();
        float[] line = new float[20];
        for (int i = 0; i < line.length; i++) line[i] = i;
        assertError(s.call("hdbscan", Map.of(), WireArray.of("points", line, 20)), "ValueError", "2-D");
        assertError(s.call("hdbscan", Map.of("min_cluster_size", 1L), WireArray.of("points", line, 20, 1)),
                "ValueError", "min_cluster_size");
        Frame unknown = s.call("hdbscan", Map.of("min_clustre_size", 5L), WireArray.of("points", line, 20, 1));
        assertError(unknown, "ValueError", "unknown parameter 'min_clustre_size'");
        assertEquals("min_clustre_size", unknown.params().get("parameter"));
        assertError(s.call("hdbscan", Map.of("alpha", "big"), WireArray.of("points", line, 20, 1)), "ValueError",
                "alpha must be a number");
        assertError(s.call("kmeans", Map.of()), "ValueError", "unknown command 'kmeans'");
        // a value shown as the Python caller wrote it
        assertError(s.call("hdbscan", Map.of("threads", true), WireArray.of("points", line, 20, 1)), "ValueError",
                "threads must be an integer; got True");
        assertError(s.call("hdbscan", Map.of("allow_single_cluster", 1L), WireArray.of("points", line, 20, 1)),
                "ValueError", "allow_single_cluster must be True or False; got 1");
        // a fit the heap cannot hold is refused before it starts, as a memory error (about 370 GiB of lists)
        assertError(s.call("hdbscan", Map.of("min_cluster_size", 5L, "min_samples", 100_000L),
                WireArray.of("points", new float[200_000], 200_000, 1)), "MemoryError", "GiB of heap beyond the input");
        assertError(s.call("hdbscan", Map.of("min_cluster_size", 2L, "progress", "yes"), WireArray.of("points", line, 20, 1)),
                "ValueError", "progress must be true or false; got yes");
        Map<String, Object> nullProgress = new LinkedHashMap<>();
        nullProgress.put("min_cluster_size", 2L);
        nullProgress.put("progress", null);
        assertError(s.call("hdbscan", nullProgress, WireArray.of("points", line, 20, 1)),
                "ValueError", "progress must be true or false; got null");
        // an empty array may claim any width: one beyond int is refused, never read as a negative number
        assertError(s.call("hdbscan", Map.of(), WireArray.of("points", new float[0], 0, 1L << 31)), "ValueError",
                "at most 2147483647; got shape [0, 2147483648]");
        // a misspelt array is refused, not left out (the fit would run unweighted)
        assertError(s.call("hdbscan", Map.of("min_cluster_size", 2L), WireArray.of("points", line, 20, 1),
                WireArray.of("sample_weights", new int[20], 20)), "ValueError", "unknown array 'sample_weights'");
        assertError(s.call("cut", Map.of("cut_distance", 1.0), WireArray.of("mst", new double[] {0, 1, 1}, 1, 3),
                WireArray.of("pad", new int[1], 1)), "ValueError", "unknown array 'pad'; this request takes mst");
        assertError(s.call("balltree", Map.of(), WireArray.of("points", new double[] {1, 2}, 2, 1)), "ValueError",
                "float32");
        line[5] = Float.NaN;
        assertError(s.call("balltree", Map.of(), WireArray.of("points", line, 20, 1)), "ValueError", "point 5");
        assertError(s.call("balltree", Map.of(), WireArray.of("points", new float[4], 4, 1),
                WireArray.of("batch_idx", new long[] {0, 1, 0, 1}, 4)), "ValueError", "batch");
        line[5] = 5;
        Frame ok = s.call("hdbscan", Map.of("min_cluster_size", 2L), WireArray.of("points", line, 20, 1));
        assertEquals("ok", ok.kind(), "still serving after the errors");
    }

    static void assertError(Frame f, String type, String part) {
        assertEquals("error", f.kind(), f.toString());
        assertEquals(type, f.params().get("type"), f.toString());
        assertTrue(((String) f.params().get("message")).contains(part), f.params().get("message") + " lacks " + part);
    }

    @Test
    void anOversizedRequestIsRefusedAndTheEngineGoesOn() throws Exception {
        Session s = open(Map.of(), FrameLimits.defaults().withMaxFrameBytes(4096));
        assertEquals(4096L, s.hello.params().get("max_frame_bytes"));
        Frame refused = s.call("hdbscan", Map.of("id", 1L), WireArray.of("points", new float[2000], 1000, 2));
        assertError(refused, "ValueError", "4096 bytes");
        assertEquals(1L, refused.params().get("id"), "a refused request's id comes back too");
        float[] small = new float[40];
        for (int i = 0; i < small.length; i++) small[i] = i * i;
        assertEquals("ok", s.call("hdbscan", Map.of(), WireArray.of("points", small, 20, 2)).kind());
    }

    @Test
    void cancelStopsTheRunningRequestAndTheEngineGoesOn() throws Exception {
        WaitHandler wait = new WaitHandler();
        Session s = open(Map.of("wait", wait), FrameLimits.defaults());
        s.requests.write(new Frame("wait", Map.of("id", 1L)));
        assertTrue(wait.started.await(10, TimeUnit.SECONDS));
        long t0 = System.nanoTime();
        s.requests.write(new Frame("cancel", Map.of()));
        Frame r = s.read();
        assertEquals("cancelled", r.kind());
        assertEquals(1L, r.params().get("id"));
        assertTrue(wait.sawCancel.get());
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "answered promptly");
        s.requests.write(new Frame("cancel", Map.of()));   // nothing running: ignored, no answer
        Frame next = s.call("balltree", Map.of("id", 2L), WireArray.of("points", new float[] {0, 1, 2, 3}, 4, 1));
        assertEquals("ok", next.kind());
        assertEquals(2L, next.params().get("id"), "the ignored cancel gave no answer of its own");
    }

    /** A DBCV of one large cluster (O(m^2 d), seconds) stops at a cancel too, and the engine goes on. */
    @Test
    void aValidityRequestStopsAtACancel() throws Exception {
        Session s = open();
        int n = 15_000, d = 61;
        float[] x = new float[n * d];
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
        for (int i = 0; i < x.length; i++) x[i] = (float) rnd.nextGaussian();
        s.requests.write(new Frame("validity", Map.of("what", "dbcv", "id", 1L),
                List.of(WireArray.of("points", x, n, d), WireArray.of("labels", new int[n], n))));
        Thread.sleep(500);   // the request is running: its one cluster's all-points core distances take seconds
        long t0 = System.nanoTime();
        s.requests.write(new Frame("cancel", Map.of()));
        Frame r = s.read();
        assertEquals("cancelled", r.kind(), () -> "answered " + r.kind() + " " + r.params());
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "answered promptly");
        assertEquals("ok", s.call("balltree", Map.of(), WireArray.of("points", new float[] {0, 1, 2, 3}, 4, 1)).kind());
    }

    /** The answer's backend names the engine that ran: above 16 dimensions the k-d tree engine hands to a scan. */
    @Test
    void theBackendNamesTheEngineThatRan() throws Exception {
        Session s = open();
        for (int d : new int[] {2, 20}) {
            float[] x = new float[300 * d];
            java.util.SplittableRandom rnd = new java.util.SplittableRandom(d);
            for (int i = 0; i < x.length; i++) x[i] = (float) rnd.nextGaussian();
            Frame r = s.call("hdbscan", Map.of("metric", "manhattan"), WireArray.of("points", x, 300, d));
            HdbscanResult lib = Hdbscan.builder().metric(org.sylva.hdbscan.metric.Metric.manhattan()).build()
                    .fit(PointSet.of(300, d, x));
            String ran = org.sylva.hdbscan.metric.KdTreeEngine.ranOnTree(lib.timings().seconds()) ? "kd-tree" : "brute-force";
            assertEquals(d == 20 ? "cpu/brute-force/manhattan" : "cpu/" + ran + "/manhattan", r.params().get("backend"));
        }
    }

    @Test
    void theEndOfTheRequestsCancelsTheRunningOneAndEndsTheEngine() throws Exception {
        WaitHandler wait = new WaitHandler();
        Session s = open(Map.of("wait", wait), FrameLimits.defaults());
        s.requests.write(new Frame("wait", Map.of()));
        assertTrue(wait.started.await(10, TimeUnit.SECONDS));
        s.requestsOut.close();
        assertEquals(0, s.status.get(10, TimeUnit.SECONDS));
        assertTrue(wait.sawCancel.get());
        session = null;
    }

    /**
     * SIGTERM or Ctrl-C to the engine (the CLI's token calls {@link EngineServer#stop()}): the blocked read wakes, the
     * running request is cancelled and answered, and the engine ends with 0 and nothing in its log, as at the end
     * of the requests (it waited for the signal handler's whole second and ended unanswered before).
     */
    @Test
    void stopCancelsAndAnswersTheRunningRequestAndEndsTheEngineQuietly() throws Exception {
        WaitHandler wait = new WaitHandler();
        Session s = open(Map.of("wait", wait), FrameLimits.defaults());
        s.requests.write(new Frame("wait", Map.of("id", "w1")));
        assertTrue(wait.started.await(10, TimeUnit.SECONDS));
        s.server.stop();
        assertEquals(0, s.status.get(10, TimeUnit.SECONDS));
        assertTrue(wait.sawCancel.get());
        Frame answer = s.read();
        assertEquals("cancelled", answer.kind(), answer.toString());
        assertEquals("w1", answer.params().get("id"));
        assertEquals("", s.log.toString());
        s.requestsOut.close();
        session = null;
    }

    /**
     * The ball tree's builder keeps its last build's working memory for the next build; before a request of another
     * kind the engine releases it (it stayed for the engine's life: a later fit could run out of heap).
     */
    @Test
    void aBallTreeHandlerLetsGoOfItsWorkingMemoryWhenReleased() throws Exception {
        BallTreeHandler h = BallTreeHandler.partition();
        int n = 5000;
        float[] xyz = new float[n * 3];
        java.util.Random rnd = new java.util.Random(4);
        for (int i = 0; i < xyz.length; i++) xyz[i] = rnd.nextFloat();
        Frame request = new Frame("partition", Map.of("level", 3L), List.of(WireArray.of("points", xyz, n, 3),
                WireArray.of("batch_idx", new long[n], n)));
        assertEquals("ok", h.handle(request, new org.sylva.progress.CancellationToken()).kind());
        java.lang.ref.WeakReference<BallTreeBuilder> used = new java.lang.ref.WeakReference<>(h.builder());
        h.release();
        for (int i = 0; i < 50 && used.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertNull(used.get(), "the builder that held the last build's memory is no longer reachable");
        assertEquals("ok", h.handle(request, new org.sylva.progress.CancellationToken()).kind(), "and it builds again");
    }

    /**
     * A request refused after the running one (a frame over a bound) used to take the place of the running one as
     * the request to cancel: the end of the input, or bytes that are no frame, then left it running and its answer,
     * and the refusal's, unwritten when the engine gave up waiting. Every request read is cancelled now, and every
     * answer written in order.
     */
    @Test
    void theEndOfTheInputAfterARefusedFrameCancelsTheRunningRequestAndWritesEveryAnswer() throws Exception {
        for (boolean garbage : new boolean[] {false, true}) {
            WaitHandler wait = new WaitHandler();
            Session s = open(Map.of("wait", wait), FrameLimits.defaults().withMaxFrameBytes(400));
            s.requests.write(new Frame("wait", Map.of("id", 1L)));
            assertTrue(wait.started.await(10, TimeUnit.SECONDS));
            s.requests.write(new Frame("balltree", Map.of("id", 2L), List.of(WireArray.of("points", new float[200], 200, 1))));
            if (garbage) s.requestsOut.write("not a frame".getBytes());
            s.requestsOut.close();
            long t0 = System.nanoTime();
            Frame first = s.read();
            assertEquals("cancelled", first.kind(), first.toString());
            assertEquals(1L, first.params().get("id"));
            Frame refused = s.read();
            assertError(refused, "ValueError", "more than 400 bytes");
            assertEquals(2L, refused.params().get("id"));
            if (garbage) assertError(s.read(), "ProtocolError", "SYLV");
            assertNull(s.read());
            assertEquals(garbage ? 2 : 0, s.status.get(10, TimeUnit.SECONDS));
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "at once, not after the engine's 10 s of waiting");
            session = null;
        }
    }

    /** A request that holds the worker until {@code release} opens (bounded), then answers ok. */
    static final class HoldHandler implements Handler {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Frame handle(Frame request, org.sylva.progress.CancellationToken cancel) {
            started.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Frame("ok", Map.of());
        }
    }

    /** A session holding two requests of {@code hold}, ids {@code first} (running) and {@code first + 1} (read ahead). */
    Session holdingTwo(HoldHandler hold, long first) throws Exception {
        Session s = open(Map.of("hold", hold), FrameLimits.defaults());
        s.requests.write(new Frame("hold", Map.of("id", first)));
        assertTrue(hold.started.await(10, TimeUnit.SECONDS));
        s.requests.write(new Frame("hold", Map.of("id", first + 1)));
        return s;
    }

    @Test
    void aRequestBeyondTheOneRunningAndOneReadAheadIsRefusedAndTheRestAnsweredInOrder() throws Exception {
        HoldHandler hold = new HoldHandler();
        Session s = holdingTwo(hold, 1);
        // a third request while the first runs and the second waits: read to its end, its array never held
        s.requests.write(new Frame("balltree", Map.of("id", 3L), List.of(WireArray.of("points", new float[4_000], 1_000, 4))));
        // a cancel is still read; it refers to the refused request, sent last, so it reaches nothing
        s.requests.write(new Frame("cancel", Map.of()));
        for (int i = 0; i < 500 && s.server.refusalsWaiting() == 0; i++) Thread.sleep(20);   // the third refused
        assertEquals(1, s.server.refusalsWaiting());
        Thread.sleep(100);   // and the cancel behind it read
        hold.release.countDown();
        Frame first = s.read(), second = s.read(), third = s.read();
        assertEquals("ok", first.kind(), first.toString());
        assertEquals(1L, first.params().get("id"));
        assertEquals(2L, second.params().get("id"));
        assertEquals("ok", second.kind(), second.toString());
        assertError(third, "ValueError", "the engine holds 2 requests not yet answered (the one running and one read "
                + "ahead): wait for an answer before sending another request");
        assertEquals(3L, third.params().get("id"));
        // answered, the engine takes requests again
        Frame next = s.call("balltree", Map.of("id", 4L), WireArray.of("points", new float[] {0, 1, 2, 3}, 4, 1));
        assertEquals("ok", next.kind());
        assertEquals(4L, next.params().get("id"));
    }

    @Test
    void aClientThatNeverReadsItsAnswersEndsTheEngineRatherThanItsHeap() throws Exception {
        HoldHandler hold = new HoldHandler();
        Session s = holdingTwo(hold, 0);
        for (long id = 2; id <= 2 + EngineServer.MAX_QUEUED_REFUSALS; id++) s.requests.write(new Frame("hold", Map.of("id", id)));
        // the 65th refusal ends the reading while the first request still runs (bounded wait)
        for (int i = 0; i < 500 && !s.log.toString().contains("protocol error"); i++) Thread.sleep(20);
        assertTrue(s.log.toString().contains("the client sends requests without reading the answers"), s.log.toString());
        hold.release.countDown();
        assertEquals("ok", s.read().kind());
        // the one read ahead: cancelled as the engine ends, or ok where it ran before the cancellation (the log line
        // that releases the first comes just before the engine cancels what it holds)
        Frame ahead = s.read();
        assertTrue(ahead.kind().equals("cancelled") || ahead.kind().equals("ok"), ahead.toString());
        for (int k = 0; k < EngineServer.MAX_QUEUED_REFUSALS; k++) assertError(s.read(), "ValueError", "wait for an answer");
        assertError(s.read(), "ProtocolError", "the client sends requests without reading the answers");
        assertEquals(2, s.status.get(10, TimeUnit.SECONDS));
        session = null;
    }

    @Test
    void anAnswersStreamThatCannotBeWrittenIsSaidSo() {
        StringWriter log = new StringWriter();
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("No space left on device");
            }
        };
        EngineServer server = new EngineServer(new java.io.ByteArrayInputStream(new byte[0]), broken,
                EngineServer.standardHandlers(), FrameLimits.defaults(), "test", new PrintWriter(log, true), false);
        assertEquals(2, server.run());
        assertEquals("sylva serve: cannot write the answers: No space left on device", log.toString().strip());
    }

    @Test
    void bytesThatAreNoFrameEndTheEngineWithAProtocolError() throws Exception {
        Session s = open();
        s.requestsOut.write("GET / HTTP/1.1\r\n\r\n".getBytes());
        s.requestsOut.flush();
        assertError(s.read(), "ProtocolError", "SYLV");
        assertEquals(2, s.status.get(10, TimeUnit.SECONDS));
        assertNull(s.read(), "nothing after the error");
        assertTrue(s.log.toString().contains("protocol error"), s.log.toString());
        session = null;
    }
}
