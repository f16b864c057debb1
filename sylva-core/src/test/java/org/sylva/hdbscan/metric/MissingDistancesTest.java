package org.sylva.hdbscan.metric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.NonFinitePolicy;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
import org.sylva.testsupport.SameResult;

/**
 * A dense precomputed matrix whose {@code +inf} entries are missing distances, as scikit-learn's dense precomputed
 * path takes them: where the stored pairs hold each point's {@code min_samples} nearest and join every point, the
 * fit is bitwise that of the sparse graph of the same pairs; where they do not, the spanning tree still joins every
 * point, through edges of infinite weight chosen by the tie order, as a reference Prim over the whole matrix
 * finds; NaN, negative and one-sided infinite entries are refused, naming the entry.
 */
class MissingDistancesTest {
    private static Hdbscan precomputed(int minSamples, int threads) {
        return Hdbscan.builder().metric(Metric.precomputed()).minClusterSize(5).minSamples(minSamples)
                .threads(threads).build();
    }

    private static HdbscanResult fit(Hdbscan h, double[] m, int n) {
        return h.fit(m, n, n, ProgressListener.NONE, CancellationToken.NEVER);
    }

    /** {@code m} with {@code +inf} wherever {@code keep} has no entry. */
    private static double[] missingWhereNotKept(double[] m, boolean[] keep) {
        double[] out = m.clone();
        for (int i = 0; i < out.length; i++) if (!keep[i]) out[i] = Double.POSITIVE_INFINITY;
        return out;
    }

    @Test
    void infinityForEveryPairNotStoredIsBitwiseTheSparseGraphsFit() {
        // 1 200 points: more than Prim's parallel threshold, so the chunked rounds run too
        for (int n : new int[] {300, 1200}) {
            double[] m = GraphSpanningTreeTest.matrix(GraphSpanningTreeTest.gaussian(n, 3, 21), n, 3);
            boolean[] keep = GraphSpanningTreeTest.knn(m, n, 8);
            DistanceGraph g = GraphSpanningTreeTest.csr(m, n, keep, null);
            double[] dense = missingWhereNotKept(m, keep);
            for (int ms : new int[] {1, 5}) {
                HdbscanResult sparse = precomputed(ms, 1).fit(g);
                for (int threads : new int[] {1, 3}) {
                    SameResult.assertSameResult(sparse, fit(precomputed(ms, threads), dense, n),
                            "n " + n + ", min_samples " + ms + ", threads " + threads);
                }
            }
        }
    }

