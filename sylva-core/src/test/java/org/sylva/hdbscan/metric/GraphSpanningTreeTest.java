package org.sylva.hdbscan.metric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.engine.MutualReachabilityMst;
import org.sylva.hdbscan.mst.EdgeOrder;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;
import org.sylva.testsupport.SameResult;

/**
 * The sparse precomputed path: a graph holding every pair and the diagonal must give bitwise the dense
 * matrix's fit (also on integer data full of exact ties, where only the tie order decides, and with alpha),
 * a k-nearest-neighbour graph the minimum spanning tree of its stored pairs in {@link EdgeOrder} with
 * scikit-learn's core distances (the k-th smallest stored in each row), the same bytes for any thread count
 * and any order of a row's entries, and every malformed graph refused naming the entry at fault.
 */
class GraphSpanningTreeTest {
    static double[] grid(int n, int d, long seed) {
        return BruteForceEngineTest.grid(n, d, seed);
    }

    static double[] gaussian(int n, int d, long seed) {
        return BruteForceEngineTest.gaussian(n, d, seed);
    }

    /** The dense Euclidean matrix of the rows. */
    static double[] matrix(double[] x, int n, int d) {
        PairDistances p = Metric.euclidean().pairs(x, n, d);
        double[] m = new double[n * n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) m[i * n + j] = i == j ? 0 : p.between(i, j);
        return m;
    }

