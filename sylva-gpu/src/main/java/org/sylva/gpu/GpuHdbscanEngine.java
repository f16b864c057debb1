package org.sylva.gpu;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.sylva.data.InvalidInputException;
import org.sylva.gpu.opencl.OpenClBackend;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.engine.DuplicatePoints;
import org.sylva.hdbscan.engine.FittedPoints;
import org.sylva.hdbscan.engine.HdbscanEngine;
import org.sylva.hdbscan.engine.MutualReachabilityMst;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.parallel.Execution;

/**
 * The GPU engine: core distances and the mutual-reachability spanning tree computed by the kernels of
 * {@code hdbscan.cl.inc} on a {@link GpuBackend} (OpenCL or CUDA: the same source and the same host code, {@link KernelFit}), bitwise
 * equal to {@link org.sylva.hdbscan.engine.CpuHdbscanEngine}'s. The device computes every point's
 * nearest list ({@code min(n, minSamples + 1)} entries, by brute force in local-memory tiles) and, per
 * Borůvka round, the cheapest edge of each point the exact shortcuts leave ({@link GpuBoruvka}); the
 * host keeps the components, merges and sorts the edges by {@link org.sylva.hdbscan.mst.EdgeOrder}.
 * Every pass is split into bounded launches ({@link LaunchPolicy}), between which progress is reported
 * and cancellation checked. The hierarchy and selection stay on the host with the library's code.
 *
 * <pre>{@code
 * Hdbscan h = Hdbscan.builder().minClusterSize(20).engine(GpuHdbscanEngine.openCl()).build();
 * HdbscanResult r = h.fit(rows, n, d, ProgressListener.NONE, CancellationToken.NEVER);
 * }</pre>
 */
public final class GpuHdbscanEngine implements HdbscanEngine {
    private final GpuBackend backend;
    private final LaunchPolicy policy;
    private final boolean shortcuts;

    /** An engine on {@code backend}, launches by {@code policy}, with the exact shortcuts on or off. */
    public GpuHdbscanEngine(GpuBackend backend, LaunchPolicy policy, boolean shortcuts) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.shortcuts = shortcuts;
    }

    /** The engine on the OpenCL device {@code --backend opencl} uses (a GPU before a CPU device); a {@link GpuException} naming why none is usable. */
    public static GpuHdbscanEngine openCl() {
        return new GpuHdbscanEngine(OpenClBackend.preferred(), LaunchPolicy.DEFAULT, true);
    }

    @Override
    public String name() {
        return "gpu/" + backend.name();
    }

    /** The backend this engine runs on. */
    public GpuBackend backend() {
        return backend;
    }

    @Override
    public MutualReachabilityMst spanningTree(FittedPoints points, int minSamples, double alpha, Execution ex) {
        int n = points.n(), d = points.d();
        if (minSamples < 1 || minSamples > n) {
            throw new IllegalArgumentException("min_samples " + minSamples + " outside [1, " + n + "]");
        }
        TileShape.rowsPerTile(d);   // refuses too many coordinates before any device work
        Map<String, Double> times = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        // Identical points are searched once, with a multiplicity, and expanded after (as the CPU engine
        // does, bitwise the result of searching every copy): the device sees the distinct rows only.
        DuplicatePoints dup = n <= DuplicatePoints.MAX_POINTS
                ? DuplicatePoints.find(points.rows(), n, d, ex.cancel()) : null;
        if (dup != null && !dup.collapses()) dup = null;
        GpuTrace.step("duplicates", t0, "n=" + n + " d=" + d + (dup != null ? " distinct=" + dup.distinct() : ""));
        if (dup != null) {
            points = new FittedPoints(dup.distinctRows(), dup.distinct(), d);
            n = dup.distinct();
        }
        int k = Math.min(n, minSamples + 1);
        if ((long) n * k > Integer.MAX_VALUE - 8) {
            // the host's lists are Java arrays of n * k entries: refused before the device pass, not after it
            throw new InvalidInputException("the GPU engine keeps " + n + " x " + k + " nearest neighbours in arrays "
                    + "of at most " + (Integer.MAX_VALUE - 8) + " entries; lower min_samples or use the CPU engine");
        }
        long step = System.nanoTime();
        try (DeviceFit fit = backend.open(points, k)) {
            GpuTrace.step("open", step, "k=" + k);
            step = System.nanoTime();
            int launches = LaunchedPass.run(n, CoreDistances.STAGE, policy, fit.coreListsWidth(), ex, fit::coreLists);
            GpuTrace.step("core lists", step, "launches=" + launches + " width=" + fit.coreListsWidth());
            step = System.nanoTime();
            double[] sq = new double[n * k];
            int[] nearest = new int[n * k];
            fit.readLists(sq, nearest);
            GpuTrace.step("read lists", step, "");
            double[] dist = new double[n * k];
            for (int i = 0; i < n * k; i++) dist[i] = Math.sqrt(sq[i]);   // sqrt is monotone: same order
            double[] core;
            if (dup != null) {
                core = CoreDistances.coresWithMultiplicities(minSamples, k, nearest, dist, dup.multiplicities());
            } else {
                core = new double[n];
                int at = Math.min(minSamples, k) - 1;
                for (int i = 0; i < n; i++) core[i] = dist[i * k + at];
            }
            fit.setCore(core);
            long t1 = System.nanoTime();
            times.put("core distances", (t1 - t0) / 1e9);
            SpanningTree tree = new GpuBoruvka(fit, core, k, nearest, dist, alpha, shortcuts, policy).run(ex);
            if (dup != null) {
                tree = dup.expandTree(tree, core);
                core = dup.expandCore(core);
            }
            times.put("spanning tree", (System.nanoTime() - t1) / 1e9);
            return new MutualReachabilityMst(core, tree, times);
        }
    }
}
