package org.sylva.hdbscan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.quality.CenterKind;
import org.sylva.hdbscan.quality.ClusterCenters;
import org.sylva.io.Npy;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
import org.sylva.testsupport.Oracles;
import org.sylva.testsupport.WeightedRows;

/**
 * Sample weights: a weighted fit is, bitwise, the fit of the rows repeated by their weights
 * ({@code np.repeat(X, w, axis=0)}) with each row reading its first copy — checked on data with and
 * without ties, duplicate rows, rows heavier than a cluster, zero weights, every thread count and kernel;
 * every copy of a row agrees; and against scikit-learn's fit of the repeated rows
 * ({@code scripts/weighted-oracle.py}).
 */
class WeightedFitTest {

    static HdbscanResult fitRepeated(Hdbscan h, double[] x, int d, int[] w) {
        double[] rep = repeat(x, d, w);
        return h.fit(PointSet.ofFloat64(rep.length / d, d, rep));
    }

    static HdbscanResult fitWeighted(Hdbscan h, double[] x, int d, int[] w) {
        return h.fit(PointSet.ofFloat64(w.length, d, x), SampleWeights.of(w));
    }

    static double[] repeat(double[] x, int d, int[] w) {
        return WeightedRows.repeat(x, d, w);
    }

    static double[] blobs(int n, int d, long seed, boolean grid) {
        return WeightedRows.blobs(n, d, seed, grid);
    }

    static int[] weights(int n, int max, int heavy, int heavyWeight, long seed) {
        return WeightedRows.weights(n, max, heavy, heavyWeight, seed);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("continuous, weights 0..3", 400, 3, false, 3, 0, 10, 5),
                Arguments.of("grid ties, weights 0..3", 400, 2, true, 3, 0, 10, 5),
                Arguments.of("grid ties, heavy rows", 400, 2, true, 2, 8, 10, 6),
                Arguments.of("continuous, heavy rows, min_samples 1", 300, 4, false, 4, 6, 5, 1),
                Arguments.of("grid ties, rows heavier than min_samples", 300, 2, true, 1, 10, 8, 30));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isBitwiseTheFitOfTheRepeatedRows(String name, int n, int d, boolean grid, int max, int heavy, int mcs,
            int ms) {
        double[] x = blobs(n, d, n * 31L + d, grid);
        int[] w = weights(n, max, heavy, 3 * mcs, n + max);
        Hdbscan h = Hdbscan.builder().minClusterSize(mcs).minSamples(ms).threads(2).build();
        HdbscanResult weighted = fitWeighted(h, x, d, w);
        HdbscanResult repeated = fitRepeated(h, x, d, w);

        assertEquals(repeated.spanningTree(), weighted.spanningTree());
        assertEquals(repeated.condensedTree(), weighted.condensedTree());
        assertArrayEquals(repeated.clusterPersistence(), weighted.clusterPersistence());
        assertTrue(weighted.weighted());
        assertArrayEquals(w, weighted.sampleWeights());

        int[] rowOf = weighted.fittedRows();
        assertEquals(repeated.size(), rowOf.length);
        assertEquals(repeated.size(), weighted.fittedPoints());
        int[] labels = weighted.labels(), repLabels = repeated.labels();
        double[] prob = weighted.probabilities(), repProb = repeated.probabilities();
        double[] glosh = weighted.outlierScores(), repGlosh = repeated.outlierScores();
        double[] core = weighted.coreDistances(), repCore = repeated.coreDistances();
        int[] first = new int[n];
        java.util.Arrays.fill(first, -1);
        for (int p = 0; p < rowOf.length; p++) {
            int i = rowOf[p];
            if (first[i] < 0) first[i] = p;
            // every copy of a row agrees with the row's value, bit for bit
            assertEquals(labels[i], repLabels[p], "label of copy " + p + " of row " + i);
            assertEquals(Double.doubleToLongBits(prob[i]), Double.doubleToLongBits(repProb[p]), "probability, row " + i);
            assertEquals(Double.doubleToLongBits(glosh[i]), Double.doubleToLongBits(repGlosh[p]), "GLOSH, row " + i);
            assertEquals(Double.doubleToLongBits(core[i]), Double.doubleToLongBits(repCore[p]), "core, row " + i);
        }
        int noise = 0;
        for (int i = 0; i < n; i++) {
            if (w[i] == 0) {
                assertEquals(-1, labels[i]);
                assertEquals(0.0, prob[i]);
                assertTrue(Double.isNaN(glosh[i]) && Double.isNaN(core[i]));
            } else {
                assertTrue(first[i] >= 0);
            }
            if (labels[i] == -1) noise++;
        }
        assertEquals(noise, weighted.noiseCount());

        // re-selection and the flat cut work on the copies too
        HdbscanParameters leaf = h.parameters().toBuilder().minClusterSize(mcs + 3)
                .clusterSelectionMethod(SelectionMethod.LEAF).build().parameters();
        HdbscanResult wl = weighted.reselect(leaf), rl = repeated.reselect(leaf);
        assertEquals(rl.condensedTree(), wl.condensedTree());
        int[] wlLabels = wl.labels(), rlLabels = rl.labels();
        double cut = repeated.spanningTree().weight(repeated.spanningTree().edges() / 2);
        int[] wCut = weighted.dbscanClustering(cut, mcs), rCut = repeated.dbscanClustering(cut, mcs);
        for (int p = 0; p < rowOf.length; p++) {
            assertEquals(wlLabels[rowOf[p]], rlLabels[p]);
            assertEquals(wCut[rowOf[p]], rCut[p]);
        }
        assertEquals(repeated.relativeValidity(), weighted.relativeValidity());
    }

