package org.sylva.hdbscan.engine;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.sylva.hdbscan.Backend;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.index.LeafOrder;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.mst.BoruvkaMst;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.kernels.DistanceKernel;
import org.sylva.parallel.Execution;

/**
 * The CPU engine: builds the partition index ({@link PointIndex}), computes exact core distances
 * ({@link CoreDistances}) and runs Borůvka with both exact shortcuts ({@link BoruvkaMst}), on every core
 * of {@link Execution#threads()} (on the calling thread alone below {@link #ONE_WORKER_POINTS} distinct
 * points). Each stage runs the distance kernel {@link StageKernels} picks for the {@link Backend} and the
 * input (or one fixed kernel); the results are bitwise the same whichever runs.
 * Identical points are searched once, with a multiplicity, and the result is expanded to every copy
 * ({@link DuplicatePoints}), bitwise the result of searching every point.
 * Stateless and thread-safe.
 *
 * <pre>{@code
 * HdbscanEngine cpu = new CpuHdbscanEngine(Backend.AUTO);
 * HdbscanEngine scalar = new CpuHdbscanEngine(KernelProvider.get().scalarDistance());
 * }</pre>
 */
public final class CpuHdbscanEngine implements HdbscanEngine {
    /**
     * Distinct points from which the spanning tree uses the principal-axis bounds
     * ({@link BoruvkaMst.Builder#axisBounds}) in any JVM: in a fresh one their set-up and the compilation of
     * their code cost more than they save below it.
     */
    static final int AXIS_BOUNDS_POINTS = 100_000;
    /** Distinct points from which they are used in a long-lived JVM ({@link StageKernels#longLived()}). */
    static final int AXIS_BOUNDS_WARM_POINTS = 10_000;
    /** Dimensions above which they are used: at 16 and below the full-space bounds prune nearly as well. */
    static final int AXIS_BOUNDS_DIMENSIONS = 16;

    /**
     * Distinct points from which float64 values that float32 cannot hold get a rounded float32 copy, and so
     * the pre-filter, in a fresh JVM: below it the direct search, which compiles fewer kernels, finishes a
     * one-shot run first (measured on 20 000 to 50 000 clips of four decimals). In a long-lived JVM the
     * index's own bound applies ({@link PointIndex#ROUNDED_COPY_MIN_POINTS}).
     */
    static final int COLD_ROUNDED_COPY_POINTS = 30_000;

    /**
     * The fewest distinct points for which the index makes a rounded float32 copy in this JVM now, for
     * {@code kernels}: none when neither stage's kernel has a pre-filter to read it.
     */
    static int roundedCopyMinPoints(StageKernels kernels) {
        if (!kernels.coreDistances().approximates() && !kernels.spanningTree().approximates()) return Integer.MAX_VALUE;
        return StageKernels.longLived() ? PointIndex.ROUNDED_COPY_MIN_POINTS : COLD_ROUNDED_COPY_POINTS;
    }

    /** Whether the spanning tree of {@code n} distinct points in {@code d} dimensions uses the principal axes. */
    static boolean axisBounds(int n, int d) {
        return d > AXIS_BOUNDS_DIMENSIONS
                && (n >= AXIS_BOUNDS_POINTS || (n >= AXIS_BOUNDS_WARM_POINTS && StageKernels.longLived()));
    }

    /**
     * Distinct points below which a fit runs on the calling thread alone, whatever the threads asked for:
     * such a fit's passes have a few units of microseconds each, and handing them to a second thread costs
     * more than it saves (BENCHMARKS.md, "One worker for the smallest fits"). The result is the
     * same for any number of threads.
     */
    static final int ONE_WORKER_POINTS = 256;

    /** The workers a fit of {@code n} distinct points runs on when {@code threads} are asked for. */
    static int workers(int n, int threads) {
        return n < ONE_WORKER_POINTS ? 1 : threads;
    }

    /** The backend whose kernels are chosen per fit, or {@code null} when {@link #fixed} is set. */
    private final Backend backend;
    private final DistanceKernel fixed;

