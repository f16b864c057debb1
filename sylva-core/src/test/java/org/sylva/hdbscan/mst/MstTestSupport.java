package org.sylva.hdbscan.mst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.sylva.kernels.DistanceKernel;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** Shared helpers of the spanning-tree tests. */
final class MstTestSupport {
    private MstTestSupport() {
    }

    record Fit(PointIndex index, CoreDistances cd, SpanningTree tree) {
    }

    static Fit fit(double[] rows, int n, int d, int minSamples, DistanceKernel b, int threads, BoruvkaMst.Builder mst) {
        PointIndex idx = PointIndex.build(rows, n, d, b);
        CoreDistances cd = CoreDistances.compute(idx, minSamples, b, threads, ProgressListener.NONE, CancellationToken.NEVER);
        BoruvkaMst built = mst.backend(b).threads(threads).build();
        SpanningTree t = built.compute(idx, cd, ProgressListener.NONE, CancellationToken.NEVER);
        // The CPU engine scans an index whose leaves hold their points by core distance (prefix reads):
        // every test of the tree checks that it gives the same tree as the index in build order.
        PointIndex byCore = idx.withLeavesOrderedBy(cd.coreDistances(), threads, CancellationToken.NEVER);
        assertEquals(t, built.compute(byCore, cd, ProgressListener.NONE, CancellationToken.NEVER),
                "leaves ordered by core distance");
        return new Fit(idx, cd, t);
    }

    /** n - 1 edges, every point connected, listed in EdgeOrder with from < to. */
    static void assertSpanningTreeInEdgeOrder(SpanningTree t, int n) {
        assertEquals(Math.max(n - 1, 0), t.edges());
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) parent[i] = i;
        for (int e = 0; e < t.edges(); e++) {
            int a = t.from(e), b = t.to(e);
            assertTrue(a < b, "edge " + e + " not (lower, higher): " + a + "," + b);
            if (e > 0) {
                assertTrue(EdgeOrder.compare(t.weight(e - 1), t.from(e - 1), t.to(e - 1), t.weight(e), a, b) < 0,
                        "edges " + (e - 1) + "," + e + " out of order");
            }
            int ra = root(parent, a), rb = root(parent, b);
            assertTrue(ra != rb, "edge " + e + " closes a cycle");
            parent[ra] = rb;
        }
    }

    private static int root(int[] parent, int x) {
        while (parent[x] != x) x = parent[x];
        return x;
    }

    /** Each weight equals max(core_a, core_b, dist(a, b) / alpha) recomputed in the reference arithmetic. */
    static void assertWeightsRecomputed(SpanningTree t, double[] rows, int d, double[] core, double alpha) {
        for (int e = 0; e < t.edges(); e++) {
            double w = PrimReference.weight(rows, d, core, alpha, t.from(e), t.to(e));
            assertEquals(Double.doubleToRawLongBits(w), Double.doubleToRawLongBits(t.weight(e)), "edge " + e);
        }
    }

    static double[] sortedWeights(SpanningTree t) {
        double[] w = t.weightArray();
        Arrays.sort(w);
        return w;
    }
}
