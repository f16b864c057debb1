package org.sylva.hdbscan.predict;

import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.engine.StageKernels;
import org.sylva.hdbscan.index.LeafOrder;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.metric.KdTree;
import org.sylva.hdbscan.metric.KdTreeEngine;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.metric.PairDistances;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;
import org.sylva.parallel.Execution;

/**
 * The fitted points' side of prediction: their index and prediction core distances when a model is
 * made ({@link #prepare}), and the neighbour search new points walk, built on first use and shared by a
 * model and the models derived from it ({@link HdbscanModel#reselect}, {@link HdbscanModel#withProjection}),
 * whose fitted points are the same. Which distance kernel each job takes is decided here too.
 *
 * <pre>{@code
 * FittedSearch.Prepared p = FittedSearch.prepare(rows, n, d, null, minSamples, execution);
 * FittedSearch search = new FittedSearch(rows, n, d, p.index(), Metric.euclidean());
 * FittedNeighbours s = search.search(execution, search.kernelFor(m), m, k);
 * }</pre>
 */
final class FittedSearch {
    private final double[] rows;
    private final int n;
    private final int d;
    /** The partition the neighbour searches walk; built on first use (a loaded model has none yet). */
    private volatile Built search;
    /**
     * The partition an index is built from, without splitting the points again (the fit's, the model file's, or
     * that of the index the model was made with), or null; the model file stores it ({@link #leafOrder}).
     */
    private final LeafOrder order;

    /** A search and whether its index was asked for the float32 copy (an index may still have none). */
    private record Built(NeighbourSearch search, boolean copyAsked) {
    }

    /**
     * Fewest new points whose search is worth the fitted points' float32 copy, when a loaded model's index has
     * none yet: the copy costs a pass over the fitted coordinates and half their memory again, and pays off
     * in the pre-filtered group scans ({@link NeighbourSearch#filtered}) of a batch of new points
     * (BENCHMARKS.md, "New points through the float32 pre-filter").
     */
    static final int FLOAT32_SEARCH_MIN_POINTS = 1000;
    /** The fit's distances for a metric other than Euclidean, which the searches scan; null for Euclidean. */
    private final PairDistances pairs;
    /** For a metric the fit ran on a k-d tree: that tree over the fitted points, the model's or built on first use. */
    private volatile KdTree metricTree;
    /** For a metric other than Euclidean: the scan of the fitted points, made on first use. */
    private volatile MetricScan metricScan;
    /** For Euclidean: the scan of the fitted points that few new points take while no index is built. */
    private volatile MetricScan euclideanScan;
    /** New points the Euclidean scan has searched so far ({@link #SCAN_MAX_POINTS} at most). */
    private final java.util.concurrent.atomic.AtomicLong scanned = new java.util.concurrent.atomic.AtomicLong();

    /**
     * New points a model without an index (one loaded from a file, or made from a fit that kept its prediction
     * core distances) scans, every fitted point against each, before it builds its index. The
     * index costs dozens of passes over the fitted coordinates (0.7 s of a cold one-clip prediction against
     * 200 000 clips); a scan costs one pass per new point. Measured cold (BENCHMARKS.md, "Few new points
     * without the index"), the scan was faster up to about 40 to 70 new points against 20 000 and 200 000
     * clips and 100 000 3-d points. The points are counted over the model's life, so however a fresh JVM
     * splits its new points into calls, the scans cost at most about one index build more.
     */
    static final int SCAN_MAX_POINTS = 32;

    /**
     * Whether a long-lived JVM ({@link StageKernels#longLived}) scans too; false: it builds the index at once.
     * There the same model is usually asked again (the Python engine holds it between calls), and from the
     * Python package the scan made the first 32 one-clip calls against 200 000 clips 9 ms each instead of
     * 3.5 ms, with the index's build at the 33rd (BENCHMARKS.md, "Few new points without the index"). Tests
     * set it.
     */
    boolean scanWhenLongLived;
    private final boolean usesTree;
    private final Metric metric;

    /**
     * The search over {@code rows} ({@code n} x {@code d}, not copied); {@code prepared}: what {@link #prepare} made
     * of them (its index, or its k-d tree, is used rather than built again), or null to build on first use;
     * {@code metric}: the fit's (any but precomputed).
     */
    FittedSearch(double[] rows, int n, int d, Prepared prepared, Metric metric) {
        this.rows = rows;
        this.n = n;
        this.d = d;
        this.search = prepared == null || prepared.index() == null ? null
                : new Built(new NeighbourSearch(prepared.index()), true);
        this.order = prepared == null || !metric.isEuclidean() ? null
                : prepared.index() != null ? prepared.index().leafOrder() : prepared.order();
        this.metricTree = prepared == null ? null : prepared.tree();
        this.pairs = metric.isEuclidean() ? null : metric.pairs(rows, n, d);
        this.usesTree = KdTreeEngine.usesTree(metric, d);
        this.metric = metric;
    }

