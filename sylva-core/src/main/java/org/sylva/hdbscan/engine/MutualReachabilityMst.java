package org.sylva.hdbscan.engine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sylva.hdbscan.index.LeafOrder;
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
 * @param predictionCoreDistances one per fitted point, the distance to its {@code (minSamples - 1)}-th nearest
 *     point counting itself (0 for {@code minSamples} 1): what a model of the fit holds for new points
 *     ({@code HdbscanModel.of}), taken from the core distances' exact lists by an engine that has them and left
 *     null by one that does not (the model then searches again)
 * @param leafOrder with the prediction core distances, the partition of the fit's index where that index was over
 *     every fitted point (no identical points collapsed into one), from which a model of the fit builds its index
 *     without splitting the points again, and which it stores; else null
 */
public record MutualReachabilityMst(double[] coreDistances, SpanningTree tree, Map<String, Double> stageSeconds,
                                    double[] predictionCoreDistances, LeafOrder leafOrder) {
    public MutualReachabilityMst {
        stageSeconds = Collections.unmodifiableMap(new LinkedHashMap<>(stageSeconds));
    }

    /** Without prediction core distances (an engine whose lists are gone by the end of the fit). */
    public MutualReachabilityMst(double[] coreDistances, SpanningTree tree, Map<String, Double> stageSeconds) {
        this(coreDistances, tree, stageSeconds, null, null);
    }
}
