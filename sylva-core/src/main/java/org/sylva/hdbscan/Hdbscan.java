package org.sylva.hdbscan;

import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.engine.CpuHdbscanEngine;
import org.sylva.hdbscan.engine.FittedPoints;
import org.sylva.hdbscan.engine.HdbscanEngine;
import org.sylva.hdbscan.engine.MutualReachabilityMst;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.hdbscan.hierarchy.SelectionParameters;
import org.sylva.hdbscan.metric.BruteForceEngine;
import org.sylva.hdbscan.metric.KdTree;
import org.sylva.hdbscan.metric.KdTreeEngine;
import org.sylva.hdbscan.metric.DistanceGraph;
import org.sylva.hdbscan.metric.GraphSpanningTree;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.parallel.Execution;
import org.sylva.parallel.Pools;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * Exact HDBSCAN* with scikit-learn's parameter names and defaults ({@code sklearn.cluster.HDBSCAN}
 * >= 1.3), Euclidean metric by default (others: {@link Builder#metric(Metric)}), float32 or float64 input ({@link PointSet#ofFloat64}) and float64 arithmetic. The pipeline is: core distances
 * ({@link org.sylva.hdbscan.core.CoreDistances}) → minimum spanning tree of the mutual-reachability distance by Borůvka with a
 * unique tie order ({@link org.sylva.hdbscan.mst.BoruvkaMst}, {@link org.sylva.hdbscan.mst.EdgeOrder}) → single-linkage and
 * condensed trees → cluster selection → probabilities and GLOSH outlier scores
 * ({@link org.sylva.hdbscan.hierarchy}). The result depends only on the input and the parameters, never
 * on {@link Builder#threads(int)} or {@link Builder#backend(Backend)}. The stages up to the spanning tree
 * run on an {@link HdbscanEngine} ({@link #engine()}); the parameters are a {@link HdbscanParameters}.
 *
 * <p>{@code minSamples} counts the point itself, as scikit-learn does: the core distance is the distance
 * to the {@code minSamples}-th nearest point, the point itself being the first (the {@code hdbscan}
 * package's {@code min_samples} is one less). Instances are immutable and thread-safe; one instance may
 * fit many inputs concurrently.
 *
 * <pre>{@code
 * HdbscanResult r = Hdbscan.builder().minClusterSize(20).build().fit(points);
 * int[] labels = r.labels();
 * }</pre>
 */
public final class Hdbscan {
    private final HdbscanParameters parameters;
    private final NonFinitePolicy nonFinite;
    private final int threads;
    private final Backend backend;
    /** An engine given to the builder, or {@code null}: the CPU engine with {@link #backend}'s kernels. */
    private final HdbscanEngine engine;
    /** False for scikit-learn's {@code min_samples=None}: {@code minSamples} follows {@code minClusterSize}. */
    private final boolean minSamplesGiven;

    private Hdbscan(HdbscanParameters parameters, Builder b) {
        this.parameters = parameters;
        this.minSamplesGiven = b.minSamples != null;
        this.nonFinite = b.nonFinite;
        this.threads = b.threads;
        this.backend = b.backend;
        this.engine = b.engine;
    }

    /** A builder with scikit-learn's defaults (see {@link Builder}). */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this instance's parameters and run settings. A {@code minSamples} that was never
     * set stays unset (scikit-learn's {@code min_samples=None}): {@code toBuilder().minClusterSize(50)}
     * builds an estimator whose {@code minSamples} is 50 too, as {@code set_params(min_cluster_size=50)} does.
     */
    public Builder toBuilder() {
        Builder b = parameters.toBuilder().nonFinite(nonFinite).threads(threads).backend(backend).engine(engine);
        return minSamplesGiven ? b : b.clearMinSamples();
    }

    /** The parameters the result depends on. */
    public HdbscanParameters parameters() {
        return parameters;
    }

    public int minClusterSize() {
        return parameters.minClusterSize();
    }

    /** The effective {@code min_samples}: the value given, or {@code minClusterSize} when none was. */
    public int minSamples() {
        return parameters.minSamples();
    }

    public double clusterSelectionEpsilon() {
        return parameters.clusterSelectionEpsilon();
    }

    /** 0 means no limit (scikit-learn's {@code None}). */
    public int maxClusterSize() {
        return parameters.maxClusterSize();
    }

    public double alpha() {
        return parameters.alpha();
    }

    public SelectionMethod clusterSelectionMethod() {
        return parameters.method();
    }

    public boolean allowSingleCluster() {
        return parameters.allowSingleCluster();
    }

    public NonFinitePolicy nonFinitePolicy() {
        return nonFinite;
    }

    public int threads() {
        return threads;
    }

    /** The distance the fit clusters with. */
    public Metric metric() {
        return parameters.metric();
    }

    /** Which distance kernels the CPU engine runs (never changes the result). */
    public Backend backend() {
        return backend;
    }

    /** The selection part of the parameters (what {@link HdbscanResult#reselect} may change). */
    public SelectionParameters selectionParameters() {
        return parameters.selection();
    }

    /** The parameters in scikit-learn's names, in a stable order (for reports and JSON summaries). */
    public Map<String, String> describe() {
        return parameters.describe();
    }

    /**
     * The engine this estimator's fits run on: the one given to {@link Builder#engine(HdbscanEngine)}, else
     * for the Euclidean metric the CPU engine with the distance kernels of {@link #backend()} (chosen per
     * stage and input for {@link Backend#AUTO}), for manhattan, chebyshev and minkowski the exact
     * {@link KdTreeEngine} (itself the brute-force engine above {@link KdTreeEngine#MAX_DIMENSIONS}), for
     * cosine and precomputed the exact {@link BruteForceEngine}.
     */
    public HdbscanEngine engine() {
        if (engine != null) return engine;
        if (metric().isEuclidean()) return new CpuHdbscanEngine(backend);
        return KdTree.bounds(metric()) ? new KdTreeEngine(metric()) : new BruteForceEngine(metric());
    }

    /** Fits without progress reporting or cancellation. */
    public HdbscanResult fit(PointSet points) {
        return fit(points, ProgressListener.NONE, CancellationToken.NEVER);
    }

    /**
     * Clusters {@code points}. Progress is reported between bounded chunks of work; when {@code cancel}
     * is cancelled, or the calling thread is interrupted, the fit stops at the next chunk boundary with
     * {@link org.sylva.progress.CancelledException} and returns nothing.
     *
     * @throws InvalidInputException for non-finite coordinates (under {@link NonFinitePolicy#REJECT}),
     *     fewer than two points, or {@code minSamples} larger than the number of points
     */
    public HdbscanResult fit(PointSet points, ProgressListener progress, CancellationToken cancel) {
        return fit(points, null, progress, cancel);
    }

    /** Fits with sample weights, without progress reporting or cancellation. */
    public HdbscanResult fit(PointSet points, SampleWeights weights) {
        return fit(points, weights, ProgressListener.NONE, CancellationToken.NEVER);
    }

    /**
     * Clusters {@code points}, row {@code i} counting as {@code weights.weight(i)} identical points (for core
     * distances and cluster sizes; weight 0: the row does not take part and is labelled -1, with
     * probability 0 and NaN outlier score and core distance). The result is bitwise the fit of the rows
     * repeated, {@code np.repeat(X, w, axis=0)}, with each row reporting its first copy's label,
     * probability, outlier score and core distance — all copies of a row agree, since identical points
     * join each other or fall out of a cluster together — and the trees indexing those copies
     * ({@link HdbscanResult#fittedRows()} maps each to its row). The copies are never materialised: the
     * search runs over the distinct rows with their multiplicities. {@code weights == null} is the
     * unweighted fit. Euclidean metric and the CPU engine only, as in fast_hdbscan.
     *
     * @throws InvalidInputException for a weight count other than the row count, a metric other than
     *     Euclidean, an engine without weights, fewer than two points in all, or the reasons of
     *     {@link #fit(PointSet, ProgressListener, CancellationToken)}
     */
    public HdbscanResult fit(PointSet points, SampleWeights weights, ProgressListener progress,
            CancellationToken cancel) {
        Objects.requireNonNull(points, "points");
        if (points.isFloat64()) {
            return fit(points.coordinates64(), points.size(), points.dimensions(), weights, progress, cancel);
        }
        if (metric().isPrecomputed()) {   // a matrix is checked as one, never thinned by the non-finite policy
            return fit(points.coordinates64(), points.size(), points.dimensions(), weights, progress, cancel);
        }
        checkWeights(weights, points.size());
        FiniteRows rows = FiniteRows.of(points, nonFinite);
        if (weights != null) rows = rows.weighted(weights, points.size());
        checkSizes(rows, points.size(), points.dimensions(), true);
        double[] fitted = rows.fittedRows(points);
        // float32 squares are normal float64s, but |difference|^p of tiny float32 values is subnormal for large p
        if (metric().kind() == Metric.Kind.MINKOWSKI) requireRepresentableDistances(fitted, points.dimensions());
        // fittedRows is a private float64 copy: nothing to guard
        return fitRows(fitted, points.size(), points.dimensions(), rows, InputGuard.NONE, progress, cancel);
    }

    /**
     * Clusters {@code n} points of {@code d} float64 coordinates (row-major in {@code coords}, not
     * modified) — for data that is float64 to begin with, such as a float64 {@code .npy}: the distances
     * are then exactly scikit-learn's, with no rounding to float32 first. The same as fitting
     * {@link PointSet#ofFloat64}{@code (n, d, coords)}. The array is read in place, not copied: it must
     * not change until the fit returns. One that holds other values when the fit ends than when it began is an
     * {@link InvalidInputException} saying so; a change undone before the end (a value written and put back)
     * cannot be seen that way, and may leave a result that is not the array's: copy the array first where
     * another thread may write it.
     */
    public HdbscanResult fit(double[] coords, int n, int d, ProgressListener progress, CancellationToken cancel) {
        return fit(coords, n, d, null, progress, cancel);
    }

    /**
     * As {@link #fit(double[], int, int, ProgressListener, CancellationToken)} with sample weights (see
     * {@link #fit(PointSet, SampleWeights, ProgressListener, CancellationToken)}; {@code null}: none).
     */
    public HdbscanResult fit(double[] coords, int n, int d, SampleWeights weights, ProgressListener progress,
            CancellationToken cancel) {
        Objects.requireNonNull(coords, "coords");
        if (n < 0 || d < 1 || (long) n * d != coords.length) {
            throw new InvalidInputException("coordinate array has " + coords.length + " values, expected n * d = "
                    + n + " * " + d);
        }
        checkWeights(weights, n);
        if (metric().isPrecomputed()) {
            BruteForceEngine.checkSize(metric(), n);
            metric().pairs(coords, n, d);   // refuses what is not a distance matrix, naming the entry
        }
        // a matrix's +inf entries are missing distances, not rows to leave out
        FiniteRows rows = metric().isPrecomputed() ? FiniteRows.all(n) : FiniteRows.of(coords, n, d, nonFinite);
        if (weights != null) rows = rows.weighted(weights, n);
        if (!metric().isPrecomputed()) requireRepresentableDistances(coords, d);
        double[] fittedRows = rows.fittedRows(coords, d);
        checkSizes(rows, n, d, fittedRows != coords);
        // read in place when every row takes part: guard against the caller writing into it meanwhile
        InputGuard guard = fittedRows == coords ? InputGuard.of(coords) : InputGuard.NONE;
        return fitRows(fittedRows, n, d, rows, guard, progress, cancel);
    }

    /** Fits a sparse precomputed distance matrix, without progress reporting or cancellation. */
    public HdbscanResult fit(DistanceGraph graph) {
        return fit(graph, ProgressListener.NONE, CancellationToken.NEVER);
    }

    /**
     * Clusters the points of a sparse precomputed distance matrix, for an estimator whose metric is
     * {@link Metric#precomputed()}: pairs not stored are no edge, and a point's core distance is the
     * {@code minSamples}-th smallest distance stored in its row, as scikit-learn fits a sparse matrix
     * ({@link GraphSpanningTree}). The result's arrays are those of a dense fit (a graph storing every pair and the
     * diagonal gives bitwise the dense matrix's result); progress and cancellation as the other fits.
     *
     * <pre>{@code
     * HdbscanResult r = Hdbscan.builder().metric(Metric.precomputed()).minSamples(5).build()
     *         .fit(DistanceGraph.ofCsr(n, indptr, indices, data));
     * }</pre>
     *
     * @throws InvalidInputException for another metric, fewer than two points, {@code minSamples} above the point
     *     count, a row storing fewer than {@code minSamples} distances, or a graph in several connected pieces
     */
    public HdbscanResult fit(DistanceGraph graph, ProgressListener progress, CancellationToken cancel) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(cancel, "cancel");
        if (!metric().isPrecomputed()) {
            throw InvalidInputException.forParameter("metric", "a sparse distance matrix is fitted with the metric "
                    + "precomputed; this estimator's metric is " + metric().name());
        }
        int n = graph.size();
        FiniteRows rows = FiniteRows.all(n);
        if (n < 2) throw new InvalidInputException(rows.describeCount(n, n) + ": HDBSCAN needs at least two points");
        if (minSamples() > n) {
            throw InvalidInputException.forParameter("min_samples", "min_samples (" + minSamples()
                    + ") must be at most the number of " + rows.describeCount(n, n));
        }
        MemoryBudget.checkGraph(n, graph.storedEntries(), graph.widestRow(), threads);
        stopIfAsked(cancel);
        MutualReachabilityMst m = GraphSpanningTree.compute(graph, minSamples(), alpha(),
                new Execution(threads, progress, cancel));
        stopIfAsked(cancel);
        HdbscanResult r = HdbscanResult.fromSpanningTree(parameters, n, n, rows, m.coreDistances(), m.tree(),
                m.stageSeconds(), cancel);
        stopIfAsked(cancel);
        return r;
    }

    /** Refuses weights that do not fit the input or this estimator (before any work). */
    private void checkWeights(SampleWeights weights, int n) {
        if (weights == null) return;
        if (weights.size() != n) {
            throw InvalidInputException.forParameter("sample_weight", weights.size() + " sample weights for " + n
                    + " rows: give one weight per row");
        }
        if (!metric().isEuclidean()) {
            throw InvalidInputException.forParameter("sample_weight", "sample weights are supported with the euclidean "
                    + "metric only (as in fast_hdbscan); this fit uses " + metric().name());
        }
        if (!engine().supportsWeights()) {
            throw InvalidInputException.forParameter("sample_weight", "the engine " + engine().name() + " does not take "
                    + "sample weights; the CPU engine does (leave the engine at its default: backend auto)");
        }
    }

    /**
     * Largest coordinate magnitude a float64 input may have: beyond it a squared distance could overflow
     * to infinity and the order of edges would be lost (float32 input never comes close).
     */
    public static final double MAX_ABS_COORDINATE = 1e150;

    /**
     * Least magnitude the largest coordinate of a float64 input may have with the metrics that square (or raise
     * to a power) coordinate differences: {@code 2^-512}, about 7.5e-155. Below it every difference is under
     * {@code 2^-511}, so every squared difference is subnormal (under {@link Double#MIN_NORMAL}) and has lost digits,
     * down to 0 for the smallest: distinct points would tie. (float32 input never comes close: its smallest value
     * squared is a normal float64.) Minkowski's {@code p} moves the limit to {@code 2^(-1022/p - 1)}, which float32 input
     * can fall below: it is checked too under that metric.
     */
    public static final double MIN_LARGEST_COORDINATE = 0x1p-512;

    private void requireRepresentableDistances(double[] c, int d) {
        requireRepresentable(c, d, metric(), i -> "point " + (i / d) + ", coordinate " + (i % d), "");
    }

    /**
     * Refuses float64 coordinates whose distances {@code metric} cannot represent: a finite one beyond
     * {@link #MAX_ABS_COORDINATE} (any metric), or, under a metric that squares or raises differences to a power
     * (all but manhattan and chebyshev), data whose largest finite magnitude is above 0 and below
     * {@link #MIN_LARGEST_COORDINATE}. Non-finite values are left to the non-finite policy. {@code naming} names
     * value {@code i} in the refusal, {@code source} prefixes the refusal of the data as a whole.
     *
     * <pre>{@code
     * Hdbscan.requireRepresentable(x, d, Metric.euclidean(), i -> "row " + i / d + ", column " + i % d, "clips.npy: ");
     * }</pre>
     *
     * @throws InvalidInputException naming the value, or the data's largest magnitude
     */
    public static void requireRepresentable(double[] c, int d, Metric metric, IntFunction<String> naming, String source) {
        boolean squares = metric.kind() != Metric.Kind.MANHATTAN && metric.kind() != Metric.Kind.CHEBYSHEV;
        double largest = 0;
        for (int i = 0; i < c.length; i++) {
            double a = Math.abs(c[i]);
            if (!Double.isFinite(a)) continue;
            if (a > MAX_ABS_COORDINATE) {
                throw new InvalidInputException(naming.apply(i) + " is " + c[i]
                        + (squares ? ": coordinates beyond +-1e150 would overflow squared distances; rescale the data"
                        : ": coordinates are taken within +-1e150 with every metric (beyond, the euclidean metric's "
                                + "squared distances would overflow); rescale the data"));
            }
            largest = Math.max(largest, a);
        }
        boolean minkowski = metric.kind() == Metric.Kind.MINKOWSKI;
        // |a - b|^p is subnormal for every pair when 2 * largest < 2^(-1022 / p)
        double least = minkowski ? StrictMath.pow(2, -1022 / metric.p() - 1) : MIN_LARGEST_COORDINATE;
        if (squares && largest > 0 && largest < least) {
            throw new InvalidInputException(source + "every coordinate is within +-"
                    + String.format(java.util.Locale.ROOT, "%.1e", least) + " (the largest magnitude is " + largest
                    + "): with the " + metric.name() + " metric every " + (minkowski ? "|difference|^" + metric.p()
                    : metric.kind() == Metric.Kind.COSINE ? "squared coordinate of a row's norm" : "squared difference")
                    + " would be subnormal and lose its digits, so distinct points would tie; rescale the data");
        }
    }

    /** {@code copiesRows}: the fit clusters a float64 copy of the rows (for the memory estimate). */
    private void checkSizes(FiniteRows rows, int total, int d, boolean copiesRows) {
        int n = rows.fittedCount(total);
        if (n == 0 && rows.isWeighted()) {
            throw InvalidInputException.forParameter("sample_weight", "every sample weight is zero (on the rows that "
                    + "take part): there is nothing to cluster");
        }
        if (n < 2) {
            throw new InvalidInputException(rows.describeCount(total, n) + ": HDBSCAN needs at least two points");
        }
        if (minSamples() > n) {
            throw InvalidInputException.forParameter("min_samples", "min_samples (" + minSamples()
                    + ") must be at most the number of " + rows.describeCount(total, n));
        }
        if (metric().isEuclidean()) {
            MemoryBudget.check(rows.takingCount(total), n, d, minSamples(), copiesRows);
        } else if (KdTreeEngine.usesTree(metric(), d)) {
            MemoryBudget.checkKdTree(n, d);
        } else {
            BruteForceEngine.checkSize(metric(), n);
            MemoryBudget.checkBruteForce(n, d, metric().kind() == Metric.Kind.COSINE,
                    metric().kind() != Metric.Kind.MINKOWSKI && !metric().isPrecomputed());
        }
    }

    private HdbscanResult fitRows(double[] fittedRows, int total, int d, FiniteRows rows, InputGuard guard,
            ProgressListener progress, CancellationToken cancel) {
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(cancel, "cancel");
        stopIfAsked(cancel);
        MutualReachabilityMst m;
        FittedPoints fitted = new FittedPoints(fittedRows, rows.takingCount(total), d, rows.copies());
        try {
            m = engine().spanningTree(fitted, minSamples(), alpha(), new Execution(threads, progress, cancel));
        } catch (RuntimeException e) {
            // an input changed mid-fit breaks the index's invariants: say so rather than show the symptom
            guard.check(e);
            throw e;
        }
        guard.check(null);
        stopIfAsked(cancel);
        checkEngineOutput(m, fitted.points());
        // a model of this fit takes the prediction core distances from here, for these very coordinates (checked
        // by their hash), where each row is one fitted point: with rows left out or weights it searches itself;
        // only Sylva's CPU engine's, from its exact lists (an engine given to the builder is not trusted with them)
        boolean keep = engine() instanceof CpuHdbscanEngine && metric().isEuclidean()
                && m.predictionCoreDistances() != null && m.predictionCoreDistances().length == total
                && rows.takingCount(total) == total && !rows.isWeighted();
        HdbscanResult r = HdbscanResult.fromSpanningTree(parameters, total, d, rows, m.coreDistances(), m.tree(),
                m.stageSeconds(), keep ? m.predictionCoreDistances() : null, keep ? guard.hashOf(fittedRows) : 0,
                keep ? m.leafOrder() : null, cancel);
        stopIfAsked(cancel);
        return r;
    }

    /**
     * Refuses what the engine returned unless it is a spanning tree of the {@code fitted} points (a weighted row's
     * copies each one: {@link FittedPoints#points()}) with a core distance each: an engine given to the builder (a
     * GPU's, a cluster's, a caller's) that got it wrong would otherwise make a result whose per-point arrays do not
     * fit the input, or fail deep in the hierarchy. O(n).
     */
    private void checkEngineOutput(MutualReachabilityMst m, long fitted) {
        String wrong = m == null ? "no result"
                : m.tree() == null ? "no spanning tree"
                : m.coreDistances() == null ? "no core distances"
                : m.tree().points() != fitted ? "a spanning tree of " + m.tree().points() + " points"
                : m.coreDistances().length != fitted ? m.coreDistances().length + " core distances"
                : null;
        if (wrong != null) {
            throw new IllegalStateException("the engine " + engine().name() + " returned " + wrong + " for a fit of "
                    + fitted + " points");
        }
        try {
            m.tree().requireTree();
        } catch (InvalidInputException e) {
            throw new IllegalStateException("the engine " + engine().name() + " returned no spanning tree: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Throws {@link CancelledException} when {@code cancel} is cancelled or the calling thread was
     * interrupted (its interrupt status stays set): an interrupt stops a fit as the token does, also in a
     * stage that runs on the calling thread alone.
     */
    private static void stopIfAsked(CancellationToken cancel) {
        cancel.throwIfCancelled();
        if (Thread.currentThread().isInterrupted()) throw new CancelledException();
    }

    /**
     * Builder with scikit-learn's defaults: {@code minClusterSize = 5}, {@code minSamples = null} (→
     * {@code minClusterSize}), {@code clusterSelectionEpsilon = 0}, {@code maxClusterSize = 0} (none),
     * {@code alpha = 1}, EOM, {@code allowSingleCluster = false}; plus {@link NonFinitePolicy#REJECT},
     * all available processors and the best available backend.
     */
    public static final class Builder {
        private int minClusterSize = 5;
        private Integer minSamples;
        private double clusterSelectionEpsilon;
        private int maxClusterSize;
        private double alpha = 1.0;
        private SelectionMethod method = SelectionMethod.EOM;
        private boolean allowSingleCluster;
        private NonFinitePolicy nonFinite = NonFinitePolicy.REJECT;
        private int threads = Runtime.getRuntime().availableProcessors();
        private Backend backend = Backend.AUTO;
        private HdbscanEngine engine;
        private Metric metric = Metric.euclidean();

        private Builder() {
        }

        /** Smallest size a group of points must have to count as a cluster; at least 2. */
        public Builder minClusterSize(int v) {
            minClusterSize = v;
            return this;
        }

        /**
         * Neighbourhood size for core distances, counting the point itself (scikit-learn's
         * {@code min_samples}); when never set, {@code minClusterSize}, as scikit-learn's {@code None}.
         */
        public Builder minSamples(int v) {
            minSamples = v;
            return this;
        }

        /**
         * Forgets a {@code minSamples} set before: the estimator then uses {@code minClusterSize}, as
         * scikit-learn's {@code min_samples=None} (the default of a new builder).
         */
        public Builder clearMinSamples() {
            minSamples = null;
            return this;
        }

        /** Clusters that split below this mutual-reachability distance are merged back; >= 0. */
        public Builder clusterSelectionEpsilon(double v) {
            clusterSelectionEpsilon = v;
            return this;
        }

        /** Largest cluster EOM may select; 0 = no limit. Ignored by LEAF, as in scikit-learn. */
        public Builder maxClusterSize(int v) {
            maxClusterSize = v;
            return this;
        }

        /** Distance scaling of the mutual reachability {@code max(core_a, core_b, d / alpha)}; > 0. */
        public Builder alpha(double v) {
            alpha = v;
            return this;
        }

        /** How clusters are selected from the condensed tree: {@link SelectionMethod#EOM} (default) or LEAF. */
        public Builder clusterSelectionMethod(SelectionMethod v) {
            method = Objects.requireNonNull(v, "clusterSelectionMethod");
            return this;
        }

        /** Whether EOM may select the root, giving one cluster of all points (default false, as scikit-learn). */
        public Builder allowSingleCluster(boolean v) {
            allowSingleCluster = v;
            return this;
        }

        /** What a NaN or infinite coordinate does: refused ({@link NonFinitePolicy#REJECT}, default) or left out. */
        public Builder nonFinite(NonFinitePolicy v) {
            nonFinite = Objects.requireNonNull(v, "nonFinite");
            return this;
        }

        /** Worker threads (1 .. {@link Pools#MAX_WORKERS}). The result does not depend on it. */
        public Builder threads(int v) {
            threads = v;
            return this;
        }

        /**
         * The engine of the stages up to the spanning tree ({@code null}: the CPU engine with
         * {@link #backend(Backend)}'s kernels). Any engine must return bitwise the CPU engine's core
         * distances and edges, so the result does not depend on it. What it returns is checked to be a spanning tree
         * of the fitted points with a core distance each (an {@code IllegalStateException} naming the engine
         * otherwise); that its values are the CPU engine's is for its own tests to show.
         */
        public Builder engine(HdbscanEngine v) {
            engine = v;
            return this;
        }

        /**
         * The distance ({@link Metric#euclidean()} by default). Manhattan, chebyshev and minkowski run on the
         * exact {@link KdTreeEngine} (which hands more than {@link KdTreeEngine#MAX_DIMENSIONS} dimensions, and
         * data its boxes would not prune, to the brute-force engine), cosine on the exact {@link BruteForceEngine} (at most
         * {@link BruteForceEngine#MAX_POINTS} points; see {@link Hdbscan#engine()}); with
         * {@link Metric#precomputed()} the input is the n x n distance matrix (the brute-force engine, the same
         * limit), or a sparse one ({@link Hdbscan#fit(DistanceGraph, ProgressListener, CancellationToken)}, no
         * such limit).
         */
        public Builder metric(Metric v) {
            metric = Objects.requireNonNull(v, "metric");
            return this;
        }

        /** Which distance kernels run ({@link Backend#AUTO} by default). The result does not depend on it. */
        public Builder backend(Backend v) {
            backend = Objects.requireNonNull(v, "backend");
            return this;
        }

        /** Validates every parameter ({@link HdbscanParameters}), then the run settings. */
        public Hdbscan build() {
            HdbscanParameters p = new HdbscanParameters(minClusterSize, minSamples == null ? minClusterSize : minSamples,
                    clusterSelectionEpsilon, maxClusterSize, alpha, method, allowSingleCluster, metric);
            Pools.checkThreads(threads);
            if (engine != null && !metric.isEuclidean()) {
                throw InvalidInputException.forParameter("metric", "the engine " + engine.name() + " computes Euclidean "
                        + "distances; metric " + metric.name() + " runs on Sylva's own exact CPU engine (leave the engine at its default: backend auto)");
            }
            if (backend == Backend.SIMD && engine == null) new CpuHdbscanEngine(backend);   // refused here, with the reason
            return new Hdbscan(p, this);
        }
    }
}