    @Test
    void groupsNoDistanceJoinsAreJoinedByInfiniteEdgesInTheTieOrder() {
        int n = 120;
        double[] m = GraphSpanningTreeTest.matrix(GraphSpanningTreeTest.gaussian(n, 2, 22), n, 2);
        // three groups, rows 0-39, 40-79, 80-119, with no distance between groups
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) if (i / 40 != j / 40) m[i * n + j] = Double.POSITIVE_INFINITY;
        // and one point (7) that knows only 2 others: its core distance at min_samples 4 is infinite
        for (int j = 0; j < n; j++) {
            if (j != 7 && j != 3 && j != 11) m[7 * n + j] = m[j * n + 7] = Double.POSITIVE_INFINITY;
        }
        for (int ms : new int[] {1, 4}) {
            HdbscanResult r = fit(precomputed(ms, 2), m, n);
            SpanningTree t = r.spanningTree();
            double[] core = r.coreDistances();
            assertEquals(ms == 4, Double.isInfinite(core[7]), "point 7's core distance at min_samples " + ms);
            assertEquals(GraphSpanningTreeTest.prim(m, n, GraphSpanningTreeTest.all(n), core), t, "min_samples " + ms);
            int infinite = 0;
            for (double w : t.weightArray()) if (w == Double.POSITIVE_INFINITY) infinite++;
            assertEquals(ms == 4 ? 3 : 2, infinite, "one infinite edge per group joined (and point 7's)");
            // the last edges join the groups: the lightest pairs under the tie order, (0, 40) and (0, 80)
            int e = t.edges() - 1;
            assertEquals(80, t.to(e));
            assertEquals(0, t.from(e));
            for (int threads : new int[] {1, 3}) {
                SameResult.assertSameResult(r, fit(precomputed(ms, threads), m, n), threads + " threads");
            }
            // no cluster spans two groups, and each group has clustered points
            int[] labels = r.labels();
            int[] groupOf = new int[n];
            Arrays.fill(groupOf, -1);
            boolean[] clustered = new boolean[3];
            for (int i = 0; i < n; i++) {
                if (labels[i] < 0) continue;
                assertTrue(groupOf[labels[i]] < 0 || groupOf[labels[i]] == i / 40, "cluster " + labels[i] + " spans groups");
                groupOf[labels[i]] = i / 40;
                clustered[i / 40] = true;
            }
            assertArrayEquals(new boolean[] {true, true, true}, clustered, Arrays.toString(labels));
        }
    }

    @Test
    void infiniteEdgesAreTheSameOnOneThreadOrManyInPrimsChunkedRounds() {
        // 1 200 points in three groups no distance joins: the rounds that choose the infinite edges run in chunks
        int n = 1200;
        double[] m = GraphSpanningTreeTest.matrix(GraphSpanningTreeTest.gaussian(n, 3, 25), n, 3);
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) if (i % 3 != j % 3) m[i * n + j] = Double.POSITIVE_INFINITY;
        HdbscanResult one = fit(precomputed(4, 1), m, n);
        SpanningTree t = one.spanningTree();
        assertEquals(Double.POSITIVE_INFINITY, t.weight(t.edges() - 2));
        assertTrue(t.weight(t.edges() - 3) < Double.POSITIVE_INFINITY);
        // the lightest pairs joining the groups under the tie order: (0, 1), then (0, 2)
        assertEquals(List.of(0, 1, 0, 2), List.of(t.from(t.edges() - 2), t.to(t.edges() - 2), t.from(t.edges() - 1),
                t.to(t.edges() - 1)));
        for (int threads : new int[] {2, 3, 8}) {
            SameResult.assertSameResult(one, fit(precomputed(4, threads), m, n), threads + " threads");
        }
    }

    @Test
    void rowsWithMissingDistancesAreNotLeftOutAsNonFiniteRows() {
        int n = 60;
        double[] m = GraphSpanningTreeTest.matrix(GraphSpanningTreeTest.gaussian(n, 2, 23), n, 2);
        m[2 * n + 9] = m[9 * n + 2] = Double.POSITIVE_INFINITY;
        Hdbscan sk = Hdbscan.builder().metric(Metric.precomputed()).minClusterSize(5).nonFinite(NonFinitePolicy.SKLEARN)
                .build();
        HdbscanResult r = fit(sk, m, n);
        assertEquals(n, r.labels().length);
        assertTrue(Arrays.stream(r.labels()).noneMatch(l -> l < -1), "no row labelled as non-finite");
        SameResult.assertSameResult(fit(precomputed(5, 1), m, n), r);
    }

    @Test
    void nanNegativeAndOneSidedInfinitiesAreRefused() {
        int n = 4;
        double[] base = GraphSpanningTreeTest.matrix(GraphSpanningTreeTest.gaussian(n, 2, 24), n, 2);
        double[] nan = base.clone();
        nan[1] = nan[n] = Double.NaN;
        assertTrue(refusal(nan, n).contains("entry (0, 1) is NaN; distances must be >= 0 (+inf for a missing distance;"));
        double[] minus = base.clone();
        minus[2] = minus[2 * n] = Double.NEGATIVE_INFINITY;
        assertTrue(refusal(minus, n).contains("entry (0, 2) is -Infinity"));
        double[] oneSided = base.clone();
        oneSided[n + 3] = Double.POSITIVE_INFINITY;
        assertTrue(refusal(oneSided, n).contains("not symmetric: entry (1, 3) is Infinity but (3, 1) is"));
        double[] otherSide = base.clone();
        otherSide[3 * n + 1] = Double.POSITIVE_INFINITY;
        assertTrue(refusal(otherSide, n).contains("not symmetric: entry (1, 3) is"));
        double[] diagonal = base.clone();
        diagonal[n + 1] = Double.POSITIVE_INFINITY;
        assertTrue(refusal(diagonal, n).contains("diagonal entry (1, 1) is Infinity"));
        double[] both = base.clone();
        both[n + 3] = both[3 * n + 1] = Double.POSITIVE_INFINITY;
        assertArrayEquals(new int[] {-1, -1, -1, -1},
                fit(Hdbscan.builder().metric(Metric.precomputed()).minClusterSize(5).minSamples(2).build(), both, n)
                        .labels());
    }

    /**
     * A matrix computed in floating point ({@code 1 - cosine_similarity(X)}) holds round-off where a distance is 0:
     * on the diagonal and between identical rows, either sign. Up to 1e-9 it is read as 0, bitwise the fit of the
     * exact matrix; beyond, refused naming the entry.
     */
    @Test
    void roundOffAtZeroIsReadAsZero() {
        int n = 30;
        double[] x = GraphSpanningTreeTest.gaussian(n, 2, 31);
        x[2] = x[0];   // rows 0 and 1 the same point
        x[3] = x[1];
        double[] exact = GraphSpanningTreeTest.matrix(x, n, 2);
        double[] rounded = exact.clone();
        for (int i = 0; i < n; i++) rounded[i * n + i] = i % 2 == 0 ? 2.220446049250313e-16 : -1.1102230246251565e-16;
        rounded[1] = rounded[n] = -4.440892098500626e-16;   // the identical pair
        rounded[n + 1] = 1e-9;   // at the tolerance
        rounded[2 * n + 2] = -0.0;
        for (int ms : new int[] {1, 2, 5}) {
            SameResult.assertSameResult(fit(precomputed(ms, 1), exact, n), fit(precomputed(ms, 1), rounded, n));
        }
        double[] diagonal = exact.clone();
        diagonal[n + 1] = 2e-9;
        assertTrue(refusal(diagonal, n).contains("diagonal entry (1, 1) is 2.0E-9; a point's distance to itself must "
                + "be 0 (round-off up to 1e-9 is read as 0)"), refusal(diagonal, n));
        double[] negative = exact.clone();
        negative[2] = negative[2 * n] = -2e-9;
        assertTrue(refusal(negative, n).contains("entry (0, 2) is -2.0E-9; distances must be >= 0"), refusal(negative, n));
    }

    private static String refusal(double[] m, int n) {
        return assertThrows(InvalidInputException.class, () -> fit(precomputed(2, 1), m, n)).getMessage();
    }
}
