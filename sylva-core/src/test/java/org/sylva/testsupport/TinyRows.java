package org.sylva.testsupport;

import java.util.SplittableRandom;

/**
 * Test data below the normal range: coordinates uniform in {@code [0, scale)} with a scale such as
 * {@code 1e-161}, whose squared distances are subnormal, so that every product rounds by an absolute half
 * step (the case the index's bounds need an absolute margin for).
 *
 * <pre>{@code
 * double[] x = TinyRows.uniform(1500, 2, 1e-161, 7);
 * }</pre>
 */
public final class TinyRows {
    private TinyRows() {
    }

    /** {@code n} rows of {@code d} coordinates uniform in {@code [0, scale)}, row-major. */
    public static double[] uniform(int n, int d, double scale, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = r.nextDouble() * scale;
        return x;
    }
}
