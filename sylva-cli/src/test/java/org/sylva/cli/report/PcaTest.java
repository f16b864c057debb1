package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.sylva.features.PrincipalComponents;
import org.sylva.features.SymmetricEigen;

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
        Pca.Fit fit = Pca.fit(x, 3, all(n), n);
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
        Pca.Fit fit = Pca.fit(x, d, odd, odd.length);
        PrincipalComponents lib = PrincipalComponents.fit(oddRows, odd.length, d, 2);
        assertArrayEquals(lib.mean(), fit.mean(), 0);
        assertArrayEquals(lib.component(0), fit.pc1(), 0);
        assertArrayEquals(lib.component(1), fit.pc2(), 0);
        assertEquals(lib.explainedVarianceRatio()[0], fit.explained(0) / 100, 1e-15);
    }

    @Test
    void aboveTheJacobiLimitTheSubspacePathFindsTheLibrarysPlane() {
        int n = 2_500, d = Pca.JACOBI_MAX_D + 4;
        Random rnd = new Random(12);
        double[] u = new double[d], v = new double[d];
        for (int j = 0; j < d; j++) {
            u[j] = Math.sin(0.1 * j);
            v[j] = Math.cos(0.37 * j);
        }
        float[] x = new float[n * d];
        for (int i = 0; i < n; i++) {
            double a = 20 * rnd.nextGaussian(), b = 8 * rnd.nextGaussian();
            for (int j = 0; j < d; j++) x[i * d + j] = (float) (a * u[j] + b * v[j] + rnd.nextGaussian());
        }
        Pca.Fit fit = Pca.fit(x, d, all(n), n);
        PrincipalComponents lib = PrincipalComponents.fit(x, n, d, 2);
        assertArrayEquals(lib.component(0), fit.pc1(), 1e-9);
        assertArrayEquals(lib.component(1), fit.pc2(), 1e-9);
        assertEquals(lib.explainedVarianceRatio()[1], fit.explained(1) / 100, 1e-12);
    }

    @Test
    void subspaceIterationAgreesWithJacobi() {
        int d = 264; // just above the Jacobi limit, so that the subspace path is the one used for such d
        Random rnd = new Random(7);
        // A = Q diag(lambda) Q^T with a clear gap after the second eigenvalue
        double[][] q = new double[d][d];
        for (int i = 0; i < d; i++) for (int j = 0; j < d; j++) q[i][j] = rnd.nextGaussian();
        for (int i = 0; i < d; i++) { // Gram-Schmidt rows
            for (int l = 0; l < i; l++) {
                double dot = 0;
                for (int j = 0; j < d; j++) dot += q[i][j] * q[l][j];
                for (int j = 0; j < d; j++) q[i][j] -= dot * q[l][j];
            }
            double nrm = 0;
            for (int j = 0; j < d; j++) nrm += q[i][j] * q[i][j];
            for (int j = 0; j < d; j++) q[i][j] /= Math.sqrt(nrm);
        }
        double[] a = new double[d * d];
        for (int e = 0; e < d; e++) {
            double lam = e == 0 ? 50 : e == 1 ? 20 : 5.0 / (e + 1);
            for (int i = 0; i < d; i++) for (int j = 0; j < d; j++) a[i * d + j] += lam * q[e][i] * q[e][j];
        }
        for (int i = 0; i < d; i++) for (int j = 0; j < i; j++) a[i * d + j] = a[j * d + i]; // exactly symmetric
        SymmetricEigen jacobi = SymmetricEigen.of(a, d);
        double[][] sub = Pca.topTwoSubspace(a, d);
        for (int r = 0; r < 2; r++) {
            SymmetricEigen.orient(sub[r]);
            double[] expect = q[r].clone();
            SymmetricEigen.orient(expect);
            assertArrayEquals(expect, jacobi.vector(r), 1e-9, "Jacobi vector " + r);
            assertArrayEquals(expect, sub[r], 1e-9, "subspace vector " + r);
        }
    }

    @Test
    void largeInputsUseASubsetWithinTheBudgetAndSkipNonFiniteRows() {
        int d = 61, n = 120_000; // n * d^2 exceeds the covariance budget
        float[] x = new float[n * d];
        Random rnd = new Random(3);
        for (int i = 0; i < x.length; i++) x[i] = (float) rnd.nextGaussian();
        x[5 * d + 3] = Float.NaN;
        Pca.Fit fit = Pca.fit(x, d, all(n), n);
        long budgetRows = Pca.COVARIANCE_BUDGET / ((long) d * d);
        assertTrue(fit.rowsUsed() <= budgetRows && fit.rowsUsed() >= budgetRows - 1, "rows " + fit.rowsUsed());
        for (double m : fit.mean()) assertTrue(Double.isFinite(m));
        double norm = 0;
        for (double e : fit.pc1()) norm += e * e;
        assertEquals(1, norm, 1e-9);
    }
}
