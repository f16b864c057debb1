package org.sylva.hdbscan.metric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PairDistances#cutoff}: a distance given up on is above its limit, never at or below it, for minkowski's
 * whole and fractional exponents, few and many coordinates, and coordinates near the subnormals and near overflow;
 * a limit well below the distance is given up on; the other metrics compute every distance.
 */
class PairDistancesCutoffTest {
    private static final double[] EXPONENTS = {1.5, 2.5, 3, 4, 7, 8, 9, 37.5};
    private static final int[] DIMENSIONS = {1, 2, 7, 16, 61};
    /**
     * Coordinate scales for exponent {@code p}: ordinary ones, ones whose powers lie near the subnormals (where a
     * relative margin does not cover the rounding), in them, and near overflow.
     */
    private static double[] scales(double p) {
        return new double[] {1, 1e-3, Math.pow(2, -880 / p), Math.pow(2, -1000 / p), Math.pow(2, -1050 / p),
            Math.pow(2, -1070 / p), Math.pow(2, 990 / p) / 8};
    }

    /** Limits around the exact distance {@code e}: equal, the next values, a few ulps and a little further. */
    private static double[] limitsAround(double e) {
        return new double[] {e, Math.nextDown(e), Math.nextUp(e), e * (1 - 0x1p-50), e * (1 + 0x1p-50),
            e * (1 - 0x1p-44), e * (1 + 0x1p-44), e * (1 - 0x1p-30), e * (1 + 0x1p-30), e / 2, e * 2};
    }

    @Test
    void aDistanceGivenUpOnIsAboveItsLimit() {
        Random r = new Random(41);
        long beyond = 0, checked = 0;
        for (double p : EXPONENTS) {
            for (int d : DIMENSIONS) {
                for (double scale : scales(p)) {
                    int n = 16;
                    double[] x = new double[n * d];
                    // rows equal in some coordinates, so that some terms are 0 and some sums are short
                    for (int i = 0; i < x.length; i++) x[i] = scale * (r.nextInt(5) == 0 ? 1.0 : r.nextGaussian());
                    PairDistances dist;
                    try {
                        dist = Metric.minkowski(p).pairs(x, n, d);
                    } catch (org.sylva.data.InvalidInputException overflow) {
                        continue;   // powers that could overflow are refused before any distance
                    }
                    double[] row = new double[n];
                    for (int a = 0; a < n; a++) {
                        for (int b = 0; b < n; b++) {
                            double e = dist.between(a, b);
                            for (double limit : limitsAround(e)) {
                                double cut = dist.cutoff(limit);
                                double got = dist.betweenUpTo(a, b, cut);
                                String what = "p " + p + ", d " + d + ", scale " + scale + ", pair " + a + " " + b
                                        + ", distance " + e + ", limit " + limit;
                                checked++;
                                if (got == PairDistances.BEYOND) {
                                    beyond++;
                                    assertTrue(e > limit, "given up on at or below its limit: " + what);
                                } else {
                                    assertEquals(Double.doubleToRawLongBits(e), Double.doubleToRawLongBits(got), what);
                                }
                                if (b % 8 == a % 8) {   // the row form agrees (a sample: it is n distances)
                                    dist.fromPointUpTo(a, 0, n, row, cut);
                                    assertEquals(Double.doubleToRawLongBits(got), Double.doubleToRawLongBits(row[b]), what);
                                }
                                boolean ordinary = Math.pow(e, p) > 0x1p-800 && Math.pow(e, p) < 0x1p900;
                                if (ordinary && a != b && limit <= e * (1 - 0x1p-30)) {
                                    assertEquals(PairDistances.BEYOND, got, "computed though well above its limit: " + what);
                                }
                            }
                        }
                    }
                }
            }
        }
        assertTrue(beyond > checked / 20, beyond + " of " + checked + " given up on");
    }

    @Test
    void noCutoffForLimitsItCannotBound() {
        PairDistances dist = Metric.minkowski(3).pairs(new double[] {0, 0, 1, 1}, 2, 2);
        for (double limit : new double[] {Double.NaN, 0.0, -1.0, Double.POSITIVE_INFINITY, 1e-310, 1e-200, 1e200}) {
            assertEquals(PairDistances.NO_CUTOFF, dist.cutoff(limit), "limit " + limit);
        }
        assertTrue(dist.cutoff(1.0) < PairDistances.NO_CUTOFF);
        assertEquals(PairDistances.BEYOND, dist.betweenUpTo(0, 1, dist.cutoff(1.0)));
        assertEquals(dist.between(0, 1), dist.betweenUpTo(0, 1, dist.cutoff(2.0)));
        assertEquals(0.0, dist.betweenUpTo(1, 1, dist.cutoff(1e-3)), "a point and itself");
    }

    @Test
    void theOtherMetricsComputeEveryDistance() {
        double[] x = BruteForceEngineTest.gaussian(30, 3, 43);
        for (Metric m : new Metric[] {Metric.euclidean(), Metric.manhattan(), Metric.chebyshev(), Metric.cosine()}) {
            PairDistances dist = m.pairs(x, 30, 3);
            assertEquals(PairDistances.NO_CUTOFF, dist.cutoff(1e-3), m.describe());
            double[] row = new double[30];
            dist.fromPointUpTo(4, 0, 30, row, dist.cutoff(1e-3));
            for (int b = 0; b < 30; b++) {
                assertEquals(dist.between(4, b), dist.betweenUpTo(4, b, dist.cutoff(1e-3)), m.describe());
                assertEquals(dist.between(4, b), row[b], m.describe());
            }
        }
    }
}
