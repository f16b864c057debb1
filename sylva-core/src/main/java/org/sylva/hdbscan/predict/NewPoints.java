package org.sylva.hdbscan.predict;

import java.util.Arrays;
import java.util.Objects;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.features.PrincipalComponents;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.parallel.Execution;
import org.sylva.progress.ProgressListener;

/**
 * The new points of a prediction, made ready for the neighbour search: checked (the model's number of
 * coordinates, finite, within +-1e150), projected on the model's principal components where it has them
 * ({@link HdbscanModel#withProjection}), and put in the order they are searched in. Every point's answer is
 * its own, so the order changes no answer, only which leaves are still in the cache.
 *
 * <pre>{@code
 * double[] q = NewPoints.rows(points, d, projection, execution);        // n x d float64, checked
 * int[] order = NewPoints.searchOrder(search, q, points.size(), d, execution);
 * }</pre>
 */
final class NewPoints {
    private NewPoints() { }

    /**
     * The points' float64 coordinates ({@code d} per point), or their scores on {@code projection} (null:
     * none), after checking them; refused with a message naming the point and coordinate otherwise.
     */
    static double[] rows(PointSet points, int d, PrincipalComponents projection, Execution execution) {
        Objects.requireNonNull(points, "newPoints");
        int input = projection == null ? d : projection.dimensions();
        if (points.dimensions() != input) {
            throw new InvalidInputException("new points have " + points.dimensions()
                    + (points.dimensions() == 1 ? " coordinate" : " coordinates") + "; the model "
                    + (projection == null ? "was fitted on points of " + d
                    : "projects points of " + input + " coordinates on its " + d + " principal components"));
        }
        double[] q = points.coordinates64();
        check(q, input, "coordinate");
        if (projection == null) return q;
        // the fit's own arithmetic: the scores of float32 input from its float32 values (widened exactly)
        Execution quiet = new Execution(execution.threads(), ProgressListener.NONE, execution.cancel());
        double[] scores = points.isFloat64() ? projection.project(q, points.size(), quiet)
                : projection.project(points.coordinates(), points.size(), quiet);
        check(scores, d, "score on principal component");
        return scores;
    }

    /** Refuses a value of {@code q} ({@code d} per point) that is not finite or beyond +-1e150, naming it. */
    private static void check(double[] q, int d, String what) {
        for (int i = 0; i < q.length; i++) {
            if (!Double.isFinite(q[i]) || Math.abs(q[i]) > Hdbscan.MAX_ABS_COORDINATE) {
                throw new InvalidInputException("new point " + (i / d) + ", " + what + " " + (i % d) + " is " + q[i]
                        + (Double.isFinite(q[i]) ? ": beyond +-1e150, its squared distances would overflow"
                                : ": NaN and infinite coordinates cannot be assigned"));
            }
        }
    }

    /**
     * The order in which the {@code m} points of {@code q} are searched: by the leaf of the index each one
     * descends to ({@link NeighbourSearch#homeLeaf}), then by row, so that points searched one after the
     * other search much the same leaves.
     */
    static int[] searchOrder(NeighbourSearch search, double[] q, int m, int d, Execution execution) {
        long[] keyed = new long[m];
        ModelAnswers.run(m, "ordering", new Execution(execution.threads(), ProgressListener.NONE, execution.cancel()),
                (worker, from, to) -> {
                    for (int i = from; i < to; i++) keyed[i] = ((long) search.homeLeaf(q, i * d) << 32) | i;
                });
        Arrays.sort(keyed);   // (not parallelSort: that would run on threads the caller did not give)
        int[] order = new int[m];
        for (int i = 0; i < m; i++) order[i] = (int) keyed[i];
        return order;
    }
}
