package org.sylva.features;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
 * thread count; and the cases it leaves to the covariance (components at or past the rank). Its agreement with
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
    void componentsAtOrPastTheRankAreLeftToTheCovariance() {
        int n = 20, d = 50;
        double[] x = lowRankPlusNoise(n, d, 2, 0, 7);   // every row a combination of two directions
        RowMajor rows = RowMajor.of(x, n, d);
        assertNotNull(CentredRowGram.components(rows, 2, Execution.everyCore()));
        assertNull(CentredRowGram.components(rows, 3, Execution.everyCore()), "the third has no variance");
        assertNull(CentredRowGram.components(rows, n, Execution.everyCore()), "k = n: past any rank");
        assertEquals(PrincipalComponents.fromCovariance(rows, 3, Execution.everyCore()),
                PrincipalComponents.fit(x, n, d, 3));
        double[] same = new double[5 * 8];   // no variance at all
        assertNull(CentredRowGram.components(RowMajor.of(same, 5, 8), 1, Execution.everyCore()));
        assertArrayEquals(new double[] {0}, PrincipalComponents.fit(same, 5, 8, 1).explainedVariance(), 0);
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
