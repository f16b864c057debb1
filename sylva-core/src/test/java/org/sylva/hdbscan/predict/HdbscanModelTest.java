package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.NonFinitePolicy;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** The model's behaviour beyond the oracle: determinism, edge cases, the rows left out, refusals. */
class HdbscanModelTest {
    private static Execution threads(int t) {
        return new Execution(t, ProgressListener.NONE, CancellationToken.NEVER);
    }

    /** Three 2-D Gaussian blobs and a sprinkle of uniform noise, float64. */
    static double[] blobs(int n, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[][] centres = {{0, 0}, {6, 1}, {2, 7}};
        double[] x = new double[2 * n];
        for (int i = 0; i < n; i++) {
            if (i % 10 == 9) {
                x[2 * i] = rng.nextDouble(-4, 10);
                x[2 * i + 1] = rng.nextDouble(-4, 11);
            } else {
                double[] c = centres[i % 3];
                x[2 * i] = c[0] + gaussian(rng);
                x[2 * i + 1] = c[1] + gaussian(rng);
            }
        }
        return x;
    }

    private static double gaussian(SplittableRandom rng) {
        return Math.sqrt(-2 * Math.log1p(-rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());
    }

    @Test
    void answersDoNotDependOnThreads() {
        PointSet train = ClipLikeData.generate(1500, 3).points();
        PointSet fresh = ClipLikeData.generate(700, 4).points();
        HdbscanResult r = Hdbscan.builder().minClusterSize(20).minSamples(10).threads(2).build().fit(train);
        HdbscanModel one = HdbscanModel.of(r, train, threads(1));
        HdbscanModel three = HdbscanModel.of(r, train, threads(3));
        assertTrue(one.clusterCount() >= 2, "clusters: " + one.clusterCount());
        assertEquals(one.approximatePredict(fresh, threads(1)), three.approximatePredict(fresh, threads(3)));
        assertEquals(one.membershipVector(fresh, threads(1)), three.membershipVector(fresh, threads(3)));
        assertEquals(one.allPointsMembershipVectors(threads(1)), three.allPointsMembershipVectors(threads(3)));
        // both answers in one pass: each the same as its own method's
        for (int t : new int[] {1, 3}) {
            HdbscanModel.Answers both = three.predictWithMembership(fresh, threads(t));
            assertEquals(one.approximatePredict(fresh, threads(1)), both.prediction());
            assertEquals(one.membershipVector(fresh, threads(1)), both.membership());
        }
        // nor on the other new points (the search order sorts them by leaf): each point alone, the same row
        Prediction all = one.approximatePredict(fresh, threads(2));
        Membership soft = one.membershipVector(fresh, threads(2));
        for (int i = 0; i < fresh.size(); i += 37) {
            PointSet alone = PointSet.of(1, fresh.dimensions(), fresh.row(i));
            Prediction p = one.approximatePredict(alone, threads(1));
            assertEquals(all.labels()[i], p.labels()[0], "label of new point " + i);
            assertEquals(all.probabilities()[i], p.probabilities()[0], "probability of new point " + i);
            assertEquals(all.outlierScores()[i], p.outlierScores()[0], "score of new point " + i);
            assertEquals(all.connectingPoints()[i], p.connectingPoints()[0], "connecting point of new point " + i);
            Membership m = one.membershipVector(alone, threads(1));
            for (int l = 0; l < soft.clusters(); l++) assertEquals(soft.get(i, l), m.get(0, l), "membership of new point " + i);
        }
    }

    /**
     * A loaded model searches a large batch of new clips over an index with the float32 copy (groups
     * pre-filtered: checked on the search the batch used) and a batch of fewer than
     * {@link FittedSearch#FLOAT32_SEARCH_MIN_POINTS} without it: the answers are the same, bitwise, on float32
     * clips (an exact copy) and on float64 clips with decimals (a rounded one); and the copy, once made, is kept
     * for later small batches.
     */
    @Test
    void aLoadedModelAnswersTheSameWithTheFloat32PreFilter() throws Exception {
        org.sylva.kernels.DistanceKernel vector = org.sylva.kernels.KernelProvider.get().bestDistance();
        org.junit.jupiter.api.Assumptions.assumeTrue(vector.approximates(), "the vector kernel's pre-filter");
        int n = 3500, m = 14000, d = 100;
        // large enough for the vector kernel even in a fresh JVM (FittedSearch.kernelFor)
        assertTrue(!org.sylva.hdbscan.engine.StageKernels.coldScalarSearch(m, n, d), "sized for the vector kernel");
        for (boolean decimals : new boolean[] {false, true}) {
            PointSet train = blobs(n, d, 8, decimals);
            PointSet fresh = blobs(m, d, 9, decimals);
            HdbscanResult r = Hdbscan.builder().minClusterSize(20).minSamples(10).threads(2).build().fit(train);
            byte[] bytes = HdbscanModel.of(r, train, threads(2)).toBytes();
            HdbscanModel large = HdbscanModel.fromBytes(bytes, "m");
            HdbscanModel.Answers batch = large.predictWithMembership(fresh, threads(2));
            NeighbourSearch used = large.fittedSearch().builtSearch();
            assertTrue(used.filtered(), "decimals " + decimals + ": the batch was pre-filtered");
            // the same points in small batches, against another load of the file: no copy, every distance in float64
            HdbscanModel small = HdbscanModel.fromBytes(bytes, "m");
            int chunk = 700;
            for (int from = 0; from < m; from += chunk) {
                int to = Math.min(m, from + chunk);
                double[] rows = java.util.Arrays.copyOfRange(fresh.coordinates64(), from * d, to * d);
                HdbscanModel.Answers part = small.predictWithMembership(PointSet.ofFloat64(to - from, d, rows), threads(2));
                for (int i = from; i < to; i++) assertSameAnswer(batch, i, part, i - from, "decimals " + decimals + ", new clip " + i);
            }
            NeighbourSearch smallSearch = small.fittedSearch().builtSearch();
            assertTrue(smallSearch == null || !smallSearch.filtered(), "small batches: no float32 copy");
            // which index a search walks, kernel given
            FittedSearch fs = new FittedSearch(train.coordinates64(), n, d, null, org.sylva.hdbscan.metric.Metric.euclidean());
            assertTrue(!((NeighbourSearch) fs.search(threads(2), vector, chunk, 20)).filtered(), "a small batch: no copy");
            assertTrue(!((NeighbourSearch) fs.search(threads(2), vector, m, 4000)).filtered(), "lists too long for groups: no copy");
            NeighbourSearch many = (NeighbourSearch) fs.search(threads(2), vector, m, 20);
            assertTrue(many.filtered(), "a large batch: the copy");
            assertTrue(many == fs.search(threads(2), vector, chunk, 20), "the copy is kept for a later small batch");
        }
    }

    /**
     * A loaded model scans every fitted point for its first {@link FittedSearch#SCAN_MAX_POINTS} new points (in
     * a fresh JVM, or when told to), then builds its index: the answers are the index's, bitwise, on clips, on an
     * integer grid full of tied distances and after a weighted fit, new points that coincide with fitted ones
     * included.
     */
    @Test
    void fewNewPointsAreScannedWithTheIndexsAnswers() throws Exception {
        for (String kind : new String[] {"clips", "grid", "weighted grid"}) {
            int n = 900, d = kind.equals("clips") ? 61 : 5;
            double[] x = new double[n * d];
            SplittableRandom rng = new SplittableRandom(kind.length());
            if (kind.equals("clips")) {
                x = ClipLikeData.generate(n, 5).points().coordinates64();
            } else {
                for (int i = 0; i < x.length; i++) x[i] = (i / d % 3) * 6 + rng.nextInt(4);
            }
            PointSet train = PointSet.ofFloat64(n, d, x);
            Hdbscan h = Hdbscan.builder().minClusterSize(15).minSamples(6).threads(2).build();
            HdbscanResult r;
            if (kind.startsWith("weighted")) {
                int[] w = new int[n];
                for (int i = 0; i < n; i++) w[i] = 1 + rng.nextInt(3);
                r = h.fit(train, org.sylva.hdbscan.SampleWeights.of(w));
            } else {
                r = h.fit(train);
            }
            byte[] bytes = HdbscanModel.of(r, train, threads(2)).toBytes();
            int m = 3 * FittedSearch.SCAN_MAX_POINTS;
            double[] q = new double[m * d];
            for (int i = 0; i < m; i++) {
                int from = rng.nextInt(n) * d;
                for (int j = 0; j < d; j++) {
                    q[i * d + j] = i % 4 == 0 ? x[from + j]                       // a fitted point
                            : kind.equals("clips") ? x[from + j] + rng.nextDouble(-0.3, 0.3)
                            : rng.nextInt(20) - 0.5 * (i % 2);
                }
            }
            PointSet fresh = PointSet.ofFloat64(m, d, q);
            HdbscanModel indexed = HdbscanModel.fromBytes(bytes, "m");
            HdbscanModel.Answers all = indexed.predictWithMembership(fresh, threads(2));
            assertTrue(indexed.fittedSearch().builtSearch() != null, kind + ": a batch of " + m + " builds the index");
            assertTrue(indexed.clusterCount() >= 2, kind + ": clusters " + indexed.clusterCount());
            assertTrue(java.util.Arrays.stream(all.prediction().labels()).anyMatch(l -> l >= 0)
                    && java.util.Arrays.stream(all.prediction().labels()).anyMatch(l -> l < 0), kind + ": labelled and noise points");
            HdbscanModel scanning = HdbscanModel.fromBytes(bytes, "m");
            scanning.fittedSearch().scanWhenLongLived = true;   // the test JVM may have become long-lived
            int asked = 0;
            for (int from = 0, size = 1; from < m; from += size, size = size % 7 + 1) {
                int to = Math.min(m, from + size);
                boolean scans = asked + (to - from) <= FittedSearch.SCAN_MAX_POINTS;
                HdbscanModel.Answers part = scanning.predictWithMembership(
                        PointSet.ofFloat64(to - from, d, java.util.Arrays.copyOfRange(q, from * d, to * d)), threads(2));
                asked += to - from;
                assertEquals(!scans, scanning.fittedSearch().builtSearch() != null,
                        kind + ": after " + asked + " new points, scanned: " + scans);
                for (int i = from; i < to; i++) {
                    assertSameAnswer(all, i, part, i - from, kind + ", new point " + i + (scans ? " (scanned)" : ""));
                }
            }
        }
    }

    /** Row {@code i} of {@code a} and row {@code j} of {@code b}: the same label, probability, score, connecting point and membership. */
    private static void assertSameAnswer(HdbscanModel.Answers a, int i, HdbscanModel.Answers b, int j, String what) {
        assertEquals(a.prediction().labels()[i], b.prediction().labels()[j], what);
        assertEquals(a.prediction().probabilities()[i], b.prediction().probabilities()[j], what);
        assertEquals(a.prediction().outlierScores()[i], b.prediction().outlierScores()[j], what);
        assertEquals(a.prediction().connectingPoints()[i], b.prediction().connectingPoints()[j], what);
        for (int l = 0; l < a.membership().clusters(); l++) assertEquals(a.membership().get(i, l), b.membership().get(j, l), what);
    }

    /** {@code n} points of five Gaussian blobs in {@code d} dimensions, as float32 values or float64 decimals. */
    private static PointSet blobs(int n, int d, long seed, boolean decimals) {
        SplittableRandom rng = new SplittableRandom(seed);
        SplittableRandom centres = new SplittableRandom(1);
        double[] c = new double[5 * d];
        for (int i = 0; i < c.length; i++) c[i] = centres.nextDouble(-4, 4);
        double[] x = new double[n * d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                double v = c[(i % 5) * d + j] + gaussian(rng);
                x[i * d + j] = decimals ? v : (float) v;
            }
        }
        return PointSet.ofFloat64(n, d, x);
    }

