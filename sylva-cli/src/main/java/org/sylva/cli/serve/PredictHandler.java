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
 * with {@code prediction_data: true} answered (the model lives with the client, so it survives an engine
 * restart and pickles with its estimator), or only their SHA-256 ({@code model_sha256}, lower-case hex)
 * when the engine holds that model, and asks, by {@code what}, for
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
 * <p>The handler keeps the last model it parsed, with a copy of its bytes and their SHA-256: a request that
 * names it by its digest, without the bytes, or sends the same bytes again, gets that model back with the
 * neighbour index it built, instead of sending, parsing and indexing the bytes again. A digest the engine
 * does not hold (another model, an engine started anew, a request of another kind in between, which
 * releases it: {@link #release}) is answered with an error of type {@code ModelNotHeld}, after which the
 * client sends the bytes; a digest sent with bytes must be theirs. The answers are the same either way.
 */
final class PredictHandler implements Handler {
    static final List<String> PARAMETERS = List.of("what", "threads", "model_sha256");
    /** The {@code type} of the error that answers a digest the engine does not hold. */
    static final String MODEL_NOT_HELD = "ModelNotHeld";

    /** A parsed model, the bytes it was parsed from (a copy: the request's array is not kept) and their SHA-256. */
    private record Parsed(byte[] bytes, String sha256, HdbscanModel model) {
    }

    /** A request named a model by a digest the engine does not hold: the client sends the bytes instead. */
    static final class ModelNotHeldException extends IllegalArgumentException {   // not logged: an expected answer
        ModelNotHeldException(String digest) {
            super("the engine does not hold the model " + digest + " (started anew, or another request came "
                    + "between); send its bytes");
        }
    }

    /** The last model parsed (requests run one at a time; volatile for a handler shared all the same). */
    private volatile Parsed last;
    /** Models parsed so far (tests). */
    private int parsed;

    @Override
    public Frame handle(Frame request, CancellationToken cancel) {
        Params p = new Params(request.params(), PARAMETERS);
        String what = p.choice("what", "predict", "predict", "membership", "all_membership");
        RequestArrays.only(request, what.equals("all_membership") ? List.of("model") : List.of("model", "points"));
        int threads = p.has("threads") ? p.integer("threads", 1) : Runtime.getRuntime().availableProcessors();
        Execution x = new Execution(threads, ProgressListener.NONE, cancel);
        HdbscanModel model = model(request, p.text("model_sha256", 64, "0123456789abcdef"));
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

    /** The request's model: its bytes, or the one held when {@code digest} names it and no bytes came. */
    private HdbscanModel model(Frame request, String digest) {
        WireArray a = request.array("model");
        Parsed p = last;
        if (a == null && digest != null) {
            if (p != null && p.sha256().equals(digest)) return p.model();
            throw new ModelNotHeldException(digest);
        }
        if (a == null) {
            throw new InvalidInputException("the request has no 'model' (the 1-D uint8 bytes an hdbscan request "
                    + "with prediction_data answered)");
        }
        if (!(a.data() instanceof byte[] bytes) || a.ndim() != 1) {
            throw new InvalidInputException("'model' must be the 1-D uint8 bytes an hdbscan request with "
                    + "prediction_data answered; got dtype " + a.dtype().wireName() + " and shape "
                    + Arrays.toString(a.shape()));
        }
        if (p != null && Arrays.equals(p.bytes(), bytes)) {
            requireDigest(digest, p.sha256());
            return p.model();
        }
        String sha = sha256(bytes);
        requireDigest(digest, sha);
        try {
            HdbscanModel m = HdbscanModel.fromBytes(bytes, "the request's model");
            parsed++;
            last = new Parsed(bytes.clone(), sha, m);
            return m;
        } catch (IOException e) {
            throw new UncheckedIOException(e);   // reading from memory: only a broken model gets here as data
        }
    }

    private static void requireDigest(String claimed, String actual) {
        if (claimed != null && !claimed.equals(actual)) {
            throw InvalidInputException.forParameter("model_sha256", "model_sha256 is " + claimed + ", but the model's "
                    + "bytes have SHA-256 " + actual);
        }
    }

    /** Lower-case hex SHA-256 of {@code bytes}. */
    static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
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
