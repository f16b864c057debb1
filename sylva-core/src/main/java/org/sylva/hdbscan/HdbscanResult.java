package org.sylva.hdbscan;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.hierarchy.ClusterSelector;
import org.sylva.hdbscan.hierarchy.Clustering;
import org.sylva.hdbscan.hierarchy.CondensedTree;
import org.sylva.hdbscan.hierarchy.DbscanCut;
import org.sylva.hdbscan.hierarchy.OutlierScores;
import org.sylva.hdbscan.hierarchy.SingleLinkageTree;
import org.sylva.hdbscan.index.LeafOrder;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.quality.CenterKind;
import org.sylva.hdbscan.quality.ClusterCenters;
import org.sylva.hdbscan.quality.DensityValidity;
import org.sylva.hdbscan.quality.RelativeValidity;
import org.sylva.hdbscan.quality.Validity;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;

/**
 * The immutable result of {@link Hdbscan#fit}: per-point labels (-1 noise; clusters numbered as
 * scikit-learn numbers them, by the rank of their condensed-tree node), membership probabilities,
 * GLOSH outlier scores (as the {@code hdbscan} package computes them), core distances; and the
 * structures behind them: the spanning tree in its unique edge order, the single-linkage tree (SciPy
 * linkage layout), the condensed tree, each selected cluster's persistence. Every array accessor returns
 * a fresh copy.
 *
 * <p>Per-point arrays have one entry per input row. The trees index the <em>fitted</em> points, which are
 * the rows unless {@link NonFinitePolicy#SKLEARN} left some out or sample weights repeat them (a row of
 * weight w is w consecutive points); {@link #fittedRows()} maps them back.
 *
 * <p>{@link #of(HdbscanModel, Execution)} rebuilds a result from a saved model ({@link HdbscanModel#load}).
 *
 * <p>{@link #reselect(Hdbscan)} selects clusters again with another {@code minClusterSize}, method,
 * epsilon, maximum size or single-cluster rule from the same spanning tree, without recomputing it.
 *
 * <pre>{@code
 * HdbscanResult r = Hdbscan.builder().minClusterSize(20).build().fit(points);
 * HdbscanResult leaf = r.reselect(r.parameters().toBuilder().clusterSelectionMethod(SelectionMethod.LEAF).build());
 * }</pre>
 */
public final class HdbscanResult {
    private final HdbscanParameters parameters;
    private final int total;
    /** Coordinates per fitted point (the matrix's columns for a precomputed fit). */
    private final int dimensions;
    private final FiniteRows rows;
    private final double[] core;
    private final SpanningTree mst;
    private final SingleLinkageTree slt;
    private final CondensedTree condensed;
    private final Clustering clustering;
    private final double[] glosh;
    private final StageTimings timings;
    /** The engine's prediction core distances of the fitted points, or null ({@link #predictionCoreDistances}). */
    private final double[] predictionCore;
    /** {@link InputGuard#hash} of the coordinates fitted, where {@link #predictionCore} is kept. */
    private final long coordinatesHash;
    /** The partition of the fit's index, kept with {@link #predictionCore} ({@link #fittedLeafOrder}), or null. */
    private final LeafOrder leafOrder;

    private HdbscanResult(HdbscanParameters parameters, int total, int dimensions, FiniteRows rows, double[] core,
            SpanningTree mst, SingleLinkageTree slt, CondensedTree condensed, Clustering clustering, double[] glosh,
            StageTimings timings, double[] predictionCore, long coordinatesHash, LeafOrder leafOrder) {
        this.parameters = parameters;
        this.total = total;
        this.dimensions = dimensions;
        this.rows = rows;
        this.core = core;
        this.mst = mst;
        this.slt = slt;
        this.condensed = condensed;
        this.clustering = clustering;
        this.glosh = glosh;
        this.timings = timings;
        this.predictionCore = predictionCore;
        this.coordinatesHash = coordinatesHash;
        this.leafOrder = predictionCore == null ? null : leafOrder;
    }

