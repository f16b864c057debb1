package org.sylva.hdbscan.quality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.hierarchy.DbscanCut;
import org.sylva.hdbscan.mst.SpanningTree;

/**
 * DBSCAN* cuts against the {@code hdbscan} package's {@code dbscan_clustering} (0.8.43) at the three cut
 * distances of every visible case of {@code shared/oracle/hdbscan-more}: every point, labels up to a
 * renaming of clusters (a bijection, noise to noise), both on the reference spanning tree and on Sylva's
 * own fit (the partition depends only on the tree's weights, so there is no tie mask).
 */
class DbscanCutOracleTest {
    static Stream<String> cases() throws IOException {
        return MoreCase.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void cutsMatchTheReference(String prefix) throws IOException {
        MoreCase c = MoreCase.load(prefix);
        HdbscanResult own = c.fit();
        SpanningTree ref = c.referenceTree();
        List<?> cuts = (List<?>) c.get("dbscan");
        StringBuilder line = new StringBuilder(prefix + " DBSCAN* cuts:");
        for (int i = 0; i < cuts.size(); i++) {
            double cut = c.number("dbscan", i, "cut");
            int mcs = (int) c.number("dbscan", i, "min_cluster_size");
            String file = (String) c.get("dbscan", i, "file");
            int[] want = c.ints(file.substring(prefix.length()));
            int clusters = sameUpToRenaming(want, DbscanCut.labels(ref, cut, mcs), prefix + " reference tree, " + file);
            sameUpToRenaming(want, own.dbscanClustering(cut, mcs), prefix + " own fit, " + file);
            assertEquals((int) c.number("dbscan", i, "n_clusters"), clusters);
            line.append(String.format(Locale.ROOT, " %.6g -> %d clusters, all %d points equal;", cut, clusters, c.n()));
        }
        System.out.println(line);
    }

    /** Asserts a bijection of cluster ids with noise fixed; returns the number of clusters. */
    static int sameUpToRenaming(int[] want, int[] got, String what) {
        assertEquals(want.length, got.length, what);
        Map<Integer, Integer> forward = new HashMap<>(), backward = new HashMap<>();
        for (int i = 0; i < want.length; i++) {
            if (want[i] < 0 || got[i] < 0) {
                assertEquals(want[i], got[i], what + ": noise at point " + i);
                continue;
            }
            int w = want[i], g = got[i];
            assertEquals(g, (int) forward.computeIfAbsent(w, k -> g), what + ": point " + i);
            assertEquals(w, (int) backward.computeIfAbsent(g, k -> w), what + ": point " + i);
        }
        return forward.size();
    }

    @Test
    void cutsStrictlyAndNumbersBySmallestPoint() {
        // Chain 0-1 (1.0), 1-2 (2.0), 3-4 (1.0), 2-3 (5.0), 5 joined at 9.
        SpanningTree t = SpanningTree.of(6, new int[] {3, 1, 0, 2, 4}, new int[] {4, 2, 1, 3, 5},
                new double[] {1, 2, 1, 5, 9});
        assertArrayEquals(new int[] {0, 0, -1, 1, 1, -1}, DbscanCut.labels(t, 2.0, 2));   // 1-2 at 2.0 is not below
        assertArrayEquals(new int[] {0, 0, 0, 1, 1, -1}, DbscanCut.labels(t, 2.5, 2));
        assertArrayEquals(new int[] {0, 0, 0, -1, -1, -1}, DbscanCut.labels(t, 2.5, 3));
        assertArrayEquals(new int[] {0, 0, 0, 0, 0, 0}, DbscanCut.labels(t, Double.POSITIVE_INFINITY, 1));
        assertThrows(InvalidInputException.class, () -> DbscanCut.labels(t, Double.NaN, 2));
        assertThrows(InvalidInputException.class, () -> DbscanCut.labels(t, 1.0, 0));
    }
}