    @Test
    void doesNotDependOnThreadsKernelsOrInputPrecision() {
        int n = 500, d = 3;
        double[] x = blobs(n, d, 7, true);
        float[] x32 = new float[x.length];
        for (int i = 0; i < x.length; i++) x32[i] = (float) x[i];
        int[] w = weights(n, 3, 4, 20, 8);
        Hdbscan base = Hdbscan.builder().minClusterSize(8).threads(1).backend(Backend.SCALAR).build();
        HdbscanResult ref = base.fit(PointSet.of(n, d, x32), SampleWeights.of(w));
        for (int threads : new int[] {2, 3, 5}) {
            for (Backend b : new Backend[] {Backend.SCALAR, Backend.AUTO}) {
                Hdbscan h = base.toBuilder().threads(threads).backend(b).build();
                HdbscanResult r = h.fit(PointSet.of(n, d, x32), SampleWeights.of(w));
                assertEquals(ref.spanningTree(), r.spanningTree(), threads + " threads, " + b);
                assertArrayEquals(ref.labels(), r.labels());
                assertArrayEquals(ref.outlierScores(), r.outlierScores());
            }
        }
        // float32 rows are the same points as their float64 widening
        double[] widened = new double[x32.length];
        for (int i = 0; i < x32.length; i++) widened[i] = x32[i];
        HdbscanResult r64 = base.fit(widened, n, d, SampleWeights.of(w), ProgressListener.NONE, CancellationToken.NEVER);
        assertEquals(ref.spanningTree(), r64.spanningTree());
        assertArrayEquals(ref.probabilities(), r64.probabilities());
    }

    @Test
    void unitWeightsAreTheUnweightedFit() {
        int n = 300, d = 2;
        double[] x = blobs(n, d, 11, false);
        int[] ones = new int[n];
        java.util.Arrays.fill(ones, 1);
        Hdbscan h = Hdbscan.builder().minClusterSize(6).build();
        HdbscanResult plain = h.fit(PointSet.ofFloat64(n, d, x));
        HdbscanResult weighted = fitWeighted(h, x, d, ones);
        assertEquals(plain.spanningTree(), weighted.spanningTree());
        assertEquals(plain.condensedTree(), weighted.condensedTree());
        assertArrayEquals(plain.labels(), weighted.labels());
        assertArrayEquals(plain.outlierScores(), weighted.outlierScores());
        assertArrayEquals(plain.fittedRows(), weighted.fittedRows());
    }

