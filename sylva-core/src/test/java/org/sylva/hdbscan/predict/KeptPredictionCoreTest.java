package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.NonFinitePolicy;
import org.sylva.hdbscan.SampleWeights;
import org.sylva.hdbscan.mst.OracleData;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The prediction core distances a CPU fit keeps from its exact lists ({@link HdbscanResult#predictionCoreDistances})
 * are bitwise those a model's own search computes, on data with duplicates, ties and many {@code minSamples}; a
 * model made with them is byte for byte the model made by searching again; other coordinates, rows left out and
 * weights get none, and a model then searches (and still refuses points the result was not fitted on).
 */
class KeptPredictionCoreTest {
    private static final Execution TWO = new Execution(2, ProgressListener.NONE, CancellationToken.NEVER);

    /** The oracle sets (grid3000: integer ties; iris: duplicate rows), clip-like data, and exact duplicates. */
    private static List<double[]> sets(List<int[]> shapes) {
        List<double[]> out = new ArrayList<>();
        for (String name : new String[] {"blobs500", "blobs2000noise", "grid3000", "iris"}) {
            OracleData.Array a = OracleData.read(OracleData.dir().resolve(name + "_X.npy"));
            out.add(a.values());
            shapes.add(new int[] {a.rows(), a.cols()});
        }
        PointSet clips = ClipLikeData.generate(1200, 9).points();
        double[] c = new double[clips.size() * clips.dimensions()];
        for (int i = 0; i < clips.size(); i++) {
            for (int j = 0; j < clips.dimensions(); j++) c[i * clips.dimensions() + j] = clips.getDouble(i, j);
        }
        out.add(c);
        shapes.add(new int[] {clips.size(), clips.dimensions()});
        double[] dup = HdbscanModelTest.blobs(600, 5);
        for (int i = 0; i < 600; i += 7) System.arraycopy(dup, 2 * (i / 2), dup, 2 * i, 2);   // many exact copies
        out.add(dup);
        shapes.add(new int[] {600, 2});
        return out;
    }

    @Test
    void keptDistancesAreTheSearchsAndTheModelIsTheSame() throws Exception {
        List<int[]> shapes = new ArrayList<>();
        List<double[]> sets = sets(shapes);
        for (int s = 0; s < sets.size(); s++) {
            double[] x = sets.get(s);
            int n = shapes.get(s)[0], d = shapes.get(s)[1];
            for (int minSamples : new int[] {1, 2, 3, 5, 10, 20}) {
                String what = "set " + s + " minSamples " + minSamples;
                HdbscanResult fit = Hdbscan.builder().minClusterSize(5).minSamples(minSamples).threads(2).build()
                        .fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
                double[] kept = fit.predictionCoreDistances(x).orElseThrow(() -> new AssertionError(what + ": none kept"));
                double[] searched = FittedSearch.prepare(x.clone(), n, d, null, minSamples, TWO).predictionCore();
                assertEquals(searched.length, kept.length, what);
                for (int i = 0; i < n; i++) {
                    assertEquals(Double.doubleToRawLongBits(searched[i]), Double.doubleToRawLongBits(kept[i]),
                            what + ", point " + i + ": " + searched[i] + " searched, " + kept[i] + " kept");
                }
                // the model made with them (no search: nothing to report), against one made by searching (a result
                // rebuilt from the model keeps none)
                List<String> told = new ArrayList<>();
                HdbscanModel fast = HdbscanModel.of(fit, PointSet.uncheckedFloat64(n, d, x),
                        new Execution(2, (stage, done, total) -> told.add(stage), CancellationToken.NEVER));
                assertEquals(List.of(), told, what + ": the kept distances were taken, no search ran");
                HdbscanResult rebuilt = HdbscanResult.of(fast, TWO);
                assertTrue(rebuilt.predictionCoreDistances(x).isEmpty(), what);
                HdbscanModel searchedModel = HdbscanModel.of(rebuilt, PointSet.uncheckedFloat64(n, d, x), TWO);
                assertArrayEquals(searchedModel.toBytes(), fast.toBytes(), what + ": the model file's bytes");
            }
        }
    }

    /** Few distinct points with many copies, every minSamples up to n, alpha 0.5, and a reselected result. */
    @Test
    void copiesAcrossEveryMinSamplesAndAReselection() throws Exception {
        int n = 30;
        double[] x = new double[2 * n];
        for (int i = 0; i < n; i++) {
            x[2 * i] = (i % 4) * 1.5;    // 4 distinct points, 7 or 8 copies each
            x[2 * i + 1] = (i % 4 == 3) ? -0.0 : 0.0;
        }
        x[2 * 29] = 9;                   // and one point alone
        for (int minSamples = 1; minSamples <= n; minSamples++) {
            String what = "minSamples " + minSamples;
            HdbscanResult fit = Hdbscan.builder().minClusterSize(2).minSamples(minSamples).alpha(0.5).threads(2)
                    .build().fit(x, n, 2, ProgressListener.NONE, CancellationToken.NEVER);
            double[] kept = fit.predictionCoreDistances(x).orElseThrow(() -> new AssertionError(what));
            double[] searched = FittedSearch.prepare(x.clone(), n, 2, null, minSamples, TWO).predictionCore();
            for (int i = 0; i < n; i++) {
                assertEquals(Double.doubleToRawLongBits(searched[i]), Double.doubleToRawLongBits(kept[i]), what + " " + i);
            }
            HdbscanResult leaf = fit.reselect(fit.parameters().toBuilder()
                    .clusterSelectionMethod(org.sylva.hdbscan.hierarchy.SelectionMethod.LEAF).build());
            HdbscanModel fast = HdbscanModel.of(leaf, PointSet.uncheckedFloat64(n, 2, x), TWO);
            HdbscanModel slow = HdbscanModel.of(HdbscanResult.of(fast, TWO), PointSet.uncheckedFloat64(n, 2, x), TWO);
            assertArrayEquals(slow.toBytes(), fast.toBytes(), what + ": a reselected result's model");
        }
    }

    @Test
    void aFloat32FitKeepsThemForItsWidenedCoordinates() {
        PointSet clips = ClipLikeData.generate(900, 3).points();
        HdbscanResult fit = Hdbscan.builder().minClusterSize(20).threads(2).build().fit(clips);
        double[] widened = new double[clips.size() * clips.dimensions()];
        for (int i = 0; i < clips.size(); i++) {
            for (int j = 0; j < clips.dimensions(); j++) widened[i * clips.dimensions() + j] = clips.getDouble(i, j);
        }
        assertTrue(fit.predictionCoreDistances(widened).isPresent());
        double[] moved = widened.clone();
        moved[5] = Math.nextUp(moved[5]);
        assertTrue(fit.predictionCoreDistances(moved).isEmpty(), "one bit of one coordinate changed");
        assertTrue(fit.predictionCoreDistances(new double[widened.length - 1]).isEmpty());
    }

    @Test
    void noneAreKeptWhereTheModelsRowsAreNotTheFitsPointsAndOtherPointsAreRefused() {
        double[] x = HdbscanModelTest.blobs(400, 8);
        double[] holes = x.clone();
        holes[2 * 17] = Double.NaN;
        HdbscanResult leftOut = Hdbscan.builder().minClusterSize(10).nonFinite(NonFinitePolicy.SKLEARN).threads(2)
                .build().fit(holes, 400, 2, ProgressListener.NONE, CancellationToken.NEVER);
        assertTrue(leftOut.predictionCoreDistances(holes).isEmpty(), "rows left out");
        int[] w = new int[400];
        java.util.Arrays.fill(w, 1);
        w[3] = 3;
        HdbscanResult weighted = Hdbscan.builder().minClusterSize(10).threads(2).build()
                .fit(PointSet.uncheckedFloat64(400, 2, x), SampleWeights.of(w));
        assertTrue(weighted.predictionCoreDistances(x).isEmpty(), "a weighted fit");
        HdbscanResult plain = Hdbscan.builder().minClusterSize(10).threads(2).build()
                .fit(x, 400, 2, ProgressListener.NONE, CancellationToken.NEVER);
        double[] shifted = x.clone();
        shifted[0] += 50;
        assertFalse(plain.predictionCoreDistances(shifted).isPresent());
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> HdbscanModel.of(plain, PointSet.uncheckedFloat64(400, 2, shifted), TWO));
        assertTrue(e.getMessage().startsWith("these are not the points the result was fitted on"), e.getMessage());
    }
}
