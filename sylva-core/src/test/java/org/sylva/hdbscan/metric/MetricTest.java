package org.sylva.hdbscan.metric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.data.PointSet;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** The metric type: names, aliases, refused parameters, each distance's arithmetic, precomputed checks. */
class MetricTest {
    @Test
    void namesAndAliasesAsScikitLearnGetsThem() {
        assertSame(Metric.euclidean(), Metric.parse("L2", null));
        assertSame(Metric.manhattan(), Metric.parse("cityblock", null));
        assertSame(Metric.chebyshev(), Metric.parse("infinity", null));
        assertSame(Metric.manhattan(), Metric.minkowski(1));
        assertSame(Metric.euclidean(), Metric.parse("minkowski", null));
        assertSame(Metric.chebyshev(), Metric.minkowski(Double.POSITIVE_INFINITY));
        assertEquals(Metric.minkowski(3), Metric.parse("minkowski", 3.0));
        assertEquals(3.0, Metric.minkowski(3).p());
        assertEquals(Map.of("p", 3.0), Metric.minkowski(3).params());
        assertEquals("minkowski (p = 3.0)", Metric.minkowski(3).describe());
    }

    @Test
    void refusesBadParametersNamingThem() {
        for (double p : new double[] {0.5, 0, -1, Double.NaN}) {
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> Metric.minkowski(p));
            assertEquals("p", e.parameter().orElseThrow());
        }
        assertEquals("metric", assertThrows(InvalidInputException.class, () -> Metric.parse("hamming", null))
                .parameter().orElseThrow());
        assertEquals("p", assertThrows(InvalidInputException.class, () -> Metric.parse("cosine", 3.0))
                .parameter().orElseThrow());
    }

    @Test
    void eachDistanceInItsDocumentedOrder() {
        double[] x = {1, 2, 3, 4, -1, 0.5};
        assertEquals(Math.sqrt((9.0 + 9.0) + 6.25), Metric.euclidean().pairs(x, 2, 3).between(0, 1));
        assertEquals(((0.0 + 3) + 3) + 2.5, Metric.manhattan().pairs(x, 2, 3).between(1, 0));
        assertEquals(3.0, Metric.chebyshev().pairs(x, 2, 3).between(0, 1));
        double s = 0;
        for (double t : new double[] {3, 3, 2.5}) s += StrictMath.pow(t, 3);
        assertEquals(StrictMath.pow(s, 1.0 / 3), Metric.minkowski(3).pairs(x, 2, 3).between(0, 1));
        PairDistances c = Metric.cosine().pairs(new double[] {1, 0, 2, 0, 0, 3, 0, 0}, 4, 2);
        assertEquals(0.0, c.between(0, 1));   // same direction
        assertEquals(1.0, c.between(0, 2));   // orthogonal
        assertEquals(1.0, c.between(0, 3));   // a zero row: similarity 0, as scikit-learn's normalize leaves it
        assertEquals(0.0, c.between(3, 3));
        PairDistances any = Metric.minkowski(3).pairs(x, 2, 3);
        assertEquals(any.between(0, 1), any.between(1, 0));
    }

    @Test
    void aPointsDistancesToARunOfPointsAreEachPairs() {
        java.util.Random r = new java.util.Random(9);
        int n = 23, d = 5;
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = r.nextInt(4) + r.nextGaussian() * 1e-3;
        for (Metric m : new Metric[] {Metric.manhattan(), Metric.chebyshev(), Metric.minkowski(3), Metric.cosine()}) {
            PairDistances pd = m.pairs(x, n, d);
            double[] out = new double[n];
            for (int a = 0; a < n; a++) {
                for (int from = 0; from < n; from += 3) {
                    int to = Math.min(n, from + 1 + a % 11);   // runs of 1 to 11 points, with and without a remainder
                    java.util.Arrays.fill(out, Double.NaN);
                    pd.fromPoint(a, from, to, out);
                    for (int b = from; b < to; b++) assertEquals(pd.between(a, b), out[b - from], m.describe() + " " + a + "-" + b);
                }
            }
        }
    }

    @Test
    void precomputedMatricesAreChecked() {
        String[] expect = {"square", ">= 0", ">= 0", "itself", "symmetric"};
        double[][] bad = {
            {0, 1, 1, 0, 2, 2},              // 2 x 3
            {0, Double.NaN, Double.NaN, 0},
            {0, -1, -1, 0},
            {1.5e-9, 1, 1, 0},               // beyond round-off (1e-300 is read as 0)
            {0, 1, 1.001, 0},
        };
        for (int i = 0; i < bad.length; i++) {
            double[] m = bad[i];
            int d = m.length / 2;
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> Metric.precomputed().pairs(m, 2, d));
            assertTrue(e.getMessage().contains(expect[i]), e.getMessage());
        }
        // symmetric to rounding: accepted, the upper triangle read both ways
        PairDistances p = Metric.precomputed().pairs(new double[] {0, 1, 1 + 1e-12, 0}, 2, 2);
        assertEquals(1.0, p.between(1, 0));
    }

    @Test
    void precomputedFitRefusesABadMatrixWhateverTheNonFinitePolicy() {
        Hdbscan h = Hdbscan.builder().minClusterSize(2).minSamples(1).metric(Metric.precomputed())
                .nonFinite(org.sylva.hdbscan.NonFinitePolicy.SKLEARN).build();
        double[] m = {0, 1, Double.NaN, 1, 0, 2, Double.NaN, 2, 0};
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> h.fit(m, 3, 3, ProgressListener.NONE, CancellationToken.NEVER));
        assertTrue(e.getMessage().contains("(0, 2)"), e.getMessage());
    }

    @Test
    void whatAssumesEuclideanRefusesOtherMetricsClearlyAndTheRestFollowsTheMetric() {   // the engine; models, DBCV, medoids follow
        double[] x = new double[60];
        for (int i = 0; i < x.length; i++) x[i] = (i * 7919 % 31) + (i < 30 ? 0 : 100);
        PointSet p = PointSet.ofFloat64(30, 2, x);
        HdbscanResult r = Hdbscan.builder().minClusterSize(5).metric(Metric.manhattan()).build().fit(p);
        assertEquals("manhattan", r.parameters().describe().get("metric"));
        assertEquals(Metric.manhattan(), HdbscanModel.of(r, p).parameters().metric());   // a model measures by it
        r.validityIndex(p);   // DBCV follows the metric too
        r.centers(p, org.sylva.hdbscan.quality.CenterKind.BOTH);   // centres follow the metric
        assertThrows(InvalidInputException.class, () -> r.reselect(Hdbscan.builder().minClusterSize(5).build()));
        assertEquals("metric", assertThrows(InvalidInputException.class, () -> Hdbscan.builder()
                .metric(Metric.cosine()).engine(new org.sylva.hdbscan.engine.CpuHdbscanEngine(
                        org.sylva.hdbscan.Backend.SCALAR)).build()).parameter().orElseThrow());
    }
}
