package org.sylva.hdbscan;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.hdbscan.hierarchy.SelectionParameters;
import org.sylva.hdbscan.metric.Metric;

/**
 * The parameters of an HDBSCAN fit, in scikit-learn's names ({@code sklearn.cluster.HDBSCAN} >= 1.3):
 * what the result depends on, and nothing about how it is computed (threads, backend). The one place
 * where they are validated; the messages name the parameter as scikit-learn does and are meant to be
 * shown to a user as they are.
 *
 * <pre>{@code
 * HdbscanParameters p = Hdbscan.builder().minClusterSize(20).build().parameters();
 * HdbscanResult leaf = result.reselect(p.toBuilder().clusterSelectionMethod(SelectionMethod.LEAF).build());
 * }</pre>
 *
 * @param minClusterSize smallest size a group of points must have to count as a cluster; at least 2
 * @param minSamples neighbourhood size of the core distance, counting the point itself; at least 1
 * @param clusterSelectionEpsilon clusters that split below this distance are merged back; {@code >= 0}
 * @param maxClusterSize largest cluster EOM may select; 0 means no limit (scikit-learn's {@code None})
 * @param alpha distance scaling of the mutual reachability {@code max(core_a, core_b, d / alpha)}; {@code > 0}
 * @param method EOM or LEAF
 * @param allowSingleCluster whether EOM may select the root
 * @param metric the distance ({@link Metric#euclidean()} unless given)
 */
