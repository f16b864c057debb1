package org.sylva.cli.serve;

import java.util.Arrays;
import java.util.List;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.metric.DistanceGraph;

/**
 * The checks every command makes on the arrays of a request: the {@code points} (2-D, float32 or
 * float64, at least one column) and the optional {@code batch_idx} (1-D int32 or int64, one id per
 * point, turned into a {@link BatchLayout} whose own errors name the offending id), and a sparse distance
 * matrix's three CSR arrays ({@link DistanceGraph}). Errors are
 * {@link InvalidInputException}s, which the client raises as {@code ValueError}.
 */
final class RequestArrays {
    private RequestArrays() {
    }

    /**
     * The request's {@code points}: an {@code (n, d)} float32 or float64 array, both dimensions in the range of
     * {@code int} (an empty array may claim any width: its dimensions are read as numbers, never cast blind).
     */
    static WireArray points(Frame request) {
        WireArray p = request.array("points");
        if (p == null) throw new InvalidInputException("the request has no array 'points'");
        if (p.ndim() != 2 || p.dim(1) < 1 || p.dim(0) > Integer.MAX_VALUE || p.dim(1) > Integer.MAX_VALUE) {
            throw new InvalidInputException("points must be a 2-D array of shape (n, d) with d >= 1, n and d at most "
                    + Integer.MAX_VALUE + "; got shape " + Arrays.toString(p.shape()));
        }
        if (p.dtype() != WireDtype.FLOAT32 && p.dtype() != WireDtype.FLOAT64) {
            throw new InvalidInputException("points must be float32 or float64; got " + p.dtype().wireName());
        }
        return p;
    }

    /**
     * The request's optional {@code sample_weight}: {@code (n,)} float64, float32, int32 or int64, whole
     * numbers >= 0 ({@link org.sylva.hdbscan.SampleWeights}); null when absent.
     */
    static org.sylva.hdbscan.SampleWeights sampleWeights(Frame request, int n) {
        WireArray w = request.array("sample_weight");
        if (w == null) return null;
        if (w.ndim() != 1 || w.dim(0) != n) {
            throw InvalidInputException.forParameter("sample_weight", "sample_weight must have shape (" + n
                    + ",), one weight per point; got shape " + Arrays.toString(w.shape()));
        }
        double[] v = new double[n];
        switch (w.data()) {
            case double[] a -> System.arraycopy(a, 0, v, 0, n);
            case float[] a -> { for (int i = 0; i < n; i++) v[i] = a[i]; }
            case int[] a -> { for (int i = 0; i < n; i++) v[i] = a[i]; }
            case long[] a -> { for (int i = 0; i < n; i++) v[i] = a[i]; }
            default -> throw InvalidInputException.forParameter("sample_weight", "sample_weight must be float64, "
                    + "float32, int32 or int64; got " + w.dtype().wireName());
        }
        return org.sylva.hdbscan.SampleWeights.of(v);
    }

    /**
     * Refuses an array of the request whose name is not in {@code known}: a misspelt name ({@code sample_weights})
     * must not pass silently, as a misspelt parameter does not ({@link Params}).
     */
    static void only(Frame request, List<String> known) {
        for (WireArray a : request.arrays()) {
            if (!known.contains(a.name())) {
                throw new InvalidInputException("unknown array '" + a.name() + "'; this request takes "
                        + String.join(", ", known));
            }
        }
    }

