package org.sylva.hdbscan;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;

class MemoryBudgetTest {
    @Test
    void estimateGrowsWithPointsDimensionsAndNeighbours() {
        long base = MemoryBudget.estimateBytes(100_000, 61, 20);
        assertTrue(MemoryBudget.estimateBytes(200_000, 61, 20) > base);
        assertTrue(MemoryBudget.estimateBytes(100_000, 122, 20) > base);
        assertTrue(MemoryBudget.estimateBytes(100_000, 61, 40) > base);
        // the spike sorter's 500 000 clips fit in the 2 GB the benchmark allows beyond the input
        assertTrue(MemoryBudget.estimateBytes(500_000, 61, 20) < 2L << 30);
    }

    @Test
    void aFitTheHeapCannotHoldIsRefusedUpFrontWithTheFigures() {
        long n = Runtime.getRuntime().maxMemory() / 8;   // needs far more than the whole heap
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> MemoryBudget.check(n, 61, 20));
        assertTrue(e.getMessage().contains("GiB of heap") && e.getMessage().contains("-Xmx"), e.getMessage());
        assertDoesNotThrow(() -> MemoryBudget.check(10_000, 61, 20));
    }
}
