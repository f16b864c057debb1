package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;

/**
 * {@link Exemplars#minDistance} (a kernel's blocks, the limit lowered between chunks) against the
 * one-by-one scan of each cluster's exemplars, bitwise, with the scalar and the vector kernel: on clips
 * (many small leaf clusters, some scanned one by one) and on an integer grid, whose ties put many exemplars in one cluster, so
 * that a cluster spans several chunks; with queries on fitted points (distance 0) and far away.
 */
class ExemplarsTest {
    @Test
    void nearestExemplarIsTheOneByOneScans() {
        SplittableRandom rng = new SplittableRandom(5);
        PointSet clips = ClipLikeData.generate(1500, 3).points();
        int gn = 3000, gd = 2;
        double[] grid = new double[gn * gd];
        for (int i = 0; i < grid.length; i++) grid[i] = rng.nextInt(2) + 10 * ((i / gd) % 3);   // about 250 copies of each point
        int most = 0, fewest = Integer.MAX_VALUE;
        PointSet[] sets = {clips, PointSet.ofFloat64(gn, gd, grid), clips};
        for (int set = 0; set < sets.length; set++) {
            PointSet points = sets[set];
            // the last: clusters of two points at least, whose leaves end with one to three exemplars
            int mcs = set == 2 ? 2 : 5;
            HdbscanResult r = Hdbscan.builder().minClusterSize(mcs).minSamples(set == 2 ? 1 : 3).threads(2).build()
                    .fit(points);
            HdbscanResult leaf = r.reselect(r.parameters().toBuilder().clusterSelectionMethod(SelectionMethod.LEAF).build());
            ClusterTree ct = new ClusterTree(leaf.condensedTree(), leaf.selectedClusters());
            int n = points.size(), d = points.dimensions();
            double[] rows = points.coordinates64();
            for (DistanceKernel kernel : new DistanceKernel[] {KernelProvider.get().scalarDistance(), KernelProvider.get().bestDistance()}) {
                Exemplars e = Exemplars.of(leaf.condensedTree(), ct, rows, d, kernel.blockWidth(), null, null);
                double[] tile = new double[e.tileLength()];
                for (int trial = 0; trial < 40; trial++) {
                    double[] q = new double[d + 1];
                    int off = trial % 2;
                    int near = rng.nextInt(n);
                    for (int j = 0; j < d; j++) {
                        q[off + j] = trial % 5 == 0 ? rows[near * d + j]
                                : rows[near * d + j] + rng.nextGaussian() * (trial % 7 == 0 ? 1e3 : 1);
                    }
                    for (int l = 0; l < e.clusters(); l++) {
                        int[] pts = e.points(l);
                        most = Math.max(most, pts.length);
                        fewest = Math.min(fewest, pts.length);
                        double want = Double.MAX_VALUE;
                        for (int p : pts) {
                            double sq = 0.0;
                            for (int j = 0; j < d; j++) {
                                double t = q[off + j] - rows[p * d + j];
                                sq += t * t;
                            }
                            double dist = Math.sqrt(sq);
                            if (dist < want) want = dist;
                        }
                        assertEquals(Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(e.minDistance(l, q, off, tile, kernel)),
                                kernel.name() + " d " + d + " cluster " + l + " of " + pts.length + " exemplars, trial " + trial);
                    }
                }
            }
        }
        assertTrue(most > 4 * 16, "a cluster spans several chunks: " + most + " exemplars at most");
        assertTrue(fewest < Exemplars.FEW, "a cluster scanned one by one: " + fewest + " exemplars at fewest");
    }
}
