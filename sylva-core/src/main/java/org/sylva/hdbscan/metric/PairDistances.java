package org.sylva.hdbscan.metric;

import java.util.Arrays;
import java.util.Locale;
import org.sylva.data.InvalidInputException;
import org.sylva.kernels.MetricKernel;

/**
 * The distance between any two of {@code n} points under one {@link Metric}, each computed in the fixed
 * order of float64 operations that {@link Metric} documents: a pure function of the two rows, symmetric
 * bitwise ({@code between(a, b) == between(b, a)}), 0 from a point to itself. Immutable and thread-safe;
 * reads the rows in place (a cosine instance holds its own normalised copy).
 *
 * <p>A precomputed matrix is checked once when the instance is made, and refused, naming the first entry
 * at fault, unless it is square, every entry {@code >= 0} (finite, or {@code +inf} for a missing distance, as
 * scikit-learn's dense precomputed path takes it), the diagonal 0 (round-off of at most 1e-9 either way, as a
 * matrix computed in floating point holds, is read as 0) and the matrix symmetric within
 * scikit-learn's tolerance ({@code |D_ij - D_ji| <= 1e-9 + 1e-7 |D_ji|}, a missing distance missing both ways);
 * the upper triangle is then the one read, so a matrix that is symmetric only to rounding gives one answer.
 *
 * <pre>{@code
 * PairDistances d = Metric.manhattan().pairs(rows, n, dims);
 * double d01 = d.between(0, 1);
 * }</pre>
 */
public final class PairDistances {
    /** Relative and absolute tolerance of the symmetry check (scikit-learn's {@code _allclose_dense_sparse}). */
    static final double SYMMETRY_RTOL = 1e-7, SYMMETRY_ATOL = 1e-9;
    /**
     * Round-off a precomputed matrix may hold where a distance is 0: a diagonal entry or a negative entry of at
     * most this magnitude (as {@code 1 - cosine_similarity(X)} leaves, about 1e-16) is read as 0. The symmetry
     * check's absolute tolerance: what counts as equal there counts as 0 here.
     */
    static final double ZERO_ATOL = SYMMETRY_ATOL;

    private final Metric.Kind kind;
    private final double[] x;
    private final int n;
    private final int d;
    private final double p;
    private final double invP;
    /**
     * Whole {@code p} of at most {@link #MULTIPLIED_POWERS} (its cutoff terms are products), else 0 (its cutoff terms
     * are {@link Math#pow}s).
     */
    private final int wholeP;
    /** {@link #cutoff}'s relative margin above {@code limit^p}; 0 where no cutoff is made (see {@link #cutoff}). */
    private final double cutoffMargin;
    /** The rows' largest coordinate magnitude once {@link #largestMagnitude} found it; NaN before. */
    private volatile double largest = Double.NaN;

    private PairDistances(Metric metric, double[] x, int n, int d) {
        this.kind = metric.kind();
        this.x = x;
        this.n = n;
        this.d = d;
        this.p = metric.p();
        this.invP = 1.0 / p;
        this.wholeP = p == Math.rint(p) && p <= MULTIPLIED_POWERS ? (int) p : 0;
        this.cutoffMargin = kind == Metric.Kind.MINKOWSKI && p <= MAX_CUTOFF_P ? 0x1p-40 * (p + d + 8) : 0;
    }

    /**
     * The distances of {@code metric} between the {@code n} rows of {@code rows}: {@code n x d} finite
     * coordinates, or for {@link Metric#precomputed()} the {@code n x n} matrix (checked here).
     *
     * @throws InvalidInputException for a precomputed matrix that is not a distance matrix, or coordinates
     *     whose Minkowski powers would overflow
     */
    public static PairDistances of(Metric metric, double[] rows, int n, int d) {
        if (n < 0 || d < 1 || (long) n * d != rows.length) {
            throw new IllegalArgumentException(rows.length + " values for n = " + n + ", d = " + d);
        }
        switch (metric.kind()) {
            case PRECOMPUTED -> checkMatrix(rows, n, d);
            case MINKOWSKI -> checkPowers(rows, d, metric.p());
            default -> { }
        }
        double[] x = metric.kind() == Metric.Kind.COSINE ? normalised(rows, n, d) : rows;
        return new PairDistances(metric, x, n, d);
    }

    /** Number of points. */
    public int size() {
        return n;
    }

    /** Coordinates per point ({@code n} for a precomputed matrix). */
    public int dimensions() {
        return d;
    }

