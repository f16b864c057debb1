package org.sylva.balltree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;

/** Batch layout, slot arithmetic and inverse permutations. */
class TreeHelpersTest {

    @Test
    void layoutOffsetsAndLevels() {
        BatchLayout l = BatchLayout.of(12, new long[] {0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 3, 4});
        assertArrayEquals(new int[] {0, 2, 5, 10, 11, 12}, l.pointOffsets());
        assertArrayEquals(new int[] {0, 1, 2, 0, 0}, l.levels());
        assertArrayEquals(new int[] {0, 2, 6, 14, 16, 18}, l.slotOffsets());
        assertEquals(18, l.totalSlots());
        assertEquals(2, l.batchOfSlot(6));
        assertEquals(2, l.batchOfSlot(13));
        assertEquals(3, l.batchOfPoint(10));
        assertEquals(l, BatchLayout.ofOffsets(12, new int[] {0, 2, 5, 10, 11, 12}));
        assertEquals(l, BatchLayout.of(12, new int[] {0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 3, 4}));
        for (int m = 1; m < 70; m++) {
            int lv = BatchLayout.levelsFor(m);
            assertTrue((2 << lv) >= m && (m <= 2 || (1 << lv) < m), "m=" + m);
        }
        assertThrows(InvalidInputException.class, () -> BatchLayout.ofOffsets(3, new int[] {0, 2, 2, 3}));
    }

    @Test
    void slotArithmetic() {
        // L = 3: 16 slots; level 1, position 1 covers slots [8, 16)
        assertEquals(8, TreeSlots.nodeFirstSlot(1, 1, 3));
        assertEquals(8, TreeSlots.nodeSlotCount(1, 3));
        assertEquals(1, TreeSlots.nodeOfSlot(13, 1, 3));
        assertEquals(6, TreeSlots.nodeOfSlot(13, 3, 3));
        assertEquals(2, TreeSlots.parent(5));
        assertEquals(10, TreeSlots.leftChild(5));
        assertEquals(11, TreeSlots.rightChild(5));
        assertEquals(2, TreeSlots.ballOf(37, 4));
        assertEquals(32, TreeSlots.ballStart(2, 4));
        assertEquals(48, TreeSlots.ballEnd(2, 4));
        assertEquals(3, TreeSlots.ballCount(40, 4));
        assertEquals(18, TreeSlots.leafOf(37));
        assertEquals(36, TreeSlots.sibling(37));
        assertThrows(InvalidInputException.class, () -> TreeSlots.ballOf(3, 31));
        assertThrows(InvalidInputException.class, () -> TreeSlots.nodeFirstSlot(4, 0, 3));
    }

    @Test
    void slotArithmeticRefusesWhatWouldWrapAroundInt() {
        // the largest arguments whose results are ints, then one beyond: refused rather than wrapped
        assertEquals(Integer.MAX_VALUE >> 4 << 4, TreeSlots.ballStart(Integer.MAX_VALUE >> 4, 4));
        assertThrows(InvalidInputException.class, () -> TreeSlots.ballStart(1 << 30, 4));   // wrapped to 0
        assertEquals((Integer.MAX_VALUE >> 4) << 4, TreeSlots.ballEnd((Integer.MAX_VALUE >> 4) - 1, 4));
        assertThrows(InvalidInputException.class, () -> TreeSlots.ballEnd(Integer.MAX_VALUE >> 4, 4));
        assertEquals(Integer.MAX_VALUE - 1, TreeSlots.leftChild((1 << 30) - 1));
        assertEquals(Integer.MAX_VALUE, TreeSlots.rightChild((1 << 30) - 1));
        assertThrows(InvalidInputException.class, () -> TreeSlots.leftChild(1 << 30));
        assertThrows(InvalidInputException.class, () -> TreeSlots.rightChild(1 << 30));
        // negative slots and positions, and positions beyond their level or tree
        assertThrows(InvalidInputException.class, () -> TreeSlots.ballOf(-1, 4));
        assertThrows(InvalidInputException.class, () -> TreeSlots.leafOf(-2));
        assertThrows(InvalidInputException.class, () -> TreeSlots.sibling(-1));
        assertThrows(InvalidInputException.class, () -> TreeSlots.parent(-5));
        assertThrows(InvalidInputException.class, () -> TreeSlots.ballCount(-1, 2));
        assertEquals(14, TreeSlots.nodeFirstSlot(3, 7, 3));
        assertThrows(InvalidInputException.class, () -> TreeSlots.nodeFirstSlot(3, 8, 3));
        assertEquals(7, TreeSlots.nodeOfSlot(15, 3, 3));
        assertThrows(InvalidInputException.class, () -> TreeSlots.nodeOfSlot(16, 3, 3));
    }

