package org.sylva.balltree.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sylva.kernels.LaneSubtrees;

/** The lane queue's keys and counts, and who may hold a thread's queues ({@link SplitWorkspace.Scratch}). */
class LaneQueueTest {

    @Test
    void keysNameEverySizeAndSpanOnce() {
        boolean[] seen = new boolean[LaneQueue.KEYS];
        for (int span = 4; span <= LaneSubtrees.MAX; span *= 2) {
            for (int size = span / 2; size <= span; size++) {
                int k = LaneQueue.key(size, span);
                assertFalse(seen[k], "key " + k + " twice");
                seen[k] = true;
                assertEquals(size, LaneQueue.size(k));
                assertEquals(span, LaneQueue.span(k));
            }
        }
    }

    @Test
    void theEighthNodeOfAShapeFillsItsQueue() {
        LaneQueue q = new LaneQueue();
        for (int i = 0; i < LaneSubtrees.LANES - 1; i++) {
            assertEquals(-1, q.add(20, 32, 100 * i, 64 * i));
            assertEquals(-1, q.add(21, 32, 100 * i + 50, 64 * i + 32), "another shape has its own queue");
        }
        int k = q.add(20, 32, 700, 448);
        assertEquals(LaneQueue.key(20, 32), k);
        assertEquals(LaneSubtrees.LANES, q.count(k));
        assertEquals(700, q.starts(k)[LaneSubtrees.LANES - 1]);
        assertEquals(448, q.slots(k)[LaneSubtrees.LANES - 1]);
        q.clear(k);
        assertEquals(0, q.count(k));
        assertEquals(LaneSubtrees.LANES - 1, q.count(LaneQueue.key(21, 32)));
        q.clearAll();
        assertEquals(0, q.count(LaneQueue.key(21, 32)));
    }

    @Test
    void aHeldBatchQueueIsNeverHandedOutTwice() {
        // A task holds the thread's queue across joins; a task the thread runs meanwhile gets its own.
        SplitWorkspace.Scratch sc = new SplitWorkspace.Scratch();
        LaneQueue outer = sc.takeBatchQueue();
        outer.add(17, 32, 0, 0);
        LaneQueue inner = sc.takeBatchQueue();
        assertNotSame(outer, inner);
        assertEquals(0, inner.count(LaneQueue.key(17, 32)));
        sc.releaseBatchQueue(inner);
        assertTrue(outer.taken, "giving back the inner queue must not free the outer one");
        assertNotSame(outer, sc.takeBatchQueue(), "still held");
        assertEquals(1, outer.count(LaneQueue.key(17, 32)));
        sc.releaseBatchQueue(outer);
        assertFalse(outer.taken);
        assertEquals(0, outer.count(LaneQueue.key(17, 32)), "given back empty");
        assertSame(outer, sc.takeBatchQueue(), "free again: the thread's own queue");
    }
}
