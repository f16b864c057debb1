package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanParameters;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.NonFinitePolicy;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * A saved model's DBSCAN* cut and reselect, from the stored spanning tree: the same answers as the fit's
 * own {@code dbscanClustering} and as a fresh fit with the other parameters.
 */
class ModelReselectTest {
    private static final int N = 500;

    private static double[] data(boolean leaveRowsOut) {
        double[] x = HdbscanModelTest.blobs(N, 31);
        if (leaveRowsOut) {
            x[2 * 7] = Double.NaN;
            x[2 * 90 + 1] = Double.POSITIVE_INFINITY;
            x[2 * 91] = Double.NaN;
        }
        return x;
    }

    private static HdbscanResult fit(Hdbscan h, double[] x) {
        return h.fit(x, N, 2, ProgressListener.NONE, CancellationToken.NEVER);
    }

    private static Hdbscan.Builder base() {
        return Hdbscan.builder().minClusterSize(15).minSamples(6).nonFinite(NonFinitePolicy.SKLEARN).threads(2);
    }

    @Test
    void reselectingASavedModelGivesAFreshFitsClusters() throws IOException {
        for (boolean leaveOut : new boolean[] {false, true}) {
            double[] x = data(leaveOut);
            HdbscanResult a = fit(base().build(), x);
            HdbscanModel saved = HdbscanModel.fromBytes(HdbscanModel.of(a, PointSet.uncheckedFloat64(N, 2, x)).toBytes(),
                    "a");
            List<Hdbscan> others = List.of(
                    base().clusterSelectionMethod(SelectionMethod.LEAF).build(),
                    base().minClusterSize(8).build(),
                    base().minClusterSize(40).build(),
                    base().minClusterSize(8).clusterSelectionMethod(SelectionMethod.LEAF).build(),
                    base().clusterSelectionEpsilon(0.4).build(),
                    base().maxClusterSize(60).build(),
                    base().minClusterSize(300).allowSingleCluster(true).build(),
                    base().build());
            java.util.Set<List<Integer>> distinct = new java.util.HashSet<>();
            for (Hdbscan b : others) {
                HdbscanResult fresh = fit(b, x);
                distinct.add(java.util.Arrays.stream(fresh.labels()).boxed().toList());
                HdbscanModel re = saved.reselect(b.parameters());
                String what = b.parameters() + (leaveOut ? " with rows left out" : "");
                assertEquals(b.parameters(), re.parameters(), what);
                assertArrayEquals(fresh.labels(), re.labels(), what);
                assertArrayEquals(fresh.probabilities(), re.probabilities(), what);
                assertArrayEquals(fresh.outlierScores(), re.outlierScores(), what);
                assertArrayEquals(fresh.clusterPersistence(), re.clusterPersistence(), what);
                assertEquals(fresh.condensedTree(), re.condensedTree(), what);
                // and the reselected model saves and loads like any other
                HdbscanModel back = HdbscanModel.fromBytes(re.toBytes(), "re");
                assertArrayEquals(fresh.labels(), back.labels(), what);
                // prediction follows the new clusters: as a model made from the fresh fit
                PointSet q = PointSet.ofFloat64(50, 2, HdbscanModelTest.blobs(50, 32));
                assertEquals(HdbscanModel.of(fresh, PointSet.uncheckedFloat64(N, 2, x)).approximatePredict(q),
                        re.approximatePredict(q), what);
            }
            assertTrue(distinct.size() >= 5, "the other parameters give other clusterings: " + distinct.size());
        }
    }

    @Test
    void theCutOfASavedModelIsTheFitsCut() throws IOException {
        for (boolean leaveOut : new boolean[] {false, true}) {
            double[] x = data(leaveOut);
            HdbscanResult a = fit(base().build(), x);
            HdbscanModel m = HdbscanModel.fromBytes(HdbscanModel.of(a, PointSet.uncheckedFloat64(N, 2, x)).toBytes(),
                    "a");
            for (double cut : new double[] {0.05, 0.2, 0.5, 2}) {
                for (int mcs : new int[] {2, 5, 15}) {
                    assertArrayEquals(a.dbscanClustering(cut, mcs), m.dbscanClustering(cut, mcs), cut + "/" + mcs);
                }
            }
        }
    }

    @Test
    void reselectCannotChangeTheSpanningTree() {
        double[] x = data(false);
        HdbscanResult a = fit(base().build(), x);
        HdbscanModel m = HdbscanModel.of(a, PointSet.uncheckedFloat64(N, 2, x));
        HdbscanParameters p = base().minSamples(9).build().parameters();
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> m.reselect(p));
        assertTrue(e.getMessage().contains("cannot change min_samples (6 vs 9)"), e.getMessage());
        assertEquals(java.util.Optional.of("min_samples"), e.parameter());
    }
}
