package org.sylva.features;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;

/** {@link SymmetricEigen}: known decompositions, the sign and order conventions, and its refusals. */
class SymmetricEigenTest {
    @Test
    void javadocExample() {
        SymmetricEigen e = SymmetricEigen.of(new double[] {2, 1, 1, 2}, 2);
        assertEquals(3, e.value(0), 1e-15);
        assertEquals(1, e.value(1), 1e-15);
        double h = Math.sqrt(0.5);
        assertArrayEquals(new double[] {h, h}, e.vector(0), 1e-15);
        assertArrayEquals(new double[] {h, -h}, e.vector(1), 1e-15); // largest magnitude: the first of a tie
    }

    /** Jacobi below {@link SymmetricEigen#JACOBI_MAX_D}, tridiagonalisation and QL above. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {200, 264})
    void recoversAKnownBasisAtAFewHundredDimensions(int d) {
        Random rnd = new Random(7);
        double[][] q = orthonormalRows(d, rnd);
        double[] lambda = new double[d];
        double[] a = new double[d * d];
        for (int e = 0; e < d; e++) {
            lambda[e] = e == 0 ? 50 : e == 1 ? 20 : 5.0 / (e + 1);
            for (int i = 0; i < d; i++) for (int j = 0; j < d; j++) a[i * d + j] += lambda[e] * q[e][i] * q[e][j];
        }
        for (int i = 0; i < d; i++) for (int j = 0; j < i; j++) a[i * d + j] = a[j * d + i]; // exactly symmetric
        SymmetricEigen eig = SymmetricEigen.of(a, d);
        if (d <= SymmetricEigen.JACOBI_MAX_D) {
            assertTrue(eig.sweeps() > 0 && eig.sweeps() < SymmetricEigen.MAX_SWEEPS, "converged, not stopped by the bound");
        } else {
            assertEquals(0, eig.sweeps(), "no Jacobi sweeps beyond the bound");
        }
        for (int e = 0; e < d; e++) assertEquals(lambda[e], eig.value(e), 1e-12, "eigenvalue " + e);
        for (int e = 0; e < 10; e++) { // well separated: the vectors are determined
            double[] want = q[e].clone();
            SymmetricEigen.orient(want);
            assertArrayEquals(want, eig.vector(e), 1e-10, "eigenvector " + e);
        }
    }

    @Test
    void orientMakesTheLargestEntryPositiveTheFirstOnTies() {
        double[] a = {0.1, -0.9, 0.3};
        SymmetricEigen.orient(a);
        assertArrayEquals(new double[] {-0.1, 0.9, -0.3}, a, 0);
        double[] tie = {-0.5, 0.5};
        SymmetricEigen.orient(tie);
        assertArrayEquals(new double[] {0.5, -0.5}, tie, 0);
    }

    @Test
    void equalEigenvaluesKeepTheirDiagonalOrder() {
        SymmetricEigen e = SymmetricEigen.of(new double[] {1, 0, 0, 0, 3, 0, 0, 0, 1}, 3);
        assertArrayEquals(new double[] {3, 1, 1}, e.values(), 0);
        assertArrayEquals(new double[] {0, 1, 0}, e.vector(0), 0);
        assertArrayEquals(new double[] {1, 0, 0}, e.vector(1), 0);
        assertArrayEquals(new double[] {0, 0, 1}, e.vector(2), 0);
    }

    @Test
    void refusesWhatIsNotAFiniteSymmetricMatrix() {
        assertThrows(InvalidInputException.class, () -> SymmetricEigen.of(new double[3], 2));
        var e = assertThrows(InvalidInputException.class, () -> SymmetricEigen.of(new double[] {1, 2, 3, 4}, 2));
        assertEquals("matrix is not symmetric: entry (0, 1) is 2.0, entry (1, 0) is 3.0", e.getMessage());
        assertThrows(InvalidInputException.class, () -> SymmetricEigen.of(new double[] {Double.NaN}, 1));
    }

    private static double[][] orthonormalRows(int d, Random rnd) {
        double[][] q = new double[d][d];
        for (int i = 0; i < d; i++) for (int j = 0; j < d; j++) q[i][j] = rnd.nextGaussian();
        for (int i = 0; i < d; i++) { // Gram-Schmidt, twice
            for (int pass = 0; pass < 2; pass++) {
                for (int l = 0; l < i; l++) {
                    double dot = 0;
                    for (int j = 0; j < d; j++) dot += q[i][j] * q[l][j];
                    for (int j = 0; j < d; j++) q[i][j] -= dot * q[l][j];
                }
            }
            double nrm = 0;
            for (int j = 0; j < d; j++) nrm += q[i][j] * q[i][j];
            for (int j = 0; j < d; j++) q[i][j] /= Math.sqrt(nrm);
        }
        return q;
    }

    /**
     * The two decompositions agree on a covariance of a few hundred columns (random, with a few strong directions):
     * every eigenvalue to 1e-12 of the largest, and the vectors of well-separated values to 1e-9, equally signed;
     * each set of vectors is orthonormal and solves A v = lambda v to 1e-11.
     */
    @Test
    void jacobiAndTridiagonalQlAgree() {
        int d = 300, n = 400;
        Random rnd = new Random(11);
        double[] x = new double[n * d];
        for (int i = 0; i < n; i++) {
            double a = rnd.nextGaussian() * 5, b = rnd.nextGaussian() * 3;
            for (int j = 0; j < d; j++) x[i * d + j] = a * Math.sin(j * 0.1) + b * Math.cos(j * 0.07) + rnd.nextGaussian();
        }
        double[] cov = new double[d * d];
        for (int i = 0; i < n; i++) {
            for (int p = 0; p < d; p++) for (int q = 0; q <= p; q++) cov[p * d + q] += x[i * d + p] * x[i * d + q] / n;
        }
        for (int p = 0; p < d; p++) for (int q = p + 1; q < d; q++) cov[p * d + q] = cov[q * d + p];
        SymmetricEigen j = SymmetricEigen.jacobi(cov, d), t = SymmetricEigen.tridiagonal(cov, d);
        assertEquals(t.value(0), SymmetricEigen.of(cov, d).value(0), 0, "of() takes QL above the bound");
        for (int e = 0; e < d; e++) assertEquals(j.value(e), t.value(e), 1e-12 * j.value(0), "eigenvalue " + e);
        for (int e = 0; e < 3; e++) assertArrayEquals(j.vector(e), t.vector(e), 1e-9, "eigenvector " + e);
        for (SymmetricEigen s : new SymmetricEigen[] {j, t}) {
            for (int e = 0; e < d; e += 37) {
                double[] v = s.vector(e);
                for (int f = 0; f < d; f += 41) {
                    double dot = 0;
                    double[] u = s.vector(f);
                    for (int k = 0; k < d; k++) dot += v[k] * u[k];
                    assertEquals(e == f ? 1 : 0, dot, 1e-12, "vectors " + e + ", " + f);
                }
                for (int r = 0; r < d; r++) {
                    double av = 0;
                    for (int k = 0; k < d; k++) av += cov[r * d + k] * v[k];
                    assertEquals(s.value(e) * v[r], av, 1e-11 * j.value(0), "A v = lambda v, row " + r);
                }
            }
        }
    }

