package org.sylva.gpu;

import org.sylva.hdbscan.mst.BoruvkaComponents;
import org.sylva.hdbscan.mst.BoruvkaMst;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.parallel.Execution;

/**
 * The host side of the GPU engine's Borůvka rounds: the device answers "each active point's cheapest edge
 * into another component", and everything else — the components, the two exact shortcuts and the
 * component left out of each round that spare points a device scan, the merge and the final edge order —
 * is {@link BoruvkaComponents}, the same code
 * the CPU engine runs, so both engines decide every edge alike.
 *
 * <pre>{@code
 * SpanningTree t = new GpuBoruvka(fit, core, k, nearest, nearestDist, 1.0, true, policy).run(execution);
 * }</pre>
 */
final class GpuBoruvka {
    private final DeviceFit fit;
    private final int n;
    private final double alpha;
    private final boolean shortcuts;
    private final LaunchPolicy policy;
    private final BoruvkaComponents components;
    /** Points scanned on the device, over all rounds (for the summary). */
    long scanned;

    GpuBoruvka(DeviceFit fit, double[] core, int k, int[] nearest, double[] nearestDist, double alpha,
            boolean shortcuts, LaunchPolicy policy) {
        this.fit = fit;
        this.n = core.length;
        this.alpha = alpha;
        this.shortcuts = shortcuts;
        this.policy = policy;
        this.components = new BoruvkaComponents(core, new BoruvkaComponents.NearestLists() {
            @Override
            public int count() {
                return k;
            }

            @Override
            public int neighbour(int p, int r) {
                return nearest[p * k + r];
            }

            @Override
            public double distance(int p, int r) {
                return nearestDist[p * k + r];
            }
        }, alpha);
    }

    /** The rounds until one component remains (at most ~log2 n; bounded by n), then the sorted tree. */
    SpanningTree run(Execution ex) {
        int[] active = new int[n];
        boolean[] scan = new boolean[n];
        int[] comp = new int[n];
        double[] w = new double[n];
        int[] q = new int[n];
        int width = fit.cheapestEdgesWidth();
        for (int round = 1; round <= n && components.edges() < n - 1; round++) {
            long t0 = System.nanoTime();
            components.startRound();
            boolean[] resolved = shortcuts ? components.neighbourEdges() : null;
            for (int p = 0; p < n; p++) scan[p] = !shortcuts || components.needsScan(p, resolved);
            if (shortcuts) components.leaveOutLargest(scan);
            int m = 0;
            for (int p = 0; p < n; p++) {
                if (scan[p]) active[m++] = p;
            }
            scanned += m;
            components.componentsInto(comp);
            fit.setRound(comp, active, m);
            long t1 = System.nanoTime();
            int launches = LaunchedPass.run(m, BoruvkaMst.STAGE_PREFIX + round, policy, width, ex,
                    (first, count) -> fit.cheapestEdges(first, count, alpha));
            long t2 = System.nanoTime();
            fit.readEdges(m, w, q);
            for (int i = 0; i < m; i++) components.offerPointEdge(active[i], w[i], q[i]);
            if (components.merge() == 0) {
                throw new GpuException("Borůvka round " + round + " added no edge (a device error)");
            }
            if (GpuTrace.ON) {
                GpuTrace.step("round " + round, t0, String.format(java.util.Locale.ROOT,
                        "active=%d launches=%d host-before=%.4f device=%.4f host-after=%.4f edges=%d", m, launches,
                        (t1 - t0) / 1e9, (t2 - t1) / 1e9, (System.nanoTime() - t2) / 1e9, components.edges()));
            }
        }
        return components.tree();
    }
}
