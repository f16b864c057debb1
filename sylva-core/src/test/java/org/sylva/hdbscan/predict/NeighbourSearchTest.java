package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;

/**
 * {@link NeighbourSearch} against brute force: the same k nearest fitted points, in (distance, index)
 * order, bitwise the same distances; on continuous data and on integer grids full of ties and exact
 * duplicates, with queries that coincide with fitted points; with the scalar and the vector kernel.
 */
class NeighbourSearchTest {
    @Test
    void listsAreTheBruteForceLists() {
        SplittableRandom rng = new SplittableRandom(31);
        for (int trial = 0; trial < 12; trial++) {
            int n = 50 + rng.nextInt(900), d = 1 + rng.nextInt(trial % 3 == 0 ? 40 : 5);
            boolean grid = trial % 2 == 0;
            double[] x = new double[n * d];
            for (int i = 0; i < x.length; i++) x[i] = grid ? rng.nextInt(6) : rng.nextDouble(-3, 3);
            int m = 60;
            double[] q = new double[m * d];
            for (int i = 0; i < m; i++) {
                if (i % 4 == 0) System.arraycopy(x, rng.nextInt(n) * d, q, i * d, d);   // a copy of a fitted point
                else for (int j = 0; j < d; j++) q[i * d + j] = grid ? rng.nextInt(7) - 0.5 * (i % 2) : rng.nextDouble(-4, 4);
            }
            // both kernels' leaf scans (the index's kernel computes them)
            DistanceKernel kernel = trial % 3 == 1 ? KernelProvider.get().scalarDistance() : KernelProvider.get().bestDistance();
            NeighbourSearch search = new NeighbourSearch(PointIndex.build(x, n, d, kernel));
            // lists longer than NearestLists.BUFFER_ABOVE fill as buffers: 130, and n from 65 points
            for (int k : new int[] {1, 2, 9, Math.min(n, 40), Math.min(n, 130), n}) {
                NeighbourSearch.Scratch s = search.scratch(k);
                for (int i = 0; i < m; i++) {
                    search.nearest(q, i * d, s);
                    Integer[] order = new Integer[n];
                    double[] dist = new double[n];
                    for (int p = 0; p < n; p++) {
                        order[p] = p;
                        double sq = 0;
                        for (int j = 0; j < d; j++) {
                            double t = q[i * d + j] - x[p * d + j];
                            sq += t * t;
                        }
                        dist[p] = Math.sqrt(sq);
                    }
                    Arrays.sort(order, Comparator.<Integer>comparingDouble(p -> dist[p]).thenComparingInt(p -> p));
                    int[] wantIdx = new int[k];
                    double[] wantDist = new double[k];
                    for (int r = 0; r < k; r++) {
                        wantIdx[r] = order[r];
                        wantDist[r] = dist[order[r]];
                    }
                    String what = kernel.name() + " trial " + trial + " (n " + n + ", d " + d + ", grid " + grid + "), k " + k + ", query " + i;
                    assertArrayEquals(wantIdx, s.index, what);
                    assertArrayEquals(wantDist, s.dist, what);
                }
            }
        }
    }

    /**
     * Points searched together ({@link NeighbourSearch#nearest(double[], int[], int, NeighbourSearch.Scratch[])})
     * get the lists each gets alone, bitwise, in groups of every size up to {@link NeighbourSearch#GROUP}, of
     * points near one another (the search order's) and far apart, for plain and weighted lists, on ties too.
     */
    @Test
    void groupsFindTheListsEachPointFindsAlone() {
        SplittableRandom rng = new SplittableRandom(57);
        for (int trial = 0; trial < 8; trial++) {
            int n = 200 + rng.nextInt(1500), d = new int[] {3, 24, 61}[trial % 3];
            boolean grid = trial % 4 == 1;
            double[] x = new double[n * d];
            for (int i = 0; i < x.length; i++) x[i] = grid ? rng.nextInt(4) : rng.nextDouble(-3, 3) + (i / d % 5) * 4;
            int m = 90;
            double[] q = new double[m * d];
            for (int i = 0; i < m; i++) {
                if (i % 5 == 0) System.arraycopy(x, rng.nextInt(n) * d, q, i * d, d);
                else for (int j = 0; j < d; j++) q[i * d + j] = grid ? rng.nextInt(5) - 0.5 : rng.nextDouble(-4, 22);
            }
            DistanceKernel kernel = trial % 2 == 1 ? KernelProvider.get().scalarDistance() : KernelProvider.get().bestDistance();
            NeighbourSearch search = new NeighbourSearch(PointIndex.build(x, n, d, kernel));
            int[] order = NewPoints.searchOrder(search, q, m, d, org.sylva.parallel.Execution.sequential());
            int[] weights = new int[n];
            for (int i = 0; i < n; i++) weights[i] = 1 + rng.nextInt(3);
            for (int k : new int[] {1, 7, Math.min(n, 40), Math.min(n, 150)}) {
                for (boolean weighted : new boolean[] {false, true}) {
                    NeighbourSearch.Scratch alone = weighted ? search.scratch(weights, k) : search.scratch(k);
                    NeighbourSearch.Scratch[] group = new NeighbourSearch.Scratch[NeighbourSearch.GROUP];
                    for (int i = 0; i < group.length; i++) group[i] = weighted ? search.scratch(weights, k) : search.scratch(k);
                    int[] offs = new int[NeighbourSearch.GROUP];
                    for (boolean near : new boolean[] {true, false}) {
                        for (int at = 0, g = 1; at < m; at += g, g = g % NeighbourSearch.GROUP + 1) {
                            int size = Math.min(g, m - at);
                            for (int j = 0; j < size; j++) offs[j] = (near ? order[at + j] : at + j) * d;
                            search.nearest(q, offs, size, group);
                            for (int j = 0; j < size; j++) {
                                search.nearest(q, offs[j], alone);
                                String what = kernel.name() + " trial " + trial + " (n " + n + ", d " + d + "), k " + k
                                        + (weighted ? " weighted" : "") + ", group of " + size + ", point " + (offs[j] / d);
                                int found = weighted ? alone.found : k;
                                org.junit.jupiter.api.Assertions.assertEquals(found, weighted ? group[j].found : k, what);
                                assertArrayEquals(Arrays.copyOf(alone.index, found), Arrays.copyOf(group[j].index, found), what);
                                assertArrayEquals(Arrays.copyOf(alone.dist, found), Arrays.copyOf(group[j].dist, found), what);
                            }
                        }
                    }
                }
            }
        }
    }
}
