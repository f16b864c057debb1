package org.sylva.balltree.engine;

import java.util.Arrays;
import org.sylva.kernels.LaneSubtrees;

/**
 * Nodes of at most {@link LaneSubtrees#MAX} points waiting for a full set of {@link LaneSubtrees#LANES}
 * lanes. {@link LaneSubtrees} finishes eight nodes at once only when they have the same size and own
 * the same number of slots (the same subtree shape), so nodes queue by that pair. A queue can collect
 * nodes from many small batches: a batch of 32 points is a single such node, and batches of up to a
 * few hundred points leave fewer than eight of one shape, so only a queue that outlives one batch fills
 * the lanes. Whoever holds a queue finishes what is left in it (one node at a time) before giving it
 * back; every node's leaves are the same either way.
 *
 * <pre>{@code
 * int key = q.add(size, span, start, slot);
 * if (key >= 0) { lanes.finish(cols, idx, q.starts(key), size, span, q.slots(key), treeIdx, mask); q.clear(key); }
 * }</pre>
 */
final class LaneQueue {
    /** Keys: size 0..MAX times the four spans 4, 8, 16, 32. */
    static final int KEYS = (LaneSubtrees.MAX + 1) << 2;

    private final int[][] starts = new int[KEYS][LaneSubtrees.LANES];
    private final int[][] slots = new int[KEYS][LaneSubtrees.LANES];
    private final int[] queued = new int[KEYS];
    /** Held by a task (only ever read and written by the thread whose Scratch owns the queue). */
    boolean taken;

    /** The key of nodes of {@code size <= MAX} points owning {@code span} slots (4, 8, 16 or 32). */
    static int key(int size, int span) {
        return size << 2 | (Integer.numberOfTrailingZeros(span) - 2);
    }

    static int size(int key) {
        return key >>> 2;
    }

    static int span(int key) {
        return 4 << (key & 3);
    }

    /**
     * Queues the node at working position {@code start} whose subtree's slots start at {@code slot}.
     * Returns its key when that queue now holds {@link LaneSubtrees#LANES} nodes (the caller finishes
     * them and calls {@link #clear}), else -1.
     */
    int add(int size, int span, int start, int slot) {
        int k = key(size, span);
        int i = queued[k];
        starts[k][i] = start;
        slots[k][i] = slot;
        queued[k] = i + 1;
        return i + 1 == LaneSubtrees.LANES ? k : -1;
    }

    int count(int key) {
        return queued[key];
    }

    int[] starts(int key) {
        return starts[key];
    }

    int[] slots(int key) {
        return slots[key];
    }

    void clear(int key) {
        queued[key] = 0;
    }

    /** Forgets every queued node (after a failed or cancelled build: nothing may be written any more). */
    void clearAll() {
        Arrays.fill(queued, 0);
    }
}