    /** The Euclidean neighbour search built so far, or null (tests). */
    NeighbourSearch builtSearch() {
        Built b = search;
        return b == null ? null : b.search();
    }

    /**
     * The partition the model file stores: that of an index of the fitted rows ({@link PointIndex#build}: one
     * partition whichever kernel builds it, each leaf's rows ascending), so that a model's file is the same however
     * the model was made ({@link HdbscanModel#of(org.sylva.hdbscan.HdbscanResult, org.sylva.data.PointSet,
     * Execution)} sees to it). Null for a model that stores none: one loaded from a file of versions 1 to 6 (it
     * writes that version again), or of another metric than Euclidean.
     */
    LeafOrder leafOrder() {
        return order;
    }

    /** The fit's distances when its metric is not Euclidean, else null. */
    PairDistances pairs() {
        return pairs;
    }

    /**
     * What making a model computes over its fitted points: their index, their core distances for
     * {@code minSamples} (the fit's, which {@link HdbscanModel#of} checks against the result) and the
     * package's prediction core distances.
     *
     * @param index the index of the fitted points (null for a metric other than Euclidean)
     * @param distances the fit's core distances and nearest lists of the fitted points
     * @param predictionCore the prediction core distance of each fitted point
     * @param tree the k-d tree the lists came from, for a metric whose fit may run on one; else null
     * @param order without an index, the partition to build one from ({@link PointIndex#fromOrder}) and to store, or
     *     null to split the points anew and store none (a model loaded from a file without one); with an index,
     *     ignored (the index's own is taken)
     */
    record Prepared(PointIndex index, CoreDistances distances, double[] predictionCore, KdTree tree, LeafOrder order) {
    }

    /**
     * The index and core distances of {@code rows} for {@code minSamples}, on the execution's threads (bitwise
     * the same for any count); {@code weights}: the points each row stands for after a weighted fit (every
     * copy counted, as the fit counts them), else null.
     */
    static Prepared prepare(double[] rows, int n, int d, int[] weights, int minSamples, Execution ex) {
        return prepare(rows, n, d, weights, minSamples, Metric.euclidean(), ex);
    }

    /**
     * As {@link #prepare(double[], int, int, int[], int, Execution)} for a fit with {@code metric}: for one other
     * than Euclidean (whose fits take no weights) the lists come from a walk of a k-d tree over the rows
     * where {@link KdTreeEngine#usesTree} allows one, else from a scan of every pair (the same lists either
     * way, {@link MetricScan#fittedLists}), and there is no index.
     */
    static Prepared prepare(double[] rows, int n, int d, int[] weights, int minSamples, Metric metric, Execution ex) {
        if (!metric.isEuclidean()) {
            if (weights != null) throw new IllegalArgumentException("sample weights with the " + metric.name() + " metric");
            KdTree tree = KdTreeEngine.usesTree(metric, d) ? KdTree.build(metric, rows, n, d, ex.cancel()) : null;
            CoreDistances cd = MetricScan.fittedLists(metric.pairs(rows, n, d), tree, minSamples, ex);
            return new Prepared(null, cd, predictionCore(cd, minSamples, null), tree, null);
        }
        long points = weights == null ? n : java.util.Arrays.stream(weights).asLongStream().sum();
        PointIndex index = PointIndex.build(rows, n, d, fitKernel(points, d), ex.threads(), ex.cancel());
        CoreDistances cd = weights == null
                ? CoreDistances.compute(index, minSamples, index.kernel(), ex.threads(), ex.progress(), ex.cancel())
                : CoreDistances.compute(index, minSamples, weights, index.kernel(), ex.threads(), ex.progress(), ex.cancel());
        return new Prepared(index, cd, predictionCore(cd, minSamples, weights), null, null);
    }

    /**
     * The package's prediction core distances, from lists of {@code m + 1} entries counting the point:
     * the {@code (m - 1)}-th entry, i.e. the {@code s}-th nearest point counting itself (after a weighted fit,
     * the first distance at which the entries' weights reach {@code m - 1}); 0 for {@code m = 1}
     * ({@code s = 0}, where the package has none).
     */
    private static double[] predictionCore(CoreDistances cd, int m, int[] weights) {
        if (m >= 2 && weights != null) {
            return CoreDistances.coresWithMultiplicities(m - 1, cd.k(), cd.neighbours(), cd.neighbourDistances(), weights);
        }
        double[] out = new double[cd.size()];
        if (m >= 2) {
            for (int i = 0; i < out.length; i++) out[i] = cd.neighbourDistance(i, m - 2);
        }
        return out;
    }

