package org.sylva.cli.report;

import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * Which clusters of an {@link IcicleTree} the icicle plot draws and where. The root is always drawn;
 * a cluster is expanded (its children drawn as shapes of their own) first along the paths to the
 * selected clusters, largest selected cluster first, then widest first while a bar is at least
 * {@link IciclePlot#MIN_EXPAND_PX} wide, all within {@link IciclePlot#MAX_SHAPES} shapes. Children
 * are laid side by side, in id order, centred under their parent; positions are in point units
 * ({@link #scale} pixels each).
 */
final class IcicleLayout {
    /** Pixels per point. */
    final double scale;
    /** The label of each selected cluster, else -1. */
    final int[] selLabel;
    /** The label of the nearest selected cluster at or above each cluster, else -1 (its tint). */
    final int[] underSel;
    /** Clusters whose children are drawn. */
    final boolean[] expanded;
    /** Clusters drawn: the root and the children of expanded clusters. */
    final boolean[] visible;
    /** Left edge of each drawn cluster, in points from the left of the plot. */
    final double[] x0;
    /** Shapes drawn. */
    int shapes;
    /** Selected clusters left inside an aggregated shape because the budget ran out. */
    int hiddenSelected;

    private final IcicleTree tree;

    /** The layout of {@code tree} in a plot {@code width} pixels wide; {@code selectedIds}: node ids in label order. */
    IcicleLayout(IcicleTree tree, long[] selectedIds, double width) {
        this.tree = tree;
        int clusters = tree.clusters;
        scale = width / Math.max(1, tree.size[0]);
        selLabel = new int[clusters];
        underSel = new int[clusters];
        expanded = new boolean[clusters];
        visible = new boolean[clusters];
        x0 = new double[clusters];
        labelSelected(selectedIds);
        visible[0] = true;
        shapes = 1;
        expandTowardsSelected(selectedIds);
        for (int c = 1; c < clusters; c++) { // children of expanded nodes are visible (parents come first)
            if (expanded[tree.parentOf[c]]) visible[c] = true;
        }
        expandWidest();
        placeHorizontally();
    }

    private void labelSelected(long[] selectedIds) {
        Arrays.fill(selLabel, -1);
        for (int l = 0; l < selectedIds.length; l++) selLabel[(int) (selectedIds[l] - tree.n)] = l;
        for (int c = 0; c < tree.clusters; c++) {
            underSel[c] = selLabel[c] >= 0 ? selLabel[c] : c == 0 ? -1 : underSel[tree.parentOf[c]];
        }
    }

    /** Expands the ancestors of the selected clusters, largest first (ties by id), while the budget lasts. */
    private void expandTowardsSelected(long[] selectedIds) {
        int n = tree.n;
        long[] size = tree.size;
        int[] parentOf = tree.parentOf;
        Integer[] bySize = new Integer[selectedIds.length];
        for (int l = 0; l < bySize.length; l++) bySize[l] = l;
        Arrays.sort(bySize, (a, b) -> {
            int ca = (int) (selectedIds[a] - n), cb = (int) (selectedIds[b] - n);
            return size[ca] != size[cb] ? Long.compare(size[cb], size[ca]) : Integer.compare(ca, cb);
        });
        for (int l : bySize) {
            int c = (int) (selectedIds[l] - n);
            int cost = 0;
            for (int a = parentOf[c]; a >= 0 && !expanded[a]; a = parentOf[a]) cost += tree.nKids[a];
            if (shapes + cost > IciclePlot.MAX_SHAPES) {
                hiddenSelected++;
                continue;
            }
            for (int a = parentOf[c]; a >= 0 && !expanded[a]; a = parentOf[a]) expanded[a] = true;
            shapes += cost;
        }
    }

    /** Expands the other drawn clusters, widest first (ties by id), while wide enough and within budget. */
    private void expandWidest() {
        long[] size = tree.size;
        int[] nKids = tree.nKids;
        PriorityQueue<Integer> queue = new PriorityQueue<>((a, b) ->
                size[a] != size[b] ? Long.compare(size[b], size[a]) : Integer.compare(a, b));
        for (int c = 0; c < tree.clusters; c++) {
            if (visible[c] && !expanded[c] && nKids[c] > 0) queue.add(c);
        }
        for (int guard = 0; guard < tree.clusters && !queue.isEmpty(); guard++) {
            int c = queue.poll();
            if (size[c] * scale < IciclePlot.MIN_EXPAND_PX) break; // every remaining node is narrower
            if (shapes + nKids[c] > IciclePlot.MAX_SHAPES) continue;
            expanded[c] = true;
            shapes += nKids[c];
            for (int k = tree.kidStart[c]; k < tree.kidStart[c + 1]; k++) {
                int kid = tree.kids[k];
                visible[kid] = true;
                if (nKids[kid] > 0) queue.add(kid);
            }
        }
    }

    /** Children centred under their parent, side by side in id order (parents are placed first). */
    private void placeHorizontally() {
        for (int c = 0; c < tree.clusters; c++) {
            if (!expanded[c]) continue;
            double at = x0[c] + (tree.size[c] - tree.childTotal(c)) / 2.0;
            for (int k = tree.kidStart[c]; k < tree.kidStart[c + 1]; k++) {
                x0[tree.kids[k]] = at;
                at += tree.size[tree.kids[k]];
            }
        }
    }
}
