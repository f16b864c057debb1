package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** What the caption says of the plane: the rows the covariance used, and no components for a single point. */
class Projection2DTest {
    private static int[] all(int n) {
        return java.util.stream.IntStream.range(0, n).toArray();
    }

    @Test
    void onePointInThreeDimensionsHasNoComponentsToSpeakOf() {
        Projection2D p = new Projection2D(Coordinates.of(new double[] {1, 2, 3}), 3, all(1), 1);
        assertEquals("One point has no principal components: it is drawn at the origin.", p.describe());
    }

    @Test
    void aSubsetOfRowsIsNamedAsOne() {
        int n = 10_000, d = 256;
        double[] x = new double[n * d];
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < x.length; i++) x[i] = rnd.nextDouble();
        String all = new Projection2D(Coordinates.of(x), d, all(1_000), 1_000).describe();
        assertTrue(all.contains("(covariance of 1,000 rows in float64; "), all);
        String some = new Projection2D(Coordinates.of(x), d, all(n), n).describe();
        assertTrue(some.matches(".*\\(covariance of [0-9,]+ of the 10,000 rows, evenly spaced, in float64; .*"), some);
        assertTrue(some.contains("each signed so that its entry of largest magnitude is positive"), some);
    }
}