    /**
     * The distance kernel for a fit-sized job over {@code points} points of {@code d} coordinates, as the
     * fit's {@code auto} chooses it ({@link StageKernels#coldScalar}): in a fresh JVM the vector kernels run
     * interpreted at first, many times slower than the scalar loops, so a small job takes the scalar kernel
     * unless the JVM is a long-lived one. The kernels compute the same bits.
     */
    static DistanceKernel fitKernel(long points, int d) {
        KernelProvider kp = KernelProvider.get();
        return !StageKernels.longLived() && StageKernels.coldScalar(points, d) ? kp.scalarDistance() : kp.bestDistance();
    }

    /**
     * The kernel for searching {@code m} new points among the {@code n} fitted ones: the scalar kernel where
     * {@link StageKernels#coldScalarSearch} says a fresh JVM searches them faster on it, unless the JVM is a
     * long-lived one; measured on cold predictions in BENCHMARKS.md, "New points on the kernels' lanes".
     */
    DistanceKernel kernelFor(long m) {
        KernelProvider kp = KernelProvider.get();
        return !StageKernels.longLived() && StageKernels.coldScalarSearch(m, n, d) ? kp.scalarDistance() : kp.bestDistance();
    }

    /** The k-d tree over the fitted points, built on first use (every caller builds the same tree). */
    private KdTree metricTree(Execution execution) {
        KdTree t = metricTree;
        if (t == null) {
            t = KdTree.build(metric, rows, n, d, execution.cancel());
            metricTree = t;   // benign race, as the index's
        }
        return t;
    }

    /**
     * The neighbour search on {@code kernel} for {@code m} new points with lists of {@code k} entries: for a
     * model without an index in a JVM that is not long-lived ({@link #scanWhenLongLived}), while the new points
     * it has searched number at most {@link #SCAN_MAX_POINTS}, a scan of every fitted point (a
     * {@link MetricScan} of the Euclidean distance, bitwise the same lists); else the index's search, the
     * index built on first use on the execution's threads (the same index for any count), and again when a
     * later call takes the other kernel (a long-lived JVM moves from the scalar kernel to the vector one once)
     * or wants the float32 copy the index was built without: from {@link #FLOAT32_SEARCH_MIN_POINTS} new
     * points, on a kernel that pre-filters, where the points are searched in groups
     * ({@link NeighbourSearch#groupSize}). Every search answers the same.
     */
    FittedNeighbours search(Execution execution, DistanceKernel kernel, long m, int k) {
        if (pairs != null) {
            MetricScan scan = metricScan;
            if (scan == null || scan.kernelOutdated()) {   // a long-lived JVM moves to the vector kernel once
                scan = new MetricScan(pairs, usesTree ? metricTree(execution) : null);
                metricScan = scan;   // benign race: every caller makes a scan that answers the same
            }
            return scan;
        }
        Built b = search;
        if (b == null && (scanWhenLongLived || !StageKernels.longLived()) && scanned.get() + m <= SCAN_MAX_POINTS) {
            scanned.addAndGet(m);
            MetricScan scan = euclideanScan;
            if (scan == null || scan.kernelOutdated()) {
                scan = new MetricScan(Metric.euclidean().pairs(rows, n, d), null);
                euclideanScan = scan;   // benign race: every caller makes a scan that answers the same
                if (search != null) euclideanScan = null;   // an index came meanwhile: the copy is not kept
            }
            return scan;
        }
        boolean copy = kernel.approximates() && NeighbourSearch.groupSize(d, k) > 1 && m >= FLOAT32_SEARCH_MIN_POINTS;
        if (b == null || b.search().kernel() != kernel || copy && !b.copyAsked()) {
            euclideanScan = null;   // its copy of the fitted rows is not read again (nor kept through the build)
            // without the copy the search computes every distance in float64; with an order, the points are not
            // split again (most of a build)
            PointIndex index = order != null
                    ? PointIndex.fromOrder(rows, n, d, kernel, order, copy, execution.threads(), execution.cancel())
                    : copy ? PointIndex.build(rows, n, d, kernel, execution.threads(), execution.cancel())
                    : PointIndex.buildWithoutFloat32Copy(rows, n, d, kernel, execution.threads(), execution.cancel());
            b = new Built(new NeighbourSearch(index), copy);
            search = b;   // benign race: every caller builds an index that answers the same
        }
        return b.search();
    }
}
