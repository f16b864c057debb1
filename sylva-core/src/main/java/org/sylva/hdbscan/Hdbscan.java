package org.sylva.hdbscan;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.sylva.backend.Backends;
import org.sylva.backend.DistanceBackend;
import org.sylva.backend.PointIndex;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.hdbscan.hierarchy.SelectionParameters;
import org.sylva.hdbscan.mst.BoruvkaMst;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * Exact HDBSCAN* with scikit-learn's parameter names and defaults ({@code sklearn.cluster.HDBSCAN}
 * >= 1.3), Euclidean metric, float32 input and float64 arithmetic. The pipeline is: core distances
 * ({@link CoreDistances}) → minimum spanning tree of the mutual-reachability distance by Borůvka with a
 * unique tie order ({@link BoruvkaMst}, {@link org.sylva.hdbscan.mst.EdgeOrder}) → single-linkage and
 * condensed trees → cluster selection → probabilities and GLOSH outlier scores
 * ({@link org.sylva.hdbscan.hierarchy}). The result depends only on the input and the parameters, never
 * on {@link Builder#threads(int)} or {@link Builder#backend(String)}.
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
    private final int minClusterSize;
    private final Integer minSamples;
    private final double clusterSelectionEpsilon;
    private final int maxClusterSize;
    private final double alpha;
    private final SelectionMethod method;
    private final boolean allowSingleCluster;
    private final NonFinitePolicy nonFinite;
    private final int threads;
    private final String backend;

    private Hdbscan(Builder b) {
        this.minClusterSize = b.minClusterSize;
        this.minSamples = b.minSamples;
        this.clusterSelectionEpsilon = b.clusterSelectionEpsilon;
        this.maxClusterSize = b.maxClusterSize;
        this.alpha = b.alpha;
        this.method = b.method;
        this.allowSingleCluster = b.allowSingleCluster;
        this.nonFinite = b.nonFinite;
        this.threads = b.threads;
        this.backend = b.backend;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this instance's settings. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.minClusterSize = minClusterSize;
        b.minSamples = minSamples;
        b.clusterSelectionEpsilon = clusterSelectionEpsilon;
        b.maxClusterSize = maxClusterSize;
        b.alpha = alpha;
        b.method = method;
        b.allowSingleCluster = allowSingleCluster;
        b.nonFinite = nonFinite;
        b.threads = threads;
        b.backend = backend;
        return b;
    }

    public int minClusterSize() {
        return minClusterSize;
    }

    /** The effective {@code min_samples}: the value given, or {@code minClusterSize} when none was. */
    public int minSamples() {
        return minSamples == null ? minClusterSize : minSamples;
    }

    public double clusterSelectionEpsilon() {
        return clusterSelectionEpsilon;
    }

    /** 0 means no limit (scikit-learn's {@code None}). */
    public int maxClusterSize() {
        return maxClusterSize;
    }

    public double alpha() {
        return alpha;
    }

    public SelectionMethod clusterSelectionMethod() {
        return method;
    }

    public boolean allowSingleCluster() {
        return allowSingleCluster;
    }

    public NonFinitePolicy nonFinitePolicy() {
        return nonFinite;
    }

    public int threads() {
        return threads;
    }

    public String backend() {
        return backend;
    }

    /** The selection part of the parameters (what {@link HdbscanResult#reselect} may change). */
    public SelectionParameters selectionParameters() {
        return new SelectionParameters(method, clusterSelectionEpsilon, maxClusterSize, allowSingleCluster);
    }

    /** The parameters in scikit-learn's names, in a stable order (for reports and JSON summaries). */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("min_cluster_size", Integer.toString(minClusterSize));
        m.put("min_samples", Integer.toString(minSamples()));
        m.put("cluster_selection_epsilon", Double.toString(clusterSelectionEpsilon));
        m.put("max_cluster_size", maxClusterSize == 0 ? "None" : Integer.toString(maxClusterSize));
        m.put("alpha", Double.toString(alpha));
        m.put("cluster_selection_method", method.name().toLowerCase(java.util.Locale.ROOT));
        m.put("allow_single_cluster", Boolean.toString(allowSingleCluster));
        return m;
    }

    /** Fits without progress reporting or cancellation. */
    public HdbscanResult fit(PointSet points) {
        return fit(points, ProgressListener.NONE, CancellationToken.NEVER);
    }

    /**
     * Clusters {@code points}. Progress is reported between bounded chunks of work; when {@code cancel}
     * is cancelled the fit stops at the next chunk boundary with
     * {@link org.sylva.progress.CancelledException} and returns nothing.
     *
     * @throws InvalidInputException for non-finite coordinates (under {@link NonFinitePolicy#REJECT}),
     *     fewer than two points, or {@code minSamples} larger than the number of points
     */
    public HdbscanResult fit(PointSet points, ProgressListener progress, CancellationToken cancel) {
        Objects.requireNonNull(points, "points");
        FiniteRows rows = FiniteRows.of(points, nonFinite);
        int n = rows.fittedCount(points.size());
        checkSizes(rows, points.size(), n, points.dimensions());
        return fitRows(rows.fittedRows(points), points.size(), n, points.dimensions(), rows, progress, cancel);
    }

    /**
     * Clusters {@code n} points of {@code d} float64 coordinates (row-major in {@code coords}, not
     * modified) — for data that is float64 to begin with, such as a float64 {@code .npy}: the distances
     * are then exactly scikit-learn's, with no rounding to float32 first.
     */
    public HdbscanResult fit(double[] coords, int n, int d, ProgressListener progress, CancellationToken cancel) {
        Objects.requireNonNull(coords, "coords");
        if (n < 0 || d < 1 || (long) n * d != coords.length) {
            throw new InvalidInputException("coordinate array has " + coords.length + " values, expected n * d = "
                    + n + " * " + d);
        }
        FiniteRows rows = FiniteRows.of(coords, n, d, nonFinite);
        requireRepresentableDistances(coords, d);
        int fitted = rows.fittedCount(n);
        checkSizes(rows, n, fitted, d);
        return fitRows(rows.fittedRows(coords, d), n, fitted, d, rows, progress, cancel);
    }

    /**
     * Largest coordinate magnitude a float64 input may have: beyond it a squared distance could overflow
     * to infinity and the order of edges would be lost (float32 input never comes close).
     */
    public static final double MAX_ABS_COORDINATE = 1e150;

    private static void requireRepresentableDistances(double[] c, int d) {
        for (int i = 0; i < c.length; i++) {
            if (Math.abs(c[i]) > MAX_ABS_COORDINATE) {   // NaN compares false: handled by the policy
                throw new InvalidInputException("point " + (i / d) + ", coordinate " + (i % d) + " is " + c[i]
                        + ": coordinates beyond +-1e150 would overflow squared distances; rescale the data");
            }
        }
    }

    private void checkSizes(FiniteRows rows, int total, int n, int d) {
        if (n < 2) {
            throw new InvalidInputException(rows.describeCount(total, n) + ": HDBSCAN needs at least two points");
        }
        if (minSamples() > n) {
            throw new InvalidInputException("min_samples (" + minSamples() + ") must be at most the number of "
                    + rows.describeCount(total, n));
        }
        MemoryBudget.check(n, d, minSamples());
    }

    private HdbscanResult fitRows(double[] fittedRows, int total, int n, int d, FiniteRows rows,
            ProgressListener progress, CancellationToken cancel) {
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(cancel, "cancel");
        cancel.throwIfCancelled();
        DistanceBackend b = Backends.of(backend);
        Map<String, Double> times = new LinkedHashMap<>();

        long t0 = System.nanoTime();
        PointIndex index = PointIndex.build(fittedRows, n, d, b);
        CoreDistances core = CoreDistances.compute(index, minSamples(), b, threads, progress, cancel);
        long t1 = System.nanoTime();
        times.put("core distances", (t1 - t0) / 1e9);

        SpanningTree mst = BoruvkaMst.builder().alpha(alpha).threads(threads).backend(b).build()
                .compute(index, core, progress, cancel);
        long t2 = System.nanoTime();
        times.put("spanning tree", (t2 - t1) / 1e9);
        cancel.throwIfCancelled();

        return HdbscanResult.fromSpanningTree(this, total, rows, core.coreDistances(), mst, times);
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
        private String backend = "auto";

        private Builder() {
        }

        /** Smallest size a group of points must have to count as a cluster; at least 2. */
        public Builder minClusterSize(int v) {
            minClusterSize = v;
            return this;
        }

        /** Neighbourhood size for core distances, counting the point itself; {@code null} → minClusterSize. */
        public Builder minSamples(Integer v) {
            minSamples = v;
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

        public Builder clusterSelectionMethod(SelectionMethod v) {
            method = Objects.requireNonNull(v, "clusterSelectionMethod");
            return this;
        }

        public Builder allowSingleCluster(boolean v) {
            allowSingleCluster = v;
            return this;
        }

        public Builder nonFinite(NonFinitePolicy v) {
            nonFinite = Objects.requireNonNull(v, "nonFinite");
            return this;
        }

        /** Worker threads (>= 1). The result does not depend on it. */
        public Builder threads(int v) {
            threads = v;
            return this;
        }

        /** "auto", "scalar" or "simd". The result does not depend on it. */
        public Builder backend(String v) {
            backend = Objects.requireNonNull(v, "backend");
            return this;
        }

        /** Validates every parameter; the message names the parameter and the value. */
        public Hdbscan build() {
            if (minClusterSize < 2) {
                throw new InvalidInputException("min_cluster_size must be at least 2; got " + minClusterSize);
            }
            if (minSamples != null && minSamples < 1) {
                throw new InvalidInputException("min_samples must be at least 1; got " + minSamples);
            }
            if (!(alpha > 0) || Double.isInfinite(alpha)) {
                throw new InvalidInputException("alpha must be a positive finite number; got " + alpha);
            }
            if (!(clusterSelectionEpsilon >= 0)) {
                throw new InvalidInputException("cluster_selection_epsilon must be >= 0; got " + clusterSelectionEpsilon);
            }
            if (maxClusterSize < 0) {
                throw new InvalidInputException("max_cluster_size must be >= 0 (0 = no limit); got " + maxClusterSize);
            }
            if (threads < 1) {
                throw new InvalidInputException("threads must be at least 1; got " + threads);
            }
            if (!backend.equals("auto") && !backend.equals("scalar") && !backend.equals("simd")) {
                throw new InvalidInputException("backend must be auto, scalar or simd; got " + backend);
            }
            return new Hdbscan(this);
        }
    }
}