    @Test
    void treeInverseAndBalls() {
        PointSet p = BallTreeDeterminismTest.points(1000, 3, false, 3);
        int[] ids = new int[1000];
        Arrays.fill(ids, 600, 1000, 1);
        BallTree t = new BallTreeBuilder().build(p, ids);
        int[] where = t.slotOfPoint();
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, t.index(where[i]));
            assertTrue(t.isReal(where[i]));
        }
        float[] perSlot = new float[t.size() * 2];
        for (int s = 0; s < t.size(); s++) {
            perSlot[2 * s] = t.index(s);
            perSlot[2 * s + 1] = -t.index(s);
        }
        float[] back = t.toInputOrder(perSlot, 2);
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, back[2 * i]);
            assertEquals(-i, back[2 * i + 1]);
        }
        assertTrue(t.ballsAlignWithBatches(9)); // batches of 1024 and 512 slots
        assertFalse(t.ballsAlignWithBatches(10));
        long[] asLong = t.indicesAsLong();
        for (int s = 0; s < t.size(); s++) assertEquals(t.index(s), asLong[s]);
    }

    @Test
    void permutationInverse() {
        int[] perm = {2, 0, 3, 1};
        assertArrayEquals(new int[] {1, 3, 0, 2}, Permutations.inverse(perm));
        float[] back = Permutations.toInputOrder(new float[] {20, 0, 30, 10}, 1, perm);
        assertArrayEquals(new float[] {0, 10, 20, 30}, back);
        assertTrue(assertThrows(InvalidInputException.class, () -> Permutations.inverse(new int[] {0, 0})).getMessage()
                .contains("row 0"));
        assertThrows(InvalidInputException.class, () -> Permutations.inverse(new int[] {0, 2}));
        PointSet p = BallTreeDeterminismTest.points(500, 2, true, 4);
        int[] part = new BallTreeBuilder().partition(p, 4);
        int[] inv = Permutations.inverse(part);
        for (int i = 0; i < 500; i++) assertEquals(i, part[inv[i]]);
    }

    /** A tree of 30 levels would have 2^31 slots, beyond an int: refused, not wrapped to a negative count. */
    @Test
    void treesOfMoreThan29LevelsAreRefused() {
        assertEquals(1 << 30, TreeSlots.nodeSlotCount(0, 29));
        assertEquals((1 << 30) - 2, TreeSlots.nodeFirstSlot(29, (1 << 29) - 1, 29));
        assertThrows(InvalidInputException.class, () -> TreeSlots.nodeSlotCount(0, 30));
        assertThrows(InvalidInputException.class, () -> TreeSlots.nodeFirstSlot(0, 0, 30));
        assertThrows(InvalidInputException.class, () -> TreeSlots.nodeOfSlot(0, 0, 30));
        assertThrows(InvalidInputException.class, () -> TreeSlots.nodeSlotCount(0, -1));
    }

    /** Per-slot rows of another length than slots * width are refused, longer as well as shorter. */
    @Test
    void toInputOrderRefusesAnArrayOfAnotherLength() {
        BallTree t = new BallTreeBuilder().build(BallTreeDeterminismTest.points(100, 2, false, 8));
        assertEquals(100, t.toInputOrder(new float[t.size() * 3], 3).length / 3);
        assertThrows(InvalidInputException.class, () -> t.toInputOrder(new float[t.size() * 3 + 1], 3));
        assertThrows(InvalidInputException.class, () -> t.toInputOrder(new float[t.size() * 3 - 1], 3));
        assertThrows(InvalidInputException.class, () -> t.toInputOrder(new float[t.size() * 4], 3));
    }
}
