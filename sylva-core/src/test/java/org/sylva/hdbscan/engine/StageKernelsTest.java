package org.sylva.hdbscan.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.Backend;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** What {@code auto} runs for which input, and that a mixed choice still reads one index. */
class StageKernelsTest {
    private final KernelProvider kp = KernelProvider.get();

    @Test
    void fixedBackendsRunTheirKernelInBothStages() {
        StageKernels s = StageKernels.choose(Backend.SCALAR, 1_000_000, 100);
        assertSame(kp.scalarDistance(), s.coreDistances());
        assertSame(kp.scalarDistance(), s.spanningTree());
        assumeTrue(kp.vectorDistanceAvailable());
        StageKernels v = StageKernels.choose(Backend.SIMD, 10, 2);
        assertEquals("simd", v.coreDistances().name());
        assertEquals("simd", v.spanningTree().name());
    }

    @Test
    void autoRunsTheVectorKernelFromTheThresholdOn() {
        assumeTrue(kp.vectorDistanceAvailable());
        long below = StageKernels.VECTOR_MIN_VALUES - 1;
        StageKernels large = StageKernels.choose(Backend.AUTO, (int) StageKernels.VECTOR_MIN_VALUES, 1);
        assertEquals("simd", large.coreDistances().name());
        assertEquals("simd", large.spanningTree().name());
        // Small inputs run scalar unless this JVM has already warmed the vector kernel (other tests may have).
        StageKernels small = StageKernels.choose(Backend.AUTO, (int) below, 1);
        assertTrue(small.coreDistances().name().equals("scalar") || small.coreDistances().name().equals("simd"));
    }

    /** Scalar below 300 000 coordinates, and below 12 000 points up to 700 000; vector from either bound on. */
    @Test
    void aFreshJvmRunsTheScalarKernelOnSmallInputs() {
        assertTrue(StageKernels.coldScalar(18_749, 16), "299 984 coordinates");
        assertTrue(!StageKernels.coldScalar(18_750, 16), "300 000 coordinates of 18 750 points");
        assertTrue(StageKernels.coldScalar(11_475, 61), "699 975 coordinates of fewer than 12 000 points");
        assertTrue(!StageKernels.coldScalar(11_476, 61), "700 036 coordinates");
        assertTrue(StageKernels.coldScalar(11_999, 58) && !StageKernels.coldScalar(12_000, 58), "12 000 points");
        assertTrue(StageKernels.coldScalar(1, 1) && !StageKernels.coldScalar(1_000_000, 1));
    }

    @Test
    void aSearchOfNewPointsCountsAsAFitOfTheirGeometricMean() {
        // m new among n fitted: a fit of ceil(sqrt(m n)) points; exact at perfect squares and one past them
        assertTrue(StageKernels.coldScalarSearch(11_475, 11_475, 61), "as 11 475 points");
        assertTrue(!StageKernels.coldScalarSearch(11_475, 11_476, 61), "just over 11 475: as 11 476 points");
        assertTrue(StageKernels.coldScalarSearch(6_583, 20_000, 61) && !StageKernels.coldScalarSearch(6_584, 20_000, 61));
        assertTrue(StageKernels.coldScalarSearch(1_000, 20_000, 61) && !StageKernels.coldScalarSearch(50_000, 20_000, 61));
        assertTrue(StageKernels.coldScalarSearch(1, 1_000_000_000L, 1) && !StageKernels.coldScalarSearch(1L << 31, 1L << 31, 1));
        for (long m = 1; m < 40_000; m += 997) {
            for (long n : new long[] {1, 500, 20_000, 200_000}) {
                long fit = (long) Math.ceil(Math.sqrt((double) m * n));
                assertEquals(StageKernels.coldScalar(fit, 61), StageKernels.coldScalarSearch(m, n, 61), m + " among " + n);
                assertEquals(StageKernels.coldScalarSearch(m, n, 61), StageKernels.coldScalarSearch(n, m, 61), "symmetric");
            }
        }
    }

    @Test
    void aWarmVectorKernelIsChosenForSmallInputsToo() {
        assumeTrue(kp.vectorDistanceAvailable());
        DistanceKernel v = kp.bestDistance();
        for (int i = 0; i < StageKernels.WARM_VALUES / 1_000_000 + 1; i++) StageKernels.ran(v, 1_000_000, 1);
        assertEquals("simd", StageKernels.choose(Backend.AUTO, 100, 2).coreDistances().name());
    }

