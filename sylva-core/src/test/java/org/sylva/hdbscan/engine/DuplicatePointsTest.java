package org.sylva.hdbscan.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.mst.BoruvkaMst;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * Identical points are searched once with a multiplicity and expanded again ({@link DuplicatePoints}):
 * the core distances and the spanning tree are bitwise those of the search over every point, compared
 * here with the engine run without the collapse and with the unpruned Borůvka over every point, on
 * random inputs full of duplicates and ties.
 */
class DuplicatePointsTest {
    private static final DistanceKernel SCALAR = KernelProvider.get().scalarDistance();
    private static final DistanceKernel BEST = KernelProvider.get().bestDistance();

    @Test
    void groupsIdenticalRowsInTheOrderOfTheirFirstPoint() {
        double[] rows = {1, 2, 0, 0, 1, 2, -0.0, 0.0, 5, 5, 1, 2};
        DuplicatePoints dup = DuplicatePoints.find(rows, 6, 2, CancellationToken.NEVER);
        assertTrue(dup.collapses());
        assertEquals(3, dup.distinct());
        assertArrayEquals(new int[] {0, 1, 4}, dup.representatives());
        assertArrayEquals(new int[] {3, 2, 1}, dup.multiplicities());
        assertArrayEquals(new int[] {0, 1, 0, 1, 2, 0}, dup.groups());   // -0.0 and 0.0 are one point
        assertArrayEquals(new double[] {1, 2, 0, 0, 5, 5}, dup.distinctRows());
        DuplicatePoints none = DuplicatePoints.find(new double[] {1, 2, 3}, 3, 1, CancellationToken.NEVER);
        assertFalse(none.collapses());
    }

    /** Random inputs drawn from few values, so that most points repeat and most distances tie. */
    @Test
    void collapsedFitsEqualTheSearchOverEveryPoint() {
        SplittableRandom rnd = new SplittableRandom(24);
        double[] alphas = {1.0, 1.0, 0.5, 2.0, 1.3};
        int attachedElsewhere = 0;   // copies whose tree edge goes to another group's point (t_G != g0)
        for (int trial = 0; trial < 160; trial++) {
            int n = 2 + rnd.nextInt(trial < 120 ? 120 : 700);
            int d = 1 + rnd.nextInt(4);
            int values = 1 + rnd.nextInt(4);
            double[] rows = new double[n * d];
            int distinctRows = 1 + rnd.nextInt(Math.max(1, n / (1 + rnd.nextInt(8))));
            double[] pool = new double[distinctRows * d];
            for (int i = 0; i < pool.length; i++) pool[i] = rnd.nextInt(values) * 0.5 - (rnd.nextInt(5) == 0 ? 0.0 : 0.25);
            for (int i = 0; i < n; i++) System.arraycopy(pool, rnd.nextInt(distinctRows) * d, rows, i * d, d);
            int minSamples = 1 + rnd.nextInt(Math.min(n, trial % 3 == 0 ? n : 12));
            double alpha = alphas[rnd.nextInt(alphas.length)];
            DistanceKernel kernel = trial % 2 == 0 ? SCALAR : BEST;
            FittedPoints pts = new FittedPoints(rows, n, d);
            String at = "trial " + trial + " (n " + n + ", d " + d + ", min_samples " + minSamples + ", alpha "
                    + alpha + ")";
            MutualReachabilityMst collapsed = CpuHdbscanEngine.run(StageKernels.both(kernel), pts, minSamples, alpha,
                    new Execution(1 + trial % 2, ProgressListener.NONE, CancellationToken.NEVER), true);
            MutualReachabilityMst plain = CpuHdbscanEngine.run(StageKernels.both(kernel), pts, minSamples, alpha,
                    Execution.sequential(), false);
            assertArrayEquals(plain.coreDistances(), collapsed.coreDistances(), at);
            assertEquals(plain.tree(), collapsed.tree(), at);
            if (trial % 4 == 0) {
                assertEquals(unpruned(rows, n, d, minSamples, alpha), collapsed.tree(), at);
            }
            DuplicatePoints dup = DuplicatePoints.find(rows, n, d, CancellationToken.NEVER);
            int[] group = dup.groups(), rep = dup.representatives();
            SpanningTree t = collapsed.tree();
            for (int e = 0; e < t.edges(); e++) {
                int b = t.to(e);
                if (rep[group[b]] != b && group[t.from(e)] != group[b]) attachedElsewhere++;
            }
        }
        assertTrue(attachedElsewhere > 0, "no input had a group attached to a lower point of another group");
    }

