package org.sylva.features;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * {@link PrincipalComponents} against scikit-learn ({@code PCA(svd_solver="full")}, fixtures written by
 * {@code scripts/pca-fixtures.py}) and on its own promises: the same result for any thread count,
 * rank-deficient and constant inputs, the documented order of equal variances, and clear errors.
 *
 * <p>Tolerances against scikit-learn, which computes by an SVD of the centred data rather than the
 * covariance: means 1e-12 relative; explained variance and its ratio 1e-9 relative; component entries
 * 1e-9 absolute (they are unit vectors), with the sign of every entry above that the same; scores
 * 1e-9 of the largest score of their component. Components whose variance is 0 up to rounding (beyond
 * the rank of the data) are not unique, so for them only their variance (at most 1e-12 of the total) and
 * the orthonormality of all components are checked.
 */
class PrincipalComponentsTest {
    private static final double REL = 1e-9;

    @ParameterizedTest
    @ValueSource(strings = {"gaussian", "clips_float32", "rank_deficient", "constant_column", "wide"})
    void agreesWithScikitLearn(String name) {
        PcaFixture f = PcaFixture.load(name);
        PrincipalComponents p = f.fit(f.k());
        int d = f.d(), k = f.k();
        assertEquals(k, p.componentCount());
        assertEquals(d, p.dimensions());
        double[] mean = p.mean();
        for (int j = 0; j < d; j++) {
            assertEquals(f.mean()[j], mean[j], 1e-12 * Math.max(1, Math.abs(f.mean()[j])), "mean " + j);
        }
        assertEquals(f.totalVariance(), p.totalVariance(), REL * f.totalVariance(), "total variance");
        double[] var = p.explainedVariance(), ratio = p.explainedVarianceRatio();
        double[] scores = p.project(f.float32() ? toDouble(f.xFloat32()) : f.x(), f.n());
        int determined = 0;
        for (int c = 0; c < k; c++) {
            double want = f.explainedVariance()[c];
            if (want <= REL * f.totalVariance()) { // beyond the rank: variance 0, direction not unique
                assertTrue(var[c] <= 1e-12 * f.totalVariance(), name + ": variance " + c + " = " + var[c]);
                continue;
            }
            determined++;
            assertEquals(want, var[c], REL * want, name + ": explained variance " + c);
            assertEquals(f.ratio()[c], ratio[c], REL * f.ratio()[c], name + ": ratio " + c);
            double[] v = p.component(c);
            double maxScore = 0;
            for (int i = 0; i < f.n(); i++) maxScore = Math.max(maxScore, Math.abs(f.scores()[i * k + c]));
            for (int j = 0; j < d; j++) {
                double w = f.components()[c * d + j];
                assertEquals(w, v[j], REL, name + ": component " + c + " entry " + j);
                if (Math.abs(w) > REL) assertEquals(Math.signum(w), Math.signum(v[j]), name + ": sign " + c + "," + j);
            }
            for (int i = 0; i < f.n(); i++) {
                assertEquals(f.scores()[i * k + c], scores[i * k + c], REL * maxScore, name + ": score " + i + "," + c);
            }
        }
        assertTrue(determined >= 2, name + ": the fixture should determine at least two components");
        assertOrthonormal(p);
    }

    /** A component or eigenvector past the last is refused, not an all-zero vector (copyOfRange pads its end). */
    @Test
    void anIndexPastTheLastIsRefused() {
        PrincipalComponents pca = PrincipalComponents.fit(new double[] {1, 2, 3, 4, 5, 7, 2, 1, 0, 9, 8, 1}, 4, 3, 2);
        assertEquals(3, pca.component(1).length);
        org.junit.jupiter.api.Assertions.assertThrows(IndexOutOfBoundsException.class, () -> pca.component(2));
        org.junit.jupiter.api.Assertions.assertThrows(IndexOutOfBoundsException.class, () -> pca.component(-1));
        SymmetricEigen e = SymmetricEigen.of(new double[] {2, 1, 1, 2}, 2);
        assertEquals(2, e.vector(1).length);
        org.junit.jupiter.api.Assertions.assertThrows(IndexOutOfBoundsException.class, () -> e.vector(2));
    }

