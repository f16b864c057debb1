package org.sylva.hdbscan.predict;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.features.PrincipalComponents;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanParameters;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.hierarchy.ClusterSelector;
import org.sylva.hdbscan.hierarchy.Clustering;
import org.sylva.hdbscan.hierarchy.CondensedTree;
import org.sylva.hdbscan.hierarchy.DbscanCut;
import org.sylva.hdbscan.hierarchy.OutlierScores;
import org.sylva.hdbscan.hierarchy.SingleLinkageTree;
import org.sylva.hdbscan.index.LeafOrder;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.io.AtomicOutput;
import org.sylva.kernels.KernelProvider;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * A fitted HDBSCAN model that assigns new points to its clusters, with the semantics of the
 * {@code hdbscan} package's prediction module (0.8.43): {@link #approximatePredict} (label, probability,
 * outlier score and connecting point of each new point: {@code approximate_predict},
 * {@code approximate_predict_scores}), {@link #membershipVector} and {@link #allPointsMembershipVectors}
 * (soft clustering). It holds what those need (the package's {@code prediction_data_}): the parameters,
 * the fitted points in float64, their prediction core distances, the condensed tree and its selected
 * clusters, and the fit's spanning tree, from which {@link #dbscanClustering} cuts and {@link #reselect}
 * selects again exactly as the fit's result would; {@link #save} writes it to a versioned, checksummed file ({@code docs/model-file.md}) that
 * {@link #load} reads back, so a spike sorter fits once and assigns later spikes in another process, and
 * {@link HdbscanResult#of(HdbscanModel, Execution)} rebuilds the fit's whole result from it.
 * Immutable and thread-safe; every answer is deterministic, the same for any thread count, and the same
 * after a save and load.
 *
 * <p><b>Conventions.</b> Sylva's {@code minSamples} counts the point itself, the package's
 * {@code min_samples} does not: with Sylva's {@code m}, the package's {@code s = m - 1}. As in the
 * package, prediction uses other neighbourhoods than the fit: a fitted point's <em>prediction</em> core
 * distance is the distance to its {@code s}-th nearest point counting itself (the fit's core distance
 * for {@code minSamples = m - 1}), a new point is compared with its {@code 2 s} nearest fitted points and
 * its own core distance is its {@code (s + 1)}-th nearest fitted point ({@link Connector}). Distances are
 * the fit's metric's, plain: {@code alpha} is not applied, as in the package. Arithmetic is float64 and follows
 * the package's order of operations, so the answers are the package's doubles (soft clustering: to the
 * last bit of {@code exp}, see {@link SoftAssignment}); the package refuses cosine prediction data, so there
 * the rules are the same and no reference is matched.
 *
 * <p><b>Ties.</b> Among fitted points at equal distance from a new point the lower index comes first,
 * which decides the neighbour list at its last place and, among neighbours of equal mutual
 * reachability and equal distance, the connecting point. The package's order there is its
 * {@code KDTree}'s, which is not the index order: on iris, whose rows 101 and 142 are equal, it returns
 * 142 first where Sylva returns 101 (the same label, probability, score and membership; another
 * connecting row). Equal mutual reachability at different distances is common and is decided by the
 * smaller distance, as in the package. Every other choice is the package's too: the first of equal
 * merge heights, {@code >=} when climbing. Where the fit itself had ties, the condensed tree is the
 * fit's (see {@link org.sylva.hdbscan.mst.EdgeOrder}).
 *
 * <pre>{@code
 * HdbscanResult r = Hdbscan.builder().minClusterSize(20).build().fit(points);
 * HdbscanModel model = HdbscanModel.of(r, points);
 * Prediction p = model.approximatePredict(newPoints);
 * Membership soft = model.membershipVector(newPoints);
 * model.save(Path.of("clips.model"));
 * }</pre>
 */
public final class HdbscanModel {
    /** Stage name {@link #approximatePredict} reports to progress listeners. */
    public static final String PREDICT_STAGE = "prediction";
    /** Stage name of {@link #load(Path, ProgressListener, CancellationToken)}: the model file's bytes read. */
    public static final String READ_STAGE = "reading model";
    /** Stage name {@link #membershipVector} and {@link #allPointsMembershipVectors} report. */
    public static final String MEMBERSHIP_STAGE = "soft clustering";

    private final HdbscanParameters parameters;
    /** How the fitted rows map back to the input rows (and what the left-out rows report). */
    private final InputRows inputRows;
    private final int n;
    private final int d;
    private final double[] rows;
    private final double[] core;
    private final CondensedTree tree;
    private final ClusterTree clusters;
    private final Exemplars exemplars;
    /** The fit's spanning tree over the points (the fitted rows' copies), in edge order; null for a version 1 file or a tree given alone. */
    private final SpanningTree mst;
    /** The fitted points' neighbour search, shared with the models derived from this one. */
    private final FittedSearch search;

    /** The fitted points' side of prediction (tests look at which index it built). */
    FittedSearch fittedSearch() {
        return search;
    }
    /**
     * The principal components the fit clustered the scores of ({@code d} components of the input's
     * coordinates), applied to new points before anything else; null when the fit clustered its input as it was.
     */
    private final PrincipalComponents projection;
    /** The shape of each input row when the fit's rows were arrays (clips); null when not recorded. */
    private final RowShape rowShape;
    /** How this model answers its questions, with its clusters and projection. */
    private final ModelAnswers answers;

    /**
     * Takes the arrays as they are (callers pass fresh ones). {@code fittedRows}: the input row of each
     * fitted row, strictly increasing below {@code total}; {@code core}: prediction core distances;
     * {@code prepared}: what {@link FittedSearch#prepare} made of {@code rows} (its index or k-d tree), or null to
     * build them on first use; {@code weights}: the
     * points each fitted row stands for in the trees after a weighted fit, else null.
     */
    HdbscanModel(HdbscanParameters parameters, int total, int[] fittedRows, double[] rows, int n, int d, double[] core,
            CondensedTree tree, int[] selectedNodes, FittedSearch.Prepared prepared, SpanningTree mst, int[] leftOut,
            int[] weights) {
        this(parameters, total, fittedRows, rows, n, d, core, tree, selectedNodes,
                new FittedSearch(rows, n, d, prepared, parameters.metric()), mst, leftOut,
                weights == null ? null : PointCopies.of(weights));
    }

    /** As above, sharing {@code search} (a model derived from another over the same fitted points). */
    private HdbscanModel(HdbscanParameters parameters, int total, int[] fittedRows, double[] rows, int n, int d,
            double[] core, CondensedTree tree, int[] selectedNodes, FittedSearch search, SpanningTree mst, int[] leftOut,
            PointCopies copies) {
        int points = copies == null ? n : copies.points();
        if (tree.points() != points || copies != null && copies.rows() != n) {
            throw new InvalidInputException("the condensed tree is of " + tree.points() + " points; the fitted rows stand "
                    + "for " + points);
        }
        this.mst = mst;
        this.parameters = parameters;
        this.inputRows = new InputRows(total, n, fittedRows, leftOut, copies);
        this.n = n;
        this.d = d;
        this.rows = rows;
        this.core = core;
        this.tree = tree;
        this.clusters = new ClusterTree(tree, selectedNodes, parameters.clusterSelectionEpsilon());
        this.exemplars = Exemplars.of(tree, clusters, rows, d, KernelProvider.get().bestDistance().blockWidth(), copies,
                search.pairs());
        this.search = search;
        this.projection = null;
        this.rowShape = null;
        this.answers = new ModelAnswers(search, rows, n, d, core, parameters.minSamples(), clusters, exemplars,
                inputRows, null);
    }

    /**
     * {@code base} with new points projected on {@code projection} first, and its rows of shape
     * {@code rowShape} (either may be null); everything else shared.
     */
    private HdbscanModel(HdbscanModel base, PrincipalComponents projection, RowShape rowShape) {
        this.mst = base.mst;
        this.parameters = base.parameters;
        this.inputRows = base.inputRows;
        this.n = base.n;
        this.d = base.d;
        this.rows = base.rows;
        this.core = base.core;
        this.tree = base.tree;
        this.clusters = base.clusters;
        this.exemplars = base.exemplars;
        this.search = base.search;
        this.projection = projection;
        this.rowShape = rowShape;
        this.answers = new ModelAnswers(search, rows, n, d, core, parameters.minSamples(), clusters, exemplars,
                inputRows, projection);
    }

    /**
     * This model for a fit that clustered the scores of its input on {@code components} (such as
     * {@code sylva hdbscan --pca K}): new points are then given in the input's coordinates, and each is
     * projected on the components ({@link PrincipalComponents#project}, float64, the same arithmetic as the
     * fit's scores) before its neighbours are searched. The fitted points stay the scores. Saved with the
     * model (format version 3; 5 for a weighted fit's model or a non-Euclidean metric's).
     *
     * <pre>{@code
     * PrincipalComponents pc = PrincipalComponents.fit(clips, n, 61, 5);
     * double[] scores = pc.project(clips, n);
     * HdbscanResult r = hdbscan.fit(scores, n, 5, ProgressListener.NONE, CancellationToken.NEVER);
     * HdbscanModel model = HdbscanModel.of(r, PointSet.ofFloat64(n, 5, scores)).withProjection(pc);
     * Prediction p = model.approximatePredict(newClips);    // 61 coordinates per new clip
     * }</pre>
     *
     * @throws InvalidInputException when the components are not {@link #dimensions()} many, or this model
     *     already projects its new points
     */
    public HdbscanModel withProjection(PrincipalComponents components) {
        Objects.requireNonNull(components, "components");
        if (projection != null) throw new InvalidInputException("this model already projects its new points");
        if (components.componentCount() != d) {
            throw new InvalidInputException("a projection on " + components.componentCount() + " components for a model "
                    + "fitted on points of " + d + " coordinates");
        }
        if (rowShape != null && rowShape.size() != components.dimensions()) {
            throw new InvalidInputException("a projection of " + components.dimensions() + " input coordinates for a "
                    + "model whose rows have shape " + rowShape);
        }
        return new HdbscanModel(this, components, rowShape);
    }

    /**
     * This model with its input rows recorded as arrays of shape {@code shape} ({@code sylva hdbscan} records
     * a 3-D {@code .npy} of clips this way), so that new points given as arrays can be checked against it.
     * Prediction itself reads flat rows of {@link #inputDimensions()} values either way. Saved with the model
     * (format version 4; 5 for a weighted fit's model or a non-Euclidean metric's).
     *
     * <pre>{@code
     * HdbscanModel model = HdbscanModel.of(result, points).withRowShape(new RowShape(4, 61));
     * }</pre>
     *
     * @throws InvalidInputException when {@code shape} does not hold {@link #inputDimensions()} values
     */
    public HdbscanModel withRowShape(RowShape shape) {
        Objects.requireNonNull(shape, "shape");
        if (shape.size() != inputDimensions()) {
            throw new InvalidInputException("rows of shape " + shape + " hold " + shape.size() + " values, but the model's "
                    + "input rows have " + inputDimensions());
        }
        return new HdbscanModel(this, projection, shape);
    }

    /** The shape of each input row of the fit ({@link #withRowShape}), if it was recorded. */
    public Optional<RowShape> rowShape() {
        return Optional.ofNullable(rowShape);
    }

    /** The principal components new points are projected on before prediction ({@link #withProjection}), if any. */
    public Optional<PrincipalComponents> projection() {
        return Optional.ofNullable(projection);
    }

    /**
     * Coordinates per new point: {@link #dimensions()}, or the projection's input coordinates for a model
     * {@link #withProjection with a projection}.
     */
    public int inputDimensions() {
        return projection == null ? d : projection.dimensions();
    }

    /** As {@link #of(HdbscanResult, PointSet, Execution)} on all processors. */
    public static HdbscanModel of(HdbscanResult result, PointSet points) {
        return of(result, points, Execution.everyCore());
    }

    /**
     * The model of {@code result}, fitted on {@code points} (the same point set, float32 or float64, as
     * given to {@link Hdbscan#fit}). Takes the prediction core distances from the result where the fit's engine
     * kept them for these coordinates ({@link HdbscanResult#predictionCoreDistances}: the CPU engine's Euclidean
     * fits of unweighted rows, all taking part); otherwise computes them (one exact neighbour search, as long as
     * the fit's core-distance stage) and, as a by-product, checks that these are the points the result was fitted
     * on: their core distances must be bitwise the result's. Either way the model is the same.
     *
     * <p>After a weighted fit ({@link Hdbscan#fit(PointSet, org.sylva.hdbscan.SampleWeights)}) the model holds
     * each row that took part once, with its weight, and answers as the model of the repeated rows would
     * ({@code np.repeat(X, w, axis=0)}): every copy counts in the neighbour lists of new points and of the
     * fitted ones, a connecting point is reported as its row, and rows of weight 0 are left out (label -1).
     *
     * <p>A fit with another metric than Euclidean (manhattan, chebyshev, minkowski, cosine) gives a model
     * that measures new points by that metric, as the package's prediction does: the fit's distances (for
     * manhattan, chebyshev and minkowski in up to 16 dimensions by a walk of a k-d tree over the fitted
     * points, otherwise by a scan of every fitted point; the same lists either way), the exemplars'
     * distances too.
     *
     * @throws InvalidInputException when the points are not the ones the result was fitted on (other coordinates
     *     than the fit's, told by their hash, are searched and refused when their core distances differ from the
     *     result's), or the fit was on a precomputed distance matrix (no coordinates to measure new points against)
     */
    public static HdbscanModel of(HdbscanResult result, PointSet points, Execution execution) {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(points, "points");
        if (result.parameters().metric().isPrecomputed()) {
            throw InvalidInputException.forParameter("metric", "prediction and saved models need the points' "
                    + "coordinates; this fit used a precomputed distance matrix");
        }
        if (points.size() != result.size()) {
            throw new InvalidInputException("the result was fitted on " + result.size() + " points; "
                    + points.size() + " given");
        }
        // the rows that took part, each once, with their weights (1 each for an unweighted fit)
        int[] rowWeights = result.sampleWeights();
        int fn = 0;
        for (int w : rowWeights) if (w > 0) fn++;
        int[] fitted = new int[fn];
        int[] weights = result.weighted() ? new int[fn] : null;
        for (int i = 0, f = 0; i < rowWeights.length; i++) {
            if (rowWeights[i] == 0) continue;
            if (weights != null) weights[f] = rowWeights[i];
            fitted[f++] = i;
        }
        int fd = points.dimensions();
        double[] fittedCoords = new double[fn * fd];
        for (int i = 0; i < fn; i++) {
            for (int j = 0; j < fd; j++) fittedCoords[i * fd + j] = points.getDouble(fitted[i], j);
        }
        // The fit's engine may have kept them from its own exact lists, for exactly these coordinates (their hash
        // decides): then no second search, and the index is built when a prediction first needs it.
        java.util.Optional<double[]> kept = result.parameters().metric().isEuclidean()
                ? result.predictionCoreDistances(fittedCoords) : java.util.Optional.empty();
        FittedSearch.Prepared prepared;
        if (kept.isPresent()) {
            execution.cancel().throwIfCancelled();
            // the partition of an index of these rows, which the model file stores: the fit's where its index was
            // over them, else (identical rows collapsed in the fit) an index's built now, as a prediction would
            LeafOrder order = result.fittedLeafOrder().orElse(null);   // of the coordinates just checked
            if (order == null) {
                order = PointIndex.buildWithoutFloat32Copy(fittedCoords, fn, fd, KernelProvider.get().scalarDistance(),
                        execution.threads(), execution.cancel()).leafOrder();
            }
            prepared = new FittedSearch.Prepared(null, null, kept.get(), null, order);
        } else {
            prepared = FittedSearch.prepare(fittedCoords, fn, fd, weights, result.parameters().minSamples(),
                    result.parameters().metric(), execution);
            CoreDistances cd = prepared.distances();
            double[] fitCore = result.coreDistances();
            for (int i = 0; i < fn; i++) {
                if (Double.doubleToLongBits(cd.core(i)) != Double.doubleToLongBits(fitCore[fitted[i]])) {
                    throw new InvalidInputException("these are not the points the result was fitted on: row "
                            + fitted[i] + " has core distance " + cd.core(i) + ", the result " + fitCore[fitted[i]]);
                }
            }
        }
        boolean identity = fn == result.size();
        int[] leftOut = null;
        if (!identity) {
            int[] labels = result.labels();
            leftOut = new int[result.size() - fn];
            int k = 0;
            for (int i = 0, f = 0; i < labels.length; i++) {
                if (f < fn && fitted[f] == i) f++;
                else leftOut[k++] = labels[i];
            }
        }
        return new HdbscanModel(result.parameters(), result.size(), identity ? null : fitted, fittedCoords, fn, fd,
                prepared.predictionCore(), result.condensedTree(), result.selectedClusters(), prepared,
                result.spanningTree(), leftOut, weights);
    }

    /**
     * A model from a condensed tree computed elsewhere (another spanning tree, another implementation's
     * tree) over {@code n} points of {@code d} float64 coordinates ({@code rows}, row-major, copied);
     * clusters are selected from {@code tree} with {@code parameters}' selection.
     *
     * @throws InvalidInputException when the sizes disagree, a coordinate is not finite, or
     *     {@code minSamples} exceeds {@code n}
     */
    public static HdbscanModel of(HdbscanParameters parameters, double[] rows, int n, int d, CondensedTree tree,
            Execution execution) {
        Objects.requireNonNull(parameters, "parameters");
        Objects.requireNonNull(tree, "tree");
        if (n < 2 || d < 1 || (long) n * d != rows.length) {
            throw new InvalidInputException("a model needs at least two points of at least one coordinate; got "
                    + rows.length + " values for n = " + n + ", d = " + d);
        }
        if (tree.points() != n || tree.minClusterSize() != parameters.minClusterSize()) {
            throw new InvalidInputException("the condensed tree is of " + tree.points() + " points, min_cluster_size "
                    + tree.minClusterSize() + "; expected " + n + " and " + parameters.minClusterSize());
        }
        if (parameters.minSamples() > n) {
            throw InvalidInputException.forParameter("min_samples", "min_samples (" + parameters.minSamples()
                    + ") must be at most the number of points (" + n + ")");
        }
        double[] copy = rows.clone();
        if (parameters.metric().isPrecomputed()) {
            throw InvalidInputException.forParameter("metric", "a model needs the points' coordinates, not a precomputed "
                    + "distance matrix");
        }
        FittedSearch.Prepared prepared = FittedSearch.prepare(copy, n, d, null, parameters.minSamples(),
                parameters.metric(), execution);
        int[] selected = ClusterSelector.selectedNodes(tree, parameters.selection());
        return new HdbscanModel(parameters, n, null, copy, n, d, prepared.predictionCore(), tree, selected,
                prepared, null, null, null);
    }

    /**
     * Reads a model {@link #save} wrote (the format: {@code docs/model-file.md}). Every field is checked before it is
     * used, and the payload's CRC-32 against the file's.
     *
     * <pre>{@code
     * HdbscanModel m = HdbscanModel.load(Path.of("clips.model"));
     * }</pre>
     *
     * @throws IOException when the file cannot be read (or shrinks while it is read)
     * @throws InvalidInputException when its bytes are not a model this version reads: an empty, truncated or other
     *     file, a version it does not know, a checksum that does not match, or fields that contradict each other (the
     *     message names the file and the problem)
     */
    public static HdbscanModel load(Path file) throws IOException {
        return ModelFile.read(file, ProgressListener.NONE, CancellationToken.NEVER);
    }

    /**
     * As {@link #load(Path)}, telling {@code progress} the bytes read as stage {@value #READ_STAGE} ({@code total}
     * is the file's size) and stopping between reads of at most a megabyte once {@code cancel} is cancelled.
     *
     * <pre>{@code
     * HdbscanModel m = HdbscanModel.load(Path.of("clips.model"), (stage, done, total) -> { }, token);
     * }</pre>
     *
     * @throws org.sylva.progress.CancelledException when {@code cancel} is cancelled before the model is read
     * @throws IOException as {@link #load(Path)}
     * @throws InvalidInputException as {@link #load(Path)}
     */
    public static HdbscanModel load(Path file, ProgressListener progress, CancellationToken cancel) throws IOException {
        return ModelFile.read(file, Objects.requireNonNull(progress, "progress"), Objects.requireNonNull(cancel, "cancel"));
    }

    /**
     * Reads a model from the bytes of a model file ({@link #toBytes}, or a file's contents), with the same
     * checks as {@link #load}; {@code name} names the bytes in errors.
     *
     * @throws IOException when the bytes cannot be read
     * @throws InvalidInputException as {@link #load(Path)}
     */
    public static HdbscanModel fromBytes(byte[] bytes, String name) throws IOException {
        return ModelFile.read(Objects.requireNonNull(name, "name"), Objects.requireNonNull(bytes, "bytes"));
    }

    /** The bytes {@link #save} writes, in memory (for a client that keeps the model itself). */
    public byte[] toBytes() {
        var out = new java.io.ByteArrayOutputStream();
        try {
            writeTo(out);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);   // a byte array stream does not fail
        }
        return out.toByteArray();
    }

    /**
     * The bytes of this model as a Sylva before format version 7 wrote it, without its index's partition (tests of
     * the older layouts, which a model loaded from such a file writes again).
     */
    byte[] toBytesWithoutLeafOrder() {
        var out = new java.io.ByteArrayOutputStream();
        try {
            ModelFile.write(out, this, false);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Writes this model to {@code file} atomically (all of it or, on failure, nothing); the format: {@code docs/model-file.md}. */
    public void save(Path file) throws IOException {
        AtomicOutput.write(file, this::writeTo);
    }

    /**
     * Writes the model file's bytes to {@code out} (not closed): for a caller that places the file itself,
     * e.g. together with the other outputs of a run in one {@link AtomicOutput.Group}.
     */
    public void writeTo(OutputStream out) throws IOException {
        ModelFile.write(out, this);
    }

    // ---------------------------------------------------------------- questions

    /** As {@link #approximatePredict(PointSet, Execution)} on all processors. */
    public Prediction approximatePredict(PointSet newPoints) {
        return approximatePredict(newPoints, Execution.everyCore());
    }

    /**
     * Label, probability, outlier score and connecting point of each new point (see
     * {@link HardAssignment} for the rules and {@link Prediction} for the result).
     *
     * @throws InvalidInputException when the new points have another number of coordinates than the
     *     fitted ones, or a coordinate that is not finite or beyond +-1e150
     */
    public Prediction approximatePredict(PointSet newPoints, Execution execution) {
        return answers.answer(newPoints, execution, true, false, PREDICT_STAGE).prediction();
    }

    /** As {@link #membershipVector(PointSet, Execution)} on all processors. */
    public Membership membershipVector(PointSet newPoints) {
        return membershipVector(newPoints, Execution.everyCore());
    }

    /**
     * Soft cluster membership of each new point, one column per cluster (the package's
     * {@code membership_vector}; see {@link SoftAssignment}).
     *
     * @throws InvalidInputException as {@link #approximatePredict(PointSet, Execution)}
     */
    public Membership membershipVector(PointSet newPoints, Execution execution) {
        return answers.answer(newPoints, execution, false, true, MEMBERSHIP_STAGE).membership();
    }

    /**
     * Both answers for the same new points, {@link #approximatePredict(PointSet, Execution)} and
     * {@link #membershipVector(PointSet, Execution)}, bitwise theirs, in one pass: each point's neighbours
     * are searched once instead of once per answer (the search is nearly all of either).
     *
     * <pre>{@code
     * HdbscanModel.Answers a = model.predictWithMembership(newPoints, execution);
     * int[] labels = a.prediction().labels();
     * }</pre>
     *
     * @throws InvalidInputException as {@link #approximatePredict(PointSet, Execution)}
     */
    public Answers predictWithMembership(PointSet newPoints, Execution execution) {
        return answers.answer(newPoints, execution, true, true, PREDICT_STAGE);
    }

    /**
     * The hard and the soft answer for the same new points ({@link #predictWithMembership}).
     *
     * @param prediction label, probability, outlier score and connecting point of each new point
     * @param membership soft cluster membership of each new point
     */
    public record Answers(Prediction prediction, Membership membership) {
    }

    /** As {@link #allPointsMembershipVectors(Execution)} on all processors. */
    public Membership allPointsMembershipVectors() {
        return allPointsMembershipVectors(Execution.everyCore());
    }

    /**
     * Soft cluster membership of every input point of the fit, one row per input row (NaN rows for rows
     * left out of the fit), one column per cluster: the package's {@code all_points_membership_vectors},
     * which uses another formula than {@link #membershipVector} (see {@link SoftAssignment}), so a fitted
     * point given as a new point gets another vector.
     */
    public Membership allPointsMembershipVectors(Execution execution) {
        return answers.allPoints(execution);
    }

    // ---------------------------------------------------------------- from the stored spanning tree

    /**
     * The fit's spanning tree over the fitted rows (over every copy of them after a weighted fit, as
     * {@link HdbscanResult#spanningTree()}), in the unique edge order; empty for a model read from a
     * version 1 file (which did not store it) or built by {@link #of(HdbscanParameters, double[], int, int,
     * CondensedTree, Execution)} from a condensed tree alone.
     */
    public Optional<SpanningTree> spanningTree() {
        return Optional.ofNullable(mst);
    }

    private SpanningTree requireTree(String operation) {
        if (mst == null) {
            throw new InvalidInputException(operation + " needs the fit's spanning tree, which this model does not hold "
                    + "(a model file of format version 1, written before Sylva stored it, or a model built from a "
                    + "condensed tree alone); fit again and save the model (sylva hdbscan --save-model, "
                    + "HdbscanModel.save) to get a version 2 file");
        }
        return mst;
    }

    /**
     * The flat DBSCAN* clustering at {@code cutDistance} from the stored spanning tree, one label per
     * input row, exactly {@link HdbscanResult#dbscanClustering} of the fit (rows left out of the fit keep
     * -2 / -3, and -1 for a sample weight of 0).
     *
     * @throws InvalidInputException when the model holds no spanning tree ({@link #spanningTree()} empty)
     */
    public int[] dbscanClustering(double cutDistance, int minClusterSize) {
        SpanningTree t = requireTree("dbscan_clustering (a DBSCAN* cut)");
        return inputRows.labels(DbscanCut.labels(t, cutDistance, minClusterSize));
    }

    /**
     * A model whose clusters are selected again from the stored spanning tree with {@code other}'s
     * selection parameters (method, epsilon, maximum size, single-cluster rule, and {@code minClusterSize},
     * which recondenses the single-linkage tree built from the spanning tree as {@link HdbscanResult#reselect}
     * does): its labels, probabilities, outlier scores and persistence are those of a fresh fit with
     * {@code other}. Prediction with the new model uses the new clusters.
     *
     * @throws InvalidInputException when the model holds no spanning tree, or {@code other} changes
     *     {@code minSamples}, {@code alpha} or the metric (they define the spanning tree: fit again for those);
     *     the exception names the parameter
     */
    public HdbscanModel reselect(HdbscanParameters other) {
        Objects.requireNonNull(other, "other");
        SpanningTree t = requireTree("reselect");
        parameters.requireSameSpanningTree(other, "reselect");
        CondensedTree ct = other.minClusterSize() == parameters.minClusterSize() ? tree
                : CondensedTree.condense(SingleLinkageTree.of(t.orientedFrom(0)), other.minClusterSize());
        int[] selected = ClusterSelector.selectedNodes(ct, other.selection());
        HdbscanModel m = new HdbscanModel(other, inputRows.total(), inputRows.fittedRowsShared(), rows, n, d, core, ct,
                selected, search, t, inputRows.leftOutShared(), inputRows.copies());
        return projection == null && rowShape == null ? m : new HdbscanModel(m, projection, rowShape);
    }

    /**
     * As {@link #reselect(HdbscanParameters)} with {@code other}'s parameters, so that the same line serves a
     * result and a model: {@code model.reselect(model.parameters().toBuilder().clusterSelectionMethod(LEAF).build())}.
     */
    public HdbscanModel reselect(Hdbscan other) {
        return reselect(other.parameters());
    }

    /** The clustering of the fitted rows: the clusters selected from the condensed tree with the parameters. */
    private Clustering clustering() {
        return ClusterSelector.select(tree, parameters.selection());
    }

    /**
     * Cluster label per input row, as the fit (or {@link #reselect}) gives it: -1 noise (and rows of sample
     * weight 0), -2 / -3 rows left out for an infinity / NaN (-2 for every left-out row of a version 1 file,
     * which did not store why).
     */
    public int[] labels() {
        return inputRows.labels(clustering().labels());
    }

    /** Membership probability per input row, as the fit gives it (0 / NaN for rows left out for an infinity / NaN). */
    public double[] probabilities() {
        return inputRows.values(clustering().probabilities(), 0.0);
    }

    /** GLOSH outlier score per input row, as the fit gives it (NaN for rows left out). */
    public double[] outlierScores() {
        return inputRows.values(OutlierScores.of(tree).scores(), Double.NaN);
    }

    /** Persistence of each cluster, indexed by label, as {@link HdbscanResult#clusterPersistence()}. */
    public double[] clusterPersistence() {
        return clustering().persistence();
    }

    // ---------------------------------------------------------------- what the model holds

    /** The parameters of the fit. */
    public HdbscanParameters parameters() {
        return parameters;
    }

    /** Number of input rows of the fit. */
    public int size() {
        return inputRows.total();
    }

    /**
     * Number of fitted rows: the input rows that took part (all of them unless non-finite rows, or rows of
     * sample weight 0, were left out). After a weighted fit each stands for its weight in points of the trees.
     */
    public int fittedSize() {
        return n;
    }

    /** True when the fit had sample weights: its trees then number every copy a weight stands for. */
    public boolean weighted() {
        return inputRows.copies() != null;
    }

    /**
     * The sample weight of each input row, as {@link HdbscanResult#sampleWeights()} gives it (a fresh array;
     * 1 each for an unweighted fit, 0 for rows left out of it).
     */
    public int[] sampleWeights() {
        int[] w = new int[inputRows.total()];
        PointCopies copies = inputRows.copies();
        for (int f = 0; f < n; f++) w[inputRows.inputRow(f)] = copies == null ? 1 : copies.weight(f);
        return w;
    }

    /** Coordinates per point. */
    public int dimensions() {
        return d;
    }

    /**
     * False when the condensed tree's root never splits into clusters of at least {@code min_cluster_size}
     * points: prediction then labels every new point noise, as the {@code hdbscan} package's
     * {@code approximate_predict} does, even where the fit took the root as its one cluster
     * ({@code allow_single_cluster}). Callers warn, as the package does.
     */
    public boolean predictsClusters() {
        return clusters.splits();
    }

    /** Number of clusters (columns of a {@link Membership}). */
    public int clusterCount() {
        return clusters.labels();
    }

    /** The condensed tree, over the fitted rows (over every copy of them after a weighted fit). */
    public CondensedTree condensedTree() {
        return tree;
    }

    /**
     * The fitted points, {@link #fittedSize()} rows of {@link #dimensions()} float64 coordinates, row-major,
     * exactly as the fit clustered them (a fresh array): the input's rows that took part, or their scores for a
     * model {@link #withProjection with a projection}.
     */
    public double[] fittedCoordinates() {
        return rows.clone();
    }

    /**
     * The fit's core distance of each fitted row, computed again by one exact neighbour search over the fitted
     * points with the fit's metric (every copy counted after a weighted fit): bitwise the fit's, which a model
     * does not store. {@link HdbscanResult#of(HdbscanModel, Execution)} rebuilds the fit's result from them.
     */
    public double[] fitCoreDistances(Execution execution) {
        return FittedSearch.prepare(rows, n, d, weightsOrNull(), parameters.minSamples(), parameters.metric(), execution)
                .distances().coreDistances();
    }

    /** Input row of each fitted row (a fresh array; the identity unless rows were left out). */
    public int[] fittedRows() {
        return inputRows.fittedRows();
    }

    /**
     * The prediction core distance of each input row (NaN for rows left out of the fit): the distance to
     * its {@code (minSamples - 1)}-th nearest fitted point counting itself, the package's
     * {@code prediction_data_.core_distances}.
     */
    public double[] predictionCoreDistances() {
        return inputRows.rowsOf(core.clone(), 1);
    }

    /**
     * The input rows of cluster {@code label}'s exemplars, in the package's order ({@code exemplars_}: the
     * leaves below the cluster depth first, each leaf's points at its largest lambda in tree order); soft
     * clustering measures distances to clusters through them. After a weighted fit each row is named once,
     * where its first copy among the exemplars comes.
     */
    public int[] exemplars(int label) {
        Objects.checkIndex(label, clusters.labels());
        int[] e = exemplars.points(label);
        for (int i = 0; i < e.length; i++) e[i] = inputRows.inputRowOfPoint(e[i]);
        return e;
    }

    // ---------------------------------------------------------------- for ModelFile

    double[] rowsShared() {
        return rows;
    }

    double[] coreShared() {
        return core;
    }

    /** The stored spanning tree or null. */
    SpanningTree treeShared() {
        return mst;
    }

    /** The weight of each fitted row after a weighted fit (a fresh array), else null. */
    int[] weightsOrNull() {
        return inputRows.copies() == null ? null : inputRows.copies().weights();
    }

    /** Labels (-1 / -2 / -3) of the rows left out, in row order; null when none or unknown. */
    int[] leftOutShared() {
        return inputRows.leftOutShared();
    }

    @Override
    public String toString() {
        return "HdbscanModel[n=" + inputRows.total() + ", d=" + d + ", clusters=" + clusters.labels() + "]";
    }
}
