package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.sylva.features.PrincipalComponents;

class PcaTest {
    private static int[] all(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) r[i] = i;
        return r;
    }

    @Test
    void findsTheDirectionsOfLargestVarianceWithTheDocumentedSign() {
        // variance 100 along u = (1, 2, 2) / 3, 4 along v, 0.01 along w: (2, 1, -2) / 3 and (2, -2, 1) / 3
        // turned by 0.3 rad about u, so that v's largest entry is unique (v = (0.83, 0.12, -0.54))
        double co = Math.cos(0.3), si = Math.sin(0.3);
        double[] u = {1 / 3.0, 2 / 3.0, 2 / 3.0};
        double[] v = {(2 * co + 2 * si) / 3, (co - 2 * si) / 3, (-2 * co + si) / 3};
        double[] w = {(-2 * si + 2 * co) / 3, (-si - 2 * co) / 3, (2 * si + co) / 3};
        int n = 20_000;
        Random rnd = new Random(1);
        float[] x = new float[n * 3];
        for (int i = 0; i < n; i++) {
            double a = 10 * rnd.nextGaussian(), b = 2 * rnd.nextGaussian(), c = 0.1 * rnd.nextGaussian();
            for (int j = 0; j < 3; j++) x[i * 3 + j] = (float) (5 + a * u[j] + b * v[j] + c * w[j]);
        }
        Pca.Fit fit = Pca.fit(Coordinates.of(x), 3, all(n), n);
        assertEquals(n, fit.rowsUsed());
        assertArrayEquals(u, fit.pc1(), 0.01);
        // v's largest entry (the first) is positive already, as the convention wants
        assertArrayEquals(v, fit.pc2(), 0.02);
        assertEquals(100, fit.var1(), 3);
        assertEquals(4, fit.var2(), 0.2);
        assertEquals(100.0 * fit.var1() / fit.totalVar(), fit.explained(0), 1e-9);
        assertEquals(5, fit.mean()[0], 0.2);
    }

    @Test
    void upToTheJacobiLimitItIsTheLibrarysPcaOfTheRowsUsed() {
        int n = 3_000, d = 8;
        Random rnd = new Random(11);
        float[] x = new float[n * d];
        for (int i = 0; i < x.length; i++) x[i] = (float) (rnd.nextGaussian() * (1 + i % d));
        int[] odd = new int[n / 2];
        float[] oddRows = new float[n / 2 * d];
        for (int t = 0; t < odd.length; t++) {
            odd[t] = 2 * t + 1;
            System.arraycopy(x, odd[t] * d, oddRows, t * d, d);
        }
        Pca.Fit fit = Pca.fit(Coordinates.of(x), d, odd, odd.length);
        PrincipalComponents lib = PrincipalComponents.fit(oddRows, odd.length, d, 2);
        assertArrayEquals(lib.mean(), fit.mean(), 0);
        assertArrayEquals(lib.component(0), fit.pc1(), 0);
        assertArrayEquals(lib.component(1), fit.pc2(), 0);
        assertEquals(lib.explainedVarianceRatio()[0], fit.explained(0) / 100, 1e-15);
    }

    @Test
    void widerRowsAreRepresentedByEvenlySpacedColumnsAndTheFitIsTheLibrarysOnThem() {
        int n = 600, d = 5_000;
        Random rnd = new Random(12);
        float[] x = new float[n * d];
        for (int i = 0; i < n; i++) {
            double a = 20 * rnd.nextGaussian(), b = 8 * rnd.nextGaussian();
            for (int j = 0; j < d; j++) x[i * d + j] = (float) (a * Math.sin(0.01 * j) + b * Math.cos(0.037 * j)
                    + rnd.nextGaussian());
        }
        Pca.Fit fit = Pca.fit(Coordinates.of(x), d, all(n), n);
        int[] cols = fit.columns();
        assertEquals(Pca.MAX_COLUMNS, cols.length);
        assertEquals(0, cols[0]);
        assertEquals(d - 1, cols[cols.length - 1], "the first and the last column are among them");
        for (int t = 1; t < cols.length; t++) assertTrue(cols[t] > cols[t - 1]);
        float[] sub = new float[n * cols.length];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < cols.length; t++) sub[i * cols.length + t] = x[i * d + cols[t]];
        }
        PrincipalComponents lib = PrincipalComponents.fit(sub, n, cols.length, 2);
        assertArrayEquals(lib.component(0), fit.pc1(), 0);
        assertArrayEquals(lib.component(1), fit.pc2(), 0);
        double expect = 0;
        for (int t = 0; t < cols.length; t++) expect += (x[7 * d + cols[t]] - lib.mean()[t]) * lib.component(0)[t];
        assertEquals(expect, fit.project(Coordinates.of(x), d, 7, 0), 1e-9);
    }

    /** d * d overflowed an int from d = 46 341 (NegativeArraySizeException); nothing d x d is made now. */
    @Test
    void aDimensionWhoseSquareOverflowsAnIntIsFineAndQuick() {
        int n = 40, d = 46_341;
        Random rnd = new Random(5);
        float[] x = new float[n * d];
        for (int i = 0; i < x.length; i++) x[i] = (float) rnd.nextGaussian();
        long t0 = System.nanoTime();
        Pca.Fit fit = Pca.fit(Coordinates.of(x), d, all(n), n);
        assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "well under five seconds");
        assertEquals(Pca.MAX_COLUMNS, fit.pc1().length);
        assertTrue(Double.isFinite(fit.project(Coordinates.of(x), d, n - 1, 1)));
    }

    @Test
    void largeInputsUseASubsetWithinTheBudgetAndSkipNonFiniteRows() {
        int d = 61, n = 120_000; // n * d^2 exceeds the covariance budget
        float[] x = new float[n * d];
        Random rnd = new Random(3);
        for (int i = 0; i < x.length; i++) x[i] = (float) rnd.nextGaussian();
        x[5 * d + 3] = Float.NaN;
        Pca.Fit fit = Pca.fit(Coordinates.of(x), d, all(n), n);
        long budgetRows = Pca.COVARIANCE_BUDGET / ((long) d * d);
        assertTrue(fit.rowsUsed() <= budgetRows && fit.rowsUsed() >= budgetRows - 1, "rows " + fit.rowsUsed());
        for (double m : fit.mean()) assertTrue(Double.isFinite(m));
        double norm = 0;
        for (double e : fit.pc1()) norm += e * e;
        assertEquals(1, norm, 1e-9);
    }
}
