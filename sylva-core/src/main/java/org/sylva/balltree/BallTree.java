package org.sylva.balltree;

import java.util.Arrays;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.InvalidInputException;

/**
 * Erwin's perfect binary ball tree over one or more batches, as flat slot arrays (immutable).
 *
 * <p>Batch {@code b} owns slots {@code [slotStart(b), slotStart(b) + 2^(L_b+1))}; inside it, leaf
 * {@code i} is the slot pair {@code (2i, 2i+1)}, and the node at level {@code l}, position {@code t}
 * covers the {@code 2^(L_b+1-l)} slots from {@code t << (L_b+1-l)} (see {@link TreeSlots}).
 * {@link #index(int)} is the global input row held by a slot; {@link #isReal(int)} is false only for
 * the padding of a one-point leaf, which is always the odd slot and repeats the even one. A two-point
 * leaf lists the smaller row first.
 *
 * <pre>{@code
 * BallTree t = new BallTreeBuilder().build(points, batchIds);
 * int[] rows = t.indices();              // tree_idx
 * boolean[] real = t.mask();             // mask
 * int[] where = t.slotOfPoint();         // inverse: the real slot of each input row
 * }</pre>
 */
public final class BallTree {
    private final BatchLayout layout;
    private final int[] idx;
    private final byte[] mask;

    BallTree(BatchLayout layout, int[] idx, byte[] mask) {
        this.layout = layout;
        this.idx = idx;
        this.mask = mask;
    }

    /** The batches, their point and slot offsets and levels. */
    public BatchLayout layout() {
        return layout;
    }

    /** Total number of slots (over all batches). */
    public int size() {
        return idx.length;
    }

    /** Number of input points. */
    public int pointCount() {
        return layout.pointCount();
    }

    /** Global input row held by {@code slot}. */
    public int index(int slot) {
        return idx[slot];
    }

    /** False only for a padding slot (the odd slot of a one-point leaf). */
    public boolean isReal(int slot) {
        return mask[slot] != 0;
    }

    /** {@code tree_idx}: global input rows, one per slot (a copy). */
    public int[] indices() {
        return idx.clone();
    }

    /** {@code tree_idx} as 64-bit integers (what Erwin's {@code torch.long} output holds). */
    public long[] indicesAsLong() {
        long[] out = new long[idx.length];
        for (int i = 0; i < idx.length; i++) out[i] = idx[i];
        return out;
    }

    /** {@code mask}: true for real points, false for padding (a copy). */
    public boolean[] mask() {
        boolean[] out = new boolean[mask.length];
        for (int i = 0; i < mask.length; i++) out[i] = mask[i] != 0;
        return out;
    }

    /** {@code mask} as bytes 1/0 (numpy {@code bool} / {@code uint8}; a copy). */
    public byte[] maskBytes() {
        return mask.clone();
    }

    /**
     * The inverse of {@code tree_idx} restricted to real slots: element {@code i} is the slot holding
     * input row {@code i}. Use it to bring per-slot results back to input order.
     */
    public int[] slotOfPoint() {
        int[] out = new int[layout.pointCount()];
        for (int s = 0; s < idx.length; s++) {
            if (mask[s] != 0) out[idx[s]] = s;
        }
        return out;
    }

    /**
     * Brings per-slot rows back to input order: {@code perSlot} holds {@code size() * width} values
     * (row {@code s} for slot {@code s}); the result holds {@code pointCount() * width} values, row
     * {@code i} taken from the real slot of input row {@code i}.
     */
    public float[] toInputOrder(float[] perSlot, int width) {
        if (width < 1) throw new InvalidInputException("width must be >= 1, got " + width);
        if (perSlot.length != (long) idx.length * width) {
            throw new InvalidInputException("per-slot array has " + perSlot.length + " values, expected slots * width = "
                    + idx.length + " * " + width);
        }
        float[] out = new float[layout.pointCount() * width];
        for (int s = 0; s < idx.length; s++) {
            if (mask[s] != 0) System.arraycopy(perSlot, s * width, out, idx[s] * width, width);
        }
        return out;
    }

    /**
     * True iff balls of {@code 2^k} consecutive slots never straddle two batches, i.e. every batch has
     * at least {@code 2^k} slots (batch slot counts are powers of two, so offsets are then multiples
     * of {@code 2^k}).
     */
    public boolean ballsAlignWithBatches(int k) {
        if (k < 0 || k > 30) throw new InvalidInputException("ball level k must be in [0, 30], got " + k);
        for (int b = 0; b < layout.batchCount(); b++) {
            if (layout.slotCount(b) < (1 << k)) return false;
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BallTree t && layout.equals(t.layout) && Arrays.equals(idx, t.idx)
                && Arrays.equals(mask, t.mask);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(idx) + Arrays.hashCode(mask);
    }

    @Override
    public String toString() {
        return "BallTree[points=" + pointCount() + ", batches=" + layout.batchCount() + ", slots=" + size() + "]";
    }
}
