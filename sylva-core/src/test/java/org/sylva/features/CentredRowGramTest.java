package org.sylva.features;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * {@link CentredRowGram}, the route of inputs with fewer rows than columns, against the covariance route on the same
 * inputs: means and total variance bitwise, variances to 1e-12 relative, components to 1e-10; the same bits for any
 * thread count; and components at or past the rank (unit axes made orthogonal, variance 0), for every k. Its agreement with
 * scikit-learn is {@link PrincipalComponentsTest}'s {@code wide} fixture (8 rows of 10 columns).
 */
class CentredRowGramTest {

    /** {@code n} rows of {@code d} columns: {@code rank} directions of falling scale, plus {@code noise}. */
    private static double[] lowRankPlusNoise(int n, int d, int rank, double noise, long seed) {
        Random rnd = new Random(seed);
        double[][] dir = new double[rank][d];
        for (double[] v : dir) {
            for (int j = 0; j < d; j++) v[j] = rnd.nextGaussian();
        }
        double[] x = new double[n * d];
        for (int i = 0; i < n; i++) {
            for (int r = 0; r < rank; r++) {
                double a = rnd.nextGaussian() * (40.0 / (r + 1));
                for (int j = 0; j < d; j++) x[i * d + j] += a * dir[r][j];
            }
            for (int j = 0; j < d; j++) x[i * d + j] += 3 + noise * rnd.nextGaussian();
        }
        return x;
    }

    @Test
    void agreesWithTheCovarianceRoute() {
        // 300 columns: the covariance decomposes by QL, the 60 x 60 Gram matrix by Jacobi
        for (int[] shape : new int[][] {{60, 300, 6}, {25, 40, 3}, {2, 9, 1}}) {
            int n = shape[0], d = shape[1], k = shape[2];
            double[] x = lowRankPlusNoise(n, d, Math.min(n - 1, 8), 0.5, n + d);
            RowMajor rows = RowMajor.of(x, n, d);
            PrincipalComponents gram = CentredRowGram.components(rows, k, Execution.everyCore());
            PrincipalComponents cov = PrincipalComponents.fromCovariance(rows, k, Execution.everyCore());
            assertNotNull(gram, n + " x " + d);
            assertArrayEquals(cov.mean(), gram.mean(), 0, "means");
            assertEquals(cov.totalVariance(), gram.totalVariance(), 0, "total variance");
            for (int c = 0; c < k; c++) {
                double want = cov.explainedVariance()[c];
                assertEquals(want, gram.explainedVariance()[c], 1e-12 * want, n + " x " + d + ": variance " + c);
                assertArrayEquals(cov.component(c), gram.component(c), 1e-10, n + " x " + d + ": component " + c);
            }
            assertEquals(gram, PrincipalComponents.fit(x, n, d, k), "fit takes the Gram route when n < d");
        }
    }

    @Test
    void float32RowsGiveTheirFloat64Values() {
        int n = 30, d = 70;
        double[] x = lowRankPlusNoise(n, d, 5, 1, 4);
        float[] f = new float[x.length];
        for (int i = 0; i < x.length; i++) f[i] = (float) x[i];
        double[] widened = new double[x.length];
        for (int i = 0; i < x.length; i++) widened[i] = f[i];
        assertEquals(PrincipalComponents.fit(widened, n, d, 4), PrincipalComponents.fit(f, n, d, 4));
    }

    @Test
    void theResultDoesNotDependOnTheThreads() {
        int n = 90, d = 400;
        double[] x = lowRankPlusNoise(n, d, 10, 2, 11);
        PrincipalComponents one = CentredRowGram.components(RowMajor.of(x, n, d), 5,
                new Execution(1, ProgressListener.NONE, CancellationToken.NEVER));
        assertNotNull(one);
        for (int threads : new int[] {2, 3, 7}) {
            Execution ex = new Execution(threads, ProgressListener.NONE, CancellationToken.NEVER);
            assertEquals(one, CentredRowGram.components(RowMajor.of(x, n, d), 5, ex), "threads " + threads);
        }
    }