    @Test
    void weightsComposeWithRowsLeftOutForNonFiniteValues() {
        int n = 200, d = 2;
        double[] x = blobs(n, d, 13, false);
        x[5 * d] = Double.NaN;
        x[9 * d + 1] = Double.POSITIVE_INFINITY;
        int[] w = weights(n, 3, 0, 0, 14);
        w[5] = 2;
        w[9] = 0;
        Hdbscan h = Hdbscan.builder().minClusterSize(5).nonFinite(NonFinitePolicy.SKLEARN).build();
        HdbscanResult r = h.fit(x, n, d, SampleWeights.of(w), ProgressListener.NONE, CancellationToken.NEVER);
        int[] labels = r.labels();
        assertEquals(-3, labels[5]);
        assertEquals(-2, labels[9]);   // left out for its infinity, whatever its weight
        // the others: as the finite rows alone with their weights
        int kept = n - 2;
        double[] fx = new double[kept * d];
        int[] fw = new int[kept];
        int[] rowOfKept = new int[kept];
        for (int i = 0, k = 0; i < n; i++) {
            if (i == 5 || i == 9) continue;
            System.arraycopy(x, i * d, fx, k * d, d);
            fw[k] = w[i];
            rowOfKept[k++] = i;
        }
        HdbscanResult finite = fitWeighted(h.toBuilder().nonFinite(NonFinitePolicy.REJECT).build(), fx, d, fw);
        assertEquals(finite.spanningTree(), r.spanningTree());
        int[] fl = finite.labels();
        for (int k = 0; k < kept; k++) assertEquals(fl[k], labels[rowOfKept[k]]);
    }

    @Test
    void weightedCentersAreTheCentersOfTheRepeatedRows() {
        int n = 300, d = 3;
        double[] x = blobs(n, d, 17, false);
        int[] w = weights(n, 3, 3, 12, 18);
        Hdbscan h = Hdbscan.builder().minClusterSize(10).build();
        HdbscanResult weighted = fitWeighted(h, x, d, w);
        HdbscanResult repeated = fitRepeated(h, x, d, w);
        double[] rep = repeat(x, d, w);
        for (CenterKind kind : CenterKind.values()) {
            ClusterCenters a = weighted.centers(PointSet.ofFloat64(n, d, x), kind);
            ClusterCenters b = repeated.centers(PointSet.ofFloat64(rep.length / d, d, rep), kind);
            assertEquals(b.clusters(), a.clusters());
            assertTrue(a.clusters() > 1);
            for (double[][] pair : new double[][][] {{a.centroids(), b.centroids()}, {a.medoids(), b.medoids()}}) {
                assertEquals(pair[1] == null, pair[0] == null);
                if (pair[0] == null) continue;
                for (int i = 0; i < pair[0].length; i++) {
                    assertEquals(pair[1][i], pair[0][i], 1e-12 * Math.max(1, Math.abs(pair[1][i])), kind + " " + i);
                }
            }
        }
    }

    @Test
    void refusesWhatWeightsCannotMean() {
        int n = 50, d = 2;
        double[] x = blobs(n, d, 19, false);
        PointSet pts = PointSet.ofFloat64(n, d, x);
        Hdbscan h = Hdbscan.builder().minClusterSize(5).build();
        assertMessage(() -> h.fit(pts, SampleWeights.of(new int[n - 1])), "49 sample weights for 50 rows");
        assertMessage(() -> SampleWeights.of(1, -1), "sample weight of row 1 is -1");
        assertMessage(() -> SampleWeights.of(new double[] {1, 2.5}), "sample weight of row 1 is 2.5");
        assertMessage(() -> SampleWeights.of(new double[] {Double.NaN}), "sample weight of row 0 is NaN");
        assertMessage(() -> SampleWeights.of(new double[] {Double.POSITIVE_INFINITY}), "row 0 is Infinity");
        assertMessage(() -> SampleWeights.of(new double[] {1e12}), "at most");
        assertMessage(() -> SampleWeights.of(Integer.MAX_VALUE, Integer.MAX_VALUE), "sum to 4294967294 points; at most");
        // the exact sum of them all, not the running total where it passed the limit, nor a double's rounding
        assertMessage(() -> SampleWeights.of(new double[] {1e15, 1, 1, 1}), "sum to 1000000000000003 points; at most");
        assertMessage(() -> SampleWeights.of(new double[] {0x1p62, 0x1p62, 0x1p62}), "sum to 13835058055282163712 points");
        // a bad weight after the limit is still the refusal
        assertMessage(() -> SampleWeights.of(new double[] {1e15, 0.5}), "sample weight of row 1 is 0.5");
        assertMessage(() -> h.fit(pts, SampleWeights.of(new int[n])), "every sample weight is zero");
        int[] one = new int[n];
        one[3] = 1;
        assertMessage(() -> h.fit(pts, SampleWeights.of(one)), "needs at least two points");
        int[] few = new int[n];
        few[0] = 2;
        few[1] = 1;
        assertMessage(() -> h.fit(pts, SampleWeights.of(few)), "min_samples (5) must be at most");
        Hdbscan manhattan = h.toBuilder().metric(Metric.manhattan()).build();
        int[] ones = new int[n];
        java.util.Arrays.fill(ones, 1);
        assertMessage(() -> manhattan.fit(pts, SampleWeights.of(ones)), "euclidean metric only");

        HdbscanResult r = h.fit(pts, SampleWeights.of(ones));
        assertMessage(() -> r.validityIndex(pts), "not defined for a weighted fit");
    }

