package org.sylva.hdbscan.mst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * An alpha so small that distances divided by it overflow: the spanning tree joins the points by edges of weight
 * +inf, in the tie order, as an edge of every other weight. In one coordinate the Euclidean distance is manhattan's,
 * so the Borůvka engine's tree must be the manhattan engine's; with two distinct points the neighbour lists hold
 * the only edge (they once skipped an edge of weight +inf, and the fit failed with "added no edge").
 */
class InfiniteWeightEdgesTest {
    private static HdbscanResult fit(double[] x, int minSamples, double alpha, Metric metric) {
        return Hdbscan.builder().minClusterSize(2).minSamples(minSamples).alpha(alpha).metric(metric).build()
                .fit(x, x.length, 1, ProgressListener.NONE, CancellationToken.NEVER);
    }

    @Test
    void theTreeIsTheOtherEnginesWithEdgesOfInfiniteWeight() {
        double[][] sets = {
            {0, 1},                       // two distinct points
            {0, 0, 0, 1, 1},              // two distinct rows, repeated
            {0, 0.5, 10, 10.5},
            {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5},
        };
        for (double[] x : sets) {
            for (int ms : new int[] {1, 2}) {
                if (ms > x.length) continue;
                for (double alpha : new double[] {1e-308, 1e-310, Double.MIN_VALUE}) {
                    HdbscanResult euclid = fit(x, ms, alpha, Metric.euclidean());
                    HdbscanResult manhattan = fit(x, ms, alpha, Metric.manhattan());
                    String what = java.util.Arrays.toString(x) + " ms " + ms + " alpha " + alpha;
                    assertEquals(manhattan.spanningTree(), euclid.spanningTree(), what);
                    double extent = java.util.Arrays.stream(x).max().orElseThrow() - java.util.Arrays.stream(x).min()
                            .orElseThrow();
                    // the heaviest edge is the extent (or less) divided by alpha: +inf for the smallest alphas
                    if (alpha == Double.MIN_VALUE || Double.isInfinite(extent / alpha)) {
                        assertEquals(Double.POSITIVE_INFINITY, euclid.spanningTree().weight(x.length - 2), what);
                    }
                    assertArrayEquals(manhattan.labels(), euclid.labels(), what);
                    assertArrayEquals(manhattan.probabilities(), euclid.probabilities(), what);
                    assertEquals(manhattan.condensedTree(), euclid.condensedTree(), what);
                }
            }
        }
    }
}
