package org.sylva.progress;

/**
 * Receives progress from long computations: the stage name, how much of it is done and the total (same unit, e.g.
 * points processed). Called between bounded chunks of work (usually every 0.1 - 0.5 s; a chunk of the largest
 * brute-force fits takes up to a few seconds), never from inside a hot loop, from whichever thread finished the chunk
 * (the caller's or a pool worker's): implementations must be cheap and thread-safe. A listener that throws stops the
 * computation, which throws that exception.
 *
 * <p>The stages, in order: a fit reports {@code "core distances"} (first as {@code (0, 1)} when it starts, before its
 * index is built), then {@code "spanning tree round 1"}, {@code "spanning tree round 2"}, ... (Borůvka rounds, at most
 * {@code ceil(log2 n) + 1}, usually 4 to 7; their number is known only at the end) or, for a metric other than
 * Euclidean, the k-d tree engine's {@code "spanning tree (Borůvka)"} (counting edges: during a round the least it will
 * join, after it those joined) or the brute-force engine's {@code "spanning tree (Prim)"} (a sparse distance matrix:
 * {@code "spanning tree (Kruskal)"}); the hierarchy and selection that follow take linear or n log n time and report
 * nothing. Cluster centres ({@code HdbscanResult}'s centroids and medoids) report {@code "centres"}, a prediction
 * {@code "prediction"} or {@code "soft clustering"} (a model made from a fit whose engine kept no prediction core
 * distances first runs {@code "core distances"} for them), a model file's read {@code "reading model"}, principal
 * components {@code "principal components"} then {@code "projection"}, a ball tree {@code "ball tree"} or
 * {@code "partition"}. A stage's first report may be {@code (0, 1)}: started, its work not yet counted. {@code total} is an
 * estimate where a stage learns its work as it goes (the core distances' later passes revise it), and calls from two
 * threads may arrive out of order: a progress bar should show the current stage's largest fraction so far.
 *
 * <pre>{@code
 * ProgressListener p = (stage, done, total) -> System.err.printf("%s %d/%d%n", stage, done, total);
 * }</pre>
 */
@FunctionalInterface
public interface ProgressListener {
    /** A listener that ignores everything. */
    ProgressListener NONE = (stage, done, total) -> { };

    void progress(String stage, long done, long total);
}
