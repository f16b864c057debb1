package org.sylva.hdbscan.quality;

import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.progress.CancellationToken;

/**
 * Density-Based Clustering Validation (DBCV, Moulavi et al. 2014) as the {@code hdbscan} package's
 * {@code validity.validity_index(X, labels, per_cluster_scores=True)} computes it (0.8.43; Euclidean, or the
 * {@code metric} and {@code d} it is given):
 * per cluster, the internal spanning tree of its all-points mutual reachability and its density
 * sparseness ({@link InternalTree}); per pair of clusters, the density separation, the smallest
 * {@code max(D_ab, apcd_a, apcd_b)} over internal nodes a, b of the two; per cluster
 * {@code V = (minsep - DSC) / max(minsep, DSC)}; the index is {@code sum |C| / n * V} in label order (n
 * counts noise). Members are taken in ascending row order, as the package takes them; the result depends
 * on that order through the ties of the spanning trees.
 *
 * <p>As in the package a single cluster has no separation and gives NaN. Costs O(m^2 d) per cluster of m
 * members and O(a b d) per pair of clusters with a and b internal nodes: for data of moderate size.
 *
 * <pre>{@code
 * Validity v = DensityValidity.of(points, result.labels());
 * double dbcv = v.index();
 * }</pre>
 */
public final class DensityValidity {
    private DensityValidity() {
    }

    /**
     * DBCV of {@code labels} (one per row of {@code points}: negative = noise, clusters {@code 0 .. K-1}
     * without gaps, each of at least two members).
     *
     * @throws InvalidInputException when the labels do not fit the points or a cluster has one member
     */
    public static Validity of(PointSet points, int[] labels) {
        return of(points, labels, Metric.euclidean());
    }

    /**
     * DBCV of {@code labels} under {@code metric} (any but precomputed: {@link #ofDistances}): the package's
     * {@code validity_index(X, labels, metric=...)} (scipy's name {@code cityblock} for manhattan there). The
     * exponent of the all-points core distances is the number of features, as in the package, which
     * overwrites its {@code d} argument with it for every metric but precomputed.
     *
     * @throws InvalidInputException when the labels do not fit the points, a cluster has one member or the
     *     metric is precomputed
     */
    public static Validity of(PointSet points, int[] labels, Metric metric) {
        return of(points, labels, metric, CancellationToken.NEVER);
    }

    /**
     * As {@link #of(PointSet, int[], Metric)}, stopped by {@code cancel} (looked at once per member of each O(m^2)
     * pass over a cluster, and once per internal node of each pair of clusters) with a {@link
     * org.sylva.progress.CancelledException}. An interrupt of the calling thread stops every variant in the same
     * way, its interrupt status kept.
     *
     * <pre>{@code
     * Validity v = DensityValidity.of(points, labels, Metric.euclidean(), token);   // token.cancel() stops it
     * }</pre>
     */
    public static Validity of(PointSet points, int[] labels, Metric metric, CancellationToken cancel) {
        return of(RowDistance.of(points, metric), points.size(), points.dimensions(), labels, cancel);
    }

    /**
     * DBCV of {@code labels} on a precomputed distance matrix ({@code n x n}, row-major, checked as a fit checks
     * one: square, {@code >= 0}, symmetric), as the package's {@code validity_index(D, labels, metric="precomputed",
     * d=d)}: {@code d}, the number of features the distances were measured in, is the exponent of the all-points
     * core distances, which the package needs given for a matrix. Round-off at 0 is read as 0, as a fit reads it
     * (the package counts a non-zero diagonal entry as a neighbour at that distance, so there the two differ).
     *
     * <pre>{@code
     * Validity v = DensityValidity.ofDistances(matrix, n, labels, 61, CancellationToken.NEVER);
     * }</pre>
     *
     * @throws InvalidInputException when the matrix is not a distance matrix, {@code d < 1}, the labels do not fit
     *     the points or a cluster has one member
     */
    public static Validity ofDistances(double[] matrix, int n, int[] labels, int d, CancellationToken cancel) {
        if (d < 1) {
            throw InvalidInputException.forParameter("d", "d, the number of features of the data the distances were "
                    + "measured in, must be >= 1; got " + d);
        }
        if (matrix.length != (long) n * n) {
            throw new InvalidInputException("a distance matrix of " + n + " points has " + (long) n * n
                    + " entries; got " + matrix.length);
        }
        return of(Metric.precomputed().pairs(matrix, n, n)::between, n, d, labels, cancel);
    }

    private static Validity of(RowDistance dist, int n, int d, int[] labels, CancellationToken given) {
        // it all runs on the calling thread: an interrupt of it stops the work as the token does (its status kept)
        Thread caller = Thread.currentThread();
        CancellationToken cancel = CancellationToken.polling(() -> given.isCancelled() || caller.isInterrupted());
        int[][] members = Members.of(labels, n);
        int k = members.length;
        InternalTree[] trees = new InternalTree[k];
        for (int c = 0; c < k; c++) {
            if (members[c].length < 2) {
                throw new InvalidInputException("cluster " + c + " has one member: DBCV needs at least two");
            }
            trees[c] = InternalTree.of(dist, d, members[c], cancel);
        }
        double[] minSep = new double[k];
        java.util.Arrays.fill(minSep, Double.POSITIVE_INFINITY);
        for (int a = 0; a < k; a++) {
            for (int b = a + 1; b < k; b++) {
                double sep = separation(dist, trees[a], trees[b], cancel);
                minSep[a] = Math.min(minSep[a], sep);
                minSep[b] = Math.min(minSep[b], sep);
            }
        }
        double[] per = new double[k];
        double index = 0;
        for (int c = 0; c < k; c++) {
            double dsc = trees[c].sparseness();
            per[c] = (minSep[c] - dsc) / RelativeValidity.pyMax(minSep[c], dsc);
            index += (members[c].length / (double) n) * per[c];
        }
        return new Validity(index, per);
    }

    /** The smallest all-points mutual reachability between internal nodes of the two clusters. */
    private static double separation(RowDistance distance, InternalTree a, InternalTree b, CancellationToken cancel) {
        double best = Double.POSITIVE_INFINITY;
        for (int i : a.internal()) {
            cancel.throwIfCancelled();
            for (int j : b.internal()) {
                double dist = distance.between(a.rows()[i], b.rows()[j]);
                best = Math.min(best, Math.max(dist, Math.max(a.core(i), b.core(j))));
            }
        }
        return best;
    }
}
