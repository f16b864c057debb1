package org.sylva.gpu;

import java.util.Arrays;
import org.sylva.hdbscan.mst.BoruvkaMst;
import org.sylva.hdbscan.mst.EdgeOrder;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.parallel.Execution;

/**
 * The host side of the GPU engine's Borůvka rounds: components (union-find), the exact shortcuts that
 * spare points a device scan, the cheapest edge per component under {@link EdgeOrder}, the merge, and
 * the final sort. The device only answers "each active point's cheapest edge into another component".
 *
 * <p><b>Why the shortcuts are exact.</b> Every edge of {@code p} weighs at least {@code core_p}.
 * (1) When {@code p}'s nearest list is complete (its last entry lies beyond {@code core_p}, or it holds
 * every point) and its lightest edge into another component weighs {@code core_p}, every edge of that
 * weight is in the list, so the list's best is {@code p}'s best: no scan. (2) When {@code core_p}
 * exceeds the best edge its component already has, no edge of {@code p} can win: no scan. Both are the
 * CPU engine's shortcuts ({@code BoruvkaRun}); with them off every point is scanned, and the tree is the
 * same (a test checks it).
 *
 * <pre>{@code
 * SpanningTree t = new GpuBoruvka(fit, core, k, nearest, nearestDist, 1.0, true, policy).run(execution);
 * }</pre>
 */
final class GpuBoruvka {
    private static final int NONE = -1;

    private final DeviceFit fit;
    private final int n, k;
    private final double[] core;
    private final int[] nearest;
    private final double[] nearestDist;
    private final double alpha;
    private final boolean divide, shortcuts;
    private final LaunchPolicy policy;
    private final int[] parent, size, comp;
    private final double[] compW, bestW;
    private final int[] compLo, compHi, bestQ;
    private final int[] edgeFrom, edgeTo;
    private final double[] edgeW;
    private int edges;
    /** Points scanned on the device, over all rounds (for the summary). */
    long scanned;

    GpuBoruvka(DeviceFit fit, double[] core, int k, int[] nearest, double[] nearestDist, double alpha,
            boolean shortcuts, LaunchPolicy policy) {
        this.fit = fit;
        this.n = core.length;
        this.k = k;
        this.core = core;
        this.nearest = nearest;
        this.nearestDist = nearestDist;
        this.alpha = alpha;
        this.divide = alpha != 1.0;
        this.shortcuts = shortcuts;
        this.policy = policy;
        parent = new int[n];
        size = new int[n];
        comp = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
            size[i] = 1;
            comp[i] = i;
        }
        compW = new double[n];
        bestW = new double[n];
        compLo = new int[n];
        compHi = new int[n];
        bestQ = new int[n];
        edgeFrom = new int[Math.max(n - 1, 0)];
        edgeTo = new int[Math.max(n - 1, 0)];
        edgeW = new double[Math.max(n - 1, 0)];
    }

    /** The rounds until one component remains (at most ~log2 n; bounded by n), then the sorted tree. */
    SpanningTree run(Execution ex) {
        int[] active = new int[n];
        double[] w = new double[n];
        int[] q = new int[n];
        for (int round = 1; round <= n && edges < n - 1; round++) {
            Arrays.fill(compW, Double.POSITIVE_INFINITY);
            Arrays.fill(compLo, Integer.MAX_VALUE);
            Arrays.fill(compHi, Integer.MAX_VALUE);
            Arrays.fill(bestQ, NONE);
            boolean[] resolved = shortcuts ? neighbourEdges() : new boolean[n];
            int m = 0;
            for (int p = 0; p < n; p++) {
                if (resolved[p] || (shortcuts && core[p] > compW[comp[p]])) continue;
                active[m++] = p;
            }
            scanned += m;
            fit.setRound(comp, active, m);
            LaunchedPass.run(m, BoruvkaMst.STAGE_PREFIX + round, policy, ex,
                    (first, count) -> fit.cheapestEdges(first, count, alpha));
            fit.readEdges(m, w, q);
            for (int i = 0; i < m; i++) {
                bestW[active[i]] = w[i];
                bestQ[active[i]] = q[i];
            }
            if (merge() == 0) throw new GpuException("Borůvka round " + round + " added no edge (a device error)");
        }
        return SpanningTree.of(n, Arrays.copyOf(edgeFrom, edges), Arrays.copyOf(edgeTo, edges),
                Arrays.copyOf(edgeW, edges)).inEdgeOrder();
    }

    /** Offers each point's lightest list edge into another component; marks the points shortcut 1 resolves. */
    private boolean[] neighbourEdges() {
        boolean[] resolved = new boolean[n];
        for (int p = 0; p < n; p++) {
            int cp = comp[p];
            double cpCore = core[p];
            double bw = Double.POSITIVE_INFINITY;
            int bq = NONE;
            for (int r = 0; r < k; r++) {
                int o = nearest[p * k + r];
                if (comp[o] == cp) continue;
                double d = nearestDist[p * k + r];
                if (divide) d /= alpha;
                double wt = Math.max(Math.max(cpCore, core[o]), d);
                if (EdgeOrder.less(wt, p, o, bw, p, bq)) {
                    bw = wt;
                    bq = o;
                }
            }
            if (bq == NONE) continue;
            offer(cp, bw, p, bq);
            double last = nearestDist[p * k + k - 1];
            if (divide) last /= alpha;
            if ((k == n || last > cpCore) && bw == cpCore) {
                resolved[p] = true;
                bestW[p] = bw;
                bestQ[p] = bq;
            }
        }
        return resolved;
    }

    private void offer(int c, double w, int a, int b) {
        int lo = Math.min(a, b), hi = Math.max(a, b);
        if (EdgeOrder.compare(w, lo, hi, compW[c], compLo[c], compHi[c]) < 0) {
            compW[c] = w;
            compLo[c] = lo;
            compHi[c] = hi;
        }
    }

    private int merge() {
        for (int p = 0; p < n; p++) {
            if (bestQ[p] != NONE) offer(comp[p], bestW[p], p, bestQ[p]);
        }
        int added = 0;
        for (int c = 0; c < n; c++) {
            if (compLo[c] == Integer.MAX_VALUE) continue;
            int ra = find(compLo[c]), rb = find(compHi[c]);
            if (ra == rb) continue;
            if (size[ra] < size[rb]) {
                int t = ra;
                ra = rb;
                rb = t;
            }
            parent[rb] = ra;
            size[ra] += size[rb];
            edgeFrom[edges] = compLo[c];
            edgeTo[edges] = compHi[c];
            edgeW[edges] = compW[c];
            edges++;
            added++;
        }
        for (int p = 0; p < n; p++) comp[p] = find(p);
        return added;
    }

    /** Union-find root with path halving; bounded by the number of points. */
    private int find(int x) {
        for (int i = 0; i < n && parent[x] != x; i++) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }
}