    @Test
    void float32InputFitsAsItsFloat64Values() {
        PcaFixture f = PcaFixture.load("clips_float32");
        float[] x = f.xFloat32();
        PrincipalComponents a = PrincipalComponents.fit(x, f.n(), f.d(), 3);
        PrincipalComponents b = PrincipalComponents.fit(toDouble(x), f.n(), f.d(), 3);
        assertEquals(a, b);
        assertArrayEquals(a.project(x, f.n()), b.project(toDouble(x), f.n()));
    }

    @Test
    void theResultDoesNotDependOnTheThreads() {
        int n = 50_000, d = 13; // several stripes of rows
        assertTrue(Covariance.stripes(n, d) > 4);
        float[] x = new float[n * d];
        Random rnd = new Random(5);
        for (int i = 0; i < n; i++) {
            double a = rnd.nextGaussian() * 30, b = rnd.nextGaussian() * 5;
            for (int j = 0; j < d; j++) x[i * d + j] = (float) (a * Math.sin(j) + b * Math.cos(3 * j) + rnd.nextGaussian());
        }
        PrincipalComponents one = PrincipalComponents.fit(x, n, d, 4);
        double[] scores = one.project(x, n);
        for (int threads : new int[] {2, 3, 4, 7}) {
            Execution ex = new Execution(threads, ProgressListener.NONE, CancellationToken.NEVER);
            PrincipalComponents p = PrincipalComponents.fit(x, n, d, 4, ex);
            assertEquals(one, p, "threads " + threads);
            assertArrayEquals(scores, p.project(x, n, ex), "scores, threads " + threads);
        }
    }

