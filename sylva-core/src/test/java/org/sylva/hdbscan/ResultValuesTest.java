package org.sylva.hdbscan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.predict.Membership;
import org.sylva.hdbscan.quality.CenterKind;
import org.sylva.hdbscan.quality.ClusterCenters;
import org.sylva.hdbscan.quality.Validity;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * What a library user holds after a fit: results that are values (copies out, equality by content),
 * re-selection that names what it cannot change, checks that the points given back are the fitted ones,
 * and scikit-learn's {@code min_samples=None} kept through {@code toBuilder()}.
 */
class ResultValuesTest {
    /** Two squares of four points and two outliers: labels {@code [0,0,0,0,1,1,1,1,-1,-1]} at min_cluster_size 3. */
    private static final PointSet SQUARES = PointSet.of(10, 2, new float[] {
        0, 0, 0, 1, 1, 0, 1, 1, 5, 5, 5, 6, 6, 5, 6, 6, 10, 0, 10, 1});

    private static HdbscanResult fit() {
        return Hdbscan.builder().minClusterSize(3).build().fit(SQUARES);
    }

    @Test
    void clusterCentersHandOutCopiesAndCompareByContent() {
        HdbscanResult r = fit();
        assertArrayEquals(new int[] {0, 0, 0, 0, 1, 1, 1, 1, -1, -1}, r.labels());
        ClusterCenters c = r.centers(SQUARES, CenterKind.BOTH);
        double[] first = c.centroid(0);
        c.centroids()[0] = 99;
        c.medoids()[0] = 99;
        c.medoidRows()[0] = 99;
        assertArrayEquals(first, c.centroid(0), "writing into a returned array changes nothing");
        assertEquals(r.centers(SQUARES, CenterKind.BOTH), c);
        assertEquals(r.centers(SQUARES, CenterKind.BOTH).hashCode(), c.hashCode());
        assertNotEquals(r.centers(SQUARES, CenterKind.CENTROID), c);
        assertTrue(c.toString().contains("centroids=[0.5, 0.5, 5.5, 5.5]"), c.toString());
        double[] given = {1, 2};
        ClusterCenters own = new ClusterCenters(1, 2, given, null, null);
        given[0] = 7;
        assertArrayEquals(new double[] {1, 2}, own.centroid(0), "the record keeps a copy of what it is given");
        assertThrows(IndexOutOfBoundsException.class, () -> c.centroid(2));
        assertThrows(IndexOutOfBoundsException.class, () -> c.medoid(-1));
    }

    @Test
    void validityComparesByContent() {
        HdbscanResult r = fit();
        Validity v = r.validityIndex(SQUARES);
        assertEquals(r.validityIndex(SQUARES), v);
        assertEquals(r.validityIndex(SQUARES).hashCode(), v.hashCode());
        assertNotEquals(new Validity(v.index(), new double[] {0, 0}), v);
    }

    @Test
    void centresAndValidityRefusePointsOfAnotherShape() {
        HdbscanResult r = fit();
        assertEquals(2, r.dimensions());
        PointSet threeColumns = PointSet.of(10, 3, new float[30]);
        PointSet fewerRows = SQUARES.select(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8});
        for (PointSet wrong : new PointSet[] {threeColumns, fewerRows}) {
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> r.centers(wrong, CenterKind.BOTH));
            assertTrue(e.getMessage().contains("fitted on (10 x 2)"), e.getMessage());
            e = assertThrows(InvalidInputException.class, () -> r.validityIndex(wrong));
            assertTrue(e.getMessage().contains("fitted on (10 x 2)"), e.getMessage());
        }
        assertEquals(2, r.reselect(r.parameters().toBuilder().minClusterSize(4).build()).dimensions());
    }

    @Test
    void reselectNamesTheParameterItCannotChange() {
        HdbscanResult r = fit();
        HdbscanModel model = HdbscanModel.of(r, SQUARES);
        Object[][] cases = {
            {"min_samples", r.parameters().toBuilder().minSamples(4).build(), "(3 vs 4)"},
            {"alpha", r.parameters().toBuilder().alpha(2).build(), "(1.0 vs 2.0)"},
            {"metric", r.parameters().toBuilder().metric(Metric.manhattan()).build(), "(euclidean vs manhattan)"},
        };
        for (Object[] c : cases) {
            Hdbscan other = (Hdbscan) c[1];
            for (Runnable call : new Runnable[] {() -> r.reselect(other), () -> model.reselect(other)}) {
                InvalidInputException e = assertThrows(InvalidInputException.class, call::run);
                assertEquals(Optional.of((String) c[0]), e.parameter(), e.getMessage());
                assertTrue(e.getMessage().contains("reselect cannot change " + c[0] + " " + c[2]), e.getMessage());
            }
        }
        assertThrows(NullPointerException.class, () -> r.reselect((HdbscanParameters) null));
    }

    @Test
    void aModelReselectsFromAnEstimatorAsAResultDoes() {
        HdbscanResult r = fit();
        HdbscanModel model = HdbscanModel.of(r, SQUARES);
        Hdbscan leaf = r.parameters().toBuilder().clusterSelectionMethod(SelectionMethod.LEAF).build();
        assertArrayEquals(r.reselect(leaf).labels(), model.reselect(leaf).labels());
        assertArrayEquals(model.reselect(leaf.parameters()).labels(), model.reselect(leaf).labels());
    }

    @Test
    void membershipChecksThePointIndex() {
        HdbscanResult r = fit();
        Membership m = HdbscanModel.of(r, SQUARES).membershipVector(SQUARES.select(new int[] {0, 5}));
        assertEquals(2, m.points());
        assertEquals(m.row(1)[0], m.get(1, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> m.get(2, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> m.get(-1, 0));
    }

    @Test
    void minSamplesLeftUnsetFollowsMinClusterSizeThroughToBuilder() {
        Hdbscan unset = Hdbscan.builder().build();
        assertEquals(50, unset.toBuilder().minClusterSize(50).build().minSamples(), "scikit-learn's min_samples=None");
        Hdbscan set = Hdbscan.builder().minSamples(5).build();
        assertEquals(5, set.toBuilder().minClusterSize(50).build().minSamples(), "a value set stays set");
        assertEquals(50, set.toBuilder().clearMinSamples().minClusterSize(50).build().minSamples());
        // the parameters record holds the value the fit used: its builder sets it explicitly
        assertEquals(5, unset.parameters().toBuilder().minClusterSize(50).build().minSamples());
        assertEquals(50, unset.parameters().toBuilder().clearMinSamples().minClusterSize(50).build().minSamples());
    }

    @Test
    void anExecutionRefusesImpossibleThreadCountsByName() {
        for (int threads : new int[] {0, -5, 40_000}) {
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> new Execution(threads, ProgressListener.NONE, CancellationToken.NEVER));
            assertEquals(Optional.of("threads"), e.parameter(), e.getMessage());
        }
        assertEquals(Runtime.getRuntime().availableProcessors(), Execution.everyCore().threads());
    }

    @Test
    void centerKindNamesItsParameter() {
        assertEquals(CenterKind.MEDOID, CenterKind.parse("Medoid"));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> CenterKind.parse("mean"));
        assertEquals(Optional.of("store_centers"), e.parameter());
        assertTrue(e.getMessage().contains("'mean'"), e.getMessage());
    }
}
