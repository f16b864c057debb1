package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanParameters;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.NonFinitePolicy;
import org.sylva.hdbscan.SampleWeights;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
import org.sylva.testsupport.SameResult;
import org.sylva.testsupport.WeightedRows;

/**
 * The model of a weighted fit answers, bitwise, as the model of the fit of the rows repeated by their
 * weights ({@code np.repeat(X, w, axis=0)}), each row reading its first copy: prediction of new points
 * (label, probability, outlier score, connecting row), soft clustering of new and fitted points, the
 * prediction core distances and exemplars; it is saved as format version 5 and read back to the same
 * bytes, and the fit's result is rebuilt from it.
 */
class WeightedModelTest {
    private static Execution threads(int t) {
        return new Execution(t, ProgressListener.NONE, CancellationToken.NEVER);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("continuous, weights 0..3", 300, 3, false, 3, 0, 10, 5, 0),
                Arguments.of("grid ties, heavy rows", 300, 2, true, 2, 6, 10, 6, 0),
                Arguments.of("continuous, min_samples 1", 200, 2, false, 4, 4, 6, 1, 0),
                Arguments.of("min_samples 2", 200, 2, false, 3, 2, 6, 2, 0),
                Arguments.of("grid ties, rows heavier than min_samples", 250, 2, true, 1, 10, 8, 30, 0),
                // fewer rows than a new point's list: every row is searched
                Arguments.of("few rows, min_samples above the rows", 15, 2, true, 5, 3, 4, 25, 1),
                Arguments.of("every weight at least 1", 200, 2, true, 3, 5, 8, 6, 1));
    }

    /** New points: near the data, far from it, and exactly on fitted rows (some of weight 0). */
    private static double[] newPoints(double[] x, int n, int d, int m, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] q = new double[m * d];
        for (int i = 0; i < m; i++) {
            int row = r.nextInt(n);
            for (int j = 0; j < d; j++) {
                double v = x[row * d + j];
                q[i * d + j] = i % 5 == 0 ? v : i % 7 == 0 ? v + 40 * r.nextGaussian() : v + r.nextGaussian();
            }
        }
        return q;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void answersAsTheModelOfTheRepeatedRows(String name, int n, int d, boolean grid, int max, int heavy, int mcs,
            int ms, int least) throws IOException {
        double[] x = WeightedRows.blobs(n, d, n * 17L + d, grid);
        int[] w = WeightedRows.weights(n, max, heavy, 3 * mcs, n + 3L * max);
        for (int i = 0; i < n; i++) w[i] = Math.max(w[i], least);
        double[] rep = WeightedRows.repeat(x, d, w);
        int points = rep.length / d;
        int[] rowOfPoint = new int[points];
        for (int i = 0, p = 0; i < n; i++) {
            for (int c = 0; c < w[i]; c++) rowOfPoint[p++] = i;
        }
        Hdbscan h = Hdbscan.builder().minClusterSize(mcs).minSamples(ms).threads(2).build();
        PointSet rows = PointSet.ofFloat64(n, d, x), repeated = PointSet.ofFloat64(points, d, rep);
        HdbscanResult weightedFit = h.fit(rows, SampleWeights.of(w));
        HdbscanModel model = HdbscanModel.of(weightedFit, rows, threads(2));
        HdbscanModel reference = HdbscanModel.of(h.fit(repeated), repeated, threads(2));
        assertEquals(least > 0, model.fittedSize() == n);
        assertTrue(model.weighted());
        assertFalse(reference.weighted());
        assertArrayEquals(w, model.sampleWeights());
        assertTrue(reference.clusterCount() >= 2, "clusters: " + reference.clusterCount());
        assertEquals(reference.clusterCount(), model.clusterCount());

        int m = 400;
        PointSet fresh = PointSet.ofFloat64(m, d, newPoints(x, n, d, m, n + 1L));
        for (HdbscanModel tested : new HdbscanModel[] {model, HdbscanModel.fromBytes(model.toBytes(), "weighted.model")}) {
            assertSameAnswers(reference, tested, fresh, rowOfPoint, w);
        }

        // reselect and the DBSCAN* cut, per row as the repeated rows' first copies
        HdbscanParameters leaf = h.parameters().toBuilder().minClusterSize(mcs + 2)
                .clusterSelectionMethod(SelectionMethod.LEAF).build().parameters();
        assertSameAnswers(reference.reselect(leaf), model.reselect(leaf), fresh, rowOfPoint, w);
        assertArrayEquals(weightedFit.reselect(leaf).labels(), model.reselect(leaf).labels());
        double cut = weightedFit.spanningTree().weight(weightedFit.spanningTree().edges() / 2);
        assertArrayEquals(weightedFit.dbscanClustering(cut, mcs), model.dbscanClustering(cut, mcs));
        SameResult.assertSameResult(weightedFit,
                HdbscanResult.of(HdbscanModel.fromBytes(model.toBytes(), "weighted.model"), threads(2)), name);
    }

    /**
     * A weighted fit on principal-component scores of clips, with the clips' shape: version 5 holds the weights, the
     * row shape and the projection, and reads back to the same bytes and answers.
     */
    @Test
    void aWeightedModelKeepsItsProjectionAndRowShape() throws IOException {
        int n = 400, input = 20, k = 3;
        PointSet clips = org.sylva.demo.ClipLikeData.generate(n, 4).points();
        float[] x = new float[n * input];
        for (int i = 0; i < n; i++) System.arraycopy(clips.coordinates(), i * clips.dimensions(), x, i * input, input);
        org.sylva.features.PrincipalComponents pc = org.sylva.features.PrincipalComponents.fit(x, n, input, k);
        double[] scores = pc.project(x, n);
        int[] w = WeightedRows.weights(n, 3, 4, 12, 5);
        HdbscanResult fit = Hdbscan.builder().minClusterSize(10).threads(2).build()
                .fit(scores, n, k, SampleWeights.of(w), ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel plain = ModelFileTest.legacy(HdbscanModel.of(fit, PointSet.ofFloat64(n, k, scores), threads(2)));
        HdbscanModel projected = plain.withProjection(pc);
        HdbscanModel both = projected.withRowShape(new RowShape(4, 5));
        PointSet fresh = PointSet.of(50, input, java.util.Arrays.copyOf(x, 50 * input));
        for (HdbscanModel m : new HdbscanModel[] {projected, both}) {
            byte[] b = m.toBytes();
            assertEquals(ModelFile.VERSION_5, ByteBuffer.wrap(b, 12, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
            HdbscanModel back = HdbscanModel.fromBytes(b, "pca.model");
            assertArrayEquals(b, back.toBytes());
            assertEquals(pc, back.projection().orElseThrow());
            assertEquals(m.rowShape(), back.rowShape());
            assertTrue(back.weighted());
            assertEquals(m.approximatePredict(fresh, threads(2)), back.approximatePredict(fresh, threads(1)));
            assertEquals(m.membershipVector(fresh, threads(2)), back.membershipVector(fresh, threads(1)));
        }
        // the projected model answers new clips as the plain model answers their scores
        assertEquals(plain.approximatePredict(PointSet.ofFloat64(50, k, pc.project(java.util.Arrays.copyOf(x, 50 * input), 50)),
                threads(2)), projected.approximatePredict(fresh, threads(2)));
    }

    /** Everything {@code tested} (weighted) says agrees with {@code reference} (the repeated rows) at first copies. */
    private static void assertSameAnswers(HdbscanModel reference, HdbscanModel tested, PointSet fresh, int[] rowOfPoint,
            int[] w) {
        int n = w.length;
        int[] first = new int[n];
        java.util.Arrays.fill(first, -1);
        for (int p = rowOfPoint.length - 1; p >= 0; p--) first[rowOfPoint[p]] = p;

        Prediction a = reference.approximatePredict(fresh, threads(2)), b = tested.approximatePredict(fresh, threads(3));
        assertArrayEquals(a.labels(), b.labels());
        assertArrayEquals(a.probabilities(), b.probabilities());
        assertArrayEquals(a.outlierScores(), b.outlierScores());
        int[] ca = a.connectingPoints(), cb = b.connectingPoints();
        for (int i = 0; i < ca.length; i++) assertEquals(rowOfPoint[ca[i]], cb[i], "connecting row of new point " + i);
        assertEquals(reference.membershipVector(fresh, threads(1)), tested.membershipVector(fresh, threads(2)));

        int[] labels = tested.labels(), refLabels = reference.labels();
        double[] prob = tested.probabilities(), refProb = reference.probabilities();
        double[] glosh = tested.outlierScores(), refGlosh = reference.outlierScores();
        double[] core = tested.predictionCoreDistances(), refCore = reference.predictionCoreDistances();
        Membership all = tested.allPointsMembershipVectors(threads(2)), refAll = reference.allPointsMembershipVectors(threads(1));
        int k = all.clusters();
        assertEquals(refAll.clusters(), k);
        for (int i = 0; i < n; i++) {
            if (w[i] == 0) {
                assertEquals(-1, labels[i], "row " + i + " of weight 0");
                assertEquals(0.0, prob[i]);
                assertTrue(Double.isNaN(glosh[i]) && Double.isNaN(core[i]));
                for (int l = 0; l < k; l++) assertTrue(Double.isNaN(all.get(i, l)));
                continue;
            }
            int p = first[i];
            assertEquals(refLabels[p], labels[i], "label of row " + i);
            assertEquals(Double.doubleToLongBits(refProb[p]), Double.doubleToLongBits(prob[i]), "probability of row " + i);
            assertEquals(Double.doubleToLongBits(refGlosh[p]), Double.doubleToLongBits(glosh[i]), "score of row " + i);
            assertEquals(Double.doubleToLongBits(refCore[p]), Double.doubleToLongBits(core[i]), "core of row " + i);
            for (int l = 0; l < k; l++) {
                assertEquals(Double.doubleToLongBits(refAll.get(p, l)), Double.doubleToLongBits(all.get(i, l)),
                        "membership of row " + i + " in cluster " + l);
            }
        }
        for (int l = 0; l < k; l++) {
            int[] e = reference.exemplars(l);
            for (int i = 0; i < e.length; i++) e[i] = rowOfPoint[e[i]];
            assertArrayEquals(java.util.Arrays.stream(e).distinct().toArray(), tested.exemplars(l), "exemplars of " + l);
        }
    }

    @Test
    void isSavedAsVersion6AndRebuildsTheFit() throws IOException {
        int n = 300, d = 2;
        double[] x = WeightedRows.blobs(n, d, 5, true);
        x[7 * d] = Double.NaN;                      // rows left out for a non-finite value, whatever their weight
        x[11 * d + 1] = Double.NEGATIVE_INFINITY;
        int[] w = WeightedRows.weights(n, 3, 3, 25, 6);
        w[7] = 2;
        Hdbscan h = Hdbscan.builder().minClusterSize(8).nonFinite(NonFinitePolicy.SKLEARN).build();
        HdbscanResult fit = h.fit(x, n, d, SampleWeights.of(w), ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel model = ModelFileTest.legacy(HdbscanModel.of(fit, PointSet.uncheckedFloat64(n, d, x), threads(2)));
        byte[] bytes = model.toBytes();
        // integer coordinates are float32 values: version 6, version 5's layout with the points as float32
        assertEquals(ModelFile.VERSION_6, ByteBuffer.wrap(bytes, 12, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
        int kept = model.fittedSize(), points = fit.fittedPoints();
        assertTrue(points > kept, points + " points for " + kept + " rows");
        assertEquals(ModelFile.HEADER + 4 + ModelFile.payloadLength(kept, d, model.condensedTree().rows())
                - 4L * kept * d + ModelFile.version5Length(kept, true) + ModelFile.treeLength(n, kept, points)
                + ModelFile.ROW_SHAPE_LENGTH, bytes.length);
        // the model stores each row once: far smaller than the repeated rows' model
        PointSet rep = PointSet.ofFloat64(points, d, WeightedRows.repeat(finiteRows(x, d, w), d, finiteWeights(x, d, w)));
        assertTrue(bytes.length < HdbscanModel.of(h.fit(rep), rep, threads(2)).toBytes().length);

        HdbscanModel back = HdbscanModel.fromBytes(bytes, "weighted.model");
        assertArrayEquals(bytes, back.toBytes());
        assertArrayEquals(fit.sampleWeights(), back.sampleWeights());
        assertArrayEquals(fit.labels(), back.labels());
        assertArrayEquals(fit.probabilities(), back.probabilities());
        assertArrayEquals(fit.outlierScores(), back.outlierScores());

        SameResult.assertSameResult(fit, HdbscanResult.of(back, threads(3)), "rebuilt from the weighted model");
        assertEquals(-3, back.labels()[7]);
        assertEquals(-2, back.labels()[11]);
    }

    private static double[] finiteRows(double[] x, int d, int[] w) {
        return java.util.stream.IntStream.range(0, w.length).filter(i -> finite(x, d, i))
                .mapToObj(i -> java.util.Arrays.copyOfRange(x, i * d, i * d + d)).flatMapToDouble(java.util.Arrays::stream)
                .toArray();
    }

    private static int[] finiteWeights(double[] x, int d, int[] w) {
        return java.util.stream.IntStream.range(0, w.length).filter(i -> finite(x, d, i)).map(i -> w[i]).toArray();
    }

    private static boolean finite(double[] x, int d, int i) {
        for (int j = 0; j < d; j++) if (!Double.isFinite(x[i * d + j])) return false;
        return true;
    }

    @Test
    void aFileWhoseWeightsDoNotMatchItsTreesIsRefused() throws IOException {
        int n = 120, d = 2;
        double[] x = WeightedRows.blobs(n, d, 9, false);
        int[] w = WeightedRows.weights(n, 2, 0, 0, 10);
        w[0] = 1;
        HdbscanResult fit = Hdbscan.builder().minClusterSize(5).build().fit(PointSet.ofFloat64(n, d, x),
                SampleWeights.of(w));
        byte[] good = HdbscanModel.of(fit, PointSet.ofFloat64(n, d, x), threads(1)).toBytesWithoutLeafOrder();
        int kept = 0;
        for (int v : w) if (v > 0) kept++;
        int pointsAt = ModelFile.HEADER + 42 + 10;   // after the fixed fields, the metric, its p and the weighted flag
        int weightsAt = pointsAt + 4 + 4 * kept;      // after the points' count and the rows
        byte[] heavier = good.clone();
        ByteBuffer.wrap(heavier).order(ByteOrder.LITTLE_ENDIAN).putInt(weightsAt, 2);   // row 0 now weighs 2
        assertRefused(heavier, "weights sum to " + (fit.fittedPoints() + 1));
        byte[] zero = good.clone();
        ByteBuffer.wrap(zero).order(ByteOrder.LITTLE_ENDIAN).putInt(weightsAt, 0);
        assertRefused(zero, "fitted row 0 has weight 0");
        byte[] points = good.clone();   // the points' count and the weights agree, the trees do not
        ByteBuffer.wrap(points).order(ByteOrder.LITTLE_ENDIAN).putInt(weightsAt, 2)
                .putInt(pointsAt, fit.fittedPoints() + 1);
        assertRefused(points, "fitted rows of 2 coordinates standing for " + (fit.fittedPoints() + 1) + " points");
        assertRefused(points, "payload bytes, but the payload has " + (good.length - ModelFile.HEADER - 4));
        byte[] label = good.clone();
        HdbscanModel ok = HdbscanModel.fromBytes(good, "good.model");
        assertEquals(fit.fittedPoints(), ok.condensedTree().points());
        // a left-out label other than -1 / -2 / -3 (the byte after the spanning tree)
        int labelAt = good.length - 4 - (int) ModelFile.ROW_SHAPE_LENGTH - (n - kept);
        assertEquals(-1, label[labelAt]);
        label[labelAt] = -4;
        assertRefused(label, "has label -4 (-1, -2 or -3 expected)");
    }

    private static void assertRefused(byte[] file, String part) {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> HdbscanModel.fromBytes(ModelFileTest.resealed(file), "bad.model"));
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