    @Test
    void newPointsNearAClusterTakeItsLabelAndFarOnesAreNoise() {
        int n = 600;
        double[] x = blobs(n, 5);
        HdbscanResult r = Hdbscan.builder().minClusterSize(15).threads(2).build().fit(x, n, 2, ProgressListener.NONE,
                CancellationToken.NEVER);
        HdbscanModel model = HdbscanModel.of(r, PointSet.ofFloat64(n, 2, x));
        assertEquals(3, model.clusterCount());
        int[] labels = blobLabels(r.labels());
        // the blob centres, and a point far from everything
        double[] q = {0, 0, 6, 1, 2, 7, 100, 100};
        Prediction p = model.approximatePredict(PointSet.ofFloat64(4, 2, q));
        for (int c = 0; c < 3; c++) {
            assertEquals(labels[c], p.labels()[c], "centre of blob " + c);
            assertTrue(p.probabilities()[c] > 0.5, "probability at a centre: " + p.probabilities()[c]);
        }
        assertEquals(-1, p.labels()[3]);
        assertEquals(0.0, p.probabilities()[3]);
        assertTrue(p.outlierScores()[3] > 0.9, "outlier score far away: " + p.outlierScores()[3]);
        Membership m = model.membershipVector(PointSet.ofFloat64(4, 2, q));
        for (int c = 0; c < 3; c++) {
            double[] row = m.row(c);
            int best = 0;
            for (int l = 1; l < 3; l++) if (row[l] > row[best]) best = l;
            assertEquals(labels[c], best, "strongest membership at the centre of blob " + c);
        }
        double sum = 0;
        for (double v : model.allPointsMembershipVectors().values()) sum += v;
        assertTrue(sum > 0 && sum <= n + 1e-9, "rows sum to at most 1");
    }

