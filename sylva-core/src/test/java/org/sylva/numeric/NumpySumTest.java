package org.sylva.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/**
 * {@link NumpySum} against sums NumPy (2.4.6, {@code ndarray.sum()} and {@code .sum(axis=1)} agree)
 * computed of {@code a[i] = (1 / (i + 1)) * 10^(i % 7 - 3) * (i % 3 == 0 ? -1 : 1)}, written as hex
 * doubles; from 17 terms on they differ from a sequential sum.
 */
class NumpySumTest {
    private static final double[] SCALE = {1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1000.0};

    private static double[] values(int n) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) a[i] = (1.0 / (i + 1)) * SCALE[i % 7] * (i % 3 != 0 ? 1 : -1);
        return a;
    }

    @Test
    void sumsAsNumpySums() {
        int[] sizes = {7, 8, 9, 17, 128, 129, 300, 1000};
        String[] numpy = {"-0x1.f19cd17b2c2dbp+6", "-0x1.f19cb0b69087dp+6", "-0x1.f19b8d7128fe2p+6",
            "-0x1.ddf7f6fd976ddp+5", "0x1.d49728ac9f025p+5", "0x1.d498bf195f1bcp+5", "0x1.903db81747706p+6",
            "0x1.419bdd13e85c1p+7"};
        for (int t = 0; t < sizes.length; t++) {
            double[] a = values(sizes[t]);
            double[] padded = new double[a.length + 5];
            System.arraycopy(a, 0, padded, 3, a.length);
            double want = Double.parseDouble(numpy[t]);
            assertEquals(want, NumpySum.of(a, 0, a.length), "sum of " + sizes[t]);
            assertEquals(want, NumpySum.of(padded, 3, a.length), "sum of " + sizes[t] + " at an offset");
            double seq = 0;
            for (double v : a) seq += v;
            if (sizes[t] >= 17) assertNotEquals(seq, want, "the data tells pairwise from sequential at " + sizes[t]);
        }
    }
}