    /** CSR of the entries of {@code m} that {@code keep} marks, each row's entries in the given column order. */
    static DistanceGraph csr(double[] m, int n, boolean[] keep, int[][] columnOrder) {
        int[] indptr = new int[n + 1];
        List<Integer> cols = new ArrayList<>();
        List<Double> vals = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < n; t++) {
                int j = columnOrder == null ? t : columnOrder[i][t];
                if (keep[i * n + j]) {
                    cols.add(j);
                    vals.add(m[i * n + j]);
                }
            }
            indptr[i + 1] = cols.size();
        }
        return DistanceGraph.ofCsr(n, indptr, cols.stream().mapToInt(Integer::intValue).toArray(),
                vals.stream().mapToDouble(Double::doubleValue).toArray());
    }

    static boolean[] all(int n) {
        boolean[] k = new boolean[n * n];
        Arrays.fill(k, true);
        return k;
    }

    /**
     * Each point's k nearest (itself included, ties by index), symmetrised: (i, j) kept when either lists the
     * other; plus each pair (i, i + 1), which joins the clusters' graphs into one.
     */
    static boolean[] knn(double[] m, int n, int k) {
        boolean[] keep = new boolean[n * n];
        for (int i = 0; i + 1 < n; i++) {
            keep[i * n + i + 1] = true;
            keep[(i + 1) * n + i] = true;
        }
        for (int i = 0; i < n; i++) {
            Integer[] o = new Integer[n];
            for (int j = 0; j < n; j++) o[j] = j;
            final int row = i;
            Arrays.sort(o, (a, b) -> m[row * n + a] != m[row * n + b] ? Double.compare(m[row * n + a], m[row * n + b])
                    : Integer.compare(a, b));
            for (int t = 0; t < k; t++) {
                keep[i * n + o[t]] = true;
                keep[o[t] * n + i] = true;
            }
        }
        return keep;
    }

    private static Hdbscan precomputed(int ms, double alpha, int threads) {
        return Hdbscan.builder().metric(Metric.precomputed()).minClusterSize(5).minSamples(ms).alpha(alpha)
                .threads(threads).build();
    }

    @Test
    void everyPairStoredIsBitwiseTheDenseMatrixsFit() {
        for (int set = 0; set < 2; set++) {
            int n = set == 0 ? 400 : 300, d = set == 0 ? 3 : 4;
            double[] x = set == 0 ? grid(n, d, 1) : gaussian(n, d, 2);
            double[] m = matrix(x, n, d);
            DistanceGraph g = csr(m, n, all(n), null);
            for (int ms : new int[] {1, 5, 12}) {
                // 1 / alpha exact: the graph's product with it is the dense matrix's quotient (alpha 3: below)
                for (double alpha : new double[] {1.0, 0.5}) {
                    HdbscanResult dense = precomputed(ms, alpha, 2).fit(m, n, n, ProgressListener.NONE,
                            CancellationToken.NEVER);
                    for (int threads : new int[] {1, 3}) {
                        SameResult.assertSameResult(dense, precomputed(ms, alpha, threads).fit(g),
                                "set " + set + ", min_samples " + ms + ", alpha " + alpha + ", threads " + threads);
                    }
                }
            }
        }
    }

    /**
     * scikit-learn divides a sparse matrix by alpha before it takes core distances from it, and scipy's division of a
     * sparse matrix by a number is the product with its reciprocal: the tree at alpha 3 is alpha 1's, each weight
     * times {@code 1.0 / 3} bitwise (not divided by 3: 131 of 399 weights of a 400-point graph differ in the last bit).
     */
    @Test
    void alphaMultipliesTheWholeReachabilityByItsReciprocalAsScipyDivides() {
        int n = 300, d = 3;
        double[] m = matrix(gaussian(n, d, 7), n, d);
        DistanceGraph g = csr(m, n, knn(m, n, 12), null);
        for (int ms : new int[] {1, 4}) {
            SpanningTree one = precomputed(ms, 1.0, 2).fit(g).spanningTree();
            SpanningTree three = precomputed(ms, 3.0, 2).fit(g).spanningTree();
            double[] w = one.weightArray();
            boolean differsFromQuotient = false;
            for (int i = 0; i < w.length; i++) {
                differsFromQuotient |= w[i] * (1.0 / 3) != w[i] / 3;
                w[i] *= 1.0 / 3;
            }
            assertEquals(SpanningTree.of(n, one.fromArray(), one.toArray(), w), three, "min_samples " + ms);
            assertTrue(differsFromQuotient, "the data tells the product from the quotient");
        }
    }

    @Test
    void aRowsEntriesMayComeInAnyOrder() {
        int n = 120, d = 2;
        double[] m = matrix(grid(n, d, 3), n, d);
        boolean[] keep = knn(m, n, 6);
        Random r = new Random(4);
        int[][] order = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) order[i][j] = j;
            for (int j = n - 1; j > 0; j--) {
                int s = r.nextInt(j + 1), t = order[i][j];
                order[i][j] = order[i][s];
                order[i][s] = t;
            }
        }
        SameResult.assertSameResult(precomputed(4, 1.0, 1).fit(csr(m, n, keep, null)),
                precomputed(4, 1.0, 1).fit(csr(m, n, keep, order)));
    }

    @Test
    void aNearestNeighbourGraphGivesTheMinimumSpanningTreeOfItsStoredPairs() {
        for (int set = 0; set < 2; set++) {
            int n = 300, d = 2;
            double[] m = matrix(set == 0 ? grid(n, d, 5) : gaussian(n, d, 6), n, d);
            boolean[] keep = knn(m, n, 8);
            DistanceGraph g = csr(m, n, keep, null);
            int ms = 5;
            MutualReachabilityMst got = GraphSpanningTree.compute(g, ms, 1.0,
                    new Execution(2, ProgressListener.NONE, CancellationToken.NEVER));
            // core distances: the ms-th smallest stored in each row
            double[] core = new double[n];
            for (int i = 0; i < n; i++) {
                double[] row = new double[g.rowLength(i)];
                for (int e = 0; e < row.length; e++) row[e] = g.distance(g.rowStart(i) + e);
                Arrays.sort(row);
                core[i] = row[ms - 1];
            }
            assertArrayEquals(core, got.coreDistances());
            assertEquals(prim(m, n, keep, core), got.tree(), "set " + set);
        }
    }

    /** Prim's algorithm from point 0 over the stored pairs, choosing by {@link EdgeOrder}: the reference tree. */
    static SpanningTree prim(double[] m, int n, boolean[] keep, double[] core) {
        boolean[] in = new boolean[n];
        in[0] = true;
        int[] from = new int[n - 1], to = new int[n - 1];
        double[] w = new double[n - 1];
        for (int e = 0; e < n - 1; e++) {
            double bw = Double.POSITIVE_INFINITY;
            int ba = -1, bb = -1;
            for (int a = 0; a < n; a++) {
                if (!in[a]) continue;
                for (int b = 0; b < n; b++) {
                    if (in[b] || !keep[a * n + b]) continue;
                    double v = Math.max(Math.max(core[a], core[b]), m[Math.min(a, b) * n + Math.max(a, b)]);
                    if (ba < 0 || EdgeOrder.less(v, a, b, bw, ba, bb)) {
                        bw = v;
                        ba = a;
                        bb = b;
                    }
                }
            }
            in[bb] = true;
            from[e] = Math.min(ba, bb);
            to[e] = Math.max(ba, bb);
            w[e] = bw;
        }
        return SpanningTree.of(n, from, to, w).inEdgeOrder();
    }

    @Test
    void theCoreDistancesOfManyUnitsAreTheSameOnAnyThreadCount() {
        // 3 000 rows: three units of the parallel pass (1 024 rows each), on 1, 2 and 5 threads
        int n = 3000, d = 3;
        double[] m = matrix(gaussian(n, d, 11), n, d);
        DistanceGraph g = csr(m, n, knn(m, n, 9), null);
        MutualReachabilityMst one = GraphSpanningTree.compute(g, 6, 0.7,
                new Execution(1, ProgressListener.NONE, CancellationToken.NEVER));
        for (int t : new int[] {2, 5}) {
            MutualReachabilityMst many = GraphSpanningTree.compute(g, 6, 0.7,
                    new Execution(t, ProgressListener.NONE, CancellationToken.NEVER));
            assertArrayEquals(one.coreDistances(), many.coreDistances(), t + " threads");
            assertEquals(one.tree(), many.tree(), t + " threads");
        }
    }

    @Test
    void aFitCancelledAfterItsCoreDistancesStopsInTheSpanningTree() {
        int n = 300;
        double[] m = matrix(gaussian(n, 2, 12), n, 2);
        DistanceGraph g = csr(m, n, knn(m, n, 8), null);
        CancellationToken cancel = new CancellationToken();
        java.util.List<String> stages = new ArrayList<>();
        ProgressListener cancelAfterCore = (stage, done, total) -> {
            stages.add(stage);
            if (stage.equals(org.sylva.hdbscan.core.CoreDistances.STAGE) && done == total) cancel.cancel();
        };
        assertThrows(CancelledException.class, () -> GraphSpanningTree.compute(g, 4, 1.0,
                new Execution(1, cancelAfterCore, cancel)));
        assertTrue(!stages.contains(GraphSpanningTree.TREE_STAGE), "stopped before the tree's first report: " + stages);
    }

    @Test
    void badArgumentsAreRefused() {
        DistanceGraph g = DistanceGraph.ofCsr(2, new int[] {0, 1, 2}, new int[] {1, 0}, new double[] {1, 1});
        Execution ex = new Execution(1, ProgressListener.NONE, CancellationToken.NEVER);
        assertThrows(IllegalArgumentException.class, () -> GraphSpanningTree.compute(g, 0, 1.0, ex));
        assertThrows(IllegalArgumentException.class, () -> GraphSpanningTree.compute(g, 1, 0.0, ex));
        assertThrows(IllegalArgumentException.class, () -> GraphSpanningTree.compute(g, 1, Double.NaN, ex));
    }

    @Test
    void storedZerosAreEdgesAndDuplicatesJoinAtZero() {
        // points 0, 1, 2 identical, 3 at 1.0 from them; min_samples 2: the duplicates' core distance is 0
        int n = 4;
        double[] m = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0};
        HdbscanResult r = precomputed(2, 1.0, 1).fit(csr(m, n, all(n), null));
        SpanningTree t = r.spanningTree();
        assertEquals(3, t.edges());
        assertEquals(0.0, t.weight(0));
        assertEquals(0.0, t.weight(1));
        assertEquals(1.0, t.weight(2));
    }

    @Test
    void aMatrixSymmetricOnlyToRoundingIsReadFromItsUpperTriangle() {
        int n = 60, d = 2;
        double[] m = matrix(gaussian(n, d, 7), n, d);
        double[] rounded = m.clone();
        for (int i = 0; i < n; i++) for (int j = 0; j < i; j++) rounded[i * n + j] = Math.nextUp(m[i * n + j]);
        SameResult.assertSameResult(precomputed(3, 1.0, 1).fit(csr(m, n, all(n), null)),
                precomputed(3, 1.0, 1).fit(csr(rounded, n, all(n), null)));
    }

    @Test
    void theStableOrderIsBySortedKeyThenPosition() {
        // keys varying in every 16-bit digit, and in 1 to 4 of them (digits all keys share are skipped, and an odd
        // number of passes leaves the result in the spare arrays, copied back)
        for (long mask : new long[] {-1L, 0xFFFFL, 0xFFFF0000L, 0xFFFF00000000FFFFL, 0x0000FFFFFFFFFFFFL, 0L}) {
            stableOrder(mask);
        }
    }

    private static void stableOrder(long mask) {
        Random r = new Random(8 + mask);
        long[] key = new long[5000];
        for (int i = 0; i < key.length; i++) {
            long k = Double.doubleToRawLongBits(r.nextInt(3) == 0 ? r.nextInt(7) : r.nextDouble() * 1e6);
            key[i] = mask == -1L ? k : (r.nextLong() & mask & 0x7FFFFFFFFFFFFFFFL) | 0x3000000000000000L & ~mask;
        }
        long[] sorted = key.clone(), position = new long[key.length];
        for (int i = 0; i < key.length; i++) position[i] = i;
        GraphSpanningTree.sortByKey(sorted, position, new Execution(1, ProgressListener.NONE, CancellationToken.NEVER));
        int[] order = new int[key.length];
        for (int i = 0; i < key.length; i++) {
            order[i] = (int) position[i];
            assertEquals(key[order[i]], sorted[i], "mask " + Long.toHexString(mask));
        }
        TreeMap<Long, List<Integer>> want = new TreeMap<>();
        for (int i = 0; i < key.length; i++) want.computeIfAbsent(key[i], k -> new ArrayList<>()).add(i);
        int[] expected = want.values().stream().flatMap(List::stream).mapToInt(Integer::intValue).toArray();
        assertArrayEquals(expected, order, "mask " + Long.toHexString(mask));
    }

    @Test
    void theSelectionIsTheSortedValue() {
        Random r = new Random(9);
        for (int trial = 0; trial < 200; trial++) {
            int m = 1 + r.nextInt(40);
            double[] a = new double[m];
            for (int i = 0; i < m; i++) a[i] = r.nextInt(6);
            double[] sorted = a.clone();
            Arrays.sort(sorted);
            int k = r.nextInt(m);
            assertEquals(sorted[k], GraphSpanningTree.smallest(a.clone(), m, k), "trial " + trial);
        }
    }

    @Test
    void aCancelledFitStops() {
        int n = 200;
        double[] m = matrix(gaussian(n, 3, 10), n, 3);
        DistanceGraph g = csr(m, n, all(n), null);
        CancellationToken cancel = new CancellationToken();
        cancel.cancel();
        assertThrows(CancelledException.class, () -> precomputed(5, 1.0, 2).fit(g, ProgressListener.NONE, cancel));
        int[] indptr = new int[n + 1];
        for (int i = 0; i < n; i++) indptr[i + 1] = (i + 1) * n;
        int[] columns = new int[n * n];
        for (int e = 0; e < columns.length; e++) columns[e] = e % n;
        assertThrows(CancelledException.class, () -> DistanceGraph.ofCsr(n, indptr, columns, m, cancel));
    }

    private static String refusal(Runnable r) {
        return assertThrows(InvalidInputException.class, r::run).getMessage();
    }

    /** Round-off at 0 in a graph (a stored diagonal, a pair of identical rows) is read as 0, as the dense path reads it. */
    @Test
    void roundOffAtZeroIsReadAsZero() {
        int n = 25;
        double[] x = gaussian(n, 2, 41);
        x[2] = x[0];
        x[3] = x[1];
        double[] exact = matrix(x, n, 2);
        double[] rounded = exact.clone();
        for (int i = 0; i < n; i++) rounded[i * n + i] = i % 2 == 0 ? 2.220446049250313e-16 : -1.1102230246251565e-16;
        rounded[1] = rounded[n] = -4.440892098500626e-16;
        Execution ex = new Execution(1, ProgressListener.NONE, CancellationToken.NEVER);
        for (int ms : new int[] {1, 3}) {
            MutualReachabilityMst want = GraphSpanningTree.compute(csr(exact, n, all(n), null), ms, 1.0, ex);
            MutualReachabilityMst got = GraphSpanningTree.compute(csr(rounded, n, all(n), null), ms, 1.0, ex);
            assertArrayEquals(want.coreDistances(), got.coreDistances(), "min_samples " + ms);
            assertEquals(want.tree(), got.tree(), "min_samples " + ms);
        }
        double[] diagonal = exact.clone();
        diagonal[n + 1] = 2e-9;
        assertTrue(refusal(() -> csr(diagonal, n, all(n), null)).contains("diagonal entry (1, 1) is 2.0E-9"));
        double[] negative = exact.clone();
        negative[2] = negative[2 * n] = -2e-9;
        assertTrue(refusal(() -> csr(negative, n, all(n), null)).contains("entry (0, 2) is -2.0E-9"));
    }

    @Test
    void malformedGraphsAreRefusedNamingTheEntry() {
        int[] p = {0, 1, 3, 4};
        int[] c = {1, 0, 2, 1};
        double[] v = {1, 1, 2, 2};
        DistanceGraph.ofCsr(3, p, c, v);   // the well-formed one
        assertTrue(refusal(() -> DistanceGraph.ofCsr(3, new int[] {0, 1, 3}, c, v)).contains("indptr has 3 entries"));
        assertTrue(refusal(() -> DistanceGraph.ofCsr(3, p, c, new double[] {1, 1, 2})).contains("indices has 4"));
        assertTrue(refusal(() -> DistanceGraph.ofCsr(3, new int[] {0, 3, 1, 4}, c, v)).contains("decreases at row 1"));
        assertTrue(refusal(() -> DistanceGraph.ofCsr(3, new int[] {0, 1, 3, 3}, c, v)).contains("end at the number"));
        assertTrue(refusal(() -> DistanceGraph.ofCsr(3, p, new int[] {1, 0, 3, 1}, v)).contains("column 3, outside"));
        assertTrue(refusal(() -> DistanceGraph.ofCsr(3, p, new int[] {1, 2, 2, 1}, v)).contains("column 2 twice"));
        assertTrue(refusal(() -> DistanceGraph.ofCsr(3, p, c, new double[] {1, 1, Double.NaN, 2}))
                .contains("entry (1, 2) is NaN"));
        assertTrue(refusal(() -> DistanceGraph.ofCsr(3, p, c, new double[] {-1, -1, 2, 2})).contains("entry (0, 1) is -1.0"));
        assertTrue(refusal(() -> DistanceGraph.ofCsr(3, p, c, new double[] {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, 2, 2}))
                .contains("entry (0, 1) is Infinity; distances must be finite and >= 0 (a sparse matrix leaves a missing"));
        assertTrue(refusal(() -> DistanceGraph.ofCsr(3, new int[] {0, 2, 4, 5}, new int[] {0, 1, 0, 2, 1},
                new double[] {0.5, 1, 1, 2, 2})).contains("diagonal entry (0, 0) is 0.5"));
        assertTrue(refusal(() -> DistanceGraph.ofCsr(3, new int[] {0, 1, 2, 3}, new int[] {1, 0, 1},
                new double[] {1, 1, 2})).contains("entry (2, 1) is stored but (1, 2) is not"));
        assertTrue(refusal(() -> DistanceGraph.ofCsr(3, p, c, new double[] {1, 1.1, 2, 2})).contains("not symmetric: entry "
                + "(0, 1) is 1.0 but (1, 0) is 1.1"));
    }

    @Test
    void fitsThatCannotBeMadeAreRefusedNamingWhy() {
        // a path 0-1-2 and a separate pair 3-4
        DistanceGraph split = DistanceGraph.ofCsr(5, new int[] {0, 1, 3, 4, 5, 6}, new int[] {1, 0, 2, 1, 4, 3},
                new double[] {1, 1, 1, 1, 1, 1});
        assertTrue(refusal(() -> precomputed(1, 1.0, 1).fit(split)).contains("2 connected components (point 0 and point 3"));
        assertTrue(refusal(() -> precomputed(2, 1.0, 1).fit(split)).contains("point 0 has 1 stored distances"));
        assertTrue(refusal(() -> precomputed(6, 1.0, 1).fit(split)).contains("min_samples (6) must be at most"));
        assertTrue(refusal(() -> Hdbscan.builder().build().fit(split)).contains("metric precomputed"));
        DistanceGraph one = DistanceGraph.ofCsr(1, new int[] {0, 0}, new int[0], new double[0]);
        assertTrue(refusal(() -> precomputed(1, 1.0, 1).fit(one)).contains("at least two points"));
    }
}
