package org.sylva.cli.serve;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sylva.cli.EngineChoice;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.NonFinitePolicy;
import org.sylva.hdbscan.SampleWeights;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.hdbscan.metric.DistanceGraph;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The {@code hdbscan} request: fits {@link Hdbscan} on the request's {@code points} (float32 as
 * {@link PointSet}, float64 exactly, as scikit-learn computes) with scikit-learn's parameter names, and
 * answers with the arrays {@code sylva hdbscan} writes, as the same bytes: {@code labels} (int32),
 * {@code probabilities}, {@code outlier_scores}, {@code core_distances}, {@code mst} {@code [from, to,
 * weight]}, {@code single_linkage}, {@code condensed_tree} {@code [parent, child, lambda, size]} and
 * {@code persistence} (float64). With {@code prediction_data: true} it also answers with {@code model}
 * (uint8): the bytes of the fitted {@link HdbscanModel} (a model file), which a {@code predict} request
 * sends back ({@link PredictHandler}), and with the input rows of each cluster's exemplars
 * ({@link HdbscanModel#exemplars}): {@code exemplar_rows} (int32, cluster after cluster) and
 * {@code exemplar_counts} (int32, how many each cluster has). {@code metric} (scikit-learn's names) and {@code p} (minkowski's
 * exponent) choose the distance; with {@code precomputed} the points are the n x n distance matrix, or the
 * request holds a sparse one instead of points ({@code graph_indptr}, {@code graph_indices}, {@code graph_data}:
 * scipy's CSR arrays, fitted as {@link Hdbscan#fit(DistanceGraph, ProgressListener, CancellationToken)}). An
 * optional {@code sample_weight} array (one whole number per point) weights the rows
 * ({@link SampleWeights}); the answer then also holds {@code fitted_rows} (int32): the row of each point
 * the trees index. {@code backend} ({@code auto}, {@code scalar}, {@code simd}, {@code opencl},
 * {@code cuda}) picks the engine as {@code sylva hdbscan --backend} does; every one gives the same bytes.
 * The answer's parameters: {@code n_clusters}, {@code compute_seconds} and {@code backend} (the engine
 * that ran: {@code auto}, {@code scalar}, {@code simd}, or {@code gpu/API: device}).
 */
final class HdbscanHandler implements Handler {
    static final List<String> PARAMETERS = List.of("min_cluster_size", "min_samples", "cluster_selection_epsilon",
            "max_cluster_size", "alpha", "cluster_selection_method", "allow_single_cluster", "non_finite", "threads",
            "prediction_data", "metric", "p", "backend");
    /** The answer's {@code backend} for a sparse distance matrix: its own stages, on the CPU. */
    static final String GRAPH_ENGINE = org.sylva.hdbscan.metric.GraphSpanningTree.ENGINE;
    /** The metric names {@link Metric#parse} accepts, aliases included. */
    static final String[] METRICS = {"euclidean", "l2", "manhattan", "l1", "cityblock", "chebyshev", "infinity",
        "minkowski", "cosine", "precomputed"};

    @Override
    public Frame handle(Frame request, CancellationToken cancel) {
        return handle(request, cancel, ProgressListener.NONE);
    }

    @Override
    public Frame handle(Frame request, CancellationToken cancel, ProgressListener progress) {
        Params p = new Params(request.params(), PARAMETERS);
        RequestArrays.only(request, List.of("points", "sample_weight", "graph_indptr", "graph_indices", "graph_data"));
        Hdbscan.Builder b = Hdbscan.builder();
        if (p.has("min_samples")) b.minSamples(p.integer("min_samples", 0));   // absent: min_cluster_size, as None
        if (p.has("threads")) b.threads(p.integer("threads", 1));
        // the CPU kernels or a GPU engine, as sylva hdbscan --backend; a GPU without a device is refused here
        if (p.has("backend")) EngineChoice.apply(p.choice("backend", "auto", EngineChoice.NAMES), b);
        Hdbscan h = b.minClusterSize(p.integer("min_cluster_size", 5))
                .clusterSelectionEpsilon(p.number("cluster_selection_epsilon", 0.0))
                .maxClusterSize(p.integer("max_cluster_size", 0))   // None: no limit
                .alpha(p.number("alpha", 1.0))
                .clusterSelectionMethod(p.choice("cluster_selection_method", "eom", "eom", "leaf").equals("eom")
                        ? SelectionMethod.EOM : SelectionMethod.LEAF)
                .allowSingleCluster(p.bool("allow_single_cluster", false))
                .nonFinite(p.choice("non_finite", "reject", "reject", "sklearn").equals("reject")
                        ? NonFinitePolicy.REJECT : NonFinitePolicy.SKLEARN)
                .metric(Metric.parse(p.choice("metric", "euclidean", METRICS), p.has("p") ? p.number("p", 2) : null))
                .build();
        long start = System.nanoTime();   // a graph's checks (sorting its rows, symmetry) count as its fit's
        if (request.array("graph_data") != null && !h.metric().isPrecomputed()) {   // before the graph's own checks
            throw InvalidInputException.forParameter("metric", "a sparse distance matrix needs metric 'precomputed'; "
                    + "got " + h.metric().name());
        }
        DistanceGraph graph = RequestArrays.distanceGraph(request, cancel);
        if (graph != null) {
            return answer(fitGraph(h, graph, p, request, progress, cancel), null, start, GRAPH_ENGINE, cancel);
        }
        WireArray points = RequestArrays.points(request);
        int n = (int) points.dim(0);
        int d = (int) points.dim(1);
        SampleWeights weights = RequestArrays.sampleWeights(request, n);
        long t0 = System.nanoTime();
        HdbscanResult r = points.data() instanceof double[] x
                ? h.fit(x, n, d, weights, progress, cancel)
                : h.fit(PointSet.unchecked(n, d, (float[]) points.data()), weights, progress, cancel);
        cancel.throwIfCancelled();
        HdbscanModel model = null;
        if (p.bool("prediction_data", false)) {
            PointSet fitted = points.data() instanceof double[] x ? PointSet.uncheckedFloat64(n, d, x)
                    : PointSet.unchecked(n, d, (float[]) points.data());
            model = HdbscanModel.of(r, fitted, new Execution(h.threads(), ProgressListener.NONE, cancel));
        }
        // which engine ran: the CPU kernels' choice, or the GPU engine and its device
        return answer(r, model, t0, EngineChoice.ran(h, r), cancel);
    }

    /** The fit of a sparse distance matrix (metric precomputed, checked before the graph was made): no weights, no prediction data. */
    private static HdbscanResult fitGraph(Hdbscan h, DistanceGraph graph, Params p, Frame request,
            ProgressListener progress, CancellationToken cancel) {
        if (request.array("sample_weight") != null) {
            throw InvalidInputException.forParameter("sample_weight", "sample weights are supported with the euclidean "
                    + "metric only; this fit uses precomputed");
        }
        if (p.bool("prediction_data", false)) {
            throw InvalidInputException.forParameter("prediction_data", "prediction data needs the points' "
                    + "coordinates; a precomputed distance matrix has none");
        }
        HdbscanResult r = h.fit(graph, progress, cancel);
        cancel.throwIfCancelled();
        return r;
    }

    /**
     * The answer frame: the result's arrays, the model's bytes and its exemplars when made, and the fit's
     * figures.
     */
    private static Frame answer(HdbscanResult r, HdbscanModel model, long t0, String engine, CancellationToken cancel) {
        int n = r.size();
        double seconds = (System.nanoTime() - t0) / 1e9;
        cancel.throwIfCancelled();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("n_clusters", r.clusterCount());
        out.put("compute_seconds", seconds);
        out.put("backend", engine);
        var slt = r.singleLinkageTree();
        var ct = r.condensedTree();
        var mst = r.spanningTree();
        List<WireArray> arrays = new java.util.ArrayList<>(List.of(
                WireArray.of("labels", r.labels(), n),
                WireArray.of("probabilities", r.probabilities(), n),
                WireArray.of("outlier_scores", r.outlierScores(), n),
                WireArray.of("core_distances", r.coreDistances(), n),
                WireArray.of("mst", mst.toMatrix(), mst.edges(), 3),
                WireArray.of("single_linkage", slt.toMatrix(), slt.merges(), 4),
                WireArray.of("condensed_tree", ct.toMatrix(), ct.rows(), 4),
                WireArray.of("persistence", r.clusterPersistence(), r.clusterPersistence().length)));
        if (model != null) {
            byte[] bytes = model.toBytes();
            arrays.add(WireArray.of("model", bytes, bytes.length));
            int labels = model.clusterCount();
            int[] counts = new int[labels];
            int[][] each = new int[labels][];
            int total = 0;
            for (int l = 0; l < labels; l++) {
                each[l] = model.exemplars(l);
                counts[l] = each[l].length;
                total += counts[l];
            }
            int[] rows = new int[total];
            for (int l = 0, at = 0; l < labels; at += counts[l], l++) System.arraycopy(each[l], 0, rows, at, counts[l]);
            arrays.add(WireArray.of("exemplar_rows", rows, total));
            arrays.add(WireArray.of("exemplar_counts", counts, labels));
        }
        if (r.weighted()) {
            int[] rows = r.fittedRows();
            arrays.add(WireArray.of("fitted_rows", rows, rows.length));
        }
        return new Frame("ok", out, arrays);
    }
}
