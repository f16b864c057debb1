package org.sylva.hdbscan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.sylva.data.PointSet;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

/**
 * The hierarchy after the spanning tree (single linkage, condensed tree, selection, scores) looks at the
 * token between its steps (issue 24: a cancel is seen within one step, a fraction of a second at two
 * million points), and a token never cancelled changes nothing.
 */
class HierarchyCancelTest {
    @Test
    void theHierarchyLooksAtTheTokenBetweenItsSteps() {
        int n = 400, d = 2;
        double[] x = WeightedFitTest.blobs(n, d, 5, false);
        Hdbscan h = Hdbscan.builder().minClusterSize(8).build();
        HdbscanResult r = h.fit(PointSet.ofFloat64(n, d, x));
        FiniteRows rows = FiniteRows.of(x, n, d, NonFinitePolicy.REJECT);
        for (int stopAt = 1; stopAt <= 4; stopAt++) {
            AtomicInteger looks = new AtomicInteger();
            int limit = stopAt;
            CancellationToken token = CancellationToken.polling(() -> looks.incrementAndGet() >= limit);
            assertThrows(CancelledException.class, () -> HdbscanResult.fromSpanningTree(h.parameters(), n, d, rows,
                    r.coreDistances(), r.spanningTree(), Map.of(), token));
            assertEquals(limit, looks.get(), "stopped at look " + limit);
        }
        AtomicInteger looks = new AtomicInteger();
        HdbscanResult again = HdbscanResult.fromSpanningTree(h.parameters(), n, d, rows, r.coreDistances(),
                r.spanningTree(), Map.of(), CancellationToken.polling(() -> looks.incrementAndGet() < 0));
        assertEquals(4, looks.get(), "four looks between five steps");
        assertEquals(r.condensedTree(), again.condensedTree());
        org.junit.jupiter.api.Assertions.assertArrayEquals(r.labels(), again.labels());
    }
}