    /** Inputs with many repeated rows at the scale where the collapse matters, against the search over every point. */
    @Test
    void heavyDuplicatesAtScaleEqualTheSearchOverEveryPoint() {
        SplittableRandom rnd = new SplittableRandom(7);
        int n = 2000, d = 61;
        double[] distinct = new double[10 * d];
        for (int i = 0; i < distinct.length; i++) distinct[i] = (float) rnd.nextGaussian();
        double[] rows = new double[n * d];
        for (int i = 0; i < n; i++) System.arraycopy(distinct, (i % 10) * d, rows, i * d, d);
        // a tiny grid: 64 distinct points, many equal distances
        double[] grid = new double[n * 3];
        for (int i = 0; i < grid.length; i++) grid[i] = rnd.nextInt(4);
        for (int minSamples : new int[] {1, 5, 199, 201, 700}) {
            for (double[] r : new double[][] {rows, grid}) {
                int dim = r == rows ? d : 3;
                FittedPoints pts = new FittedPoints(r, n, dim);
                Execution two = new Execution(2, ProgressListener.NONE, CancellationToken.NEVER);
                MutualReachabilityMst collapsed = CpuHdbscanEngine.run(StageKernels.both(BEST), pts, minSamples, 1.0,
                        two, true);
                MutualReachabilityMst plain = CpuHdbscanEngine.run(StageKernels.both(BEST), pts, minSamples, 1.0, two,
                        false);
                assertArrayEquals(plain.coreDistances(), collapsed.coreDistances(), "min_samples " + minSamples);
                assertEquals(plain.tree(), collapsed.tree(), "min_samples " + minSamples);
            }
        }
    }

    /**
     * 100 000 identical points: every core distance 0, the tree a star on point 0 in index order, every
     * point noise. Searched over every point this takes minutes (each search ties with every point); the
     * timeout only catches a return of that quadratic work.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void hundredThousandIdenticalPoints() {
        int n = 100_000, d = 61;
        float[] c = new float[n * d];
        Arrays.fill(c, 1.5f);
        HdbscanResult r = Hdbscan.builder().minClusterSize(5).threads(2).build().fit(PointSet.of(n, d, c));
        assertTrue(Arrays.stream(r.coreDistances()).allMatch(x -> x == 0.0));
        SpanningTree t = r.spanningTree();
        assertEquals(n - 1, t.edges());
        for (int e = 0; e < n - 1; e++) {
            assertEquals(0, t.from(e));
            assertEquals(e + 1, t.to(e));
            assertEquals(0.0, t.weight(e));
        }
        assertTrue(Arrays.stream(r.labels()).allMatch(l -> l == -1));
    }

    /** The tree of Borůvka without any pruning over every point (the reference the pruned search must equal). */
    private static SpanningTree unpruned(double[] rows, int n, int d, int minSamples, double alpha) {
        PointIndex idx = PointIndex.build(rows, n, d, SCALAR);
        CoreDistances cd = CoreDistances.compute(idx, minSamples, SCALAR, 1, ProgressListener.NONE,
                CancellationToken.NEVER);
        return BoruvkaMst.builder().pruning(false).alpha(alpha).backend(SCALAR).build().compute(idx, cd,
                ProgressListener.NONE, CancellationToken.NEVER);
    }
}