    /**
     * The {@link MetricKernel} form whose arithmetic is this metric's, bitwise, on {@link #preparedRows()}:
     * euclidean, manhattan, chebyshev and cosine; {@code null} for minkowski ({@code StrictMath.pow} has no
     * vector twin) and a precomputed matrix.
     */
    public MetricKernel.Form kernelForm() {
        return switch (kind) {
            case EUCLIDEAN -> MetricKernel.Form.EUCLIDEAN;
            case MANHATTAN -> MetricKernel.Form.MANHATTAN;
            case CHEBYSHEV -> MetricKernel.Form.CHEBYSHEV;
            case COSINE -> MetricKernel.Form.COSINE;
            default -> null;
        };
    }

    /** The distance between points {@code a} and {@code b}. */
    public double between(int a, int b) {
        if (a == b) return 0.0;
        if (kind == Metric.Kind.PRECOMPUTED) {
            double v = a < b ? x[a * n + b] : x[b * n + a];
            return v > 0 ? v : 0.0;   // round-off below 0 (checked: at most ZERO_ATOL) and -0.0 read as 0
        }
        return distance(x, a * d, b);
    }

    /**
     * The distances from point {@code a} to the points {@code from .. to - 1} into {@code out[0 .. to - from)},
     * each bitwise {@link #between between(a, b)}: for manhattan and chebyshev four points at a time, four
     * running sums side by side, each in coordinate order (the sums' additions wait on one another, so four
     * chains keep the core busy where one would stall it).
     */
    public void fromPoint(int a, int from, int to, double[] out) {
        int b = from;
        if (kind == Metric.Kind.MANHATTAN || kind == Metric.Kind.CHEBYSHEV) {
            boolean sum = kind == Metric.Kind.MANHATTAN;
            int oa = a * d;
            for (; b + 4 <= to; b += 4) {
                int o0 = b * d, o1 = o0 + d, o2 = o1 + d, o3 = o2 + d;
                double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
                if (sum) {
                    for (int j = 0; j < d; j++) {
                        double v = x[oa + j];
                        s0 += Math.abs(v - x[o0 + j]);
                        s1 += Math.abs(v - x[o1 + j]);
                        s2 += Math.abs(v - x[o2 + j]);
                        s3 += Math.abs(v - x[o3 + j]);
                    }
                } else {
                    for (int j = 0; j < d; j++) {
                        double v = x[oa + j];
                        s0 = Math.max(s0, Math.abs(v - x[o0 + j]));
                        s1 = Math.max(s1, Math.abs(v - x[o1 + j]));
                        s2 = Math.max(s2, Math.abs(v - x[o2 + j]));
                        s3 = Math.max(s3, Math.abs(v - x[o3 + j]));
                    }
                }
                out[b - from] = s0;
                out[b - from + 1] = s1;
                out[b - from + 2] = s2;
                out[b - from + 3] = s3;
            }
        }
        for (; b < to; b++) out[b - from] = between(a, b);
    }

    /**
     * What a distance above which a search drops a point ({@code limit}: a k-th smallest, a lightest edge so far)
     * becomes for {@link #betweenUpTo} and {@link #fromPointUpTo}: for minkowski, {@code limit^p} raised by a
     * relative margin; for the other metrics, whose distances are a few cycles a coordinate, {@link #NO_CUTOFF}.
     *
     * <p><b>Why it is exact.</b> A minkowski distance is {@code d} {@link StrictMath#pow}s of about 100 ns and a
     * root. A search that keeps only what is below its limit needs the exact value of few of the points it
     * meets; for the others it needs only to know that the distance is above the limit. The cheap sum that
     * shows it adds terms that are each within a few ulps of the exact ones ({@link Math#pow}, within 1 ulp by its
     * specification, or for a whole {@code p <= } {@link #MULTIPLIED_POWERS} a product, within {@code p - 1}
     * roundings), in the same order, and stops as soon as it passes the cutoff: a sum of terms {@code >= 0}
     * never falls as it goes. Every rounding on both sides (the terms, the two sums of at most {@code d} terms,
     * the two roots, {@code limit^p} here, and the root's exponent {@code fl(1/p)}, a relative {@code 2^-53 / p} off
     * in the exponent of a power within {@code 2^-900 .. 2^1000}) is a relative error below
     * {@code (5 p + 2 d + 720) 2^-53}, and the margin is {@code (p + d + 8) 2^-40}, at least a hundred times more: so
     * a partial sum past the cutoff means an exact distance above {@code limit}, never one equal to it. The margin is relative, so a cutoff is made only where
     * {@code limit^p} lies between {@code 2^-900} and {@code 2^1000} (far from the subnormals, whose absolute
     * error a relative margin does not cover, and from overflow) and {@code p <= } {@link #MAX_CUTOFF_P}; else
     * (and for a NaN, infinite, zero or negative limit) {@link #NO_CUTOFF}, and every distance is computed.
     */
    public double cutoff(double limit) {
        if (cutoffMargin == 0 || !(limit > 0 && limit < Double.POSITIVE_INFINITY)) return NO_CUTOFF;
        double power = Math.pow(limit, p);
        if (!(power >= 0x1p-900 && power <= 0x1p1000)) return NO_CUTOFF;
        return power * (1 + cutoffMargin);
    }