    /**
     * The rounded float32 copy: never for kernels without a pre-filter; from 30 000 points in a fresh JVM, from
     * 1 000 in a long-lived one.
     */
    @Test
    void aRoundedCopyOnlyForAPreFilterAndFromTheJvmsBound() {
        assertEquals(Integer.MAX_VALUE, CpuHdbscanEngine.roundedCopyMinPoints(StageKernels.both(kp.scalarDistance())));
        assumeTrue(kp.vectorDistanceAvailable());
        StageKernels simd = StageKernels.both(kp.bestDistance());
        assertEquals(StageKernels.longLived() ? PointIndex.ROUNDED_COPY_MIN_POINTS
                : CpuHdbscanEngine.COLD_ROUNDED_COPY_POINTS, CpuHdbscanEngine.roundedCopyMinPoints(simd));
        for (int i = 0; i < StageKernels.WARM_VALUES / 1_000_000 + 1; i++) StageKernels.ran(kp.bestDistance(), 1_000_000, 1);
        assertEquals(PointIndex.ROUNDED_COPY_MIN_POINTS, CpuHdbscanEngine.roundedCopyMinPoints(simd));
        assertEquals(PointIndex.ROUNDED_COPY_MIN_POINTS,
                CpuHdbscanEngine.roundedCopyMinPoints(new StageKernels(kp.scalarDistance(), kp.bestDistance())));
    }

    /** The principal-axis bounds: above 16 dimensions, from 100 000 points, or from 10 000 in a long-lived JVM. */
    @Test
    void theSpanningTreeUsesThePrincipalAxesOnLargeHighDimensionalInputs() {
        assertTrue(CpuHdbscanEngine.axisBounds(CpuHdbscanEngine.AXIS_BOUNDS_POINTS, 17));
        assertTrue(!CpuHdbscanEngine.axisBounds(1_000_000, CpuHdbscanEngine.AXIS_BOUNDS_DIMENSIONS), "d <= 16");
        assertTrue(!CpuHdbscanEngine.axisBounds(CpuHdbscanEngine.AXIS_BOUNDS_WARM_POINTS - 1, 61), "small input");
        assertEquals(StageKernels.longLived(), CpuHdbscanEngine.axisBounds(50_000, 61), "below 100 000: when long-lived");
        if (kp.vectorDistanceAvailable()) {
            for (int i = 0; i < StageKernels.WARM_VALUES / 1_000_000 + 1; i++) StageKernels.ran(kp.bestDistance(), 1_000_000, 1);
            assertTrue(StageKernels.longLived());
            assertTrue(CpuHdbscanEngine.axisBounds(CpuHdbscanEngine.AXIS_BOUNDS_WARM_POINTS, 61));
        }
    }

    @Test
    void theIndexIsBuiltWithAWidthEveryStageReads() {
        assumeTrue(kp.vectorDistanceAvailable());
        DistanceKernel s = kp.scalarDistance(), v = kp.bestDistance();
        for (StageKernels k : new StageKernels[] {new StageKernels(s, v), new StageKernels(v, s),
                StageKernels.both(s), StageKernels.both(v)}) {
            int w = k.indexKernel().blockWidth();
            assertTrue(k.coreDistances().readsBlockWidth(w) && k.spanningTree().readsBlockWidth(w), k.describe());
        }
    }

    @Test
    void mixedKernelsGiveTheSameTreeAsEitherAlone() {
        assumeTrue(kp.vectorDistanceAvailable());
        int n = 600, d = 7;
        double[] rows = new double[n * d];
        Random r = new Random(17);
        for (int i = 0; i < rows.length; i++) rows[i] = Math.floor(r.nextGaussian() * 4) / 2;   // many ties
        DistanceKernel s = kp.scalarDistance(), v = kp.bestDistance();
        MutualReachabilityMst base = run(StageKernels.both(s), rows, n, d);
        for (StageKernels k : new StageKernels[] {new StageKernels(s, v), new StageKernels(v, s), StageKernels.both(v)}) {
            MutualReachabilityMst m = run(k, rows, n, d);
            assertArrayEquals(base.coreDistances(), m.coreDistances(), k.describe());
            assertArrayEquals(base.tree().weightArray(), m.tree().weightArray(), k.describe());
            assertArrayEquals(base.tree().fromArray(), m.tree().fromArray(), k.describe());
            assertArrayEquals(base.tree().toArray(), m.tree().toArray(), k.describe());
        }
    }

    private static MutualReachabilityMst run(StageKernels k, double[] rows, int n, int d) {
        HdbscanEngine e = new MixedEngine(k);
        return e.spanningTree(new FittedPoints(rows, n, d), 5, 1.0,
                new Execution(2, ProgressListener.NONE, CancellationToken.NEVER));
    }

    /** The CPU engine's stages with the kernels given (what {@code auto} could choose). */
    private record MixedEngine(StageKernels k) implements HdbscanEngine {
        @Override
        public String name() {
            return "mixed";
        }

        @Override
        public MutualReachabilityMst spanningTree(FittedPoints p, int minSamples, double alpha, Execution x) {
            return CpuHdbscanEngine.run(k, p, minSamples, alpha, x);
        }
    }
}
