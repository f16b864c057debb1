package org.sylva.hdbscan.metric;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.sylva.data.InvalidInputException;

/**
 * The distance HDBSCAN clusters with, in scikit-learn's names: {@code euclidean} (the default, on the
 * fast partition-tree engine), {@code manhattan}, {@code chebyshev}, {@code minkowski} with its {@code p},
 * {@code cosine}, and {@code precomputed} (the input is an n x n distance matrix). Immutable; equal when
 * the name and {@code p} are.
 *
 * <p>Every distance is computed in one fixed order of float64 operations, the order of scikit-learn's
 * {@code DistanceMetric} (its KD-tree path) or {@code pairwise_distances}, so values agree with it as
 * closely as the arithmetic allows and never depend on threads (see {@link PairDistances}):
 * <ul>
 *   <li>euclidean: {@code s += (a_j - b_j)^2} over {@code j} in order, then {@code sqrt(s)};</li>
 *   <li>manhattan: {@code s += |a_j - b_j|} in order;</li>
 *   <li>chebyshev: {@code s = max(s, |a_j - b_j|)} in order;</li>
 *   <li>minkowski: {@code s += |a_j - b_j|^p} in order ({@link StrictMath#pow}), then {@code s^(1/p)};</li>
 *   <li>cosine: each row divided by its norm {@code sqrt(sum x_j^2)} once (a norm under {@code 10 eps} counts
 *       as 1, as scikit-learn's {@code normalize}), then {@code 1 - sum_j u_j v_j} in order, clipped to
 *       {@code [0, 2]}, and 0 from a point to itself;</li>
 *   <li>precomputed: the matrix entry {@code D[min(i, j), max(i, j)]} (the upper triangle).</li>
 * </ul>
 * As in scikit-learn's {@code DistanceMetric.get_metric}, {@code minkowski(1)} is {@code manhattan},
 * {@code minkowski(2)} is {@code euclidean} and {@code minkowski(inf)} is {@code chebyshev}.
 *
 * <pre>{@code
 * Hdbscan h = Hdbscan.builder().metric(Metric.minkowski(3)).build();
 * Metric m = Metric.parse("manhattan", null);
 * }</pre>
 */
public final class Metric {
    /** The kinds of distance. */
    public enum Kind {
        EUCLIDEAN, MANHATTAN, CHEBYSHEV, MINKOWSKI, COSINE, PRECOMPUTED;

        /** scikit-learn's name, e.g. {@code "manhattan"}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The names {@link #parse} accepts, in the order help texts list them. */
    public static final String NAMES = "euclidean, manhattan, chebyshev, minkowski, cosine, precomputed";

    private static final Metric EUCLIDEAN = new Metric(Kind.EUCLIDEAN, 2);
    private static final Metric MANHATTAN = new Metric(Kind.MANHATTAN, 1);
    private static final Metric CHEBYSHEV = new Metric(Kind.CHEBYSHEV, Double.POSITIVE_INFINITY);
    private static final Metric COSINE = new Metric(Kind.COSINE, Double.NaN);
    private static final Metric PRECOMPUTED = new Metric(Kind.PRECOMPUTED, Double.NaN);

    private final Kind kind;
    private final double p;

    private Metric(Kind kind, double p) {
        this.kind = kind;
        this.p = p;
    }

    public static Metric euclidean() {
        return EUCLIDEAN;
    }

    public static Metric manhattan() {
        return MANHATTAN;
    }

    public static Metric chebyshev() {
        return CHEBYSHEV;
    }

    public static Metric cosine() {
        return COSINE;
    }

    /** The input is an n x n matrix of distances (square, finite, non-negative, symmetric, zero diagonal). */
    public static Metric precomputed() {
        return PRECOMPUTED;
    }

    /**
     * The Minkowski distance {@code (sum |a_j - b_j|^p)^(1/p)}, {@code p >= 1} (below 1 it is no metric;
     * scikit-learn refuses it too). {@code p = 1, 2, inf} give {@link #manhattan()}, {@link #euclidean()},
     * {@link #chebyshev()}.
     *
     * @throws InvalidInputException naming {@code p} when it is NaN or below 1
     */
    public static Metric minkowski(double p) {
        if (!(p >= 1)) {
            throw InvalidInputException.forParameter("p", "minkowski needs p >= 1 (below 1 it is not a metric); got " + p);
        }
        if (p == 1) return MANHATTAN;
        if (p == 2) return EUCLIDEAN;
        if (p == Double.POSITIVE_INFINITY) return CHEBYSHEV;
        return new Metric(Kind.MINKOWSKI, p);
    }