    /** The cutoff that drops nothing: every distance is computed. */
    public static final double NO_CUTOFF = Double.POSITIVE_INFINITY;
    /** What {@link #betweenUpTo} and {@link #fromPointUpTo} give for a point whose distance is above the limit. */
    public static final double BEYOND = Double.POSITIVE_INFINITY;
    /** Largest whole {@code p} whose cutoff terms are products (a few cycles) rather than {@link Math#pow}s. */
    static final int MULTIPLIED_POWERS = 8;
    /** Largest {@code p} given a cutoff: the margin's bound on {@code (1 + 5 * 2^-53)^p} holds far beyond it. */
    static final double MAX_CUTOFF_P = 0x1p20;

    /**
     * {@link #between between(a, b)}, or {@link #BEYOND} where that distance is certainly above the limit whose
     * {@link #cutoff} is {@code cutoff} (see there: then no exact value is computed).
     */
    public double betweenUpTo(int a, int b, double cutoff) {
        if (cutoff == NO_CUTOFF || a == b) return between(a, b);
        return aboveCutoff(x, a * d, b, cutoff) ? BEYOND : distance(x, a * d, b);
    }

    /**
     * {@link #fromPoint}, but {@link #BEYOND} for each point whose distance is certainly above the limit whose
     * {@link #cutoff} is {@code cutoff}.
     */
    public void fromPointUpTo(int a, int from, int to, double[] out, double cutoff) {
        if (cutoff == NO_CUTOFF) {
            fromPoint(a, from, to, out);
            return;
        }
        int oa = a * d;
        for (int b = from; b < to; b++) {
            out[b - from] = b == a ? 0.0 : aboveCutoff(x, oa, b, cutoff) ? BEYOND : distance(x, oa, b);
        }
    }

    /**
     * {@link #toRow}, or {@link #BEYOND} where that distance is certainly above the limit whose {@link #cutoff} is
     * {@code cutoff}.
     */
    public double toRowUpTo(double[] q, int off, int b, double cutoff) {
        if (cutoff == NO_CUTOFF) return toRow(q, off, b);
        return aboveCutoff(q, off, b, cutoff) ? BEYOND : distance(q, off, b);
    }

    /**
     * Whether the cheap sum of minkowski's terms from the row {@code xa[oa ..]} to point {@code b} passes
     * {@code cutoff} (in coordinate order, stopping there): then the exact distance is above the cutoff's limit.
     */
    private boolean aboveCutoff(double[] xa, int oa, int b, double cutoff) {
        int ob = b * d;
        double s = 0;
        if (wholeP > 0) {
            for (int j = 0; j < d; j++) {
                double v = Math.abs(xa[oa + j] - x[ob + j]);
                double t = v;
                for (int e = 1; e < wholeP; e++) t *= v;
                s += t;
                if (s > cutoff) return true;
            }
        } else {
            for (int j = 0; j < d; j++) {
                s += Math.pow(Math.abs(xa[oa + j] - x[ob + j]), p);
                if (s > cutoff) return true;
            }
        }
        return false;
    }

    /**
     * New points prepared for {@link #toRow}: for cosine a copy of the {@code m} rows of {@code q} divided by
     * their norms as the fitted rows were; for the other metrics {@code q} itself.
     *
     * @throws IllegalStateException for a precomputed matrix, which has no rows to compare new points with
     * @throws InvalidInputException for minkowski, when new points so far from the fitted ones that
     *     {@code |a - b|^p} could overflow
     */
    public double[] queries(double[] q, int m) {
        if (kind == Metric.Kind.PRECOMPUTED) throw new IllegalStateException("a precomputed matrix has no coordinates");
        if (kind == Metric.Kind.MINKOWSKI) {   // new points far out could overflow |a - b|^p where the fit's could not
            double most = largestMagnitude();
            for (int i = 0; i < m * d; i++) most = Math.max(most, Math.abs(q[i]));
            checkPowerBound(most, d, p);
        }
        return kind == Metric.Kind.COSINE ? normalised(q, m, d) : q;
    }

    /**
     * The distance from the point {@code q[off .. off + d)}, prepared by {@link #queries} (or one of
     * {@link #preparedRows()}), to point {@code b}: the arithmetic of {@link #between}, the new point in the
     * place of {@code a}; for cosine 0 where the prepared point equals the row (as {@link #between} gives a
     * point and itself), which the arithmetic would leave a few ulps above 0.
     */
    public double toRow(double[] q, int off, int b) {
        double dist = distance(q, off, b);
        // cosine: 1 - u.u of a unit row is a few ulps off 0; a point equal to the row coincides with it, at 0
        if (kind == Metric.Kind.COSINE && dist != 0 && dist < 1e-12 && Arrays.equals(q, off, off + d, x, b * d, b * d + d)) {
            return 0.0;
        }
        return dist;
    }