    /**
     * Both solvers on matrices far from 1 (entries of 1e-200 and 1e200, whose products would underflow or overflow:
     * scaled by a power of two, exactly) and rank-deficient ones (the all-ones matrix, a covariance of copied columns,
     * zero: a Householder column's leftovers shrink into subnormals) still give orthonormal vectors solving A v =
     * lambda v; at the bound, 256 coordinates go to Jacobi and 257 to QL.
     */
    @Test
    void extremeScalesAndRankDeficientMatricesDecompose() {
        for (int d : new int[] {120, 300}) {
            Random rnd = new Random(d);
            double[] a = new double[d * d];
            for (int i = 0; i < d; i++) for (int j = 0; j <= i; j++) a[i * d + j] = a[j * d + i] = rnd.nextGaussian();
            for (double scale : new double[] {1e-200, 1e200}) {
                double[] b = a.clone();
                for (int i = 0; i < b.length; i++) b[i] *= scale;
                assertDecomposes(b, d, SymmetricEigen.of(b, d), d + " x " + scale);
            }
            double[] ones = new double[d * d];
            java.util.Arrays.fill(ones, 1);
            SymmetricEigen e = SymmetricEigen.of(ones, d);
            assertDecomposes(ones, d, e, d + " ones");
            assertEquals(d, e.value(0), 1e-12 * d);
            double[] copies = new double[d * d];   // the covariance of 3 variables, each copied into d / 3 columns
            double[][] c3 = {{2, 0.5, 0.1}, {0.5, 1, 0.3}, {0.1, 0.3, 0.7}};
            for (int i = 0; i < d; i++) for (int j = 0; j < d; j++) copies[i * d + j] = c3[i % 3][j % 3];
            assertDecomposes(copies, d, SymmetricEigen.of(copies, d), d + " copied columns");
        }
        double[] zero = new double[257 * 257];
        SymmetricEigen z = SymmetricEigen.of(zero, 257);
        assertDecomposes(zero, 257, z, "zero");
        assertEquals(0, z.sweeps());
        double[] diag = new double[256 * 256];
        for (int i = 0; i < 256; i++) diag[i * 256 + i] = 1 + (i % 7);
        diag[1] = diag[256] = 0.5;
        assertTrue(SymmetricEigen.of(diag, 256).sweeps() > 0, "256 coordinates: Jacobi");
    }

