package org.sylva.hdbscan.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.mst.BoruvkaMst;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.kernels.DistanceKernel;
import org.sylva.parallel.Execution;

/**
 * The CPU engine: builds the partition index ({@link PointIndex}), computes exact core distances
 * ({@link CoreDistances}) and runs Borůvka with both exact shortcuts ({@link BoruvkaMst}), on every core
 * of {@link Execution#threads()}, with one distance kernel (scalar or vector; the results are bitwise
 * the same). Stateless and thread-safe.
 *
 * <pre>{@code
 * HdbscanEngine cpu = new CpuHdbscanEngine(KernelProvider.get().distance("scalar"));
 * }</pre>
 */
public final class CpuHdbscanEngine implements HdbscanEngine {
    private final DistanceKernel kernel;

    /** An engine whose distances come from {@code kernel}. */
    public CpuHdbscanEngine(DistanceKernel kernel) {
        this.kernel = Objects.requireNonNull(kernel, "kernel");
    }

    @Override
    public String name() {
        return "cpu/" + kernel.name();
    }

    @Override
    public MutualReachabilityMst spanningTree(FittedPoints points, int minSamples, double alpha, Execution execution) {
        Map<String, Double> times = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        PointIndex index = PointIndex.build(points.rows(), points.n(), points.d(), kernel);
        CoreDistances core = CoreDistances.compute(index, minSamples, kernel, execution.threads(),
                execution.progress(), execution.cancel());
        long t1 = System.nanoTime();
        times.put("core distances", (t1 - t0) / 1e9);

        SpanningTree mst = BoruvkaMst.builder().alpha(alpha).threads(execution.threads()).backend(kernel).build()
                .compute(index, core, execution.progress(), execution.cancel());
        long t2 = System.nanoTime();
        times.put("spanning tree", (t2 - t1) / 1e9);
        return new MutualReachabilityMst(core.coreDistances(), mst, times);
    }
}
