package org.sylva.balltree.layout;

import java.util.Arrays;
import org.sylva.data.InvalidInputException;

/**
 * How {@code n} points fall into batches, and where each batch's tree lives in the output.
 *
 * <p>Batches are maximal runs of equal batch ids. Ids must start at 0, never decrease and never skip a
 * value (so batch {@code b} is the {@code b}-th run); anything else is refused with the position of the
 * first offending id. A batch of {@code m >= 2} points gets {@code L = ceil(log2 m) - 1} levels below
 * its root and {@code 2^(L+1)} slots (the next power of two {@code >= m}); a batch of one point gets
 * {@code L = 0} and two slots {@code [p, p]}. Trees are laid out one after another in batch order.
 *
 * <pre>{@code
 * BatchLayout layout = BatchLayout.of(5, new int[] {0, 0, 0, 1, 1});
 * int b = layout.batchCount();        // 2
 * int slots = layout.totalSlots();    // 4 + 2 = 6
 * int l0 = layout.levels(0);          // 1
 * }</pre>
 */
public final class BatchLayout {
    /** Largest total number of slots: the output arrays are Java arrays. */
    static final int MAX_SLOTS = Integer.MAX_VALUE - 16;

    private final int[] pointOffsets;
    private final int[] slotOffsets;
    private final int[] levels;

    private BatchLayout(int[] pointOffsets) {
        int batches = pointOffsets.length - 1;
        this.pointOffsets = pointOffsets;
        this.slotOffsets = new int[batches + 1];
        this.levels = new int[batches];
        long slots = 0;
        for (int b = 0; b < batches; b++) {
            int m = pointOffsets[b + 1] - pointOffsets[b];
            int lv = levelsFor(m);
            levels[b] = lv;
            slots += 2L << lv;
            if (slots > MAX_SLOTS) {
                throw new InvalidInputException("the tree would need " + slots + "+ slots (batch " + b
                        + " and before); at most " + MAX_SLOTS + " fit in one output array");
            }
            slotOffsets[b + 1] = (int) slots;
        }
    }

    /** {@code L} for a batch of {@code m >= 1} points: {@code ceil(log2 m) - 1}, and 0 for {@code m = 1}. */
    public static int levelsFor(int m) {
        if (m <= 2) return 0;
        return 31 - Integer.numberOfLeadingZeros(m - 1);
    }

    /** All {@code n} points in one batch ({@code n = 0}: no batch at all). */
    public static BatchLayout single(int n) {
        if (n < 0) throw new InvalidInputException("number of points must be >= 0, got " + n);
        return new BatchLayout(n == 0 ? new int[] {0} : new int[] {0, n});
    }

    /**
     * Batches from one id per point; {@code ids == null} means one batch. Throws
     * {@link InvalidInputException} for a length other than {@code n}, or ids that do not start at 0,
     * decrease or skip a value (naming the first offending position and the values).
     */
    public static BatchLayout of(int n, int[] ids) {
        if (ids == null) return single(n);
        checkLength(n, ids.length);
        int[] offsets = new int[countRuns(ids) + 1];
        int b = 0;
        for (int i = 1; i < n; i++) {
            if (ids[i] != ids[i - 1]) offsets[++b] = i;
        }
        offsets[offsets.length - 1] = n;
        return new BatchLayout(offsets);
    }

    /** As {@link #of(int, int[])} for 64-bit ids (what numpy and torch usually hold). */
    public static BatchLayout of(int n, long[] ids) {
        if (ids == null) return single(n);
        checkLength(n, ids.length);
        int runs = 0;
        if (n > 0) {
            if (ids[0] != 0) throw firstIdNotZero(Long.toString(ids[0]));
            runs = 1;
            for (int i = 1; i < n; i++) {
                long prev = ids[i - 1], cur = ids[i];
                if (cur == prev + 1) {
                    runs++;
                } else if (cur != prev) {
                    throw badStep(i, Long.toString(prev), Long.toString(cur), cur < prev);
                }
            }
        }
        int[] offsets = new int[runs + 1];
        int b = 0;
        for (int i = 1; i < n; i++) {
            if (ids[i] != ids[i - 1]) offsets[++b] = i;
        }
        offsets[runs] = n;
        return new BatchLayout(offsets);
    }

