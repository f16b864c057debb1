package org.sylva.testsupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.sylva.hdbscan.HdbscanResult;

/**
 * Two HDBSCAN results compared output by output, bitwise: what a rebuilt, reloaded or distributed result
 * must equal the library's fit in ({@code assertArrayEquals} on doubles and the trees' {@code equals} compare
 * bits). The timings are not compared.
 *
 * <pre>{@code
 * SameResult.assertSameResult(hdbscan.fit(points), HdbscanResult.of(model));
 * }</pre>
 */
public final class SameResult {
    private SameResult() {
    }

    /** Every output of {@code actual} equals {@code expected}'s. */
    public static void assertSameResult(HdbscanResult expected, HdbscanResult actual) {
        assertEquals(expected.parameters(), actual.parameters());
        assertEquals(expected.size(), actual.size());
        assertEquals(expected.dimensions(), actual.dimensions());
        assertEquals(expected.fittedPoints(), actual.fittedPoints());
        assertArrayEquals(expected.fittedRows(), actual.fittedRows());
        assertArrayEquals(expected.labels(), actual.labels());
        assertArrayEquals(expected.probabilities(), actual.probabilities());
        assertArrayEquals(expected.outlierScores(), actual.outlierScores());
        assertArrayEquals(expected.coreDistances(), actual.coreDistances());
        assertEquals(expected.spanningTree(), actual.spanningTree());
        assertEquals(expected.singleLinkageTree(), actual.singleLinkageTree());
        assertEquals(expected.condensedTree(), actual.condensedTree());
        assertArrayEquals(expected.clusterPersistence(), actual.clusterPersistence());
        assertArrayEquals(expected.selectedClusters(), actual.selectedClusters());
        assertEquals(expected.clusterCount(), actual.clusterCount());
        assertEquals(expected.noiseCount(), actual.noiseCount());
    }
}