    /** The fitted rows as {@link #toRow} compares them (the normalised copy for cosine; shared, not copied). */
    public double[] preparedRows() {
        return x;
    }

    /** The largest coordinate magnitude of the rows, found once. */
    private double largestMagnitude() {
        double m = largest;
        if (Double.isNaN(m)) {
            m = 0;
            for (double v : x) m = Math.max(m, Math.abs(v));
            largest = m;   // benign race: every thread finds the same value
        }
        return m;
    }

    private double distance(double[] xa, int oa, int b) {
        int ob = b * d;
        double s = 0;
        switch (kind) {
            case EUCLIDEAN -> {
                for (int j = 0; j < d; j++) {
                    double t = xa[oa + j] - x[ob + j];
                    s += t * t;
                }
                s = Math.sqrt(s);
            }
            case MANHATTAN -> {
                for (int j = 0; j < d; j++) s += Math.abs(xa[oa + j] - x[ob + j]);
            }
            case CHEBYSHEV -> {
                for (int j = 0; j < d; j++) s = Math.max(s, Math.abs(xa[oa + j] - x[ob + j]));
            }
            case MINKOWSKI -> {
                for (int j = 0; j < d; j++) s += StrictMath.pow(Math.abs(xa[oa + j] - x[ob + j]), p);
                s = StrictMath.pow(s, invP);
            }
            case COSINE -> {
                for (int j = 0; j < d; j++) s += xa[oa + j] * x[ob + j];
                s = Math.min(Math.max(1 - s, 0.0), 2.0);
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        return s;
    }

    /** Rows divided by their Euclidean norm (squares summed in order); a norm under 10 eps counts as 1. */
    private static double[] normalised(double[] rows, int n, int d) {
        double[] u = new double[rows.length];
        double tiny = 10 * Math.ulp(1.0);
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < d; j++) s += rows[i * d + j] * rows[i * d + j];
            double norm = Math.sqrt(s);
            if (norm < tiny) norm = 1;
            for (int j = 0; j < d; j++) u[i * d + j] = rows[i * d + j] / norm;
        }
        return u;
    }

    private static void checkMatrix(double[] m, int n, int d) {
        if (d != n) {
            throw InvalidInputException.forParameter("metric", "a precomputed distance matrix must be square (n x n); "
                    + "got " + n + " x " + d);
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double v = m[i * n + j];
                if (!(v >= -ZERO_ATOL)) {   // NaN, a negative beyond round-off and -inf; +inf: a missing distance
                    throw new InvalidInputException(String.format(Locale.ROOT, "precomputed distance matrix: entry "
                            + "(%d, %d) is %s; distances must be >= 0 (+inf for a missing distance; round-off down "
                            + "to -1e-9 is read as 0)", i, j, v));
                }
                if (i == j && !(v <= ZERO_ATOL)) {
                    throw new InvalidInputException(String.format(Locale.ROOT, "precomputed distance matrix: "
                            + "diagonal entry (%d, %d) is %s; a point's distance to itself must be 0 (round-off up to "
                            + "1e-9 is read as 0)", i, i, v));
                }
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double a = m[i * n + j], b = m[j * n + i];
                boolean missing = a == Double.POSITIVE_INFINITY, missingToo = b == Double.POSITIVE_INFINITY;
                if (missing != missingToo || !missing && Math.abs(a - b) > SYMMETRY_ATOL + SYMMETRY_RTOL * Math.abs(b)) {
                    throw new InvalidInputException(String.format(Locale.ROOT, "precomputed distance matrix is not "
                            + "symmetric: entry (%d, %d) is %s but (%d, %d) is %s (symmetrise it, e.g. (D + D.T) / 2)",
                            i, j, a, j, i, b));
                }
            }
        }
    }

    /** Refuses coordinates whose {@code |a_j - b_j|^p}, summed over {@code d}, could overflow. */
    private static void checkPowers(double[] rows, int d, double p) {
        double max = 0;
        for (double v : rows) max = Math.max(max, Math.abs(v));
        checkPowerBound(max, d, p);
    }

    /** Refuses a largest coordinate magnitude {@code max} whose {@code |a_j - b_j|^p}, summed over {@code d}, could overflow. */
    private static void checkPowerBound(double max, int d, double p) {
        double bound = StrictMath.pow(2 * max, p) * d;
        if (!Double.isFinite(bound)) {
            throw InvalidInputException.forParameter("p", String.format(Locale.ROOT, "minkowski with p = %s: the "
                    + "largest coordinate magnitude %s would overflow |a - b|^p; rescale the data", p, max));
        }
    }
}