    /** An engine whose kernels {@code backend} chooses per stage and input ({@link StageKernels#choose}). */
    public CpuHdbscanEngine(Backend backend) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.fixed = null;
        if (backend == Backend.SIMD) StageKernels.choose(backend, 0, 1);   // refuse now, with the reason
    }

    /** An engine whose distances all come from {@code kernel}. */
    public CpuHdbscanEngine(DistanceKernel kernel) {
        this.backend = null;
        this.fixed = Objects.requireNonNull(kernel, "kernel");
    }

    @Override
    public String name() {
        return "cpu/" + (fixed != null ? fixed.name() : backend.id());
    }

    /** Weighted rows are collapsed with their multiplicity and expanded like identical points ({@link DuplicatePoints}). */
    @Override
    public boolean supportsWeights() {
        return true;
    }

    /** The kernels a fit of {@code n} points of {@code d} coordinates runs now. */
    public StageKernels kernelsFor(int n, int d) {
        return fixed != null ? StageKernels.both(fixed) : StageKernels.choose(backend, n, d);
    }

    @Override
    public MutualReachabilityMst spanningTree(FittedPoints points, int minSamples, double alpha, Execution execution) {
        return run(kernelsFor(points.n(), points.d()), points, minSamples, alpha, execution);
    }

    /** The stages with the kernels given (package access: tests run mixed choices through it). */
    static MutualReachabilityMst run(StageKernels kernels, FittedPoints points, int minSamples, double alpha,
            Execution execution) {
        return run(kernels, points, minSamples, alpha, execution, true);
    }

    /**
     * The stages; with {@code collapse}, identical points are searched once, with a multiplicity, and the
     * result expanded ({@link DuplicatePoints}: bitwise the result without, which tests compare).
     */
    static MutualReachabilityMst run(StageKernels kernels, FittedPoints points, int minSamples, double alpha,
            Execution execution, boolean collapse) {
        Map<String, Double> times = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        // The stage starts now, as its timing does: the grouping of identical rows and the index build come
        // before the search's first report, and a progress line's clock and rate should count them.
        execution.progress().progress(CoreDistances.STAGE, 0, 1);
        // weighted rows always go through the grouping: it is what turns a row into its copies
        DuplicatePoints dup = (collapse || points.weighted()) && points.points() <= DuplicatePoints.MAX_POINTS
                ? DuplicatePoints.find(points.rows(), points.n(), points.d(), points.weights(), execution.cancel())
                : null;
        if (points.weighted() && dup == null) {
            throw new IllegalArgumentException(points.points() + " weighted points: at most "
                    + DuplicatePoints.MAX_POINTS);
        }
        if (dup != null && !dup.collapses()) dup = null;
        double[] rows = dup != null ? dup.distinctRows() : points.rows();
        int n = dup != null ? dup.distinct() : points.n();
        int threads = workers(n, execution.threads());
        PointIndex index = PointIndex.build(rows, n, points.d(), kernels.indexKernel(), threads,
                execution.cancel(), roundedCopyMinPoints(kernels));
        rows = null;   // the index holds its own copy
        boolean axes = axisBounds(index.size(), index.dimensions());
        CoreDistances core = dup != null
                ? CoreDistances.compute(index, minSamples, dup.multiplicities(), kernels.coreDistances(),
                        threads, axes, execution.progress(), execution.cancel())
                : CoreDistances.compute(index, minSamples, kernels.coreDistances(), threads, axes,
                        execution.progress(), execution.cancel());
        StageKernels.ran(kernels.coreDistances(), points.n(), points.d());
        long t1 = System.nanoTime();
        times.put("core distances", (t1 - t0) / 1e9);

        // Borůvka reads a leaf only up to the core distances its queries can use: points by core distance.
        index = index.withLeavesOrderedBy(core.coreDistances(), threads, execution.cancel());
        SpanningTree mst = BoruvkaMst.builder().alpha(alpha).threads(threads)
                .backend(kernels.spanningTree())
                .axisBounds(axes).build()
                .compute(index, core, execution.progress(), execution.cancel());
        double[] coreDistances = core.coreDistances();
        // a weighted fit's model holds its rows with their weights, not the points: it searches for itself
        double[] predictionCore = points.weighted() ? null : predictionCore(core, minSamples, dup);
        // the partition a model of the fit stores: that of an index over every fitted point, which the fit's is
        // unless identical points were collapsed into one (then the model builds its own)
        LeafOrder order = predictionCore == null || dup != null ? null : index.leafOrder();
        if (dup != null) {
            mst = dup.expandTree(mst, coreDistances);
            coreDistances = dup.expandCore(coreDistances);
            if (predictionCore != null) predictionCore = dup.expandCore(predictionCore);
        }
        StageKernels.ran(kernels.spanningTree(), points.n(), points.d());
        long t2 = System.nanoTime();
        times.put("spanning tree", (t2 - t1) / 1e9);
        return new MutualReachabilityMst(coreDistances, mst, times, predictionCore, order);
    }

    /**
     * Each searched point's distance to its {@code (minSamples - 1)}-th nearest point counting itself, every copy
     * of a duplicate counted (its multiplicity), from the exact lists: what a model's search of the same points
     * gives them (lists of all points, duplicates as separate points); 0 each for {@code minSamples} 1.
     */
    static double[] predictionCore(CoreDistances core, int minSamples, DuplicatePoints dup) {
        if (minSamples >= 2 && dup != null) return core.distancesCounting(minSamples - 1, dup.multiplicities());
        double[] out = new double[core.size()];
        if (minSamples < 2) return out;
        for (int i = 0; i < out.length; i++) out[i] = core.neighbourDistance(i, minSamples - 2);
        return out;
    }
}
