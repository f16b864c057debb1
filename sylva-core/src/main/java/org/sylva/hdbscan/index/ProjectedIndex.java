package org.sylva.hdbscan.index;

import java.util.Arrays;

import org.sylva.kernels.BlockedPoints;
import org.sylva.kernels.DistanceKernel;
import org.sylva.parallel.ParallelWork;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The points of a {@link PointIndex} along {@link #AXES} directions of largest spread, stored in the
 * index's own block layout and positions, with a ball per partition node in those axes: provable lower
 * bounds on the full-space distance from a few coordinates. Between two clusters most of a distance lies
 * along the few directions that separate them, where in 61 dimensions the full-space balls (radius about a
 * typical distance) bound nothing; the spanning tree's late rounds, which compare points of different
 * clusters, reject most pairs and nodes here before reading their {@code d} coordinates.
 *
 * <p><b>Why the bounds hold.</b> Let {@code U} be the {@code R x d} matrix of the axes as computed (any
 * matrix would do; they are only near-orthonormal) and {@code y = U (x - mu)} exactly. Then
 * {@code ||y_p - y_q|| = ||U (x_p - x_q)|| <= lambda ||x_p - x_q||}, with {@code lambda} an upper bound on
 * {@code U}'s spectral norm (Gershgorin's bound on {@code U U^T}, widened by its rounding). The stored
 * coordinates {@code y~} differ from {@code y} by at most {@code E} per point in Euclidean norm (the
 * rounding of the float64 products and sums, {@code gamma_(d+2) sum_j |U_rj| |x_j - mu_j|} per axis). So
 * {@code ||x_p - x_q|| >= (||y~_p - y~_q|| - 2E) / lambda}, and the triangle inequality through a node's
 * centre in the axes turns that into bounds for whole nodes. Every bound is lowered by a relative margin of
 * {@value #MARGIN}, orders of magnitude above the rounding of its own few operations, so it never exceeds a
 * distance the kernels compute. Decisions stay exact: the bounds only skip pairs whose computed distance is
 * strictly beyond a limit.
 *
 * <p><b>Deterministic.</b> The axes come from a fixed sample of at most {@value #SAMPLE} points (evenly
 * spaced original indices) by a fixed number of subspace iterations, and every value is computed in one
 * fixed order, so the projection and its bounds are the same for any thread count.
 *
 * <pre>{@code
 * ProjectedIndex p = ProjectedIndex.of(idx, work, CancellationToken.NEVER);   // null where it cannot help
 * double lb = p.lowerBound(nodeA, nodeB);        // <= every computed distance between the two nodes
 * backend.squaredDistances(p, queries, nq, bf, bt, tile);   // squared distances along the axes
 * boolean far = tile[c] > p.screenLimit(thr);    // then the pair's squared distance exceeds thr
 * }</pre>
 */
public final class ProjectedIndex implements BlockedPoints {
    /** Number of axes: enough to separate the clusters of 61-sample spike clips; the cost of a pair is {@code AXES / d} of a full one. */
    public static final int AXES = 4;   // the projection's loop is written out for four
    /** Points whose spread fixes the axes. */
    static final int SAMPLE = 1024;
    /** Subspace iterations from the coordinate axes of largest variance. */
    static final int ITERATIONS = 8;
    /** Relative safety margin of every bound. */
    static final double MARGIN = 1e-9;
    private static final double U = 0x1p-53;
    private static final double FLOAT32_LIMIT = DistanceKernel.FLOAT32_LIMIT;
    /** Leaves per unit of the parallel projection. */
    private static final int LEAVES_PER_UNIT = 64;

    private final PointIndex idx;
    private final int w;
    private final double[] data;
    private final float[] data32;
    private final double[] centre;
    private final double[] radius;
    /** Upper bound on the spectral norm of the axes as computed. */
    private final double lambda;
    /** Twice the bound on one point's projection error. */
    private final double slack;

    private ProjectedIndex(PointIndex idx, double[] data, float[] data32, double[] centre, double[] radius,
                           double lambda, double slack) {
        this.data32 = data32;
        this.idx = idx;
        this.w = idx.blockWidth();
        this.data = data;
        this.centre = centre;
        this.radius = radius;
        this.lambda = lambda;
        this.slack = slack;
    }

    /**
     * The projection of {@code idx} on {@code work}'s threads, or {@code null} when it cannot help: at most
     * {@code 2 AXES} dimensions (the full bounds are nearly as cheap), fewer than two points, or points with
     * no spread.
     */
    public static ProjectedIndex of(PointIndex idx, ParallelWork work, CancellationToken cancel) {
        int n = idx.size(), d = idx.dimensions();
        if (d <= 2 * AXES || n < 2) return null;
        int m = Math.min(n, SAMPLE);
        double[] sample = new double[m * d];
        for (int t = 0; t < m; t++) {
            int pos = idx.position((int) ((long) t * n / m));
            for (int j = 0; j < d; j++) sample[t * d + j] = idx.coordinate(pos, j);
        }
        double[] mu = new double[d];
        for (int t = 0; t < m; t++) for (int j = 0; j < d; j++) mu[j] += sample[t * d + j];
        for (int j = 0; j < d; j++) mu[j] /= m;
        for (int t = 0; t < m; t++) for (int j = 0; j < d; j++) sample[t * d + j] -= mu[j];
        double[] axes = axes(sample, m, d);
        if (axes == null) return null;
        cancel.throwIfCancelled();
        return of(idx, mu, axes, work, cancel);
    }

    /**
     * The projection of {@code idx} on the given axes ({@code AXES x d}, row-major; any values: the bounds
     * hold for every matrix) after subtracting {@code mu}; null when its values exceed the float32 range.
     */
    static ProjectedIndex of(PointIndex idx, double[] mu, double[] axes, ParallelWork work, CancellationToken cancel) {
        int d = idx.dimensions();
        if (axes.length != AXES * d || mu.length != d) throw new IllegalArgumentException("axes must be " + AXES + " x " + d);

        // lambda >= ||U||_2: Gershgorin on G = U U^T, each entry's rounding at most gamma_d ||U_i|| ||U_k||.
        double maxNorm2 = 0, maxRow = 0, maxAbsRow = 0;
        for (int i = 0; i < AXES; i++) {
            double n2 = 0, a1 = 0;
            for (int j = 0; j < d; j++) {
                n2 += axes[i * d + j] * axes[i * d + j];
                a1 += Math.abs(axes[i * d + j]);
            }
            maxNorm2 = Math.max(maxNorm2, n2);
            maxAbsRow = Math.max(maxAbsRow, a1);
        }
        for (int i = 0; i < AXES; i++) {
            double row = 0;
            for (int k = 0; k < AXES; k++) {
                double g = 0;
                for (int j = 0; j < d; j++) g += axes[i * d + j] * axes[k * d + j];
                row += Math.abs(g);
            }
            maxRow = Math.max(maxRow, row);
        }
        double lambda = Math.sqrt((maxRow + AXES * gamma(d) * maxNorm2 * (1 + MARGIN)) * (1 + MARGIN)) * (1 + MARGIN);

        int w = idx.blockWidth(), positions = idx.positions();
        double[] data = new double[(positions / w) * AXES * w];
        float[] data32 = new float[data.length];
        int units = (idx.leaves() + LEAVES_PER_UNIT - 1) / LEAVES_PER_UNIT;
        double[] maxDev = new double[units];
        double[] maxY = new double[units];
        double[] blocks = idx.blocks();
        int nodes = idx.nodes();
        double[] centre = new double[nodes * AXES];
        double[] radius = new double[nodes];
        ParallelWork.Unit project = (worker, unit) -> {
            int lf = unit * LEAVES_PER_UNIT, lt = Math.min(idx.leaves(), lf + LEAVES_PER_UNIT);
            double dev = 0, ymax = 0;
            for (int leaf = lf; leaf < lt; leaf++) {
                int s = idx.leafStart(leaf), c = idx.leafCount(leaf);
                for (int pos = s; pos < s + c; pos++) {
                    int from = (pos / w) * d * w + pos % w;
                    // The four axes side by side, each summed over j in order.
                    double y0 = 0, y1 = 0, y2 = 0, y3 = 0;
                    for (int j = 0; j < d; j++) {
                        double x = blocks[from + j * w] - mu[j];
                        dev = Math.max(dev, Math.abs(x));
                        y0 += axes[j] * x;
                        y1 += axes[d + j] * x;
                        y2 += axes[2 * d + j] * x;
                        y3 += axes[3 * d + j] * x;
                    }
                    ymax = Math.max(ymax, Math.max(Math.max(Math.abs(y0), Math.abs(y1)), Math.max(Math.abs(y2), Math.abs(y3))));
                    int base = (pos / w) * AXES * w + pos % w;
                    store(data, data32, base, w, y0, y1, y2, y3);
                }
                leafBall(idx.leafNode(leaf), s, c, w, data, centre, radius);
            }
            maxDev[unit] = dev;
            maxY[unit] = ymax;
        };
        if (work == null || work.threads() == 1 || units < 2) {
            for (int u = 0; u < units; u++) project.run(0, u);
        } else {
            work.run(units, "axis projection", ProgressListener.NONE, cancel, project);
        }
        double dev = 0, ymax = 0;
        for (int u = 0; u < units; u++) {
            dev = Math.max(dev, maxDev[u]);
            ymax = Math.max(ymax, maxY[u]);
        }
        if (!(ymax <= FLOAT32_LIMIT)) return null;
        // Per axis, the float64 product is within gamma_(d+2) sum_j |U_aj| |x_j - mu_j| <= gamma_(d+2)
        // maxAbsRow dev of y, and its float32 rounding moves it by at most 2^-24 |y~| + 2^-150 (subnormals).
        // The Euclidean norm of the error is at most the sum over the axes.
        double e = AXES * (gamma(d + 2) * maxAbsRow * dev * (1 + MARGIN) + 0x1p-24 * ymax + 0x1p-150) * (1 + MARGIN);
        if (!(Double.isFinite(e) && Double.isFinite(lambda)) || lambda == 0) return null;

        // Inner nodes from their children (pre-order: children come after their parent): the centre is
        // their weighted mean, the radius covers both children's balls.
        for (int node = nodes - 1; node >= 0; node--) {
            if (idx.leafOf(node) >= 0) continue;
            int l = idx.left(node), r = idx.right(node);
            double nl = idx.nodeSize(l), nr = idx.nodeSize(r);
            for (int a = 0; a < AXES; a++) {
                centre[node * AXES + a] = nl + nr == 0 ? 0 : (nl * centre[l * AXES + a] + nr * centre[r * AXES + a]) / (nl + nr);
            }
            double dl = Math.sqrt(squared(centre, node * AXES, centre, l * AXES)) * (1 + MARGIN) + radius[l];
            double dr = Math.sqrt(squared(centre, node * AXES, centre, r * AXES)) * (1 + MARGIN) + radius[r];
            radius[node] = Math.max(dl, dr) * (1 + MARGIN);
        }
        return new ProjectedIndex(idx, data, data32, centre, radius, lambda, 2 * e);
    }

    /** Rounds the four coordinates of one position to float32 and stores them in both copies. */
    private static void store(double[] data, float[] data32, int base, int w, double y0, double y1, double y2, double y3) {
        float f0 = (float) y0, f1 = (float) y1, f2 = (float) y2, f3 = (float) y3;
        data32[base] = f0;
        data32[base + w] = f1;
        data32[base + 2 * w] = f2;
        data32[base + 3 * w] = f3;
        data[base] = f0;
        data[base + w] = f1;
        data[base + 2 * w] = f2;
        data[base + 3 * w] = f3;
    }

    /** The centre (mean) and radius along the axes of the {@code count} points of a leaf from position {@code s}. */
    private static void leafBall(int node, int s, int count, int w, double[] data, double[] centre, double[] radius) {
        int oc = node * AXES;
        for (int pos = s; pos < s + count; pos++) {
            int base = (pos / w) * AXES * w + pos % w;
            for (int a = 0; a < AXES; a++) centre[oc + a] += data[base + a * w];
        }
        if (count > 0) for (int a = 0; a < AXES; a++) centre[oc + a] /= count;
        double rad = 0;
        for (int pos = s; pos < s + count; pos++) {
            int base = (pos / w) * AXES * w + pos % w;
            double sq = 0;
            for (int a = 0; a < AXES; a++) {
                double t = data[base + a * w] - centre[oc + a];
                sq += t * t;
            }
            rad = Math.max(rad, Math.sqrt(sq));
        }
        radius[node] = rad * (1 + MARGIN);
    }

    /** {@code gamma_k = k u / (1 - k u)}, the classic bound on the rounding of a k-term float64 sum of products. */
    private static double gamma(int k) {
        return k * U / (1 - k * U);
    }

    /**
     * {@code AXES} directions of largest spread of the centred sample (rows of length {@code d}): subspace
     * iteration with Gram-Schmidt, from the coordinate axes of largest variance, a fixed number of times.
     * Directions that vanish (data of lower rank) are left zero, which the bounds allow. Null when every
     * direction vanishes.
     */
    static double[] axes(double[] sample, int m, int d) {
        double[] var = new double[d];
        for (int t = 0; t < m; t++) for (int j = 0; j < d; j++) var[j] += sample[t * d + j] * sample[t * d + j];
        double[] q = new double[AXES * d];
        boolean[] taken = new boolean[d];
        for (int a = 0; a < AXES; a++) {
            int best = -1;
            for (int j = 0; j < d; j++) if (!taken[j] && (best < 0 || var[j] > var[best])) best = j;
            taken[best] = true;
            q[a * d + best] = 1;
        }
        double[] proj = new double[m * AXES];
        double[] z = new double[AXES * d];
        for (int it = 0; it < ITERATIONS; it++) {
            // z = X^T X q^T, one axis per row
            Arrays.fill(proj, 0);
            Arrays.fill(z, 0);
            for (int t = 0; t < m; t++) {
                for (int a = 0; a < AXES; a++) {
                    double s = 0;
                    for (int j = 0; j < d; j++) s += sample[t * d + j] * q[a * d + j];
                    proj[t * AXES + a] = s;
                }
            }
            for (int t = 0; t < m; t++) {
                for (int a = 0; a < AXES; a++) {
                    double s = proj[t * AXES + a];
                    for (int j = 0; j < d; j++) z[a * d + j] += s * sample[t * d + j];
                }
            }
            double first = 0;
            for (int a = 0; a < AXES; a++) {
                for (int b = 0; b < a; b++) {
                    double dot = 0;
                    for (int j = 0; j < d; j++) dot += z[a * d + j] * z[b * d + j];
                    for (int j = 0; j < d; j++) z[a * d + j] -= dot * z[b * d + j];
                }
                double norm = 0;
                for (int j = 0; j < d; j++) norm += z[a * d + j] * z[a * d + j];
                norm = Math.sqrt(norm);
                if (a == 0) first = norm;
                if (!(norm > 1e-12 * first) || norm == 0) {
                    for (int j = 0; j < d; j++) z[a * d + j] = 0;
                } else {
                    for (int j = 0; j < d; j++) z[a * d + j] /= norm;
                }
            }
            if (!(first > 0) || !Double.isFinite(first)) return null;
            System.arraycopy(z, 0, q, 0, q.length);
        }
        return q;
    }

    private static double squared(double[] x, int ox, double[] c, int oc) {
        double s = 0;
        for (int a = 0; a < AXES; a++) {
            double t = x[ox + a] - c[oc + a];
            s += t * t;
        }
        return s;
    }

    /** A lower bound on every computed distance between a point under node {@code a} and one under node {@code b}. */
    public double lowerBound(int a, int b) {
        return bound(Math.sqrt(squared(centre, a * AXES, centre, b * AXES)), radius[a] + radius[b]);
    }

    /** A lower bound on every computed distance from the point at position {@code pos} to a point under {@code node}. */
    public double lowerBoundFromPoint(int pos, int node) {
        int base = (pos / w) * AXES * w + pos % w;
        int oc = node * AXES;
        double s = 0;
        for (int k = 0; k < AXES; k++) {
            double t = data[base + k * w] - centre[oc + k];
            s += t * t;
        }
        return bound(Math.sqrt(s), radius[node]);
    }

    /** (distance along the axes between centres {@code c}, radii {@code rad}) to a full-space lower bound. */
    private double bound(double c, double rad) {
        double lb = (c - rad - slack) - MARGIN * (c + rad + slack);
        return lb <= 0 ? lb : lb / lambda * (1 - MARGIN);
    }

    /**
     * The largest squared distance along the axes (as {@link org.sylva.kernels.DistanceKernel#squaredDistances}
     * computes it on this view) that does not prove a pair's computed squared distance above {@code thr}:
     * a pair whose value exceeds it has a computed full squared distance strictly above {@code thr}.
     */
    public double screenLimit(double thr) {
        if (thr == Double.POSITIVE_INFINITY) return Double.POSITIVE_INFINITY;
        double x = lambda * Math.sqrt(thr) * (1 + MARGIN) + slack;
        return x * x * (1 + MARGIN);
    }

    /** The bound on the axes' spectral norm (tests). */
    double lambda() {
        return lambda;
    }

    /** Twice the bound on one point's projection error (tests). */
    double slack() {
        return slack;
    }

    /** The index this projects. */
    public PointIndex index() {
        return idx;
    }

    @Override
    public int dimensions() {
        return AXES;
    }

    @Override
    public int blockWidth() {
        return w;
    }

    @Override
    public double[] blocks() {
        return data;
    }

    /** The same coordinates: they are float32 values, stored so for the pre-filter kernel. */
    @Override
    public float[] blocks32() {
        return data32;
    }

    /** Node centres along the axes, {@link #AXES} values per node. */
    @Override
    public double[] centres() {
        return centre;
    }
}
