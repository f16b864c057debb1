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
                    double[] dist = new double[n];
                    Integer[] order = bruteForce(x, n, d, q, i * d, dist);
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
     * Every fitted point of {@code x} ordered by (distance from {@code q[off ..]}, index), the reference
     * arithmetic; the distances into {@code dist}.
     */
    private static Integer[] bruteForce(double[] x, int n, int d, double[] q, int off, double[] dist) {
        Integer[] order = new Integer[n];
        for (int p = 0; p < n; p++) {
            order[p] = p;
            double sq = 0;
            for (int j = 0; j < d; j++) {
                double t = q[off + j] - x[p * d + j];
                sq += t * t;
            }
            dist[p] = Math.sqrt(sq);
        }
        Arrays.sort(order, Comparator.<Integer>comparingDouble(p -> dist[p]).thenComparingInt(p -> p));
        return order;
    }

    /**
     * Coordinates so small that squared distances fall below the normal range (1e-161): the lists are still the
     * brute-force lists (the bounds' absolute margin), one point at a time and in groups, on both kernels.
     */
    @Test
    void listsBelowTheNormalRangeAreTheBruteForceLists() {
        for (double scale : new double[] {1e-161, 1e-160}) {
            for (int d : new int[] {2, 24}) {
                SplittableRandom rng = new SplittableRandom(7);
                int n = 2000, m = 64, k = 10;
                double[] x = new double[n * d], q = new double[m * d];
                for (int i = 0; i < x.length; i++) x[i] = rng.nextDouble() * scale;
                for (int i = 0; i < q.length; i++) q[i] = rng.nextDouble() * 1.2 * scale;
                for (DistanceKernel kernel : new DistanceKernel[] {KernelProvider.get().scalarDistance(),
                        KernelProvider.get().bestDistance()}) {
                    NeighbourSearch search = new NeighbourSearch(PointIndex.build(x, n, d, kernel));
                    NeighbourSearch.Scratch s = search.scratch(k);
                    NeighbourSearch.Scratch[] group = new NeighbourSearch.Scratch[NeighbourSearch.GROUP];
                    for (int i = 0; i < group.length; i++) group[i] = search.scratch(k);
                    int[] offs = new int[NeighbourSearch.GROUP];
                    for (int i = 0; i < m; i++) {
                        Integer[] order = bruteForce(x, n, d, q, i * d, new double[n]);
                        int[] want = new int[k];
                        for (int r = 0; r < k; r++) want[r] = order[r];
                        String what = kernel.name() + ", scale " + scale + ", d " + d + ", query " + i;
                        search.nearest(q, i * d, s);
                        assertArrayEquals(want, s.index, what);
                        int g = i % NeighbourSearch.GROUP;
                        offs[g] = i * d;
                        if (g == NeighbourSearch.GROUP - 1) {
                            search.nearest(q, offs, NeighbourSearch.GROUP, group);
                            for (int j = 0; j < NeighbourSearch.GROUP; j++) {
                                search.nearest(q, offs[j], s);
                                assertArrayEquals(s.index, group[j].index, what + ", point " + j + " of its group");
                            }
                        }
                    }
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

    /**
     * With the float32 pre-filter ({@link NeighbourSearch#filtered}: the vector kernel and an index with its
     * float32 copy), groups still get the lists each point gets alone by the float64 scan, bitwise: on
     * float32 values (an exact copy), on decimals (a rounded copy), on decimals far from the origin (the
     * copy's shift), on an integer grid (exact ties), for plain and weighted lists, with new points that
     * coincide with fitted ones and one whose value exceeds the float32 limit (scanned in float64); with the
     * kernel's plain tile and its stopping one.
     */
    @Test
    void filteredGroupsFindTheListsEachPointFindsAlone() {
        DistanceKernel kernel = KernelProvider.get().bestDistance();
        org.junit.jupiter.api.Assumptions.assumeTrue(kernel.approximates(),
                "the vector kernel's pre-filter");
        SplittableRandom rng = new SplittableRandom(91);
        // "sphere": fitted points at distance 1 from a centre, up to float64 rounding, and new points at the
        // centre: every list is decided by differences far below the float32 error, which only the bound's
        // widening (by the kernel's error and both copies' rounding) keeps from dropping members
        // "pixels": many dimensions, scanned with the stopping tile and the plain one; "coarse": float32 values
        // around 1e7, where float32 holds only integers, so the fitted copy is exact while the new points' copies
        // round by up to a half per coordinate: only their own rounding in the bound keeps their lists
        // "split": decimals in two tight clusters at +1e5 and -1e5, each point's mirror image after it, so the
        // copy's shift (the mean) is exactly 0 and the fitted copy rounds by about the neighbours' distances,
        // while new points that are float32 values near them round by nothing: only the fitted copy's rounding
        // in the bound keeps their lists
        String[] kinds = {"float32", "decimals", "far decimals", "grid", "sphere", "pixels", "coarse", "split"};
        for (int trial = 0; trial < 2 * kinds.length; trial++) {
            String kind = kinds[trial % kinds.length];
            boolean stopping = trial >= kinds.length;
            int n = 1000 + rng.nextInt(600), d = new int[] {61, 24, 40, 30, 24, 150, 24, 24}[trial % kinds.length];
            if (kind.equals("split")) n &= ~1;   // every point with its mirror image
            double[] x = new double[n * d];
            double[] centre = new double[d];
            for (int j = 0; j < d; j++) centre[j] = rng.nextDouble(-5, 5);
            for (int i = 0; i < x.length; i++) {
                double v = rng.nextDouble(-3, 3) + (i / d % 5) * 4;
                x[i] = switch (kind) {
                    case "float32" -> (float) v;
                    case "decimals" -> v;
                    case "far decimals" -> 1e5 + v * 1e-3;
                    case "sphere" -> rng.nextGaussian();
                    case "pixels" -> (i / d % 3) * 60 + rng.nextInt(40);
                    case "coarse" -> 1e7 + rng.nextInt(4);
                    case "split" -> i / d % 2 == 0 ? 1e5 + rng.nextDouble(-1e-2, 1e-2) : -x[i - d];
                    default -> rng.nextInt(4);
                };
            }
            if (kind.equals("sphere")) {
                for (int i = 0; i < n; i++) {
                    double norm = 0;
                    for (int j = 0; j < d; j++) norm += x[i * d + j] * x[i * d + j];
                    norm = Math.sqrt(norm);
                    for (int j = 0; j < d; j++) x[i * d + j] = centre[j] + x[i * d + j] / norm;
                }
            }
            int m = 120;
            double[] q = new double[m * d];
            for (int i = 0; i < m; i++) {
                int from = rng.nextInt(n) * d;
                for (int j = 0; j < d; j++) {
                    double v = x[from + j];
                    q[i * d + j] = i % 5 == 0 ? v                                   // a fitted point
                            : kind.equals("grid") ? rng.nextInt(5) - 0.5 * (i % 2)
                            : kind.equals("pixels") ? v + rng.nextInt(-8, 9)
                            : kind.equals("coarse") ? 1e7 + rng.nextInt(4) + 0.5 + (i % 3) * 0x1p-20
                            : kind.equals("split") ? (float) (v + rng.nextDouble(-5e-3, 5e-3))
                            : kind.equals("far decimals") ? v + rng.nextDouble(-2e-3, 2e-3)
                            : kind.equals("sphere") ? centre[j] + (i % 3) * 1e-12 * rng.nextGaussian()
                            : v + rng.nextDouble(-1, 1);
                }
            }
            q[7 * d + 3] = 1e16;   // beyond the float32 limit: no copy, the float64 scan
            NeighbourSearch search = new NeighbourSearch(PointIndex.build(x, n, d, kernel), stopping);
            org.junit.jupiter.api.Assertions.assertTrue(search.filtered(), kind + ": the pre-filter applies");
            int[] order = NewPoints.searchOrder(search, q, m, d, org.sylva.parallel.Execution.sequential());
            int[] weights = new int[n];
            for (int i = 0; i < n; i++) weights[i] = 1 + rng.nextInt(3);
            for (int k : new int[] {1, 6, 40, 150}) {
                for (boolean weighted : new boolean[] {false, true}) {
                    NeighbourSearch.Scratch alone = weighted ? search.scratch(weights, k) : search.scratch(k);
                    NeighbourSearch.Scratch[] group = new NeighbourSearch.Scratch[NeighbourSearch.GROUP];
                    for (int i = 0; i < group.length; i++) group[i] = weighted ? search.scratch(weights, k) : search.scratch(k);
                    int[] offs = new int[NeighbourSearch.GROUP];
                    for (int at = 0, g = 2; at < m; at += g, g = g % NeighbourSearch.GROUP + 1) {   // every size
                        int size = Math.min(g, m - at);
                        for (int j = 0; j < size; j++) offs[j] = order[at + j] * d;
                        search.nearest(q, offs, size, group);
                        for (int j = 0; j < size; j++) {
                            search.nearest(q, offs[j], alone);
                            String what = kind + (stopping ? ", stopping" : "") + " (n " + n + ", d " + d + "), k " + k
                                    + (weighted ? " weighted" : "")
                                    + ", group of " + size + ", point " + (offs[j] / d);
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
