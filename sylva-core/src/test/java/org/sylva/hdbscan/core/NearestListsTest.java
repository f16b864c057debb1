package org.sylva.hdbscan.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.KernelProvider;

class NearestListsTest {
    /** The first {@code k} of {@code (d[i], o[i])} sorted by (distance, index), padded with (+inf, MAX). */
    static void bruteForce(double[] d, int[] o, int count, int k, double[] outD, int[] outO) {
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> {
            int c = Double.compare(d[a], d[b]);
            return c != 0 ? c : Integer.compare(o[a], o[b]);
        });
        Arrays.fill(outD, Double.POSITIVE_INFINITY);
        Arrays.fill(outO, Integer.MAX_VALUE);
        for (int r = 0; r < Math.min(k, count); r++) {
            outD[r] = d[order[r]];
            outO[r] = o[order[r]];
        }
    }

    @Test
    void insertionKeepsTheSmallestByDistanceThenIndex() {
        Random rnd = new Random(7);
        for (int k : new int[] {1, 2, 5, 21}) {
            for (int trial = 0; trial < 200; trial++) {
                int queries = 1 + rnd.nextInt(4);
                int count = rnd.nextInt(3 * k + 4);
                NearestLists qs = new NearestLists(PointIndex.LEAF_SIZE, k);
                qs.reset(queries, 0);
                double[][] d = new double[queries][count];
                int[][] o = new int[queries][count];
                for (int q = 0; q < queries; q++) {
                    // Few distinct distances and shuffled distinct indices: many ties, decided by index.
                    int[] ids = new int[count];
                    for (int i = 0; i < count; i++) ids[i] = i * 3 + q;
                    for (int i = count - 1; i > 0; i--) {
                        int j = rnd.nextInt(i + 1);
                        int t = ids[i];
                        ids[i] = ids[j];
                        ids[j] = t;
                    }
                    for (int i = 0; i < count; i++) {
                        d[q][i] = rnd.nextInt(4) * 0.5;
                        o[q][i] = ids[i];
                    }
                }
                double[] kd = new double[k];
                int[] ko = new int[k];
                for (int i = 0; i < count; i++) {
                    for (int q = 0; q < queries; q++) {
                        // Entered exactly when it precedes the current last entry.
                        double lastD = qs.dist[q * k + k - 1];
                        int lastO = qs.orig[q * k + k - 1];
                        boolean precedes = d[q][i] < lastD || (d[q][i] == lastD && o[q][i] < lastO);
                        assertEquals(precedes, qs.insert(q, d[q][i], o[q][i]));
                    }
                }
                double maxKth = 0.0;
                for (int q = 0; q < queries; q++) {
                    bruteForce(d[q], o[q], count, k, kd, ko);
                    assertArrayEquals(kd, Arrays.copyOfRange(qs.dist, q * k, q * k + k), "k=" + k + " query " + q);
                    assertArrayEquals(ko, Arrays.copyOfRange(qs.orig, q * k, q * k + k), "k=" + k + " query " + q);
                    maxKth = Math.max(maxKth, kd[k - 1]);
                }
                assertEquals(maxKth, qs.maxKth());
            }
        }
    }

    @Test
    void fillingFromAllCandidatesEqualsInsertingThemOneByOne() {
        Random rnd = new Random(24);
        for (int k : new int[] {1, 5, 70, 300}) {
            for (int trial = 0; trial < 60; trial++) {
                int count = rnd.nextInt(3 * k + 4);
                double[] d = new double[count];
                int[] o = new int[count];
                for (int i = 0; i < count; i++) {
                    d[i] = rnd.nextInt(6) * 0.5;
                    o[i] = i * 7 % (count * 7 + 1);   // distinct
                }
                NearestLists inserted = new NearestLists(2, k);
                inserted.reset(2, 0);
                for (int i = 0; i < count; i++) inserted.insert(1, d[i], o[i]);
                inserted.finish(1);
                NearestLists filled = new NearestLists(2, k);
                filled.reset(2, 0);
                filled.fill(1, d.clone(), o.clone(), count);
                assertArrayEquals(dists(inserted, 1, k), dists(filled, 1, k), "k=" + k);
                assertArrayEquals(origs(inserted, 1, k), origs(filled, 1, k), "k=" + k);
                // the insertion sort for entries nearly in order: the same list from any order, and from
                // sorted entries with a few neighbours swapped (how pass 3's exact values arrive)
                NearestLists near = new NearestLists(2, k);
                near.reset(2, 0);
                near.fillNearlySorted(1, d.clone(), o.clone(), count);
                assertArrayEquals(dists(inserted, 1, k), dists(near, 1, k), "any order, k=" + k);
                assertArrayEquals(origs(inserted, 1, k), origs(near, 1, k), "any order, k=" + k);
                double[] sd = d.clone();
                int[] so = o.clone();
                NearestLists all = new NearestLists(1, Math.max(count, 1));
                all.reset(1, 0);
                all.fill(0, sd, so, count);
                double[] nd = Arrays.copyOf(all.dist, count);
                int[] no = Arrays.copyOf(all.orig, count);
                for (int i = 0; i + 1 < count; i += 1 + rnd.nextInt(4)) {
                    double td = nd[i];
                    nd[i] = nd[i + 1];
                    nd[i + 1] = td;
                    int to = no[i];
                    no[i] = no[i + 1];
                    no[i + 1] = to;
                }
                near.reset(2, 0);
                near.fillNearlySorted(1, nd, no, count);
                assertArrayEquals(dists(inserted, 1, k), dists(near, 1, k), "nearly sorted, k=" + k);
                assertArrayEquals(origs(inserted, 1, k), origs(near, 1, k), "nearly sorted, k=" + k);
            }
        }
    }

    /** Query {@code q}'s list of {@code k} distances. */
    static double[] dists(NearestLists qs, int q, int k) {
        return Arrays.copyOfRange(qs.dist, q * qs.stride, q * qs.stride + k);
    }

    /** Query {@code q}'s list of {@code k} original indices. */
    static int[] origs(NearestLists qs, int q, int k) {
        return Arrays.copyOfRange(qs.orig, q * qs.stride, q * qs.stride + k);
    }

    /**
     * Lists longer than {@link NearestLists#BUFFER_ABOVE} fill as buffers: after {@link NearestLists#finish}
     * they are the sorted insertions' lists, from any offer order, with the selection's fallback sort too;
     * their bound never rises and never falls below the final k-th distance.
     */
    @Test
    void buffersGiveTheSortedListsAndABoundThatOnlyFalls() {
        Random rnd = new Random(31);
        for (int k : new int[] {NearestLists.BUFFER_ABOVE + 1, 70, 130, 700}) {
            for (int trial = 0; trial < (k > 200 ? 12 : 40); trial++) {
                int queries = 1 + rnd.nextInt(3);
                int count = rnd.nextInt(4 * k + 10);
                int budget = trial % 3 - 1;   // the default, none (sort at once), one partition
                NearestLists qs = new NearestLists(4, k);
                qs.partitionBudget = budget;
                qs.reset(queries, 0);
                double[][] d = new double[queries][count];
                int[][] o = new int[queries][count];
                double[] kd = new double[k];
                int[] ko = new int[k];
                for (int q = 0; q < queries; q++) {
                    for (int i = 0; i < count; i++) {
                        d[q][i] = rnd.nextInt(20) * 0.25;   // many ties, decided by index
                        o[q][i] = (i * 7919 + q) % (count * 7919 + 1);
                    }
                }
                double[] last = new double[queries];
                Arrays.fill(last, Double.POSITIVE_INFINITY);
                for (int i = 0; i < count; i++) {
                    for (int q = 0; q < queries; q++) {
                        qs.insert(q, d[q][i], o[q][i]);
                        assertTrue(qs.kth(q) <= last[q], "the bound never rises");
                        last[q] = qs.kth(q);
                    }
                }
                for (int q = 0; q < queries; q++) {
                    bruteForce(d[q], o[q], count, k, kd, ko);
                    assertTrue(qs.kth(q) >= kd[k - 1], "the bound covers the final list");
                    qs.finish(q);
                    assertArrayEquals(kd, dists(qs, q, k), "k=" + k + " query " + q + " budget " + budget);
                    assertArrayEquals(ko, origs(qs, q, k), "k=" + k + " query " + q + " budget " + budget);
                }
            }
        }
    }

    @Test
    void resetEmptiesOnlyTheListsInUse() {
        int k = 3;
        NearestLists qs = new NearestLists(4, k);
        qs.reset(2, 5);
        assertEquals(2, qs.m);
        assertEquals(5, qs.leaf);
        qs.insert(1, 2.0, 9);
        qs.insert(1, 1.0, 4);
        qs.insert(1, 1.0, 3);
        qs.insert(1, 0.5, 8);
        assertArrayEquals(new double[] {0.5, 1.0, 1.0}, Arrays.copyOfRange(qs.dist, k, 2 * k));
        assertArrayEquals(new int[] {8, 3, 4}, Arrays.copyOfRange(qs.orig, k, 2 * k));
        assertEquals(Double.POSITIVE_INFINITY, qs.maxKth());
        qs.clear();
        assertArrayEquals(new int[] {Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE}, Arrays.copyOfRange(qs.orig, k, 2 * k));
    }

    @Test
    void copiesListsToTheRowsOfTheOriginalIndices() {
        int n = 200, d = 2, k = 2;
        double[] rows = new double[n * d];
        for (int i = 0; i < rows.length; i++) rows[i] = (i * 37) % 101;
        PointIndex idx = PointIndex.build(rows, n, d, KernelProvider.get().scalarDistance());
        NearestLists qs = new NearestLists(PointIndex.LEAF_SIZE, k);
        int leaf = idx.leaves() - 1, start = idx.leafStart(leaf);
        for (int i = 0; i < idx.leafCount(leaf); i++) qs.pos[i] = start + i;
        qs.reset(idx.leafCount(leaf), leaf);
        for (int i = 0; i < qs.m; i++) qs.insert(i, i, 1000 + i);
        NearestLists other = new NearestLists(1, k);
        other.reset(1, leaf);
        other.insert(0, 0.25, 77);
        qs.copyList(0, other, 0);
        int[] outIdx = new int[n * k];
        double[] outDist = new double[n * k];
        qs.copyOut(idx, outIdx, outDist);
        for (int i = 0; i < qs.m; i++) {
            int o = idx.original(start + i);
            assertEquals(i == 0 ? 77 : 1000 + i, outIdx[o * k]);
            assertEquals(i == 0 ? 0.25 : i, outDist[o * k]);
            assertEquals(Integer.MAX_VALUE, outIdx[o * k + 1]);
        }
    }
}
