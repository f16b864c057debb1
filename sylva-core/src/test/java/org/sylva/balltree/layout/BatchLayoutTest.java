package org.sylva.balltree.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;

/** Batches from ids or offsets: levels, slots, look-ups, and the refusals naming the first bad id. */
class BatchLayoutTest {
    @Test
    void levelsAreCeilLog2MinusOneWithTwoSlotsForOnePoint() {
        int[][] mLevels = {{1, 0}, {2, 0}, {3, 1}, {4, 1}, {5, 2}, {8, 2}, {9, 3}, {1024, 9}, {1025, 10}};
        for (int[] c : mLevels) {
            assertEquals(c[1], BatchLayout.levelsFor(c[0]), "m = " + c[0]);
            // 2^(L+1) slots: the next power of two >= m, and 2 for one point
            int slots = 2 << c[1];
            assertTrue(slots >= c[0] && (c[0] <= 2 || slots / 2 < c[0]), "m = " + c[0]);
        }
    }

    @Test
    void idsAndOffsetsGiveTheSameLayout() {
        int[] ids = {0, 0, 0, 1, 1, 2, 3, 3, 3, 3, 3};
        long[] longIds = new long[ids.length];
        for (int i = 0; i < ids.length; i++) longIds[i] = ids[i];
        BatchLayout a = BatchLayout.of(ids.length, ids);
        BatchLayout b = BatchLayout.of(ids.length, longIds);
        BatchLayout c = BatchLayout.ofOffsets(ids.length, new int[] {0, 3, 5, 6, 11});
        assertEquals(a, b);
        assertEquals(a, c);
        assertEquals(a.hashCode(), c.hashCode());
        assertEquals(4, a.batchCount());
        assertArrayEquals(new int[] {1, 0, 0, 2}, a.levels());
        assertArrayEquals(new int[] {0, 4, 6, 8, 16}, a.slotOffsets());
        assertEquals(16, a.totalSlots());
        assertEquals(11, a.pointCount());
        for (int row = 0; row < ids.length; row++) assertEquals(ids[row], a.batchOfPoint(row));
        for (int slot = 0; slot < 16; slot++) {
            int batch = a.batchOfSlot(slot);
            assertTrue(a.slotStart(batch) <= slot && slot < a.slotStart(batch) + a.slotCount(batch));
        }
        assertThrows(IndexOutOfBoundsException.class, () -> a.batchOfSlot(16));
        assertThrows(IndexOutOfBoundsException.class, () -> a.batchOfPoint(-1));
    }

    @Test
    void noPointsIsNoBatchAndNullIdsAreOneBatch() {
        assertEquals(0, BatchLayout.single(0).batchCount());
        assertEquals(BatchLayout.single(7), BatchLayout.of(7, (int[]) null));
        assertEquals(8, BatchLayout.single(7).totalSlots());
    }

    @Test
    void badIdsAreRefusedNamingTheFirstOffendingPosition() {
        assertMessage(() -> BatchLayout.of(3, new int[] {1, 1, 2}), "position 0 is 1");
        assertMessage(() -> BatchLayout.of(4, new int[] {0, 1, 0, 0}), "position 2 is 0 after 1", "decrease");
        assertMessage(() -> BatchLayout.of(3, new long[] {0, 0, 2}), "position 2 is 2 after 0", "skip");
        assertMessage(() -> BatchLayout.of(3, new int[] {0, 0}), "length 2", "3 points");
        assertMessage(() -> BatchLayout.ofOffsets(3, new int[] {0, 2, 2, 3}), "increase strictly");
        assertMessage(() -> BatchLayout.ofOffsets(3, new int[] {0, 2}), "last batch offset is 2");
    }

    private static void assertMessage(org.junit.jupiter.api.function.Executable e, String... parts) {
        InvalidInputException x = assertThrows(InvalidInputException.class, e);
        for (String p : parts) assertTrue(x.getMessage().contains(p), x.getMessage());
    }

    /** 64-bit ids are refused as int ids are: a first id other than 0, a decrease, a skip. */
    @Test
    void badLongIdsAreRefusedNamingTheFirstOffendingPosition() {
        assertMessage(() -> BatchLayout.of(3, new long[] {1, 1, 2}), "position 0 is 1");
        assertMessage(() -> BatchLayout.of(2, new long[] {-1, 0}), "position 0 is -1");
        assertMessage(() -> BatchLayout.of(4, new long[] {0, 1, 0, 0}), "position 2 is 0 after 1", "decrease");
        assertMessage(() -> BatchLayout.of(3, new long[] {0, 0}), "length 2", "3 points");
    }
}