    /**
     * The request's spanning tree {@code mst}: {@code (n - 1, 3)} float64 rows {@code [from, to, weight]}
     * over {@code n} points (as an {@code hdbscan} answer gave it); bad ids or shapes, negative weights and edges
     * that are no spanning tree (a loop, a repeated edge, a cycle) name the problem.
     */
    static org.sylva.hdbscan.mst.SpanningTree spanningTree(Frame request) {
        WireArray t = request.array("mst");
        if (t == null || t.ndim() != 2 || t.dim(1) != 3 || !(t.data() instanceof double[] rows)) {
            throw new InvalidInputException("the request needs 'mst': a float64 array of shape (n - 1, 3) with rows "
                    + "[from, to, weight]");
        }
        int m = (int) t.dim(0), n = m + 1;
        int[] from = new int[m], to = new int[m];
        double[] w = new double[m];
        for (int e = 0; e < m; e++) {
            double a = rows[3 * e], b = rows[3 * e + 1];
            if (!(a >= 0 && a < n && a == Math.rint(a) && b >= 0 && b < n && b == Math.rint(b))) {
                throw new InvalidInputException("mst row " + e + " joins " + a + " and " + b
                        + ": ids must be whole numbers in [0, " + n + ")");
            }
            from[e] = (int) a;
            to[e] = (int) b;
            w[e] = rows[3 * e + 2];
        }
        try {
            return org.sylva.hdbscan.mst.SpanningTree.of(n, from, to, w).requireTree();
        } catch (IllegalArgumentException e) {   // InvalidInputException included
            throw new InvalidInputException("mst: " + e.getMessage());
        }
    }

    /**
     * The request's sparse distance matrix, or null when it has none: {@code graph_indptr} ({@code (n + 1,)}),
     * {@code graph_indices} and {@code graph_data} (one per stored entry), scipy's CSR arrays; the indices int32
     * or int64, the distances float64 or float32 ({@link DistanceGraph#ofCsr} checks the rest).
     */
    static DistanceGraph distanceGraph(Frame request, org.sylva.progress.CancellationToken cancel) {
        WireArray p = request.array("graph_indptr"), c = request.array("graph_indices"), v = request.array("graph_data");
        if (p == null && c == null && v == null) return null;
        if (p == null || c == null || v == null) {
            throw new InvalidInputException("a sparse distance matrix needs the three arrays graph_indptr, graph_indices "
                    + "and graph_data");
        }
        if (request.array("points") != null) {
            throw new InvalidInputException("the request has both 'points' and a sparse distance matrix; send one");
        }
        for (WireArray a : List.of(p, c, v)) {
            if (a.ndim() != 1) {
                throw new InvalidInputException(a.name() + " must be a 1-D array; got shape " + Arrays.toString(a.shape()));
            }
        }
        if (p.size() < 1) throw new InvalidInputException("graph_indptr must hold n + 1 >= 1 offsets; it is empty");
        double[] data = switch (v.data()) {
            case double[] a -> a;
            case float[] a -> {
                double[] x = new double[a.length];
                for (int i = 0; i < a.length; i++) x[i] = a[i];
                yield x;
            }
            default -> throw new InvalidInputException("graph_data must be float64 or float32; got " + v.dtype().wireName());
        };
        return DistanceGraph.ofCsr(p.size() - 1, indices(p), indices(c), data, cancel);
    }

    /** An int32 or int64 index array as ints, refusing values beyond a Java array's reach. */
    private static int[] indices(WireArray a) {
        return switch (a.data()) {
            case int[] x -> x;
            case long[] x -> {
                int[] y = new int[x.length];
                for (int i = 0; i < x.length; i++) {
                    if (x[i] < Integer.MIN_VALUE || x[i] > Integer.MAX_VALUE) {
                        throw new InvalidInputException(a.name() + "[" + i + "] is " + x[i] + ", beyond a Java array's limit");
                    }
                    y[i] = (int) x[i];
                }
                yield y;
            }
            default -> throw new InvalidInputException(a.name() + " must be int32 or int64; got " + a.dtype().wireName());
        };
    }

    /** The batches of {@code n} points: from the request's {@code batch_idx}, or one batch without it. */
    static BatchLayout layout(Frame request, int n) {
        WireArray b = request.array("batch_idx");
        if (b == null) return BatchLayout.single(n);
        if (b.ndim() != 1) {
            throw new InvalidInputException("batch_idx must be a 1-D array (one id per point); got shape "
                    + Arrays.toString(b.shape()));
        }
        if (b.size() != n) throw new InvalidInputException(b.size() + " batch ids for " + n + " points");
        return switch (b.data()) {
            case int[] ids -> BatchLayout.of(n, ids);
            case long[] ids -> BatchLayout.of(n, ids);
            default -> throw new InvalidInputException("batch_idx must be int32 or int64; got " + b.dtype().wireName());
        };
    }
}