    /**
     * The metric named {@code name} (scikit-learn's names, case-insensitive; also its aliases {@code l2},
     * {@code l1}, {@code cityblock}, {@code infinity}), with {@code p} for {@code minkowski} ({@code null}:
     * 2, scikit-learn's default). A {@code p} for another metric is refused rather than ignored.
     *
     * @throws InvalidInputException naming {@code metric} or {@code p}
     */
    public static Metric parse(String name, Double p) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        if (n.equals("minkowski")) return minkowski(p == null ? 2 : p);
        Metric m = switch (n) {
            case "euclidean", "l2" -> EUCLIDEAN;
            case "manhattan", "l1", "cityblock" -> MANHATTAN;
            case "chebyshev", "infinity" -> CHEBYSHEV;
            case "cosine" -> COSINE;
            case "precomputed" -> PRECOMPUTED;
            default -> throw InvalidInputException.forParameter("metric",
                    "unknown metric '" + name + "'; expected one of " + NAMES);
        };
        if (p != null) {
            throw InvalidInputException.forParameter("p", "p applies to the minkowski metric only, not to " + m.name());
        }
        return m;
    }

    public Kind kind() {
        return kind;
    }

    /** scikit-learn's name of the metric: {@code "euclidean"}, {@code "minkowski"}, ... */
    public String name() {
        return kind.id();
    }

    /** The exponent of {@link Kind#MINKOWSKI}; NaN for the other kinds. */
    public double p() {
        return kind == Kind.MINKOWSKI ? p : Double.NaN;
    }

    public boolean isEuclidean() {
        return kind == Kind.EUCLIDEAN;
    }

    public boolean isPrecomputed() {
        return kind == Kind.PRECOMPUTED;
    }

    /**
     * Whether {@code alpha} divides the core distances as well as the distance, for cosine and precomputed: the
     * metrics scikit-learn's default algorithm fits on its brute path, which divides the whole distance matrix by
     * alpha before it takes core distances from it (the mutual reachability {@code max(core_a, core_b, d) / alpha},
     * each term rounded on its own, which is the same float64 because division rounds monotonically), as the
     * {@code hdbscan} package's generic path does. The other metrics take scikit-learn's k-d tree path, which
     * divides the distance only: {@code max(core_a, core_b, d / alpha)}. The core distances a fit reports are the
     * metric's either way.
     */
    public boolean alphaDividesCoreDistances() {
        return kind == Kind.COSINE || kind == Kind.PRECOMPUTED;
    }

    /**
     * The core distances the mutual reachability takes under {@code alpha} ({@link #alphaDividesCoreDistances}):
     * {@code core} itself, or a copy with each divided by {@code alpha}.
     */
    public double[] reachabilityCores(double[] core, double alpha) {
        if (alpha == 1.0 || !alphaDividesCoreDistances()) return core;
        double[] divided = new double[core.length];
        for (int i = 0; i < core.length; i++) divided[i] = core[i] / alpha;
        return divided;
    }

    /** scikit-learn's {@code metric_params} of this metric: {@code {"p": 3.0}} for minkowski, else empty. */
    public Map<String, Object> params() {
        Map<String, Object> m = new LinkedHashMap<>();
        if (kind == Kind.MINKOWSKI) m.put("p", p);
        return m;
    }

    /** For summaries: {@code "manhattan"}, {@code "minkowski (p = 3.0)"}. */
    public String describe() {
        return kind == Kind.MINKOWSKI ? name() + " (p = " + p + ")" : name();
    }

    /**
     * The distances between the rows of {@code rows} ({@code n x d}, row-major, finite; for
     * {@link #precomputed()} the {@code n x n} matrix), checked for this metric: precomputed matrices
     * as {@link PairDistances#of} says, feature rows for overflow.
     */
    public PairDistances pairs(double[] rows, int n, int d) {
        return PairDistances.of(this, rows, n, d);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Metric m && m.kind == kind && Double.compare(m.p(), p()) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * kind.hashCode() + Double.hashCode(p());
    }

    @Override
    public String toString() {
        return "Metric[" + describe() + "]";
    }
}