    @Test
    void aHeavyRowIsAClusterOfItsOwn() {
        // two far-apart groups of 30 points and one row of weight 25 far from both: three clusters
        int d = 2;
        double[] x = new double[61 * d];
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 60; i++) {
            x[i * d] = (i < 30 ? 0 : 100) + r.nextDouble();
            x[i * d + 1] = r.nextDouble();
        }
        x[60 * d] = 50;
        x[60 * d + 1] = 50;
        int[] w = new int[61];
        java.util.Arrays.fill(w, 1);
        w[60] = 25;
        HdbscanResult res = Hdbscan.builder().minClusterSize(20).build().fit(PointSet.ofFloat64(61, d, x),
                SampleWeights.of(w));
        assertEquals(3, res.clusterCount());
        int[] labels = res.labels();
        assertTrue(labels[60] >= 0 && labels[60] != labels[0] && labels[60] != labels[59]);
    }

    static void assertMessage(org.junit.jupiter.api.function.Executable e, String part) {
        InvalidInputException ex = assertThrows(InvalidInputException.class, e);
        assertTrue(ex.getMessage().contains(part), ex.getMessage());
    }

    static Stream<String> oracleCases() {
        return Stream.of("blobs500_w3", "blobs500_heavy", "iris_w4");
    }

    /**
     * Against scikit-learn 1.9's fit of the repeated rows: labels equal up to the numbering of clusters,
     * probabilities to 1e-12, on every row whose result scikit-learn does not change when the repeated
     * rows are shuffled (copies are tied by construction, and scikit-learn breaks ties by its own
     * traversal order; the script's mask). Rows of weight 0 are noise.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("oracleCases")
    void agreesWithScikitLearnOnTheRepeatedRows(String name) throws IOException {
        Map<String, int[]> params = Map.of("blobs500_w3", new int[] {10, 5}, "blobs500_heavy", new int[] {15, 10},
                "iris_w4", new int[] {5, 5});
        String data = name.substring(0, name.indexOf('_'));
        var xs = Npy.read(Oracles.hdbscan().resolve(data + "_X.npy"));
        int n = xs.shape()[0], d = xs.shape()[1];
        Path res = Path.of("src/test/resources/org/sylva/hdbscan/weighted");
        long[] w64 = Npy.read(res.resolve(name + "_weights.npy")).toInt64();
        long[] ref = Npy.read(res.resolve(name + "_labels.npy")).toInt64();
        double[] refProb = Npy.read(res.resolve(name + "_prob.npy")).toFloat64();
        boolean[] agree = Npy.read(res.resolve(name + "_agree.npy")).toBool();
        int[] w = new int[n];
        for (int i = 0; i < n; i++) w[i] = (int) w64[i];
        int[] p = params.get(name);
        HdbscanResult r = Hdbscan.builder().minClusterSize(p[0]).minSamples(p[1]).build()
                .fit(PointSet.ofFloat64(n, d, xs.toFloat64()), SampleWeights.of(w));
        int[] labels = r.labels();
        double[] prob = r.probabilities();
        Map<Long, Integer> map = new HashMap<>();
        Map<Integer, Long> back = new HashMap<>();
        int compared = 0, weightedRows = 0;
        for (int i = 0; i < n; i++) {
            if (w[i] == 0) assertEquals(-1, labels[i]);
            else weightedRows++;
            if (!agree[i]) continue;
            compared++;
            final int row = i;
            if (ref[i] < 0 || labels[i] < 0) {
                assertEquals(ref[i] < 0, labels[i] < 0, "noise at row " + i);
            } else {
                assertEquals(map.computeIfAbsent(ref[i], k -> labels[row]), labels[i], "cluster of row " + i);
                assertEquals(back.computeIfAbsent(labels[i], k -> ref[row]), ref[i], "cluster of row " + i);
            }
            assertEquals(refProb[i], prob[i], 1e-12, "probability of row " + i);
        }
        assertTrue(compared >= 0.9 * weightedRows, compared + " of " + weightedRows + " rows compared");
    }
}
