package org.sylva.balltree;

import org.sylva.data.InvalidInputException;

/**
 * Slot arithmetic of a perfect binary ball tree with {@code L} levels below the root
 * ({@code 2^(L+1)} slots, slots relative to the batch's first slot).
 *
 * <p>A node is named by its level {@code l} ({@code 0} = root, {@code L} = leaves) and its position
 * {@code t} from the left ({@code 0 <= t < 2^l}); it covers the {@code 2^(L+1-l)} slots starting at
 * {@code t << (L+1-l)}. Its children are {@code (l+1, 2t)} and {@code (l+1, 2t+1)}, its parent
 * {@code (l-1, t/2)}. A ball of {@code 2^k} consecutive slots is the node at level {@code L+1-k};
 * ball {@code j} of size {@code 2^k} covers slots {@code [j << k, (j+1) << k)}, which is how Erwin
 * groups {@code x[tree_idx]} into balls.
 *
 * <pre>{@code
 * int ball = TreeSlots.ballOf(37, 4);           // 2: slots [32, 48)
 * int first = TreeSlots.ballStart(ball, 4);     // 32
 * int leaf = TreeSlots.leafOf(37);              // 18: slots 36 and 37
 * int parent = TreeSlots.parent(5);             // 2
 * }</pre>
 */
public final class TreeSlots {
    private TreeSlots() { }

    /** The ball of {@code 2^k} slots holding {@code slot}. */
    public static int ballOf(int slot, int k) {
        checkK(k);
        checkIndex("slot", slot, Integer.MAX_VALUE);
        return slot >>> k;
    }

    /** First slot of ball {@code ball} of size {@code 2^k}. */
    public static int ballStart(int ball, int k) {
        checkK(k);
        checkIndex("ball", ball, (Integer.MAX_VALUE >> k) + 1L);
        return ball << k;
    }

    /** One past the last slot of ball {@code ball} of size {@code 2^k}. */
    public static int ballEnd(int ball, int k) {
        checkK(k);
        checkIndex("ball", ball, Integer.MAX_VALUE >> k);   // its end, (ball + 1) << k, is an int too
        return (ball + 1) << k;
    }

    /** Number of balls of {@code 2^k} slots in {@code slots} slots (rounded up). */
    public static int ballCount(int slots, int k) {
        checkK(k);
        checkIndex("slot count", slots, Integer.MAX_VALUE + 1L);
        return (int) (((long) slots + (1L << k) - 1) >>> k);
    }

    /** The leaf (slot pair {@code 2i, 2i+1}) holding {@code slot}. */
    public static int leafOf(int slot) {
        checkIndex("slot", slot, Integer.MAX_VALUE);
        return slot >>> 1;
    }

    /** The other slot of {@code slot}'s leaf. */
    public static int sibling(int slot) {
        checkIndex("slot", slot, Integer.MAX_VALUE);
        return slot ^ 1;
    }

    /** Position of the parent of the node at position {@code t} (one level up). */
    public static int parent(int t) {
        checkIndex("position", t, Integer.MAX_VALUE);
        return t >>> 1;
    }

    /** Position of the left child of the node at position {@code t} (one level down). */
    public static int leftChild(int t) {
        checkIndex("position", t, 1 << 30);
        return t << 1;
    }

    /** Position of the right child of the node at position {@code t} (one level down). */
    public static int rightChild(int t) {
        checkIndex("position", t, 1 << 30);
        return (t << 1) | 1;
    }

    /** Number of slots under a node at level {@code l} of a tree with {@code L} levels. */
    public static int nodeSlotCount(int l, int levels) {
        checkLevel(l, levels);
        return 1 << (levels + 1 - l);
    }

    /** First slot of the node at level {@code l}, position {@code t}, of a tree with {@code L} levels. */
    public static int nodeFirstSlot(int l, int t, int levels) {
        checkLevel(l, levels);
        checkIndex("position at level " + l, t, 1L << l);
        return t << (levels + 1 - l);
    }

    /** Position of the node at level {@code l} that covers {@code slot}, in a tree with {@code L} levels. */
    public static int nodeOfSlot(int slot, int l, int levels) {
        checkLevel(l, levels);
        checkIndex("slot of a tree of " + levels + " levels", slot, 1L << (levels + 1));
        return slot >>> (levels + 1 - l);
    }

    /** Refuses {@code value} outside {@code [0, bound)}: a result beyond int's range would wrap silently. */
    private static void checkIndex(String what, int value, long bound) {
        if (value < 0 || value >= bound) {
            throw new InvalidInputException(what + " must be in [0, " + bound + "), got " + value);
        }
    }

    private static void checkK(int k) {
        if (k < 0 || k > 30) throw new InvalidInputException("ball level k must be in [0, 30], got " + k);
    }

    private static void checkLevel(int l, int levels) {
        if (levels < 0 || levels > 29) throw new InvalidInputException("levels L must be in [0, 29], got " + levels);
        if (l < 0 || l > levels) throw new InvalidInputException("level " + l + " outside [0, " + levels + "]");
    }
}