    /**
     * Builds the hierarchy, selection and scores from a finished spanning tree of {@code total} rows of
     * {@code d} coordinates, looking at {@code cancel} between the hierarchy's steps (each linear or
     * n log n in the points), so that a cancellation is seen within one of them.
     */
    static HdbscanResult fromSpanningTree(HdbscanParameters p, int total, int d, FiniteRows rows, double[] core,
            SpanningTree mst, Map<String, Double> times, CancellationToken cancel) {
        return fromSpanningTree(p, total, d, rows, core, mst, times, null, 0, null, cancel);
    }

    /**
     * As {@link #fromSpanningTree(HdbscanParameters, int, int, FiniteRows, double[], SpanningTree, Map,
     * CancellationToken)}, keeping the engine's prediction core distances of the fitted coordinates whose
     * {@link InputGuard#hash} is {@code coordinatesHash} ({@code predictionCore} null: none kept), and with them the
     * partition of the fit's index ({@code leafOrder}, or null).
     */
    static HdbscanResult fromSpanningTree(HdbscanParameters p, int total, int d, FiniteRows rows, double[] core,
            SpanningTree mst, Map<String, Double> times, double[] predictionCore, long coordinatesHash,
            LeafOrder leafOrder, CancellationToken cancel) {
        long t0 = System.nanoTime();
        // Merges oriented as Prim's tree from point 0 lists them: scikit-learn's left/right, hence its numbering
        SpanningTree oriented = mst.orientedFrom(0);
        cancel.throwIfCancelled();
        SingleLinkageTree slt = SingleLinkageTree.of(oriented);
        cancel.throwIfCancelled();
        CondensedTree ct = CondensedTree.condense(slt, p.minClusterSize());
        cancel.throwIfCancelled();
        long t1 = System.nanoTime();
        Clustering c = ClusterSelector.select(ct, p.selection());
        cancel.throwIfCancelled();
        double[] scores = OutlierScores.of(ct).scores();
        long t2 = System.nanoTime();
        Map<String, Double> t = new LinkedHashMap<>(times);
        t.put("hierarchy", (t1 - t0) / 1e9);
        t.put("selection", (t2 - t1) / 1e9);
        return new HdbscanResult(p, total, d, rows, core, mst, slt, ct, c, scores, new StageTimings(t), predictionCore,
                coordinatesHash, leafOrder);
    }

    /** As {@link #of(HdbscanModel, Execution)} on all processors. */
    public static HdbscanResult of(HdbscanModel model) {
        return of(model, Execution.everyCore());
    }

