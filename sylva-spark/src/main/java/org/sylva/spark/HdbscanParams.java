package org.sylva.spark;

import java.io.Serializable;
import java.util.List;

import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.Identifiable;
import org.sylva.hdbscan.HdbscanParameters;
import org.sylva.hdbscan.hierarchy.SelectionMethod;

/**
 * The params {@link SylvaHdbscan} and its {@link SylvaHdbscanModel} share, declared once for an owner (what a
 * shared params trait is in Spark's own Scala estimators): the four columns, the seven params the fit's result
 * depends on ({@link #fitDefining()}), {@code numSlices} and {@code transformMode}. Spark ML finds an owner's params through its public
 * accessors, so each owner still returns these objects from its own methods; the names, docs and validators are
 * written here only, so a param saved by the estimator reads back into the model and the other way round.
 */
final class HdbscanParams implements Serializable {
    private static final long serialVersionUID = 1L;

    final Param<String> featuresCol;
    final Param<String> labelCol;
    final Param<String> probabilityCol;
    final Param<String> outlierScoreCol;
    final IntParam minClusterSize;
    final IntParam minSamples;
    final DoubleParam clusterSelectionEpsilon;
    final IntParam maxClusterSize;
    final DoubleParam alpha;
    final Param<String> clusterSelectionMethod;
    final BooleanParam allowSingleCluster;
    final IntParam numSlices;
    final Param<String> transformMode;

    HdbscanParams(Identifiable owner) {
        featuresCol = new Param<>(owner, "featuresCol", "points column: a vector or an array of numbers");
        labelCol = new Param<>(owner, "labelCol", "output column of cluster labels (-1 = noise)");
        probabilityCol = new Param<>(owner, "probabilityCol", "output column of membership strengths");
        outlierScoreCol = new Param<>(owner, "outlierScoreCol", "output column of GLOSH outlier scores");
        minClusterSize = new IntParam(owner, "minClusterSize", "smallest cluster size (>= 2)", ParamValidators.gtEq(2));
        minSamples = new IntParam(owner, "minSamples",
                "neighbours for core distances, counting the point itself; 0 = minClusterSize", ParamValidators.gtEq(0));
        clusterSelectionEpsilon = new DoubleParam(owner, "clusterSelectionEpsilon", "distance below which clusters merge",
                ParamValidators.gtEq(0));
        maxClusterSize = new IntParam(owner, "maxClusterSize", "largest cluster EOM may select; 0 = no limit",
                ParamValidators.gtEq(0));
        alpha = new DoubleParam(owner, "alpha", "distance scaling of the robust single linkage (finite, > 0)",
                new PositiveFinite());
        clusterSelectionMethod = new Param<>(owner, "clusterSelectionMethod", "eom or leaf",
                ParamValidators.inArray(new String[] {"eom", "leaf"}));
        allowSingleCluster = new BooleanParam(owner, "allowSingleCluster", "whether one cluster may be the result");
        numSlices = new IntParam(owner, "numSlices", "tasks per distributed stage (at most one per 16 distinct "
                + "points); 0 = the dataset's partitions",
                ParamValidators.gtEq(0));
        transformMode = new Param<>(owner, "transformMode", "what the model's transform gives: 'fitted' (the fit's "
                + "own labels, for the fitted dataset only) or 'predict' (approximate_predict of any dataset's rows)",
                ParamValidators.inArray(new String[] {"fitted", "predict"}));
    }

    /** Spark ML's validator of a finite number above 0 ({@code ParamValidators.gt(0)} takes +Infinity). */
    private static final class PositiveFinite extends scala.runtime.AbstractFunction1<Object, Object>
            implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(Object value) {
            double v = (Double) value;
            return v > 0 && Double.isFinite(v);
        }
    }

    /** {@code value} for the string {@code param}, refused when null (Spark's validators do not say so). */
    static String notNull(Param<String> param, String value) {
        if (value == null) throw new IllegalArgumentException("parameter " + param.name() + " given null; it needs a value");
        return value;
    }

    /** The params the fit's result depends on, in the estimator's order. */
    List<Param<?>> fitDefining() {
        return List.of(minClusterSize, minSamples, clusterSelectionEpsilon, maxClusterSize, alpha,
                clusterSelectionMethod, allowSingleCluster);
    }

    /** The fit-defining params' values in {@code owner}, as they travel to executors. */
    FitSettings settings(Params owner) {
        return new FitSettings((Integer) owner.getOrDefault(minClusterSize), (Integer) owner.getOrDefault(minSamples),
                (Double) owner.getOrDefault(clusterSelectionEpsilon), (Integer) owner.getOrDefault(maxClusterSize),
                (Double) owner.getOrDefault(alpha), owner.getOrDefault(clusterSelectionMethod),
                (Boolean) owner.getOrDefault(allowSingleCluster));
    }

    /**
     * The value of each fit-defining param that a fit with {@code p} had, in the params' terms ({@code minSamples}
     * as given: equal to {@code minClusterSize} when the estimator left it unset), in {@link #fitDefining()}'s
     * order.
     */
    static List<Object> valuesOf(HdbscanParameters p) {
        return List.of(p.minClusterSize(), p.minSamples(), p.clusterSelectionEpsilon(), p.maxClusterSize(), p.alpha(),
                p.method() == SelectionMethod.LEAF ? "leaf" : "eom", p.allowSingleCluster());
    }
}
