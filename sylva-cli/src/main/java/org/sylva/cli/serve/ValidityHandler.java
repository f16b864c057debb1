package org.sylva.cli.serve;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.quality.DensityValidity;
import org.sylva.hdbscan.quality.RelativeValidity;
import org.sylva.hdbscan.quality.Validity;
import org.sylva.progress.CancellationToken;

/**
 * The {@code validity} request, by {@code what}: {@code "relative"} — the {@code hdbscan} package's
 * {@code relative_validity_} of {@code labels} (int32, one per tree point) on the spanning tree
 * {@code mst} an {@code hdbscan} answer gave (answered as the parameter {@code relative_validity}); or
 * {@code "dbcv"} — its {@code validity.validity_index} of {@code labels} on {@code points} (answered as
 * {@code validity_index} and the array {@code per_cluster}), under {@code metric} (and {@code p}; default
 * euclidean; with {@code precomputed}, {@code points} is the n x n distance matrix and {@code d}, the number of
 * features it was measured in, is required).
 */
final class ValidityHandler implements Handler {
    static final List<String> PARAMETERS = List.of("what", "metric", "p", "d");

    @Override
    public Frame handle(Frame request, CancellationToken cancel) {
        Params p = new Params(request.params(), PARAMETERS);
        String what = p.choice("what", "relative", "relative", "dbcv");
        RequestArrays.only(request, what.equals("relative") ? List.of("mst", "labels") : List.of("points", "labels"));
        Map<String, Object> out = new LinkedHashMap<>();
        if (what.equals("relative")) {
            var tree = RequestArrays.spanningTree(request);
            out.put("relative_validity", RelativeValidity.of(tree, labels(request, tree.points())));
            return new Frame("ok", out, List.of());
        }
        WireArray a = RequestArrays.points(request);
        int n = (int) a.dim(0), d = (int) a.dim(1);
        org.sylva.hdbscan.metric.Metric metric = org.sylva.hdbscan.metric.Metric.parse(
                p.choice("metric", "euclidean", HdbscanHandler.METRICS), p.has("p") ? p.number("p", 2) : null);
        Validity v;
        if (metric.isPrecomputed()) {
            // points is the n x n matrix; d, the features it was measured in, the package needs given
            if (!p.has("d")) {
                throw InvalidInputException.forParameter("d", "a precomputed distance matrix needs d, the number of "
                        + "features the distances were measured in (the exponent of the all-points core distances)");
            }
            if (d != n) {
                throw InvalidInputException.forParameter("metric", "a precomputed distance matrix must be square "
                        + "(n x n); got " + n + " x " + d);
            }
            double[] matrix = a.data() instanceof double[] x ? x : widened((float[]) a.data());
            v = DensityValidity.ofDistances(matrix, n, labels(request, n), p.integer("d", 0), cancel);
        } else {
            PointSet points = a.data() instanceof double[] x ? PointSet.ofFloat64(n, d, x)
                    : PointSet.of(n, d, (float[]) a.data());
            v = DensityValidity.of(points, labels(request, n), metric, cancel);
        }
        out.put("validity_index", v.index());
        double[] per = v.perCluster();
        return new Frame("ok", out, List.of(WireArray.of("per_cluster", per, per.length)));
    }

    private static double[] widened(float[] f) {
        double[] x = new double[f.length];
        for (int i = 0; i < f.length; i++) x[i] = f[i];
        return x;
    }

    private static int[] labels(Frame request, int n) {
        WireArray a = request.array("labels");
        if (a == null || a.ndim() != 1 || !(a.data() instanceof int[] labels)) {
            throw new InvalidInputException("the request needs 'labels': a 1-D int32 array");
        }
        if (labels.length != n) throw new InvalidInputException(labels.length + " labels for " + n + " points");
        return labels;
    }
}
