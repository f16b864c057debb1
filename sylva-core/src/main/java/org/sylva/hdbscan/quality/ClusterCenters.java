package org.sylva.hdbscan.quality;

import java.util.Arrays;
import java.util.Objects;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.numeric.NumpySum;
import org.sylva.parallel.Execution;
import org.sylva.parallel.ParallelWork;

/**
 * The centres of the clusters of a clustering, as scikit-learn's {@code HDBSCAN(store_centers=...)}
 * computes them (1.9): the <em>centroid</em> of cluster k is the mean of its members weighted by their
 * membership probabilities ({@code np.average(X[labels == k], weights=probabilities_[labels == k])}:
 * per coordinate a sum in row order of {@code x * w} (for one coordinate NumPy's pairwise sum), divided by the
 * NumPy sum of the weights, so the doubles are scikit-learn's); the <em>medoid</em> is the member minimising {@code sum_j D(i, j) * w_j}
 * over the cluster's members (under the fit's metric, Euclidean by default), the first such member in row order, with its row
 * kept in {@link #medoidRows}. Arrays are row-major {@code clusters x dimensions}; those not asked for
 * are null. Rows labelled below -1 (left out of a fit) and noise are in no cluster.
 *
 * <p>The medoid costs O(m^2 d) for a cluster of m members (scikit-learn builds the m x m matrix; Sylva
 * keeps one row per thread).
 *
 * <pre>{@code
 * HdbscanResult r = Hdbscan.builder().minClusterSize(20).build().fit(points);
 * ClusterCenters c = r.centers(points, CenterKind.BOTH);
 * double[] first = c.centroid(0);
 * int medoidRow = c.medoidRows()[0];
 * }</pre>
 *
 * @param clusters number of clusters (one more than the largest label)
 * @param dimensions coordinates per point
 * @param centroids {@code clusters x dimensions} weighted means, or null
 * @param medoids {@code clusters x dimensions} medoid coordinates (the points themselves), or null
 * @param medoidRows the input row of each cluster's medoid, or null
 *     (the record keeps copies of the arrays it is given and hands out copies; equality compares contents)
 */
public record ClusterCenters(int clusters, int dimensions, double[] centroids, double[] medoids, int[] medoidRows) {
    /** Members per unit of parallel work in the medoid search. */
    private static final int BLOCK = 64;

    public ClusterCenters {
        centroids = copy(centroids);
        medoids = copy(medoids);
        medoidRows = medoidRows == null ? null : medoidRows.clone();
    }

    private static double[] copy(double[] a) {
        return a == null ? null : a.clone();
    }

    /** As {@link #of(PointSet, int[], double[], CenterKind, Execution)} on every core ({@link Execution#everyCore()}). */
    public static ClusterCenters of(PointSet points, int[] labels, double[] probabilities, CenterKind kind) {
        return of(points, labels, probabilities, kind, Execution.everyCore());
    }

    /**
     * The centres of the clusters {@code labels} describes ({@code -1} noise, clusters {@code 0 ..}),
     * weighted by {@code probabilities}; {@code points} are the clustered points.
     *
     * @throws InvalidInputException when the lengths disagree, a label has no member, or a cluster's
     *     weights sum to zero (NumPy refuses to average those)
     */
    public static ClusterCenters of(PointSet points, int[] labels, double[] probabilities, CenterKind kind,
            Execution execution) {
        return of(points, labels, probabilities, kind, execution, Metric.euclidean());
    }

    /**
     * As {@link #of(PointSet, int[], double[], CenterKind, Execution)}, the medoids chosen under
     * {@code metric} (scikit-learn's medoids use the metric of the fit; the centroids do not depend on it).
     *
     * @throws InvalidInputException for {@link Metric#precomputed()}: a distance matrix has no coordinates
     *     to average (scikit-learn refuses {@code store_centers} there too)
     */
    public static ClusterCenters of(PointSet points, int[] labels, double[] probabilities, CenterKind kind,
            Execution execution, Metric metric) {
        Objects.requireNonNull(kind, "kind");
        if (metric.isPrecomputed()) {
            throw InvalidInputException.forParameter("store_centers", "cluster centres need coordinates; a fit on a "
                    + "precomputed distance matrix has none");
        }
        int[][] members = Members.of(labels, points.size());
        if (probabilities.length != labels.length) {
            throw new InvalidInputException(labels.length + " labels but " + probabilities.length + " probabilities");
        }
        int k = members.length, d = points.dimensions();
        double[] centroids = kind.centroids() ? new double[k * d] : null;
        double[] medoids = kind.medoids() ? new double[k * d] : null;
        int[] rows = kind.medoids() ? new int[k] : null;
        RowDistance dist = !kind.medoids() ? null : RowDistance.of(points, metric);
        for (int c = 0; c < k; c++) {
            int[] m = members[c];
            double[] w = new double[m.length];
            for (int i = 0; i < m.length; i++) w[i] = probabilities[m[i]];
            double total = NumpySum.of(w, 0, w.length);
            if (!(total != 0.0)) {
                throw new InvalidInputException("the weights of cluster " + c + " sum to " + total
                        + ": its centre is undefined");
            }
            if (centroids != null) centroid(points, m, w, total, centroids, c * d);
            if (medoids != null) {
                rows[c] = m[medoid(dist, m, w, execution)];
                for (int j = 0; j < d; j++) medoids[c * d + j] = points.getDouble(rows[c], j);
            }
        }
        return new ClusterCenters(k, d, centroids, medoids, rows);
    }

