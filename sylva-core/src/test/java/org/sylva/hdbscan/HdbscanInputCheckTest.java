package org.sylva.hdbscan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** How the library's input checks report a problem, and what they let through. */
class HdbscanInputCheckTest {
    @Test
    void aProblemWithContextKeepsItsParameter() {
        InvalidInputException e = InvalidInputException.forParameter("min_samples", "min_samples too large");
        InvalidInputException c = e.withContext("clips.npy");
        assertEquals("clips.npy: min_samples too large", c.getMessage());
        assertEquals(Optional.of("min_samples"), c.parameter());
        assertSame(e, c.getCause());
        assertEquals(Optional.empty(), new InvalidInputException("x").withContext("f").parameter());
        assertThrows(NullPointerException.class, () -> InvalidInputException.forParameter(null, "m"));
    }

    @Test
    void infiniteFloat64CoordinatesAreLeftOutUnderTheSklearnPolicyNotTakenForOverflow() {
        double[] x = {0, 0, 1, 1, Double.POSITIVE_INFINITY, 0, 3, 3, 4, 4};
        HdbscanResult r = Hdbscan.builder().minClusterSize(2).minSamples(2).nonFinite(NonFinitePolicy.SKLEARN).build()
                .fit(x, 5, 2, ProgressListener.NONE, CancellationToken.NEVER);
        assertEquals(-2, r.labels()[2]);
        // a finite coordinate beyond the limit is still refused, whatever the policy
        double[] huge = {0, 0, 1, 1, 2e160, 0, 3, 3, 4, 4};
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> Hdbscan.builder().minClusterSize(2)
                .minSamples(2).nonFinite(NonFinitePolicy.SKLEARN).build()
                .fit(huge, 5, 2, ProgressListener.NONE, CancellationToken.NEVER));
        assertEquals(Optional.empty(), e.parameter(), e.getMessage());
    }

    /**
     * scikit-learn labels a row by its sum: NaN (a NaN, or +inf with -inf) is -3 with probability NaN, an
     * infinite sum -2 with probability 0; float32 and float64 rows alike.
     */
    @Test
    void aRowWithBothInfinitiesIsANanRowAsScikitLearnSumsIt() {
        double inf = Double.POSITIVE_INFINITY, nan = Double.NaN;
        double[] x = {0, 0, 1, 1, inf, -inf, nan, inf, inf, 1, -inf, -inf, 3, 3, 4, 4, 5, 5, 6, 6};
        HdbscanResult r64 = Hdbscan.builder().minClusterSize(2).minSamples(2).nonFinite(NonFinitePolicy.SKLEARN).build()
                .fit(x, 10, 2, ProgressListener.NONE, CancellationToken.NEVER);
        float[] f = new float[x.length];
        for (int i = 0; i < x.length; i++) f[i] = (float) x[i];
        HdbscanResult r32 = Hdbscan.builder().minClusterSize(2).minSamples(2).nonFinite(NonFinitePolicy.SKLEARN).build()
                .fit(org.sylva.data.PointSet.unchecked(10, 2, f));
        for (HdbscanResult r : new HdbscanResult[] {r64, r32}) {
            int[] labels = r.labels();
            double[] p = r.probabilities();
            assertEquals(-3, labels[2], "+inf and -inf");
            assertEquals(-3, labels[3], "NaN and +inf");
            assertEquals(-2, labels[4], "+inf alone");
            assertEquals(-2, labels[5], "-inf twice");
            assertTrue(Double.isNaN(p[2]) && Double.isNaN(p[3]));
            assertEquals(0.0, p[4]);
            assertEquals(0.0, p[5]);
        }
    }

    private static InvalidInputException refused(Metric metric, double[] x, int n, int d) {
        return assertThrows(InvalidInputException.class, () -> Hdbscan.builder().minClusterSize(2).minSamples(2)
                .metric(metric).build().fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER));
    }

    @Test
    void coordinatesBeyondTheLimitAreRefusedWithTheMetricsReason() {
        double[] huge = {0, 0, 1, 1, 2e160, 0, 3, 3, 4, 4};
        assertTrue(refused(Metric.euclidean(), huge, 5, 2).getMessage().startsWith(
                "point 2, coordinate 0 is 2.0E160: coordinates beyond +-1e150 would overflow squared distances"));
        String m = refused(Metric.manhattan(), huge, 5, 2).getMessage();
        assertTrue(m.startsWith("point 2, coordinate 0 is 2.0E160: coordinates are taken within +-1e150 with every "
                + "metric (beyond, the euclidean metric's squared distances would overflow)"), m);
    }

    @Test
    void float64DataWhoseSquaredDifferencesUnderflowIsRefusedWhereTheMetricSquares() {
        double[] x = {0, 0, 1, 1, 2, 0, 3, 3, 4, 4, 5, 1};
        double[] tiny = new double[x.length];
        for (int i = 0; i < x.length; i++) tiny[i] = x[i] * 0x1p-1030;   // subnormal, exact
        for (Metric metric : new Metric[] {Metric.euclidean(), Metric.cosine()}) {
            String m = refused(metric, tiny, 6, 2).getMessage();
            assertTrue(m.startsWith("every coordinate is within +-7.5e-155 (the largest magnitude is "
                    + 5 * 0x1p-1030 + "): with the " + metric.name() + " metric every " + (metric.kind()
                    == Metric.Kind.COSINE ? "squared coordinate of a row's norm" : "squared difference") + " would be "
                    + "subnormal"), m);
        }
        // minkowski's power moves the limit: p = 4 at 2^-256.5, about 6.1e-78
        double[] quartic = new double[x.length];
        for (int i = 0; i < x.length; i++) quartic[i] = x[i] * 0x1p-270;
        String m = refused(Metric.minkowski(4), quartic, 6, 2).getMessage();
        assertTrue(m.startsWith("every coordinate is within +-6.1e-78 (the largest magnitude is " + 5 * 0x1p-270
                + "): with the minkowski metric every |difference|^4.0 would be subnormal"), m);
        Hdbscan.builder().minClusterSize(2).minSamples(2).build()
                .fit(quartic, 6, 2, ProgressListener.NONE, CancellationToken.NEVER);   // above euclidean's limit
        // where no difference is squared, and at the limit's own scale, the fit runs and gives the plain data's labels
        int[] labels = Hdbscan.builder().minClusterSize(2).minSamples(2).build()
                .fit(x, 6, 2, ProgressListener.NONE, CancellationToken.NEVER).labels();
        for (Metric metric : new Metric[] {Metric.manhattan(), Metric.chebyshev()}) {
            Hdbscan h = Hdbscan.builder().minClusterSize(2).minSamples(2).metric(metric).build();
            assertArrayEquals(h.fit(x, 6, 2, ProgressListener.NONE, CancellationToken.NEVER).labels(),
                    h.fit(tiny, 6, 2, ProgressListener.NONE, CancellationToken.NEVER).labels(), metric.name());
        }
        double[] scaled = new double[x.length];
        for (int i = 0; i < x.length; i++) scaled[i] = x[i] * 0x1p-512;   // largest 5 * 2^-512: just above the limit
        assertArrayEquals(labels, Hdbscan.builder().minClusterSize(2).minSamples(2).build()
                .fit(scaled, 6, 2, ProgressListener.NONE, CancellationToken.NEVER).labels());
    }

    @Test
    void float32DataWhosePowersUnderflowIsRefusedUnderMinkowski() {
        // float32 squares stay normal float64s, but |difference|^20 of values near 1e-20 is subnormal for every pair
        float[] x = {0f, 1e-20f, 2e-20f, 5e-20f, 6e-20f};
        Hdbscan h = Hdbscan.builder().minClusterSize(2).minSamples(1).metric(Metric.minkowski(20)).build();
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> h.fit(PointSet.of(5, 1, x)));
        assertTrue(e.getMessage().startsWith("every coordinate is within +-"), e.getMessage());
        assertTrue(e.getMessage().contains("every |difference|^20.0 would be subnormal"), e.getMessage());
        // the same float32 values under euclidean are well within range and fit as the rescaled data does
        float[] scaled = new float[x.length];
        for (int i = 0; i < x.length; i++) scaled[i] = x[i] * 1e20f;
        Hdbscan e2 = Hdbscan.builder().minClusterSize(2).minSamples(1).build();
        assertArrayEquals(e2.fit(PointSet.of(5, 1, scaled)).labels(), e2.fit(PointSet.of(5, 1, x)).labels());
    }

    /** A float64 array whose length is not n * d is refused naming both, too long as too short. */
    @Test
    void aFloat64ArrayOfTheWrongLengthIsRefusedNamingTheShape() {
        Hdbscan h = Hdbscan.builder().build();
        for (int length : new int[] {7, 5}) {
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> h.fit(new double[length], 3, 2, ProgressListener.NONE, CancellationToken.NEVER));
            assertTrue(e.getMessage().contains("has " + length + " values, expected n * d = 3 * 2"), e.getMessage());
        }
    }
}
