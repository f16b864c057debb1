package org.sylva.balltree.engine;

import java.util.Arrays;
import org.sylva.kernels.SmallSubtree;

/**
 * Writes the final nodes of a build: for a tree, leaves into the slot arrays (two points in row order
 * with mask {@code [1, 1]}; one point {@code p} as {@code [p, p]} with mask {@code [1, 0]}); for a
 * partition, cells into the working row order, each cell in increasing row order. Every leaf and cell
 * is written in index order, whatever order the split left its points in: this is why the output does
 * not depend on which partition kernel ran.
 *
 * <pre>{@code
 * LeafWriter w = LeafWriter.forTree(layout.totalSlots());
 * w.direct(bounds, count, slot);      // nodes of one or two points, read from the workspace
 * }</pre>
 */
final class LeafWriter {
    private final int[] treeIdx;
    private final byte[] mask;
    /** The workspace's row column: read for trees, rewritten cell by cell for partitions. */
    private int[] idx;

    private LeafWriter(int[] treeIdx, byte[] mask, int[] idx) {
        this.treeIdx = treeIdx;
        this.mask = mask;
        this.idx = idx;
    }

    /** A writer of {@code slots} tree slots (the workspace's rows are bound by {@link #rows}). */
    static LeafWriter forTree(int slots) {
        return new LeafWriter(new int[slots], new byte[slots], null);
    }

    /** A writer of partition cells into {@code idx}, the workspace's row column. */
    static LeafWriter forPartition(int[] idx) {
        return new LeafWriter(null, null, idx);
    }

    /** Binds the workspace's row column (trees read the rows of direct leaves from it). */
    LeafWriter rows(int[] rows) {
        this.idx = rows;
        return this;
    }

    int[] treeIdx() {
        return treeIdx;
    }

    byte[] mask() {
        return mask;
    }

    /**
     * The {@code count} final nodes between {@code bnd[0..count]} of working positions, read straight from
     * the workspace: tree leaves from slot {@code slot}, or partition cells sorted in place.
     */
    void direct(int[] bnd, int count, int slot) {
        int[] rows = idx;
        if (treeIdx != null) {
            for (int t = 0; t < count; t++) {
                int a = bnd[t];
                leaf(slot + 2 * t, rows[a], bnd[t + 1] - a == 2 ? rows[a + 1] : -1);
            }
        } else {
            for (int t = 0; t < count; t++) {
                if (bnd[t + 1] - bnd[t] > 1) Arrays.sort(rows, bnd[t], bnd[t + 1]);
            }
        }
    }

    /** The {@code parts} leaves of the last run of {@code small}, from slot {@code slot}. */
    void smallLeaves(SmallSubtree small, int parts, int slot) {
        // In tree mode the small routine runs to the leaf level: every final node has 1 or 2 points.
        small.writeLeaves(parts, slot, treeIdx, mask);
    }

    /** Partition cells of a small node, each in increasing row order, written back from position {@code s}. */
    void smallCells(SmallSubtree small, int cells, int s) {
        int[] rows = idx;
        for (int t = 0; t < cells; t++) {
            int a = small.bound(t), b = small.bound(t + 1);
            for (int i = a; i < b; i++) {
                int v = small.row(i);
                int j = s + i - 1;
                while (j >= s + a && rows[j] > v) {
                    rows[j + 1] = rows[j];
                    j--;
                }
                rows[j + 1] = v;
            }
        }
    }

    /** A leaf of one point ({@code q < 0}: {@code [p, p]}, mask {@code [1, 0]}) or two (smaller row first). */
    private void leaf(int o, int p, int q) {
        SmallSubtree.writeLeaf(treeIdx, mask, o, p, q);
    }
}