    @Test
    void aConstantColumnHasAComponentOfItsOwnWithVarianceZero() {
        int n = 500, d = 4;
        double[] x = new double[n * d];
        Random rnd = new Random(2);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) x[i * d + j] = j == 1 ? 0.1 : rnd.nextGaussian() * (j + 1);
        }
        PrincipalComponents p = PrincipalComponents.fit(x, n, d, d);
        // 0.1 summed 500 times and divided is not exactly 0.1, so its centred values are only nearly 0
        assertTrue(p.explainedVariance()[d - 1] < 1e-28, "variance " + p.explainedVariance()[d - 1]);
        assertArrayEquals(new double[] {0, 1, 0, 0}, p.component(d - 1), 1e-14);
        for (int c = 0; c < d - 1; c++) assertEquals(0, p.component(c)[1], 1e-14);
    }

    @Test
    void rankDeficientInputGivesOrthonormalComponentsAndZeroVariances() {
        int n = 300, d = 7;
        double[] x = rankTwo(n, d, 9);
        PrincipalComponents p = PrincipalComponents.fit(x, n, d, d);
        double[] var = p.explainedVariance();
        for (int c = 2; c < d; c++) assertTrue(var[c] <= 1e-12 * p.totalVariance(), "variance " + c + " = " + var[c]);
        assertEquals(1, p.explainedVarianceRatio()[0] + p.explainedVarianceRatio()[1], 1e-12);
        assertOrthonormal(p);
    }

    @Test
    void equalVariancesKeepColumnOrderAndEachComponentIsSigned() {
        // exactly uncorrelated columns with variances 2, 8, 2 (times 1/(n-1)): components e1, e0, e2
        double[] x = {1, 0, 0, -1, 0, 0, 0, 2, 0, 0, -2, 0, 0, 0, 1, 0, 0, -1};
        PrincipalComponents p = PrincipalComponents.fit(x, 6, 3, 3);
        assertArrayEquals(new double[] {0, 1, 0, 1, 0, 0, 0, 0, 1}, p.components(), 0);
        assertArrayEquals(new double[] {8 / 5.0, 2 / 5.0, 2 / 5.0}, p.explainedVariance(), 1e-15);
    }

    @Test
    void onePointHasNoVariance() {
        PrincipalComponents p = PrincipalComponents.fit(new float[] {1, 2, 3}, 1, 3, 2);
        assertArrayEquals(new double[] {1, 2, 3}, p.mean(), 0);
        assertArrayEquals(new double[] {0, 0}, p.explainedVariance(), 0);
        assertArrayEquals(new double[] {0, 0}, p.explainedVarianceRatio(), 0);
        assertArrayEquals(new double[] {0, 0}, p.project(new float[] {1, 2, 3}, 1), 0);
    }

    @Test
    void nonFiniteValuesAreRefusedNamingRowAndColumn() {
        float[] x = new float[40 * 3];
        x[17 * 3 + 2] = Float.NaN;
        x[30 * 3] = Float.POSITIVE_INFINITY;
        var e = assertThrows(InvalidInputException.class, () -> PrincipalComponents.fit(x, 40, 3, 2));
        assertEquals("row 17, column 2 (counting from 0) is NaN: principal components need finite coordinates",
                e.getMessage());
        // the first bad row of the input is reported even when another stripe (thread) finds one too
        int n = 30_000, d = 2;
        double[] big = new double[n * d];
        big[25_000 * d + 1] = Double.NEGATIVE_INFINITY;
        big[20_000 * d] = 1e200;
        var e2 = assertThrows(InvalidInputException.class, () -> PrincipalComponents.fit(big, n, d, 1,
                new Execution(2, ProgressListener.NONE, CancellationToken.NEVER)));
        assertTrue(e2.getMessage().startsWith("row 20000, column 0 (counting from 0) is 1.0E200, beyond +-1e150"),
                e2.getMessage());
        // projecting refuses them as well, the first of the input named (no NaN scores)
        PrincipalComponents pc = PrincipalComponents.fit(new double[n * d], n, d, 1);
        var e3 = assertThrows(InvalidInputException.class, () -> pc.project(big, n,
                new Execution(2, ProgressListener.NONE, CancellationToken.NEVER)));
        assertEquals(e2.getMessage(), e3.getMessage());
        var e4 = assertThrows(InvalidInputException.class, () -> pc.project(new float[] {0, Float.NaN}, 1));
        assertEquals("row 0, column 1 (counting from 0) is NaN: principal components need finite coordinates",
                e4.getMessage());
    }

    @Test
    void aComponentCountOutsideOneToDIsRefusedNamingTheParameter() {
        float[] x = new float[10 * 3];
        for (int k : new int[] {0, 4, -1}) {
            var e = assertThrows(InvalidInputException.class, () -> PrincipalComponents.fit(x, 10, 3, k));
            assertEquals("n_components", e.parameter().orElseThrow());
            assertEquals("n_components must be between 1 and the number of dimensions, 3; got " + k, e.getMessage());
        }
    }

    @Test
    void badShapesAreRefused() {
        assertThrows(InvalidInputException.class, () -> PrincipalComponents.fit(new float[7], 2, 3, 1));
        assertThrows(InvalidInputException.class, () -> PrincipalComponents.fit(new float[0], 0, 3, 1));
        PrincipalComponents p = PrincipalComponents.fit(new float[] {0, 0, 1, 1}, 2, 2, 1);
        assertThrows(InvalidInputException.class, () -> p.project(new float[3], 1));
        assertEquals(0, p.project(new double[0], 0).length);
    }

    @Test
    void theResultCannotBeChangedThroughItsArrays() {
        PrincipalComponents p = PrincipalComponents.fit(new double[] {0, 0, 1, 2, 3, 1}, 3, 2, 2);
        double[] m = p.mean();
        m[0] = 99;
        double[] c = p.components();
        c[0] = 99;
        assertNotSame(m, p.mean());
        assertEquals(4 / 3.0, p.mean()[0], 1e-15);
        assertTrue(p.components()[0] != 99);
        assertEquals(p, new PrincipalComponents(p.mean(), p.components(), p.explainedVariance(), p.totalVariance()));
    }

    /** The class comment's example, as written there. */
    @Test
    void javadocExample() {
        int n = 600;
        float[] clips = new float[n * 61];
        Random rnd = new Random(4);
        for (int i = 0; i < n; i++) {
            int unit = i % 3;
            for (int j = 0; j < 61; j++) {
                clips[i * 61 + j] = (float) (40 * unit * Math.exp(-Math.pow((j - 20 - 5 * unit) / 6.0, 2))
                        + rnd.nextGaussian());
            }
        }
        PrincipalComponents pca = PrincipalComponents.fit(clips, n, 61, 3);   // float[] or double[], row-major
        double[] scores = pca.project(clips, n);                             // n x 3, row-major
        double kept = pca.explainedVarianceRatioSum();                       // e.g. 0.82
        HdbscanResult r = Hdbscan.builder().minClusterSize(20).build()
                .fit(scores, n, pca.componentCount(), ProgressListener.NONE, CancellationToken.NEVER);
        assertEquals(n * 3, scores.length);
        assertTrue(kept > 0.5 && kept <= 1, "kept " + kept);
        assertEquals(3, r.clusterCount());
    }

    /**
     * Far from 1 the input is scaled by a power of two before its squares are summed (entries of 1e-160 gave wrong
     * components, below 1e-170 none): the data times 2^-300 give the same components bit for bit, the mean times
     * 2^-300 and the variances times 2^-600, on both routes (fewer rows than columns, and more); so do data times
     * 2^-600, whose squares underflow float64 (their variances, times 2^-1200, are below it too).
     */
    @Test
    void dataFarFromOneGiveTheComponentsOfTheDataNearOne() {
        for (int scale : new int[] {-300, -600}) {
            Random rnd = new Random(21);
            for (int[] shape : new int[][] {{200, 6}, {12, 40}}) {
                int n = shape[0], d = shape[1];
                double[] x = new double[n * d];
                for (int i = 0; i < x.length; i++) x[i] = rnd.nextGaussian() * (1 + i % d) + 3;
                double[] tiny = new double[x.length];
                for (int i = 0; i < x.length; i++) tiny[i] = Math.scalb(x[i], scale);
                PrincipalComponents near = PrincipalComponents.fit(x, n, d, 3), far = PrincipalComponents.fit(tiny, n, d, 3);
                String what = n + " x " + d + " times 2^" + scale;
                assertArrayEquals(near.components(), far.components(), 0, what);
                for (int j = 0; j < d; j++) assertEquals(Math.scalb(near.mean()[j], scale), far.mean()[j], 0, what);
                if (scale < -511) continue;   // the variances' scale is below float64's
                for (int c = 0; c < 3; c++) {
                    assertEquals(Math.scalb(near.explainedVariance()[c], 2 * scale), far.explainedVariance()[c], 0, what);
                }
                assertEquals(Math.scalb(near.totalVariance(), 2 * scale), far.totalVariance(), 0, what);
            }
        }
    }

    /** {@code n} rows of {@code d} coordinates, each 1 plus a combination of the same two random directions. */
    private static double[] rankTwo(int n, int d, long seed) {
        double[] x = new double[n * d];
        Random rnd = new Random(seed);
        double[] u = new double[d], w = new double[d];
        for (int j = 0; j < d; j++) {
            u[j] = rnd.nextGaussian();
            w[j] = rnd.nextGaussian();
        }
        for (int i = 0; i < n; i++) {
            double a = 10 * rnd.nextGaussian(), b = rnd.nextGaussian();
            for (int j = 0; j < d; j++) x[i * d + j] = 1 + a * u[j] + b * w[j];
        }
        return x;
    }

    private static void assertOrthonormal(PrincipalComponents p) {
        int k = p.componentCount(), d = p.dimensions();
        for (int a = 0; a < k; a++) {
            for (int b = a; b < k; b++) {
                double dot = 0;
                double[] u = p.component(a), v = p.component(b);
                for (int j = 0; j < d; j++) dot += u[j] * v[j];
                assertEquals(a == b ? 1 : 0, dot, 1e-12, "component " + a + " . component " + b);
            }
        }
    }

    private static double[] toDouble(float[] x) {
        double[] d = new double[x.length];
        for (int i = 0; i < x.length; i++) d[i] = x[i];
        return d;
    }

    /** Rounding leaves some eigenvalues of a rank-deficient covariance slightly negative: reported as variance 0. */
    @Test
    void varianceThatRoundingMakesNegativeIsReportedAsZero() {
        int n = 300, d = 7;
        double[] x = rankTwo(n, d, 3);
        double[] eigen = SymmetricEigen.of(Covariance.of(RowMajor.of(x, n, d), Execution.everyCore()).matrix, d).values();
        assertTrue(eigen[d - 1] < 0, "the premise: rounding left an eigenvalue below 0, " + eigen[d - 1]);
        double[] var = PrincipalComponents.fit(x, n, d, d).explainedVariance();
        for (int c = 0; c < d; c++) {
            if (eigen[c] < 0) assertEquals(0.0, var[c], 0, "variance " + c);
            else assertEquals(eigen[c], var[c], 0, "variance " + c);
        }
    }
}