    /**
     * Batches from their point offsets: {@code offsets[0] = 0}, strictly increasing (no empty batch),
     * last = {@code n}.
     */
    public static BatchLayout ofOffsets(int n, int[] offsets) {
        if (offsets == null || offsets.length == 0) throw new InvalidInputException("batch offsets are missing");
        if (offsets[0] != 0) throw new InvalidInputException("batch offsets must start at 0, got " + offsets[0]);
        for (int b = 1; b < offsets.length; b++) {
            if (offsets[b] <= offsets[b - 1]) {
                throw new InvalidInputException("batch offsets must increase strictly: offsets[" + b + "] = "
                        + offsets[b] + " after offsets[" + (b - 1) + "] = " + offsets[b - 1]);
            }
        }
        if (offsets[offsets.length - 1] != n) {
            throw new InvalidInputException("the last batch offset is " + offsets[offsets.length - 1]
                    + " but there are " + n + " points");
        }
        return new BatchLayout(offsets.clone());
    }

    private static int countRuns(int[] ids) {
        int n = ids.length;
        if (n == 0) return 0;
        if (ids[0] != 0) throw firstIdNotZero(Integer.toString(ids[0]));
        int runs = 1;
        for (int i = 1; i < n; i++) {
            int prev = ids[i - 1], cur = ids[i];
            if (cur == prev + 1 && prev != Integer.MAX_VALUE) {
                runs++;
            } else if (cur != prev) {
                throw badStep(i, Integer.toString(prev), Integer.toString(cur), cur < prev);
            }
        }
        return runs;
    }

    private static void checkLength(int n, int len) {
        if (n < 0) throw new InvalidInputException("number of points must be >= 0, got " + n);
        if (len != n) {
            throw new InvalidInputException("batch ids have length " + len + " but there are " + n + " points");
        }
    }

    private static InvalidInputException firstIdNotZero(String id) {
        return new InvalidInputException("batch id at position 0 is " + id
                + "; batch ids must start at 0, never decrease and never skip a value");
    }

    private static InvalidInputException badStep(int i, String prev, String cur, boolean decreases) {
        return new InvalidInputException("batch id at position " + i + " is " + cur + " after " + prev
                + " at position " + (i - 1) + (decreases ? " (ids decrease)" : " (ids skip a value)")
                + "; batch ids must start at 0, never decrease and never skip a value");
    }

    /** Number of points over all batches. */
    public int pointCount() {
        return pointOffsets[pointOffsets.length - 1];
    }

    /** Number of batches (0 for no points). */
    public int batchCount() {
        return levels.length;
    }

    /** First point (global row) of batch {@code b}. */
    public int pointStart(int b) {
        return pointOffsets[b];
    }

    /** Number of points in batch {@code b}. */
    public int batchSize(int b) {
        return pointOffsets[b + 1] - pointOffsets[b];
    }

    /** {@code L} of batch {@code b}: its leaves are at level {@code L}, it has {@code 2^(L+1)} slots. */
    public int levels(int b) {
        return levels[b];
    }

    /** First slot of batch {@code b}'s tree in the concatenated output. */
    public int slotStart(int b) {
        return slotOffsets[b];
    }

    /** Number of slots of batch {@code b}: {@code 2^(L+1)}. */
    public int slotCount(int b) {
        return slotOffsets[b + 1] - slotOffsets[b];
    }

    /** Total slots of all trees. */
    public int totalSlots() {
        return slotOffsets[slotOffsets.length - 1];
    }

    /** Point offsets, length {@code batchCount() + 1} (a copy). */
    public int[] pointOffsets() {
        return pointOffsets.clone();
    }

    /** Slot offsets, length {@code batchCount() + 1} (a copy). */
    public int[] slotOffsets() {
        return slotOffsets.clone();
    }

    /** {@code L} per batch (a copy). */
    public int[] levels() {
        return levels.clone();
    }

    /** The batch holding slot {@code slot} (binary search over the slot offsets). */
    public int batchOfSlot(int slot) {
        if (slot < 0 || slot >= totalSlots()) {
            throw new IndexOutOfBoundsException("slot " + slot + " outside [0, " + totalSlots() + ")");
        }
        int i = Arrays.binarySearch(slotOffsets, slot);
        return i >= 0 ? i : -i - 2;
    }

    /** The batch holding point (global row) {@code row}. */
    public int batchOfPoint(int row) {
        if (row < 0 || row >= pointCount()) {
            throw new IndexOutOfBoundsException("row " + row + " outside [0, " + pointCount() + ")");
        }
        int i = Arrays.binarySearch(pointOffsets, row);
        return i >= 0 ? i : -i - 2;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BatchLayout other && Arrays.equals(pointOffsets, other.pointOffsets);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(pointOffsets);
    }

    @Override
    public String toString() {
        return "BatchLayout[points=" + pointCount() + ", batches=" + batchCount() + ", slots=" + totalSlots() + "]";
    }
}