public record HdbscanParameters(int minClusterSize, int minSamples, double clusterSelectionEpsilon,
        int maxClusterSize, double alpha, SelectionMethod method, boolean allowSingleCluster, Metric metric) {

    /** The parameters with the Euclidean metric. */
    public HdbscanParameters(int minClusterSize, int minSamples, double clusterSelectionEpsilon, int maxClusterSize,
            double alpha, SelectionMethod method, boolean allowSingleCluster) {
        this(minClusterSize, minSamples, clusterSelectionEpsilon, maxClusterSize, alpha, method, allowSingleCluster,
                Metric.euclidean());
    }

    /**
     * Validates every parameter; the message names the parameter and the value, and the exception
     * carries the parameter's name ({@link InvalidInputException#parameter()}).
     */
    public HdbscanParameters {
        Objects.requireNonNull(method, "cluster_selection_method");
        Objects.requireNonNull(metric, "metric");
        if (minClusterSize < 2) {
            throw InvalidInputException.forParameter("min_cluster_size",
                    "min_cluster_size must be at least 2; got " + minClusterSize);
        }
        if (minSamples < 1) {
            throw InvalidInputException.forParameter("min_samples",
                    "min_samples must be at least 1; got " + minSamples);
        }
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw InvalidInputException.forParameter("alpha",
                    "alpha must be a positive finite number; got " + alpha);
        }
        if (!(clusterSelectionEpsilon >= 0)) {
            throw InvalidInputException.forParameter("cluster_selection_epsilon",
                    "cluster_selection_epsilon must be >= 0; got " + clusterSelectionEpsilon);
        }
        if (maxClusterSize < 0) {
            throw InvalidInputException.forParameter("max_cluster_size",
                    "max_cluster_size must be >= 0 (0 = no limit); got " + maxClusterSize);
        }
    }

    /** The selection part (what {@link HdbscanResult#reselect} may change, with {@code minClusterSize}). */
    public SelectionParameters selection() {
        return new SelectionParameters(method, clusterSelectionEpsilon, maxClusterSize, allowSingleCluster);
    }

    /** True when {@code other} defines the same spanning tree ({@code minSamples}, {@code alpha}, the metric). */
    public boolean sameSpanningTree(HdbscanParameters other) {
        return other.minSamples == minSamples && Double.compare(other.alpha, alpha) == 0 && other.metric.equals(metric);
    }

    /**
     * Refuses {@code other} when it defines another spanning tree than these parameters, naming the first
     * parameter that differs ({@code min_samples}, {@code alpha}, then {@code metric}) and both values.
     *
     * @param operation what cannot change them, for the message (e.g. {@code "reselect"})
     * @throws InvalidInputException with {@link InvalidInputException#parameter()} the differing parameter
     */
    public void requireSameSpanningTree(HdbscanParameters other, String operation) {
        Objects.requireNonNull(other, "other");
        String name = null, mine = null, theirs = null;
        if (other.minSamples != minSamples) {
            name = "min_samples";
            mine = Integer.toString(minSamples);
            theirs = Integer.toString(other.minSamples);
        } else if (Double.compare(other.alpha, alpha) != 0) {
            name = "alpha";
            mine = Double.toString(alpha);
            theirs = Double.toString(other.alpha);
        } else if (!other.metric.equals(metric)) {
            name = "metric";
            mine = metric.describe();
            theirs = other.metric.describe();
        }
        if (name != null) {
            throw InvalidInputException.forParameter(name, operation + " cannot change " + name + " (" + mine + " vs "
                    + theirs + "): min_samples, alpha and the metric define the spanning tree; fit again instead");
        }
    }

    /**
     * A builder of an estimator holding these parameters (and the default run settings). Its
     * {@code minSamples} is this record's value, set explicitly: a later {@code minClusterSize(...)} no
     * longer moves it unless {@link Hdbscan.Builder#clearMinSamples()} is called ({@link Hdbscan#toBuilder()}
     * keeps scikit-learn's {@code min_samples=None} where the estimator was built with it).
     */
    public Hdbscan.Builder toBuilder() {
        return Hdbscan.builder().minClusterSize(minClusterSize).minSamples(minSamples)
                .clusterSelectionEpsilon(clusterSelectionEpsilon).maxClusterSize(maxClusterSize).alpha(alpha)
                .clusterSelectionMethod(method).allowSingleCluster(allowSingleCluster).metric(metric);
    }

    /**
     * The parameters in scikit-learn's names, in a stable order, as text (for reports), in Python's spelling as
     * scikit-learn's {@code repr} shows them: {@code "20"}, {@code "0.0"}, {@code "None"}, {@code "eom"},
     * {@code "False"}. {@link #describeTyped()} has the same
     * keys with typed values.
     */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("min_cluster_size", Integer.toString(minClusterSize));
        m.put("min_samples", Integer.toString(minSamples));
        m.put("cluster_selection_epsilon", Double.toString(clusterSelectionEpsilon));
        m.put("max_cluster_size", maxClusterSize == 0 ? "None" : Integer.toString(maxClusterSize));
        m.put("alpha", Double.toString(alpha));
        m.put("cluster_selection_method", method.name().toLowerCase(Locale.ROOT));
        m.put("allow_single_cluster", allowSingleCluster ? "True" : "False");
        m.put("metric", metric.name());
        m.put("metric_params", metric.params().isEmpty() ? "None" : "{'p': " + metric.p() + "}");
        return m;
    }

    /**
     * The parameters as {@link #describe()} lists them (same keys, same order), with typed values for
     * JSON: {@link Integer} for the sizes, {@link Double} for {@code cluster_selection_epsilon} and
     * {@code alpha} (the epsilon may be infinite), {@code null} for scikit-learn's {@code None} (an
     * unlimited {@code max_cluster_size}), a {@link String} for {@code cluster_selection_method} and a
     * {@link Boolean} for {@code allow_single_cluster}, the metric's name and its {@code metric_params} (a map,
     * {@code {"p": 3.0}} for minkowski, else {@code null}).
     */
    public Map<String, Object> describeTyped() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("min_cluster_size", minClusterSize);
        m.put("min_samples", minSamples);
        m.put("cluster_selection_epsilon", clusterSelectionEpsilon);
        m.put("max_cluster_size", maxClusterSize == 0 ? null : maxClusterSize);
        m.put("alpha", alpha);
        m.put("cluster_selection_method", method.name().toLowerCase(Locale.ROOT));
        m.put("allow_single_cluster", allowSingleCluster);
        m.put("metric", metric.name());
        m.put("metric_params", metric.params().isEmpty() ? null : metric.params());
        return m;
    }
}
