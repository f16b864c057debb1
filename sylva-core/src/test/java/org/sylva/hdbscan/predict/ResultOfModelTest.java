package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sylva.testsupport.SameResult.assertSameResult;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanParameters;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.NonFinitePolicy;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * {@link HdbscanResult#of(HdbscanModel, Execution)}: the fit's result rebuilt from a model, in memory and
 * read back from its bytes, bitwise the fit's; {@link HdbscanModel#fittedCoordinates()}.
 */
class ResultOfModelTest {
    private static final int N = 500;
    private static final Execution TWO = new Execution(2, ProgressListener.NONE, CancellationToken.NEVER);

    private static double[] data(boolean leaveRowsOut) {
        double[] x = HdbscanModelTest.blobs(N, 41);
        if (leaveRowsOut) {
            x[2 * 7] = Double.NaN;
            x[2 * 90 + 1] = Double.POSITIVE_INFINITY;
            x[2 * 91] = Double.NaN;
            x[2 * 300] = Double.NEGATIVE_INFINITY;
        }
        return x;
    }

    private static Hdbscan.Builder base() {
        return Hdbscan.builder().minClusterSize(12).minSamples(7).clusterSelectionEpsilon(0.05).alpha(1.5)
                .nonFinite(NonFinitePolicy.SKLEARN).threads(2);
    }

    @Test
    void theResultOfAModelIsTheFitsResultBeforeAndAfterItsBytes() throws IOException {
        for (boolean leaveOut : new boolean[] {false, true}) {
            double[] x = data(leaveOut);
            HdbscanResult fit = base().build().fit(x, N, 2, ProgressListener.NONE, CancellationToken.NEVER);
            HdbscanModel model = HdbscanModel.of(fit, PointSet.uncheckedFloat64(N, 2, x));
            assertSameResult(fit, HdbscanResult.of(model, TWO));
            HdbscanModel loaded = HdbscanModel.fromBytes(model.toBytes(), "m");
            HdbscanResult rebuilt = HdbscanResult.of(loaded, TWO);
            assertSameResult(fit, rebuilt);
            assertSameResult(fit, HdbscanResult.of(loaded, Execution.sequential()));
            assertTrue(rebuilt.timings().toString().contains("core distances"), rebuilt.timings().toString());
            // a result rebuilt from a model answers as the fit's: it makes the same model again
            assertArrayEquals(model.toBytes(), HdbscanModel.of(rebuilt, PointSet.uncheckedFloat64(N, 2, x)).toBytes());
        }
    }

    @Test
    void theResultOfAReselectedModelIsTheFitsResultReselected() throws IOException {
        double[] x = data(true);
        HdbscanResult fit = base().build().fit(x, N, 2, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel loaded = HdbscanModel.fromBytes(HdbscanModel.of(fit, PointSet.uncheckedFloat64(N, 2, x)).toBytes(), "m");
        for (HdbscanParameters other : new HdbscanParameters[] {
            base().minClusterSize(30).build().parameters(),
            base().clusterSelectionMethod(SelectionMethod.LEAF).allowSingleCluster(true).build().parameters()}) {
            assertSameResult(fit.reselect(other), HdbscanResult.of(loaded.reselect(other), TWO));
        }
    }

    @Test
    void aModelWithoutASpanningTreeIsRefused() {
        double[] x = data(false);
        HdbscanResult fit = base().build().fit(x, N, 2, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel treeOnly = HdbscanModel.of(fit.parameters(), x, N, 2, fit.condensedTree(), TWO);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> HdbscanResult.of(treeOnly, TWO));
        assertTrue(e.getMessage().contains("spanning tree"), e.getMessage());
    }

    @Test
    void aCancelledTokenStopsTheRebuild() {
        double[] x = data(false);
        HdbscanResult fit = base().build().fit(x, N, 2, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel model = HdbscanModel.of(fit, PointSet.ofFloat64(N, 2, x));
        CancellationToken token = new CancellationToken();
        token.cancel();
        assertThrows(CancelledException.class,
                () -> HdbscanResult.of(model, new Execution(2, ProgressListener.NONE, token)));
    }

    @Test
    void theFittedCoordinatesAreTheFittedRowsInAFreshArray() {
        double[] x = data(true);
        HdbscanResult fit = base().build().fit(x, N, 2, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel model = HdbscanModel.of(fit, PointSet.uncheckedFloat64(N, 2, x));
        int[] rows = model.fittedRows();
        double[] c = model.fittedCoordinates();
        assertEquals(rows.length * 2, c.length);
        for (int i = 0; i < rows.length; i++) {
            assertEquals(x[2 * rows[i]], c[2 * i]);
            assertEquals(x[2 * rows[i] + 1], c[2 * i + 1]);
        }
        c[0] = 1e9;
        assertNotSame(c, model.fittedCoordinates());
        assertEquals(x[2 * rows[0]], model.fittedCoordinates()[0], "the model's own points are unchanged");
    }
}
