package org.sylva.hdbscan.predict;

import org.sylva.kernels.DistanceKernel;
import org.sylva.numeric.NumpySum;

/**
 * Soft clustering: the membership of a point in each selected cluster, by the formulas of the
 * {@code hdbscan} package's {@code membership_vector} (new points) and
 * {@code all_points_membership_vectors} (fitted points), operation for operation, so that the doubles
 * agree with the package's (sums as NumPy sums, {@link NumpySum}). Both combine a distance part, the
 * inverse distance to each cluster's nearest exemplar normalised to sum 1 (a distance 0 counts
 * {@code Double.MAX_VALUE / K}), with an outlier part from the merge heights of the point's cluster
 * with each selected cluster in the condensed tree ({@link ClusterTree#mergeHeight}), and scale the
 * result by the probability of being in some cluster. The two package functions differ, and Sylva
 * keeps both as they are:
 * <ul>
 *   <li><b>New points</b> use {@code lambda' = min(lambda, lambda of the connecting point)}, rounded to
 *       <b>float32</b> for the outlier part (the package's Cython signature takes {@code float32}; the
 *       score has a pole where the merge height meets the cluster's largest lambda, so the rounding is
 *       visible), scores {@code s_k = lmax / (lmax - h_k)} (a denominator {@code <= 0} replaced by
 *       1e-8), {@code o = exp(s - max s)} normalised, {@code r = sqrt(v) * o^2} normalised, times
 *       {@code max h' / (max(lambda', lmax of the highest-merging cluster) + 1e-8)} with {@code h'} the
 *       merge heights at {@code lambda'} in float64.</li>
 *   <li><b>Fitted points</b> use their own lambda (float64), scores
 *       {@code s_k = exp(-(lmax + 1e-8) / h_k)}, {@code o = exp(s - max over all points and clusters)}
 *       normalised per row, {@code r = v * o} normalised, times {@code max h / max(lmax of the
 *       highest-merging cluster, lambda)}.</li>
 * </ul>
 * Here {@code lmax} is the largest lambda among the rows of the point's own cluster (or of the named
 * cluster). {@code exp} is {@link StrictMath#exp}, the same on every JVM; the package's (libm, NumPy)
 * may differ from it in the last bit.
 *
 * <pre>{@code
 * SoftAssignment soft = new SoftAssignment(tree, exemplars, KernelProvider.get().scalarDistance());
 * SoftAssignment.Scratch scratch = soft.scratch();
 * soft.newPoint(queries, i * d, neighbour, lambda, out, i * k, scratch);
 * }</pre>
 */
final class SoftAssignment {
    /** The package's guard against dividing by zero, added where it adds it. */
    private static final double EPS = 1e-8;

    private final ClusterTree tree;
    private final Exemplars exemplars;
    private final DistanceKernel kernel;
    private final int k;

    /** {@code kernel} computes the exemplar distances (it reads the exemplars' block width). */
    SoftAssignment(ClusterTree tree, Exemplars exemplars, DistanceKernel kernel) {
        this.tree = tree;
        this.exemplars = exemplars;
        this.kernel = kernel;
        this.k = tree.labels();
    }

    /** One thread's scratch for {@link #newPoint} and {@link #fittedPoint}, allocated once. */
    static final class Scratch {
        /** {@code 3 k} values: the distance part, the outlier part, the merge heights. */
        final double[] values;
        /** The exemplar distances of {@link Exemplars#minDistance}. */
        final double[] tile;

        private Scratch(int k, int tileLength) {
            values = new double[3 * Math.max(1, k)];
            tile = new double[tileLength];
        }
    }

    /** A scratch for one thread. */
    Scratch scratch() {
        return new Scratch(k, exemplars.tileLength());
    }

    /**
     * The distance part into {@code v[0 .. k)}: inverse distances to each cluster's nearest exemplar,
     * normalised by their sum (summed in order, as the package's Cython loop).
     */
    private void distancePart(double[] q, int off, double[] v, double[] tile) {
        double sum = 0.0;
        for (int l = 0; l < k; l++) {
            double dist = exemplars.minDistance(l, q, off, tile, kernel);
            v[l] = dist != 0.0 ? 1.0 / dist : Double.MAX_VALUE / k;
            sum += v[l];
        }
        for (int l = 0; l < k; l++) v[l] = v[l] / sum;
    }