    /**
     * The result of the fit {@code model} was made from ({@link HdbscanModel#of(HdbscanResult, PointSet)}),
     * rebuilt from what the model holds, for instance after {@link HdbscanModel#load}: the single-linkage tree,
     * the condensed tree, the selection and the outlier scores are built from the model's spanning tree by the
     * fit's own code, and the core distances by one exact neighbour search over the model's fitted points (a
     * model does not hold them; the search costs what a fit's core-distance stage costs). Everything but the
     * {@link #timings()} (the rebuild's) is bitwise the fit's result, rows left out of the fit included; for a
     * model from {@link HdbscanModel#reselect}, the fit's result {@link #reselect reselected} with the same
     * parameters.
     *
     * <pre>{@code
     * HdbscanResult r = HdbscanResult.of(HdbscanModel.load(Path.of("clips.model")), Execution.everyCore());
     * int[] labels = r.labels();
     * }</pre>
     *
     * @throws InvalidInputException when the model holds no spanning tree (read from a model file of format
     *     version 1, or built from a condensed tree alone)
     * @throws org.sylva.progress.CancelledException when the execution's token is cancelled
     */
    public static HdbscanResult of(HdbscanModel model, Execution execution) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(execution, "execution");
        SpanningTree mst = model.spanningTree().orElseThrow(() -> new InvalidInputException("rebuilding the fit's "
                + "result needs the fit's spanning tree, which this model does not hold (a model file of format "
                + "version 1, or a model built from a condensed tree alone)"));
        int total = model.size(), n = model.fittedSize(), d = model.dimensions();
        long t0 = System.nanoTime();
        double[] perRow = model.fitCoreDistances(execution);
        int[] fitted = model.fittedRows();
        FiniteRows rows;
        double[] core;
        if (model.weighted()) {
            // each fitted row stands for its weight in points, which share its core distance
            int[] rowWeights = model.sampleWeights();
            core = new double[mst.points()];
            for (int f = 0, p = 0; f < n; f++) {
                for (int c = 0; c < rowWeights[fitted[f]]; c++) core[p++] = perRow[f];
            }
            rows = FiniteRows.leavingOut(total, fitted, n == total ? null : model.labels(), SampleWeights.of(rowWeights));
        } else {
            core = perRow;
            rows = FiniteRows.leavingOut(total, fitted, n == total ? null : model.labels());
        }
        Map<String, Double> times = new LinkedHashMap<>();
        times.put(CoreDistances.STAGE, (System.nanoTime() - t0) / 1e9);
        return fromSpanningTree(model.parameters(), total, d, rows, core, mst, times, execution.cancel());
    }

    /**
     * Selects clusters again from this result's spanning tree with {@code other}'s selection parameters
     * ({@code minClusterSize}, method, epsilon, maximum size, single-cluster rule). The spanning tree is
     * not recomputed; the condensed tree is rebuilt only when {@code minClusterSize} changes.
     *
     * @throws InvalidInputException when {@code other} changes {@code minSamples}, {@code alpha} or the
     *     metric, which define the spanning tree itself (fit again for those); the exception names the parameter
     */
    public HdbscanResult reselect(Hdbscan other) {
        return reselect(other.parameters());
    }

    /** As {@link #reselect(Hdbscan)}, with the parameters alone. */
    public HdbscanResult reselect(HdbscanParameters other) {
        parameters.requireSameSpanningTree(other, "reselect");
        Map<String, Double> t = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        CondensedTree ct = other.minClusterSize() == parameters.minClusterSize()
                ? condensed : CondensedTree.condense(slt, other.minClusterSize());
        long t1 = System.nanoTime();
        Clustering c = ClusterSelector.select(ct, other.selection());
        double[] scores = ct == condensed ? glosh : OutlierScores.of(ct).scores();
        long t2 = System.nanoTime();
        t.put("hierarchy", (t1 - t0) / 1e9);
        t.put("selection", (t2 - t1) / 1e9);
        return new HdbscanResult(other, total, dimensions, rows, core, mst, slt, ct, c, scores, new StageTimings(t),
                predictionCore, coordinatesHash, leafOrder);
    }

    /**
     * The distance of each fitted point to its {@code (minSamples - 1)}-th nearest point counting itself (0 each for
     * {@code minSamples} 1), the prediction core distances a model of this fit holds
     * ({@link HdbscanModel#of(HdbscanResult, PointSet, Execution)}), where the fit's engine kept them from its exact
     * neighbour lists and {@code fittedCoordinates} (row-major float64) are the coordinates it fitted, compared by a
     * 64-bit hash of their bits; empty otherwise (another engine than Sylva's CPU engine, one given to the builder
     * included; another metric than Euclidean; a weighted fit; rows left out; a result rebuilt from a model; other
     * coordinates), and then a model searches again. A fresh array.
     *
     * <pre>{@code
     * Optional<double[]> c = result.predictionCoreDistances(coords);   // the coordinates given to fit
     * }</pre>
     */
    public java.util.Optional<double[]> predictionCoreDistances(double[] fittedCoordinates) {
        Objects.requireNonNull(fittedCoordinates, "fittedCoordinates");
        if (predictionCore == null || fittedCoordinates.length != (long) predictionCore.length * dimensions
                || InputGuard.hash(fittedCoordinates) != coordinatesHash) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(predictionCore.clone());
    }

    /**
     * The partition of the index the fit searched (its points in leaf order), kept with the prediction core
     * distances: the partition of the coordinates {@link #predictionCoreDistances} accepts, which a model of this
     * fit, having checked them there, builds its index from without splitting the points again, and stores. Empty
     * where no prediction core distances were kept, or where the fit's index was not over every fitted point (it
     * collapsed identical ones). Any permutation is a valid partition, so an order applied to other points of the
     * same count changes how fast a search runs, never what it finds. A fresh copy.
     *
     * <pre>{@code
     * if (result.predictionCoreDistances(coords).isPresent()) order = result.fittedLeafOrder();
     * }</pre>
     */
    public java.util.Optional<LeafOrder> fittedLeafOrder() {
        return leafOrder == null ? java.util.Optional.empty()
                : java.util.Optional.of(new LeafOrder(leafOrder.cutWidth(), leafOrder.points().clone()));
    }

    /**
     * The centres of the clusters, as scikit-learn's {@code store_centers} computes them (centroids weighted
     * by membership probability, medoids minimising the weighted distance sum); see {@link ClusterCenters}.
     *
     * @param points the points this result was fitted on (the same rows, float32 or float64)
     * @throws InvalidInputException when {@code points} has another number of rows than the fit, or the fit
     *     was on a precomputed distance matrix (no coordinates)
     */
    public ClusterCenters centers(PointSet points, CenterKind kind) {
        return centers(points, kind, Execution.everyCore());
    }

    /** As {@link #centers(PointSet, CenterKind)}, on {@code execution}'s threads, with its progress and cancellation. */
    public ClusterCenters centers(PointSet points, CenterKind kind, Execution execution) {
        if (!parameters.metric().isPrecomputed()) requireFittedShape(points, "centres");
        double[] strength = probabilities();
        if (rows.isWeighted()) {   // a row of weight w is w rows of the same strength
            int[] w = sampleWeights();
            for (int i = 0; i < strength.length; i++) strength[i] *= w[i];
        }
        return ClusterCenters.of(points, labels(), strength, kind, execution, parameters.metric());
    }

    /**
     * The {@code hdbscan} package's {@code relative_validity_}: a fast DBCV-like score from the spanning
     * tree and the labels (over the fitted rows); see {@link RelativeValidity}.
     */
    public double relativeValidity() {
        return RelativeValidity.of(mst, clustering.labels());
    }

    /**
     * DBCV of this clustering, as the {@code hdbscan} package's {@code validity_index} computes it, with
     * each cluster's value, under the fit's metric (the package's {@code metric} argument); see
     * {@link DensityValidity} (O(m^2) per cluster of m members).
     *
     * @param points the points this result was fitted on (the same rows)
     * @throws InvalidInputException when the fit had sample weights or was on a precomputed distance matrix
     * @throws org.sylva.progress.CancelledException when the calling thread is interrupted
     */
    public Validity validityIndex(PointSet points) {
        return validityIndex(points, CancellationToken.NEVER);
    }

    /**
     * As {@link #validityIndex(PointSet)}, stopped by {@code cancel} (or an interrupt of the calling thread, on which
     * it runs) with a {@link org.sylva.progress.CancelledException}.
     *
     * <pre>{@code
     * Validity v = result.validityIndex(points, token);   // token.cancel() from another thread stops it
     * }</pre>
     */
    public Validity validityIndex(PointSet points, CancellationToken cancel) {
        Objects.requireNonNull(cancel, "cancel");
        if (rows.isWeighted()) {
            throw InvalidInputException.forParameter("sample_weight", "DBCV (validity_index) is not defined for a "
                    + "weighted fit: the copies a weight stands for lie at distance 0 from each other");
        }
        if (parameters.metric().isPrecomputed()) {
            throw InvalidInputException.forParameter("metric", "DBCV (validity_index) measures distances between the "
                    + "points' coordinates; this fit used a precomputed distance matrix");
        }
        requireFittedShape(points, "validity_index");
        return DensityValidity.of(points, labels(), parameters.metric(), cancel);
    }

    /** Coordinates per fitted point: the input's columns (for a precomputed fit, the matrix's). */
    public int dimensions() {
        return dimensions;
    }

    /** Refuses points that cannot be the ones this result was fitted on: another number of rows or columns. */
    private void requireFittedShape(PointSet points, String what) {
        if (points.size() != total || points.dimensions() != dimensions) {
            throw new InvalidInputException(what + " needs the points this result was fitted on (" + total + " x "
                    + dimensions + "); got " + points.size() + " x " + points.dimensions());
        }
    }

    /**
     * The flat DBSCAN* clustering at {@code cutDistance} from this result's tree, the {@code hdbscan}
     * package's {@code dbscan_clustering(cut_distance, min_cluster_size)}: points joined by tree edges of
     * mutual-reachability weight below {@code cutDistance}, components smaller than {@code minClusterSize}
     * noise (-1); rows left out of the fit keep -2 / -3. Clusters are numbered by their smallest row. See
     * {@link DbscanCut}.
     */
    public int[] dbscanClustering(double cutDistance, int minClusterSize) {
        return rows.expandLabels(DbscanCut.labels(mst, cutDistance, minClusterSize), total).clone();
    }

    /** The parameters this result was computed (or re-selected) with. */
    public HdbscanParameters parameters() {
        return parameters;
    }

    /** Number of input rows. */
    public int size() {
        return total;
    }

    /**
     * Cluster label per input row: -1 noise (and rows of sample weight 0), -2 / -3 rows left out for an
     * infinity / NaN (SKLEARN policy).
     */
    public int[] labels() {
        return rows.expandLabels(clustering.labels(), total).clone();
    }

    /** Membership probability per input row (0 for noise and weight 0; 0 / NaN for rows with an infinity / NaN). */
    public double[] probabilities() {
        return rows.expand(clustering.probabilities(), total, 0.0, 0.0, Double.NaN).clone();
    }

    /**
     * GLOSH outlier score per input row, as the {@code hdbscan} package (0.8.43) computes them; see
     * {@link OutlierScores} for the value where the package gives NaN. NaN for rows left out of the fit.
     */
    public double[] outlierScores() {
        return rows.expand(glosh, total, Double.NaN, Double.NaN, Double.NaN).clone();
    }

    /** Core distance per input row (NaN for rows left out of the fit). */
    public double[] coreDistances() {
        return rows.expand(core, total, Double.NaN, Double.NaN, Double.NaN).clone();
    }

    /** Number of clusters found. */
    public int clusterCount() {
        return clustering.clusterCount();
    }

    /** Number of rows labelled noise (-1; rows of sample weight 0 included). */
    public int noiseCount() {
        int c = 0;
        for (int l : rows.isWeighted() ? labels() : clustering.labels()) if (l == -1) c++;
        return c;
    }

    /** Number of points the trees index: the fitted rows, each counted as many times as its weight. */
    public int fittedPoints() {
        return rows.fittedCount(total);
    }

    /** True when the fit had sample weights ({@link Hdbscan#fit(PointSet, SampleWeights)}). */
    public boolean weighted() {
        return rows.isWeighted();
    }

    /** The sample weight of each input row (a fresh array; 1 each for an unweighted fit, 0 for rows left out of it). */
    public int[] sampleWeights() {
        return rows.rowWeights(total);
    }

    /** Persistence of each selected cluster, indexed by label (the {@code hdbscan} package's {@code cluster_persistence_}). */
    public double[] clusterPersistence() {
        return clustering.persistence();
    }

    /** Condensed-tree node id of each selected cluster, indexed by label. */
    public int[] selectedClusters() {
        return clustering.selectedNodes();
    }

    /** The minimum spanning tree of the mutual-reachability graph, in the unique edge order. */
    public SpanningTree spanningTree() {
        return mst;
    }

    /** The single-linkage tree of the spanning tree, in SciPy's linkage layout (scikit-learn's {@code _single_linkage_tree_}). */
    public SingleLinkageTree singleLinkageTree() {
        return slt;
    }

    /** The condensed tree at this result's {@code minClusterSize}, from which the clusters were selected. */
    public CondensedTree condensedTree() {
        return condensed;
    }

    /**
     * Input row of each fitted point, the index the trees use: the identity unless rows were left out, or
     * weighted (a row of weight w is w consecutive points, all mapped to it).
     */
    public int[] fittedRows() {
        return rows.fittedRows(total);
    }

    /** Seconds per stage. */
    public StageTimings timings() {
        return timings;
    }

    @Override
    public String toString() {
        return "HdbscanResult[n=" + total + ", clusters=" + clusterCount() + ", noise=" + noiseCount() + "]";
    }
}