    @Test
    void componentsPastTheRankAreAxesMadeOrthogonalWithVarianceZero() {
        int n = 20, d = 50;
        double[] x = lowRankPlusNoise(n, d, 2, 0, 7);   // every row a combination of two directions
        RowMajor rows = RowMajor.of(x, n, d);
        PrincipalComponents cov = PrincipalComponents.fromCovariance(rows, 2, Execution.everyCore());
        for (int k : new int[] {3, n - 1, n, d}) {   // past the rank, at n - 1, at n (no such direction), every one
            PrincipalComponents p = CentredRowGram.components(rows, k, Execution.everyCore());
            assertEquals(p, PrincipalComponents.fit(x, n, d, k), "fit takes the Gram route for every k");
            for (int c = 0; c < 2; c++) {
                assertArrayEquals(cov.component(c), p.component(c), 1e-10, "k " + k + ": component " + c);
            }
            for (int c = 2; c < k; c++) {
                assertTrue(p.explainedVariance()[c] <= 1e-12 * p.totalVariance(), "k " + k + ": variance " + c);
            }
            assertOrthonormal(p, 1e-12);
        }
        double[] same = new double[5 * 8];   // no variance at all: the axes in order, as the covariance gives them
        java.util.Arrays.fill(same, 2.5);
        RowMajor flat = RowMajor.of(same, 5, 8);
        assertEquals(PrincipalComponents.fromCovariance(flat, 3, Execution.everyCore()),
                CentredRowGram.components(flat, 3, Execution.everyCore()));
        assertArrayEquals(new double[] {1, 0, 0, 0, 0, 0, 0, 0}, PrincipalComponents.fit(same, 5, 8, 3).component(0), 0);
    }

    /** A full-rank input with a component far below the first (one row 10^5 times the others) stays on this route. */
    @Test
    void aSmallComponentOfFullRankDataIsMadeOrthogonalToTheLargerOnes() {
        int n = 40, d = 300;
        double[] x = lowRankPlusNoise(n, d, 6, 1, 12);
        for (int j = 0; j < d; j++) x[5 * d + j] *= 1e5;
        PrincipalComponents p = CentredRowGram.components(RowMajor.of(x, n, d), 8, Execution.everyCore());
        assertTrue(p.explainedVariance()[7] < p.explainedVariance()[0] * CentredRowGram.RANK_FLOOR,
                "the eighth component is below the floor: " + p.explainedVariance()[7]);
        assertOrthonormal(p, 1e-12);
        PrincipalComponents cov = PrincipalComponents.fromCovariance(RowMajor.of(x, n, d), 8, Execution.everyCore());
        // both routes square the data: a variance r times below the first carries about r times the rounding (here
        // r is about 1e10), on either route
        for (int c = 0; c < 8; c++) {
            double want = cov.explainedVariance()[c];
            assertEquals(want, p.explainedVariance()[c], 1e-4 * want, "variance " + c);
        }
    }

    static void assertOrthonormal(PrincipalComponents p, double tolerance) {
        for (int a = 0; a < p.componentCount(); a++) {
            for (int b = a; b < p.componentCount(); b++) {
                double dot = 0;
                double[] u = p.component(a), v = p.component(b);
                for (int j = 0; j < u.length; j++) dot += u[j] * v[j];
                assertEquals(a == b ? 1 : 0, dot, tolerance, "components " + a + " and " + b);
            }
        }
    }

    @Test
    void eachComponentIsAUnitVectorSignedLikeScikitLearn() {
        int n = 12, d = 33;
        double[] x = lowRankPlusNoise(n, d, 6, 1, 3);
        PrincipalComponents p = CentredRowGram.components(RowMajor.of(x, n, d), 4, Execution.everyCore());
        assertNotNull(p);
        for (int c = 0; c < 4; c++) {
            double[] v = p.component(c);
            double norm = 0;
            int largest = 0;
            for (int j = 0; j < d; j++) {
                norm += v[j] * v[j];
                if (Math.abs(v[j]) > Math.abs(v[largest])) largest = j;
            }
            assertEquals(1, norm, 1e-14, "component " + c);
            assertTrue(v[largest] > 0, "component " + c + "'s largest entry is positive");
        }
    }

    @Test
    void aNonFiniteValueIsRefusedNamingItsRowAndColumn() {
        double[] x = lowRankPlusNoise(4, 10, 2, 1, 1);
        x[2 * 10 + 7] = Double.NaN;
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> PrincipalComponents.fit(x, 4, 10, 2));
        assertTrue(e.getMessage().contains("row 2, column 7"), e.getMessage());
    }
}
