package org.sylva.hdbscan.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.HdbscanResult;

/**
 * Validity against the {@code hdbscan} package (0.8.43) on every visible case of
 * {@code shared/oracle/hdbscan-more}, by its README's rule: {@code relative_validity_} on the exact path
 * (the reference spanning tree and labels) to 1e-12; DBCV ({@code validity_index}) and every per-cluster
 * value for the reference labels to 1e-12. Sylva's own fit is reported too (its spanning tree and labels
 * can differ where the fit had ties).
 */
class ValidityOracleTest {
    private static final double TOL = 1e-12;

    static Stream<String> cases() throws IOException {
        return MoreCase.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void relativeValidityOnTheReferenceTree(String prefix) throws IOException {
        MoreCase c = MoreCase.load(prefix);
        double want = c.number("validity", "relative_validity_");
        double got = RelativeValidity.of(c.referenceTree(), c.ints("_labels.npy"));
        HdbscanResult own = c.fit();
        System.out.printf(Locale.ROOT, "%s relative_validity_: reference %.17g, exact path diff %.3g; own fit %.17g%n",
                prefix, want, Math.abs(want - got), own.relativeValidity());
        assertEquals(want, got, TOL, prefix + " relative_validity_");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void dbcvOfTheReferenceLabels(String prefix) throws IOException {
        MoreCase c = MoreCase.load(prefix);
        Validity v = DensityValidity.of(c.points(), c.ints("_labels.npy"));
        double want = c.number("validity", "validity_index");
        double[] per = c.f64("_dbcv_per_cluster.npy");
        List<?> perManifest = (List<?>) c.get("validity", "per_cluster_scores");
        assertEquals(per.length, v.perCluster().length, prefix + " clusters");
        double worst = Math.abs(want - v.index());
        for (int k = 0; k < per.length; k++) {
            assertEquals((Double) perManifest.get(k), per[k], 0.0);
            worst = Math.max(worst, Math.abs(per[k] - v.perCluster()[k]));
        }
        System.out.printf(Locale.ROOT, "%s DBCV: reference %.17g, index diff %.3g, max diff over index and %d "
                + "clusters %.3g%n", prefix, want, Math.abs(want - v.index()), per.length, worst);
        assertEquals(want, v.index(), TOL, prefix + " validity_index");
        for (int k = 0; k < per.length; k++) assertEquals(per[k], v.perCluster()[k], TOL, prefix + " cluster " + k);
    }

    /**
     * A member 1e140 away: its all-points core distance (a sum of distances^-3) underflows to 0 and becomes
     * infinite, so the tree's edges to it weigh infinity; the package's isclose takes equal infinities as close and
     * gives NaN for that cluster (hdbscan 0.8.43: (nan, [0.60971346, nan])). It used to fail as "cannot happen".
     */
    @Test
    void aMemberWhoseCoreDistanceOverflowsGivesThePackagesNan() {
        PointSet p = PointSet.ofFloat64(5, 3, new double[] {-1.3, .3, -.6, -.6, 1.1, .2, 1.4, -.9, 1.1, .9, -3, -.1,
            1e140, 0, 0});
        Validity v = DensityValidity.of(p, new int[] {0, 0, 1, 1, 1});
        assertEquals(0.60971346, v.perCluster()[0], 5e-9);
        assertTrue(Double.isNaN(v.perCluster()[1]), String.valueOf(v.perCluster()[1]));
        assertTrue(Double.isNaN(v.index()), String.valueOf(v.index()));
    }

    @Test
    void twoTightPairsFarApart() {
        // Clusters {0,1} and {2,3}: each tree is one edge, no internal node -> member 0, DSC = the edge.
        PointSet p = PointSet.ofFloat64(5, 1, new double[] {0, 1, 10, 11, 50});
        Validity v = DensityValidity.of(p, new int[] {0, 0, 1, 1, -1});
        // apcd = (1^-1 / 1)^-1 = 1; DSC = max(1, 1, 1) = 1; separation max(10 - 0, 1, 1) = 10 (rows 0 and 2)
        assertEquals(0.9, v.perCluster()[0], 1e-15);
        assertEquals(0.9, v.perCluster()[1], 1e-15);
        assertEquals(0.4 * 0.9 + 0.4 * 0.9, v.index(), 1e-15);
        assertTrue(Double.isNaN(DensityValidity.of(p, new int[] {0, 0, -1, -1, -1}).index()), "one cluster: NaN");
        assertThrows(InvalidInputException.class, () -> DensityValidity.of(p, new int[] {0, 1, 1, -1, -1}));
    }
}
