package org.sylva.hdbscan.quality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
import org.sylva.testsupport.LabelRenaming;

/**
 * Cluster centres against scikit-learn 1.9's {@code store_centers='both'} (euclidean runs of
 * {@code shared/oracle/hdbscan-more}). With scikit-learn's own labels and probabilities every centroid
 * must be bitwise scikit-learn's and every medoid row the same (unless the case records a near-tie of
 * the medoid criterion); with Sylva's own fit, the clusters whose members carry tie mask 0 and are the
 * same set of rows as scikit-learn's (the README's rule) must give the same centres (centroids to 1e-12
 * relative), and so must, beyond that rule, every cluster whose rows and probabilities are scikit-learn's
 * although a tie could have changed them.
 */
class CentersOracleTest {
    static java.util.stream.Stream<String> cases() throws IOException {
        return MoreCase.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void sklearnLabelsGiveSklearnCentres(String prefix) throws IOException {
        MoreCase c = MoreCase.load(prefix);
        int[] labels = c.ints("_sk_euclidean_labels.npy");
        double[] prob = c.f64("_sk_euclidean_prob.npy");
        ClusterCenters got = ClusterCenters.of(c.points(), labels, prob, CenterKind.BOTH,
                new Execution(2, ProgressListener.NONE, CancellationToken.NEVER));
        double[] want = c.f64("_sk_euclidean_centroids.npy");
        assertEquals(want.length, got.centroids().length, prefix + " centroid count");
        int bitwise = 0;
        for (int i = 0; i < want.length; i++) {
            assertEquals(want[i], got.centroids()[i], 1e-12 * Math.abs(want[i]), prefix + " centroid value " + i);
            if (Double.doubleToLongBits(want[i]) == Double.doubleToLongBits(got.centroids()[i])) bitwise++;
        }
        int[] rows = c.ints("_sk_euclidean_medoid_rows.npy");
        List<?> candidates = (List<?>) c.get("sklearn", "euclidean", "medoid_candidates_within_1e-9");
        int compared = 0;
        for (int k = 0; k < rows.length; k++) {
            if ((Double) candidates.get(k) > 1) continue;
            compared++;
            assertEquals(rows[k], got.medoidRows()[k], prefix + " medoid row of cluster " + k);
        }
        assertArrayEquals(c.f64("_sk_euclidean_medoids.npy"), medoidsOf(got, c), prefix + " medoids");
        System.out.printf(Locale.ROOT, "%s centres from sklearn labels: centroids %d/%d values bitwise; medoid rows "
                + "%d/%d compared, equal%n", prefix, bitwise, want.length, compared, rows.length);
    }

    /** The medoids at the rows chosen: equal to scikit-learn's medoids where the rows are. */
    private static double[] medoidsOf(ClusterCenters got, MoreCase c) throws IOException {
        double[] out = got.medoids().clone();
        int[] rows = c.ints("_sk_euclidean_medoid_rows.npy");
        for (int k = 0; k < rows.length; k++) {
            for (int j = 0; j < c.d(); j++) {
                assertEquals(c.x()[got.medoidRows()[k] * c.d() + j], out[k * c.d() + j]);
                if (rows[k] != got.medoidRows()[k]) out[k * c.d() + j] = c.x()[rows[k] * c.d() + j];
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void ownFitGivesTheSameCentresWhereNoTieFreesIt(String prefix) throws IOException {
        MoreCase c = MoreCase.load(prefix);
        HdbscanResult r = c.fit();
        ClusterCenters got = r.centers(c.points(), CenterKind.BOTH);
        int[] ref = c.ints("_sk_euclidean_labels.npy"), own = r.labels(), mask = c.ints("_sk_euclidean_tiemask.npy");
        double[] refProb = c.f64("_sk_euclidean_prob.npy"), ownProb = r.probabilities();
        Map<Integer, Integer> toRef = LabelRenaming.majority(own, ref, mask);
        double[] want = c.f64("_sk_euclidean_centroids.npy");
        int[] rows = c.ints("_sk_euclidean_medoid_rows.npy");
        List<?> candidates = (List<?>) c.get("sklearn", "euclidean", "medoid_candidates_within_1e-9");
        int untied = 0, compared = 0;
        double worst = 0;
        int[] noMask = new int[own.length];
        for (int l = 0; l < got.clusters(); l++) {
            Integer k = toRef.get(l);
            if (k == null) continue;
            if (sameUntiedMembers(own, l, ref, k, mask)) untied++;
            else if (!sameUntiedMembers(own, l, ref, k, noMask) || !sameProbabilities(own, l, refProb, ownProb)) continue;
            compared++;
            for (int j = 0; j < c.d(); j++) {
                double w = want[k * c.d() + j], g = got.centroid(l)[j];
                worst = Math.max(worst, Math.abs(w - g) / Math.abs(w));
                assertEquals(w, g, 1e-12 * Math.abs(w), prefix + " centroid of cluster " + k);
            }
            if ((Double) candidates.get(k) <= 1) assertEquals(rows[k], got.medoidRows()[l], prefix + " medoid " + k);
        }
        System.out.printf(Locale.ROOT, "%s centres, own fit: %d of %d clusters untied, %d with scikit-learn's rows "
                + "and probabilities compared; centroid max rel diff %.3g%n", prefix, untied, rows.length, compared, worst);
        assertTrue(compared >= untied);
    }

    private static boolean sameProbabilities(int[] own, int l, double[] ref, double[] got) {
        for (int i = 0; i < own.length; i++) if (own[i] == l && ref[i] != got[i]) return false;
        return true;
    }

    /** Cluster l of own and k of ref hold the same rows, all with mask 0. */
    private static boolean sameUntiedMembers(int[] own, int l, int[] ref, int k, int[] mask) {
        for (int i = 0; i < own.length; i++) {
            if ((own[i] == l || ref[i] == k) && (own[i] != l || ref[i] != k || mask[i] != 0)) return false;
        }
        return true;
    }

    @Test
    void refusesWhatNumpyRefuses() {
        PointSet p = PointSet.ofFloat64(3, 1, new double[] {0, 1, 5});
        assertThrows(InvalidInputException.class, () -> ClusterCenters.of(p, new int[] {0, 0, 2}, new double[3],
                CenterKind.CENTROID));
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> ClusterCenters.of(p, new int[] {0, 0, -1}, new double[] {0, 0, 1}, CenterKind.BOTH));
        assertTrue(e.getMessage().contains("sum to"), e.getMessage());
    }

    @Test
    void weightedCentresOfASmallCluster() {
        PointSet p = PointSet.ofFloat64(4, 1, new double[] {0, 1, 5, 9});
        ClusterCenters c = ClusterCenters.of(p, new int[] {0, 0, 0, -1}, new double[] {1, 1, 0.5, 0}, CenterKind.BOTH);
        assertEquals(1, c.clusters());
        assertEquals((0 + 1 + 2.5) / 2.5, c.centroid(0)[0]);
        assertEquals(1, c.medoidRows()[0]);   // sums 1 + 2.5, 1 + 2, 5 + 4: row 1
        assertArrayEquals(new double[] {1}, c.medoid(0));
    }

    /**
     * {@code np.average(X, weights=w, axis=0)} sums the rows in order per column, except for one column, which NumPy
     * sums pairwise along contiguous memory: the centroid is NumPy's double either way. The expected values are
     * NumPy 2.4's for these exactly computed inputs; the row-order sum of the one column is 0x1.47768826ef304p+2.
     */
    @Test
    void oneColumnsCentroidIsNumpysPairwiseSum() {
        int m = 3000;
        double[] x = new double[m], xx = new double[2 * m], w = new double[m];
        for (int i = 0; i < m; i++) {
            x[i] = ((i * 7919L) % 10007) / 997.0 + 0.1;
            xx[2 * i] = x[i];
            xx[2 * i + 1] = x[i];
            w[i] = ((i % 13) + 1) / 16.0;
        }
        int[] labels = new int[m];
        ClusterCenters one = ClusterCenters.of(PointSet.ofFloat64(m, 1, x), labels, w, CenterKind.CENTROID);
        assertEquals(Double.parseDouble("0x1.47768826ef307p+2"), one.centroid(0)[0]);
        ClusterCenters two = ClusterCenters.of(PointSet.ofFloat64(m, 2, xx), labels, w, CenterKind.CENTROID);
        assertEquals(Double.parseDouble("0x1.47768826ef304p+2"), two.centroid(0)[0]);
        assertEquals(Double.parseDouble("0x1.47768826ef304p+2"), two.centroid(0)[1]);
    }
}
