package org.sylva.hdbscan.mst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;
import org.sylva.parallel.ParallelWork;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The principal-axis bounds of the scan ({@link org.sylva.hdbscan.index.ProjectedIndex}) change no edge:
 * the tree is the same with them on and off, for both kernels, several thread counts, {@code alpha}, ties,
 * and leaves in build order or by core distance; and on clusters they do leave tiles to the screen, so the
 * comparison covers that path.
 */
class AxisBoundsTest {

    /** One run of Borůvka over {@code idx}, with or without the axes; returns the tree and the tiles screened. */
    private record Run(SpanningTree tree, long screened, boolean built) {
    }

    private static Run run(PointIndex idx, CoreDistances cd, DistanceKernel k, double alpha, boolean axes, int threads) {
        BoruvkaRun r = new BoruvkaRun(idx, cd, k, alpha, true, true, axes, new ParallelWork(threads));
        SpanningTree t = r.run(ProgressListener.NONE, CancellationToken.NEVER);
        return new Run(t, r.screenedTiles(), r.axes != null);
    }

    private static void same(double[] rows, int n, int d, int minSamples, double alpha, boolean mustScreen) {
        for (DistanceKernel k : new DistanceKernel[] {KernelProvider.get().scalarDistance(), KernelProvider.get().bestDistance()}) {
            PointIndex idx = PointIndex.build(rows, n, d, k);
            CoreDistances cd = CoreDistances.compute(idx, minSamples, k, 2, ProgressListener.NONE, CancellationToken.NEVER);
            PointIndex byCore = idx.withLeavesOrderedBy(cd.coreDistances(), 2, CancellationToken.NEVER);
            Run off = run(byCore, cd, k, alpha, false, 2);
            assertFalse(off.built(), "axes built while off");
            for (PointIndex ix : new PointIndex[] {idx, byCore}) {
                for (int t : new int[] {1, 3}) {
                    Run on = run(ix, cd, k, alpha, true, t);
                    assertTrue(on.built(), "axes not built (d = " + d + ")");
                    assertEquals(off.tree(), on.tree(), k.name() + ", " + t + " threads, alpha " + alpha + ", d = " + d);
                    if (mustScreen) assertTrue(on.screened() > 0, "no tile was left to the axes: the screen went untested");
                }
            }
        }
    }

    @Test
    void clipsGiveTheSameTreeWithAndWithoutTheAxes() {
        int n = 6000;
        double[] rows = ClipLikeData.toDouble(ClipLikeData.generate(n, 71));
        same(rows, n, 61, 10, 1.0, true);
        same(rows, n, 61, 10, 1.7, true);
    }

    @Test
    void tiesAndLowDimensionsGiveTheSameTree() {
        same(BoruvkaMstTest.grid(3000, 12, 3, 72), 3000, 12, 5, 1.0, false);
        same(BoruvkaMstTest.gaussian(4000, 9, 73), 4000, 9, 8, 1.0, false);
        same(BoruvkaMstTest.clips(3000, 0.1, 74), 3000, 61, 4, 1.0, true);
    }

    @Test
    void notBuiltWhereTheyCannotHelp() {
        int n = 2000, d = 8;
        double[] rows = BoruvkaMstTest.gaussian(n, d, 75);
        DistanceKernel k = KernelProvider.get().bestDistance();
        PointIndex idx = PointIndex.build(rows, n, d, k);
        CoreDistances cd = CoreDistances.compute(idx, 5, k, 1, ProgressListener.NONE, CancellationToken.NEVER);
        assertFalse(run(idx, cd, k, 1.0, true, 1).built(), "d = 8 is at most twice the axes");
        assertNotNull(run(idx, cd, k, 1.0, false, 1).tree());
    }
}
