package org.sylva.hdbscan.engine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sylva.hdbscan.mst.SpanningTree;

/**
 * What an {@link HdbscanEngine} returns: each fitted point's core distance and the minimum spanning tree
 * of the mutual-reachability distance in its unique edge order, with the seconds the engine spent per
 * stage (informative only).
 *
 * <pre>{@code
 * MutualReachabilityMst m = engine.spanningTree(points, 20, 1.0, execution);
 * double[] core = m.coreDistances();
 * }</pre>
 *
 * @param coreDistances one per fitted point
 * @param tree the spanning tree, edges in the order of {@link org.sylva.hdbscan.mst.EdgeOrder}
 * @param stageSeconds stage name to wall-clock seconds, in pipeline order
 */
public record MutualReachabilityMst(double[] coreDistances, SpanningTree tree, Map<String, Double> stageSeconds) {
    public MutualReachabilityMst {
        stageSeconds = Collections.unmodifiableMap(new LinkedHashMap<>(stageSeconds));
    }
}
