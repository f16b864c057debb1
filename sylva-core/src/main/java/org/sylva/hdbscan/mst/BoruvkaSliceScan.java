package org.sylva.hdbscan.mst;

import java.util.Arrays;

import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.parallel.ParallelWork;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The scan of a Borůvka round over one slice of an index's leaves, for engines that spread the round over
 * tasks (a task on a Spark executor, for example): given the round's {@link BoruvkaRoundState}, it finds
 * the cheapest edge into another component of every active point in the slice, with the same pruned,
 * exact scan as the CPU engine ({@link CheapestEdgeScan}), and keeps the lightest per component
 * ({@link SliceEdges}). One instance serves one task at a time (it holds per-round buffers); it is built
 * once per fit and reused for every round.
 *
 * <pre>{@code
 * BoruvkaSliceScan scanner = new BoruvkaSliceScan(index, coreDistances, kernel, 1.0, 1);
 * SliceEdges e = scanner.scan(state, leafFrom, leafTo, CancellationToken.NEVER);
 * }</pre>
 */
public final class BoruvkaSliceScan {
    private final PointIndex idx;
    private final BoruvkaRun run;
    /** Per component id: its slot in the output under construction, or -1 (reset after each scan). */
    private final int[] slotOf;

    /** A scanner over {@code index} (built for {@code kernel}) with the fit's core distances. */
    public BoruvkaSliceScan(PointIndex index, double[] core, DistanceKernel kernel, double alpha, int threads) {
        if (core.length != index.size()) {
            throw new IllegalArgumentException(core.length + " core distances for " + index.size() + " points");
        }
        this.idx = index;
        CoreDistances noLists = CoreDistances.of(1, core, 0, new int[0], new double[0]);
        this.run = new BoruvkaRun(index, noLists, kernel, alpha, true, true, new ParallelWork(threads));
        this.slotOf = new int[index.size()];
        Arrays.fill(slotOf, -1);
    }

    /** The lightest edge per component among the active points of leaves {@code leafFrom .. leafTo-1}. */
    public SliceEdges scan(BoruvkaRoundState state, int leafFrom, int leafTo, CancellationToken cancel) {
        if (state.components().length != idx.size()) {
            throw new IllegalArgumentException("round state for " + state.components().length + " points, index has "
                    + idx.size());
        }
        if (leafFrom < 0 || leafTo > idx.leaves() || leafFrom > leafTo) {
            throw new IllegalArgumentException("leaf slice " + leafFrom + ".." + leafTo + " of " + idx.leaves());
        }
        run.prepareSlice(state, leafFrom, leafTo);
        run.scanPrepared(BoruvkaMst.STAGE_PREFIX + "slice", ProgressListener.NONE, cancel);
        int posFrom = leafFrom == leafTo ? 0 : idx.leafStart(leafFrom);
        int posTo = leafFrom == leafTo ? 0 : idx.leafStart(leafTo - 1) + idx.leafCount(leafTo - 1);
        int[] comps = state.components();
        int[] pts = new int[Math.max(posTo - posFrom, 0)];
        double[] ws = new double[pts.length];
        int[] qs = new int[pts.length];
        int m = 0;
        for (int pos = posFrom; pos < posTo; pos++) {
            int p = idx.original(pos);
            if (p < 0 || !state.active()[p]) continue;
            int q = run.bestOther(p);
            if (q == BoruvkaComponents.NONE) continue;
            double w = run.bestWeight(p);
            int c = comps[p];
            int slot = slotOf[c];
            if (slot < 0) {
                slotOf[c] = m;
                pts[m] = p;
                ws[m] = w;
                qs[m] = q;
                m++;
            } else if (EdgeOrder.less(w, p, q, ws[slot], pts[slot], qs[slot])) {
                pts[slot] = p;
                ws[slot] = w;
                qs[slot] = q;
            }
        }
        for (int i = 0; i < m; i++) slotOf[comps[pts[i]]] = -1;
        return new SliceEdges(Arrays.copyOf(pts, m), Arrays.copyOf(ws, m), Arrays.copyOf(qs, m));
    }
}
