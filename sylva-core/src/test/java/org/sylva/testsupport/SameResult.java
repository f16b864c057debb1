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
        assertSameResult(expected, actual, null);
    }

    /** Every output of {@code actual} equals {@code expected}'s; {@code what} (or null) heads a failure. */
    public static void assertSameResult(HdbscanResult expected, HdbscanResult actual, String what) {
        assertEquals(expected.parameters(), actual.parameters(), what);
        assertEquals(expected.size(), actual.size(), what);
        assertEquals(expected.dimensions(), actual.dimensions(), what);
        assertEquals(expected.fittedPoints(), actual.fittedPoints(), what);
        assertArrayEquals(expected.fittedRows(), actual.fittedRows(), what);
        assertEquals(expected.weighted(), actual.weighted(), what);
        assertArrayEquals(expected.sampleWeights(), actual.sampleWeights(), what);
        assertArrayEquals(expected.labels(), actual.labels(), what);
        assertArrayEquals(expected.probabilities(), actual.probabilities(), what);
        assertArrayEquals(expected.outlierScores(), actual.outlierScores(), what);
        assertArrayEquals(expected.coreDistances(), actual.coreDistances(), what);
        assertEquals(expected.spanningTree(), actual.spanningTree(), what);
        assertEquals(expected.singleLinkageTree(), actual.singleLinkageTree(), what);
        assertEquals(expected.condensedTree(), actual.condensedTree(), what);
        assertArrayEquals(expected.clusterPersistence(), actual.clusterPersistence(), what);
        assertArrayEquals(expected.selectedClusters(), actual.selectedClusters(), what);
        assertEquals(expected.clusterCount(), actual.clusterCount(), what);
        assertEquals(expected.noiseCount(), actual.noiseCount(), what);
    }
}