    /** Unit, orthogonal vectors with {@code |A v - lambda v|} within 1e-12 of the matrix's largest entry. */
    private static void assertDecomposes(double[] a, int d, SymmetricEigen s, String what) {
        double largest = 0;
        for (double x : a) largest = Math.max(largest, Math.abs(x));
        double[][] v = new double[d][];
        for (int e = 0; e < d; e++) v[e] = s.vector(e);
        for (int e = 0; e < d; e++) {
            for (int f = e; f < d; f++) {
                double dot = 0;
                for (int k = 0; k < d; k++) dot += v[e][k] * v[f][k];
                assertEquals(e == f ? 1 : 0, dot, 1e-12, what + ": vectors " + e + ", " + f);
            }
            for (int r = 0; r < d; r++) {
                double av = 0;
                for (int k = 0; k < d; k++) av += a[r * d + k] * v[e][k];
                assertEquals(s.value(e) * v[e][r], av, 1e-12 * Math.max(largest, Double.MIN_NORMAL) * d,
                        what + ": A v = lambda v, vector " + e + ", row " + r);
            }
        }
    }

    /**
     * A decomposition stops at a cancel in its middle, on both solvers (a token that turns cancelled at its sixth
     * check, so no clock decides), and at an interrupt of the calling thread, whose flag stays set.
     */
    @Test
    void aDecompositionStopsAtACancelOrAnInterruptInItsMiddle() {
        java.util.Random rnd = new java.util.Random(8);
        for (int d : new int[] {40, 300}) {   // Jacobi, then Householder and QL
            double[] a = new double[d * d];
            for (int r = 0; r < d; r++) {
                for (int c = r; c < d; c++) a[r * d + c] = a[c * d + r] = rnd.nextGaussian();
            }
            java.util.concurrent.atomic.AtomicInteger checks = new java.util.concurrent.atomic.AtomicInteger();
            org.sylva.progress.CancellationToken sixth =
                    org.sylva.progress.CancellationToken.polling(() -> checks.incrementAndGet() > 5);
            assertThrows(org.sylva.progress.CancelledException.class, () -> SymmetricEigen.of(a, d, sixth), "d " + d);
            assertEquals(6, checks.get(), "d " + d + ": it stopped at the check that saw the cancel");
            Thread.currentThread().interrupt();
            try {
                assertThrows(org.sylva.progress.CancelledException.class,
                        () -> SymmetricEigen.of(a, d, org.sylva.progress.CancellationToken.NEVER));
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
            } finally {
                Thread.interrupted();
            }
        }
    }
}
