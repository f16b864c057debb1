package org.sylva.cli.serve;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.predict.Membership;
import org.sylva.hdbscan.predict.Prediction;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The {@code predict} request: the client sends back the {@code model} bytes an {@code hdbscan} request
 * with {@code prediction_data: true} answered (the engine needs no state between requests, so a model
 * survives an engine restart and pickles with its estimator), and asks, by {@code what}, for
 * <ul>
 *   <li>{@code "predict"} with {@code points}: {@code labels} (int32), {@code probabilities},
 *       {@code outlier_scores} (float64) and {@code connecting_points} (int32) — the {@code hdbscan}
 *       package's {@code approximate_predict} and {@code approximate_predict_scores};</li>
 *   <li>{@code "membership"} with {@code points}: {@code membership} {@code (m, clusters)} float64, its
 *       {@code membership_vector};</li>
 *   <li>{@code "all_membership"}: the same for the fitted points, its {@code all_points_membership_vectors}.</li>
 * </ul>
 * Parameter {@code threads} (null: every core).
 *
 * <p>The handler keeps the last model it parsed, with a copy of its bytes: a request whose {@code model} is
 * byte for byte the same (every call of the Python package for one estimator sends its model again) gets
 * that model back, with the neighbour index it built, instead of parsing and indexing the bytes again. The
 * answers are the same either way; the cost is one model held between predictions (a request of another
 * kind releases it: {@link #release}).
 */
final class PredictHandler implements Handler {
    static final List<String> PARAMETERS = List.of("what", "threads");

    /** A parsed model and the bytes it was parsed from (a copy: the request's array is not kept). */
    private record Parsed(byte[] bytes, HdbscanModel model) {
    }

    /** The last model parsed (requests run one at a time; volatile for a handler shared all the same). */
    private volatile Parsed last;
    /** Models parsed so far (tests). */
    private int parsed;

    @Override
    public Frame handle(Frame request, CancellationToken cancel) {
        Params p = new Params(request.params(), PARAMETERS);
        String what = p.choice("what", "predict", "predict", "membership", "all_membership");
        int threads = p.has("threads") ? p.integer("threads", 1) : Runtime.getRuntime().availableProcessors();
        Execution x = new Execution(threads, ProgressListener.NONE, cancel);
        HdbscanModel model = model(request);
        long t0 = System.nanoTime();
        List<WireArray> arrays;
        if (what.equals("all_membership")) {
            arrays = List.of(membership(model.allPointsMembershipVectors(x)));
        } else {
            PointSet points = points(request, model);
            if (what.equals("membership")) {
                arrays = List.of(membership(model.membershipVector(points, x)));
            } else {
                Prediction r = model.approximatePredict(points, x);
                int m = r.labels().length;
                arrays = List.of(WireArray.of("labels", r.labels(), m),
                        WireArray.of("probabilities", r.probabilities(), m),
                        WireArray.of("outlier_scores", r.outlierScores(), m),
                        WireArray.of("connecting_points", r.connectingPoints(), m));
            }
        }
        cancel.throwIfCancelled();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("n_clusters", model.clusterCount());
        out.put("compute_seconds", (System.nanoTime() - t0) / 1e9);
        return new Frame("ok", out, arrays);
    }

    private HdbscanModel model(Frame request) {
        WireArray a = request.array("model");
        if (a == null || !(a.data() instanceof byte[] bytes) || a.ndim() != 1) {
            throw new InvalidInputException("the request has no 'model' (the 1-D uint8 bytes an hdbscan request "
                    + "with prediction_data answered)");
        }
        Parsed p = last;
        if (p != null && Arrays.equals(p.bytes(), bytes)) return p.model();
        try {
            HdbscanModel m = HdbscanModel.fromBytes(bytes, "the request's model");
            parsed++;
            last = new Parsed(bytes.clone(), m);
            return m;
        } catch (IOException e) {
            throw new UncheckedIOException(e);   // reading from memory: only a broken model gets here as data
        }
    }

    @Override
    public void release() {
        last = null;
    }

    /** Models parsed so far, not counting those found in {@link #last} (tests). */
    int parsed() {
        return parsed;
    }

    private static PointSet points(Frame request, HdbscanModel model) {
        WireArray a = RequestArrays.points(request);
        int m = (int) a.dim(0), d = (int) a.dim(1);
        if (d != model.inputDimensions()) {
            throw new InvalidInputException("the new points have " + d + " dimensions, the model "
                    + (model.projection().isPresent() ? "projects points of " + model.inputDimensions()
                    + " dimensions on its " + model.dimensions() + " principal components" : model.dimensions()));
        }
        return a.data() instanceof double[] x ? PointSet.uncheckedFloat64(m, d, x)
                : PointSet.unchecked(m, d, (float[]) a.data());
    }

    private static WireArray membership(Membership v) {
        return WireArray.of("membership", v.values(), v.points(), v.clusters());
    }
}