    /**
     * Sum in row order of x * w per coordinate, over the NumPy sum of w: {@code np.average}'s doubles. With one
     * coordinate NumPy's sum over the rows runs along contiguous memory, which it sums pairwise ({@link NumpySum}):
     * so does this.
     */
    private static void centroid(PointSet points, int[] m, double[] w, double total, double[] out, int at) {
        int d = points.dimensions();
        if (d == 1) {
            double[] products = new double[m.length];
            for (int i = 0; i < m.length; i++) products[i] = points.getDouble(m[i], 0) * w[i];
            out[at] = NumpySum.of(products, 0, m.length) / total;
            return;
        }
        for (int i = 0; i < m.length; i++) {
            for (int j = 0; j < d; j++) out[at + j] += points.getDouble(m[i], j) * w[i];
        }
        for (int j = 0; j < d; j++) out[at + j] /= total;
    }

    /** Index into {@code m} of the first member with the smallest weighted distance sum. */
    private static int medoid(RowDistance dist, int[] m, double[] w, Execution ex) {
        int size = m.length, units = (size + BLOCK - 1) / BLOCK;
        double[] criterion = new double[size];
        double[][] rowScratch = new double[ex.threads()][];
        new ParallelWork(ex.threads()).run(units, "centres", ex.progress(), ex.cancel(), (worker, unit) -> {
            if (rowScratch[worker] == null) rowScratch[worker] = new double[size];
            double[] row = rowScratch[worker];
            int end = Math.min(size, (unit + 1) * BLOCK);
            for (int i = unit * BLOCK; i < end; i++) {
                for (int j = 0; j < size; j++) row[j] = dist.between(m[i], m[j]) * w[j];
                criterion[i] = NumpySum.of(row, 0, size);   // NumPy's row sum, as dist_mat.sum(axis=1)
            }
        });
        int best = 0;
        for (int i = 1; i < size; i++) {
            if (criterion[i] < criterion[best]) best = i;   // strict: the first minimum, as np.argmin
        }
        return best;
    }

    /** The centroids, row-major {@code clusters x dimensions} (a copy), or null when not computed. */
    @Override
    public double[] centroids() {
        return copy(centroids);
    }

    /** The medoids' coordinates, row-major {@code clusters x dimensions} (a copy), or null when not computed. */
    @Override
    public double[] medoids() {
        return copy(medoids);
    }

    /** The input row of each cluster's medoid (a copy), or null when not computed. */
    @Override
    public int[] medoidRows() {
        return medoidRows == null ? null : medoidRows.clone();
    }

    /**
     * Centroid of cluster {@code k} (a copy).
     *
     * @throws IllegalStateException when centroids were not computed
     * @throws IndexOutOfBoundsException when {@code k} is not in {@code [0, clusters)}
     */
    public double[] centroid(int k) {
        if (centroids == null) throw new IllegalStateException("centroids were not computed");
        Objects.checkIndex(k, clusters);
        return Arrays.copyOfRange(centroids, k * dimensions, (k + 1) * dimensions);
    }

    /**
     * Medoid of cluster {@code k} (a copy).
     *
     * @throws IllegalStateException when medoids were not computed
     * @throws IndexOutOfBoundsException when {@code k} is not in {@code [0, clusters)}
     */
    public double[] medoid(int k) {
        if (medoids == null) throw new IllegalStateException("medoids were not computed");
        Objects.checkIndex(k, clusters);
        return Arrays.copyOfRange(medoids, k * dimensions, (k + 1) * dimensions);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterCenters c && c.clusters == clusters && c.dimensions == dimensions
                && Arrays.equals(c.centroids, centroids) && Arrays.equals(c.medoids, medoids)
                && Arrays.equals(c.medoidRows, medoidRows);
    }

    @Override
    public int hashCode() {
        return ((Objects.hash(clusters, dimensions) * 31 + Arrays.hashCode(centroids)) * 31
                + Arrays.hashCode(medoids)) * 31 + Arrays.hashCode(medoidRows);
    }

    @Override
    public String toString() {
        return "ClusterCenters[clusters=" + clusters + ", dimensions=" + dimensions + ", centroids="
                + Arrays.toString(centroids) + ", medoids=" + Arrays.toString(medoids) + ", medoidRows="
                + Arrays.toString(medoidRows) + "]";
    }
}
