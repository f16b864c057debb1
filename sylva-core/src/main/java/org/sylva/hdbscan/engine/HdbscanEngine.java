package org.sylva.hdbscan.engine;

import org.sylva.parallel.Execution;

/**
 * The stage-level seam of HDBSCAN: an engine computes, for a set of fitted points, each point's core
 * distance and the minimum spanning tree of the mutual-reachability distance under the tie order
 * {@code (weight, lower index, higher index)} ({@link org.sylva.hdbscan.mst.EdgeOrder}). Everything after
 * it (single-linkage tree, condensed tree, selection, scores) is the library's, the same for every
 * engine. {@link CpuHdbscanEngine} is the CPU engine; a GPU or a distributed engine implements this one
 * call and must return bitwise the same core distances and edges.
 *
 * <p>Inputs are already validated by the caller ({@code Hdbscan}): finite coordinates,
 * {@code 2 <= n}, {@code 1 <= minSamples <= n}, {@code alpha > 0}. An engine reports progress and checks
 * for cancellation between bounded chunks of work ({@link Execution}).
 *
 * <pre>{@code
 * HdbscanEngine cpu = new CpuHdbscanEngine(KernelProvider.get().bestDistance());
 * MutualReachabilityMst m = cpu.spanningTree(new FittedPoints(rows, n, d), 20, 1.0, Execution.sequential());
 * }</pre>
 */
public interface HdbscanEngine {
    /** A short name for logs and summaries, for example {@code "cpu/simd"}. */
    String name();

    /**
     * Core distances ({@code minSamples}-th nearest point, the point itself first) and the spanning tree
     * of {@code max(core_a, core_b, dist / alpha)} over {@code points}.
     */
    MutualReachabilityMst spanningTree(FittedPoints points, int minSamples, double alpha, Execution execution);

    /**
     * Whether this engine accepts weighted points ({@link FittedPoints#weighted()}): then its core
     * distances and tree are over the {@link FittedPoints#points()} copies. False unless an engine says so;
     * {@code Hdbscan} refuses a weighted fit on an engine without it before calling {@link #spanningTree}.
     */
    default boolean supportsWeights() {
        return false;
    }
}