    /**
     * One blob in uniform noise, where single-cluster EOM selects the root: the fit labels a point falling out
     * of the root by a threshold (its lambda against {@code 1/epsilon}, else the largest lambda of the root's
     * rows), and the fitted points given as new points get their fit's labels back, noise included; a point far
     * away is noise.
     */
    @Test
    void aSingleClusterAtTheRootPredictsTheFitsLabels() {
        int n = 400;
        SplittableRandom rng = new SplittableRandom(21);
        double[] x = new double[2 * n];
        for (int i = 0; i < n; i++) {
            boolean noise = i % 4 == 3;
            x[2 * i] = noise ? rng.nextDouble(-8, 8) : gaussian(rng);
            x[2 * i + 1] = noise ? rng.nextDouble(-8, 8) : gaussian(rng);
        }
        PointSet points = PointSet.ofFloat64(n, 2, x);
        for (double epsilon : new double[] {0.0, 0.3, 0.05}) {
            HdbscanResult r = Hdbscan.builder().minClusterSize(20).minSamples(5).allowSingleCluster(true)
                    .clusterSelectionEpsilon(epsilon).threads(2).build().fit(x, n, 2, ProgressListener.NONE,
                            CancellationToken.NEVER);
            HdbscanModel model = HdbscanModel.of(r, points);
            int noise = 0;
            for (int l : r.labels()) if (l < 0) noise++;
            assertTrue(noise > 0 && model.clusterCount() == 1, "epsilon " + epsilon + ": " + model.clusterCount()
                    + " clusters, " + noise + " noise: not the fit this test needs");
            Prediction p = model.approximatePredict(points);
            assertArrayEquals(r.labels(), p.labels(), "epsilon " + epsilon + ": the fitted points' labels");
            Prediction far = model.approximatePredict(PointSet.ofFloat64(1, 2, new double[] {100, 100}));
            assertEquals(-1, far.labels()[0], "epsilon " + epsilon + ": a far point");
        }
    }