    /**
     * The membership of the new point {@code q[off .. off + d)}, connecting to fitted point
     * {@code neighbour} at {@code lambda}, into {@code out[at .. at + k)}.
     */
    void newPoint(double[] q, int off, int neighbour, double lambda, double[] out, int at, Scratch work) {
        if (k == 0) return;
        double[] scratch = work.values;
        double[] v = scratch;
        int o = k, h = 2 * k;
        distancePart(q, off, v, work.tile);
        double own = tree.pointLambda(neighbour);
        double lam = own <= lambda ? own : lambda;
        int c = tree.pointCluster(neighbour);
        double lmax = tree.directMax(c);
        double lam32 = (float) lam;
        double max = Double.NaN;
        for (int l = 0; l < k; l++) {
            double den = lmax - tree.mergeHeight(c, lam32, tree.selected(l));
            double s = lmax / (den <= 0.0 ? EPS : den);
            scratch[o + l] = s;
            max = nanMax(max, s);
        }
        for (int l = 0; l < k; l++) scratch[o + l] = StrictMath.exp(scratch[o + l] - max);
        double oSum = NumpySum.of(scratch, o, k);
        for (int l = 0; l < k; l++) scratch[o + l] /= oSum;
        for (int l = 0; l < k; l++) {
            double w = scratch[o + l];
            out[at + l] = Math.sqrt(v[l]) * (w * w);
        }
        double rSum = NumpySum.of(out, at, k);
        for (int l = 0; l < k; l++) out[at + l] /= rSum;
        // Probability of being in some cluster: merge heights at lambda' itself (float64), first maximum.
        int best = 0;
        for (int l = 0; l < k; l++) {
            scratch[h + l] = tree.mergeHeight(c, lam, tree.selected(l));
            if (scratch[h + l] > scratch[h + best]) best = l;
        }
        double other = tree.directMax(tree.selected(best));
        double scale = scratch[h + best] / ((other > lam ? other : lam) + EPS);
        for (int l = 0; l < k; l++) out[at + l] *= scale;
    }

    /**
     * First pass of the fitted point {@code p} (coordinates {@code x[off .. off + d)}): its outlier
     * scores {@code s_k} into {@code out[at .. at + k)}; returns their NaN-ignoring maximum.
     */
    double fittedScores(int p, double[] out, int at) {
        int c = tree.pointCluster(p);
        double lam = tree.pointLambda(p);
        double lmax = tree.directMax(c) + EPS;
        double max = Double.NaN;
        for (int l = 0; l < k; l++) {
            double s = StrictMath.exp(-(lmax / tree.mergeHeight(c, lam, tree.selected(l))));
            out[at + l] = s;
            max = nanMax(max, s);
        }
        return max;
    }

    /**
     * Second pass of the fitted point {@code p}: turns its scores in {@code out[at .. at + k)} into its
     * membership, given the maximum score over all points and clusters.
     */
    void fittedPoint(int p, double[] x, int off, double globalMax, double[] out, int at, Scratch work) {
        if (k == 0) return;
        double[] scratch = work.values;
        double[] v = scratch;
        distancePart(x, off, v, work.tile);
        for (int l = 0; l < k; l++) out[at + l] = StrictMath.exp(out[at + l] - globalMax);
        double oSum = NumpySum.of(out, at, k);
        for (int l = 0; l < k; l++) out[at + l] = v[l] * (out[at + l] / oSum);
        double rSum = NumpySum.of(out, at, k);
        for (int l = 0; l < k; l++) out[at + l] = out[at + l] / rSum;
        int c = tree.pointCluster(p);
        double lam = tree.pointLambda(p);
        int h = 2 * k;
        int best = 0;
        for (int l = 0; l < k; l++) {
            scratch[h + l] = tree.mergeHeight(c, lam, tree.selected(l));
            if (scratch[h + l] > scratch[h + best]) best = l;
        }
        double other = tree.directMax(tree.selected(best));
        double scale = scratch[h + best] / (lam > other ? lam : other);
        for (int l = 0; l < k; l++) out[at + l] *= scale;
    }

    /** NumPy's {@code nanmax} step: NaN only while every value so far is NaN. */
    static double nanMax(double max, double x) {
        if (Double.isNaN(x)) return max;
        return Double.isNaN(max) || x > max ? x : max;
    }
}