    /** The label most points of each blob of {@link #blobs} carry. */
    private static int[] blobLabels(int[] labels) {
        int[] out = new int[3];
        for (int c = 0; c < 3; c++) {
            int[] votes = new int[labels.length + 1];
            for (int i = c; i < labels.length; i += 3) if (i % 10 != 9 && labels[i] >= 0) votes[labels[i]]++;
            for (int l = 0; l < votes.length; l++) if (votes[l] > votes[out[c]]) out[c] = l;
        }
        return out;
    }

    @Test
    void rowsLeftOutOfTheFitKeepTheirInputNumbering() {
        int n = 300;
        double[] x = blobs(n, 6);
        x[2 * 7] = Double.NaN;
        x[2 * 100 + 1] = Double.POSITIVE_INFINITY;
        HdbscanResult r = Hdbscan.builder().minClusterSize(10).nonFinite(NonFinitePolicy.SKLEARN).threads(2).build()
                .fit(x, n, 2, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel model = HdbscanModel.of(r, PointSet.uncheckedFloat64(n, 2, x));
        assertEquals(n, model.size());
        assertEquals(n - 2, model.fittedSize());
        Membership all = model.allPointsMembershipVectors();
        assertEquals(n, all.points());
        assertTrue(Double.isNaN(all.get(7, 0)) && Double.isNaN(all.get(100, 0)), "rows left out are NaN");
        assertTrue(Double.isNaN(model.predictionCoreDistances()[7]));
        // an exact copy of input row 200 connects to row 200 (input numbering, not fitted numbering)
        Prediction p = model.approximatePredict(PointSet.ofFloat64(1, 2, new double[] {x[400], x[401]}));
        assertEquals(200, p.connectingPoints()[0]);
        for (int l = 0; l < model.clusterCount(); l++) {
            for (int e : model.exemplars(l)) assertTrue(e != 7 && e != 100 && r.labels()[e] == l, "exemplar " + e);
        }
    }

    @Test
    void smallestAndLargestMinSamples() {
        int n = 40;
        double[] x = blobs(n, 7);
        PointSet fresh = PointSet.ofFloat64(20, 2, blobs(20, 8));
        for (int ms : new int[] {1, 2, 30, n}) {
            HdbscanResult r = Hdbscan.builder().minClusterSize(5).minSamples(ms).threads(1).build()
                    .fit(x, n, 2, ProgressListener.NONE, CancellationToken.NEVER);
            HdbscanModel model = HdbscanModel.of(r, PointSet.ofFloat64(n, 2, x));
            Prediction p = model.approximatePredict(fresh);
            Membership m = model.membershipVector(fresh);
            assertEquals(20, p.size());
            assertEquals(20 * model.clusterCount(), m.values().length);
            double[] core = model.predictionCoreDistances();
            if (ms == 1) assertEquals(0.0, core[0], "prediction core distance with the package's min_samples 0");
            for (double v : p.probabilities()) assertTrue(v >= 0 && v <= 1, "probability " + v);
        }
    }

    @Test
    void aTreeThatNeverSplitsPredictsNoise() {
        int n = 30;
        double[] x = new double[2 * n];
        SplittableRandom rng = new SplittableRandom(9);
        for (int i = 0; i < x.length; i++) x[i] = rng.nextDouble();
        HdbscanResult r = Hdbscan.builder().minClusterSize(20).threads(1).build()
                .fit(x, n, 2, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel model = HdbscanModel.of(r, PointSet.ofFloat64(n, 2, x));
        assertEquals(0, model.clusterCount());
        Prediction p = model.approximatePredict(PointSet.ofFloat64(2, 2, new double[] {0.5, 0.5, 3, 3}));
        assertArrayEquals(new int[] {-1, -1}, p.labels());
        assertArrayEquals(new double[] {0, 0}, p.probabilities());
        assertArrayEquals(new double[] {1, 1}, p.outlierScores());
        assertEquals(0, model.membershipVector(PointSet.ofFloat64(1, 2, new double[] {0.5, 0.5})).clusters());
        assertEquals(n, model.allPointsMembershipVectors().points());
    }

    @Test
    void newPointsAreChecked() {
        int n = 100;
        double[] x = blobs(n, 10);
        HdbscanResult r = Hdbscan.builder().minClusterSize(10).threads(1).build()
                .fit(x, n, 2, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel model = HdbscanModel.of(r, PointSet.ofFloat64(n, 2, x));
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> model.approximatePredict(PointSet.ofFloat64(1, 3, new double[] {0, 0, 0})));
        assertTrue(e.getMessage().contains("3 coordinates") && e.getMessage().contains("of 2"), e.getMessage());
        e = assertThrows(InvalidInputException.class,
                () -> model.membershipVector(PointSet.uncheckedFloat64(2, 2, new double[] {0, 0, 1, Double.NaN})));
        assertTrue(e.getMessage().contains("new point 1, coordinate 1 is NaN"), e.getMessage());
        e = assertThrows(InvalidInputException.class,
                () -> model.approximatePredict(PointSet.ofFloat64(1, 2, new double[] {1e200, 0})));
        assertTrue(e.getMessage().contains("beyond"), e.getMessage());
        assertEquals(0, model.approximatePredict(PointSet.ofFloat64(0, 2, new double[0])).size());
    }

    @Test
    void otherPointsThanTheFittedOnesAreRefused() {
        int n = 100;
        double[] x = blobs(n, 11);
        HdbscanResult r = Hdbscan.builder().minClusterSize(10).threads(1).build()
                .fit(x, n, 2, ProgressListener.NONE, CancellationToken.NEVER);
        double[] other = x.clone();
        other[10] += 0.5;
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> HdbscanModel.of(r, PointSet.ofFloat64(n, 2, other)));
        assertTrue(e.getMessage().contains("not the points the result was fitted on"), e.getMessage());
        e = assertThrows(InvalidInputException.class,
                () -> HdbscanModel.of(r, PointSet.ofFloat64(n - 1, 2, java.util.Arrays.copyOf(x, 2 * n - 2))));
        assertTrue(e.getMessage().contains("fitted on 100 points"), e.getMessage());
    }

    @Test
    void aReselectedResultPredictsWithItsOwnClusters() {
        PointSet train = ClipLikeData.generate(1200, 12).points();
        HdbscanResult eom = Hdbscan.builder().minClusterSize(15).threads(2).build().fit(train);
        HdbscanResult leaf = eom.reselect(eom.parameters().toBuilder()
                .clusterSelectionMethod(org.sylva.hdbscan.hierarchy.SelectionMethod.LEAF).build());
        HdbscanModel a = HdbscanModel.of(eom, train), b = HdbscanModel.of(leaf, train);
        assertEquals(eom.clusterCount(), a.clusterCount());
        assertEquals(leaf.clusterCount(), b.clusterCount());
        assertNotEquals(a.clusterCount(), b.clusterCount());
    }

    /** A search unit shrinks with the model, so a cancel is noticed soon against a large one; 8 to 256 points. */
    @Test
    void aSearchUnitIsFewerNewPointsAgainstALargerModel() {
        assertEquals(256, ModelAnswers.searchBlock(500, 61));
        assertEquals(220, ModelAnswers.searchBlock(20_000, 61));
        assertEquals(22, ModelAnswers.searchBlock(200_000, 61));
        assertEquals(8, ModelAnswers.searchBlock(10_000_000, 784));
        assertEquals(8, ModelAnswers.searchBlock(Integer.MAX_VALUE, Integer.MAX_VALUE));
    }

    /** A prediction's stage starts with (0, 1), before its index is built, and ends with all its units done. */
    @Test
    void aPredictionStartsItsStageBeforeTheIndexIsBuilt() {
        PointSet train = ClipLikeData.generate(1500, 3).points();
        HdbscanResult r = Hdbscan.builder().minClusterSize(20).threads(2).build().fit(train);
        HdbscanModel model = HdbscanModel.of(r, train, threads(2));
        java.util.List<String> told = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        model.approximatePredict(ClipLikeData.generate(700, 4).points(), new Execution(2,
                (stage, done, total) -> told.add(stage + " " + done + "/" + total), CancellationToken.NEVER));
        assertEquals(HdbscanModel.PREDICT_STAGE + " 0/1", told.get(0), told.toString());
        assertTrue(told.size() >= 2 && told.stream().skip(1).allMatch(t -> t.startsWith(HdbscanModel.PREDICT_STAGE + " ")),
                told.toString());
        assertTrue(told.stream().anyMatch(t -> t.matches(HdbscanModel.PREDICT_STAGE + " (\\d+)/\\1")), "ends done: " + told);
    }
}
