package org.sylva.hdbscan.predict;

/**
 * A new point's label, probability and outlier score from where it connects ({@link Connector}), by the
 * rules of the {@code hdbscan} package's {@code approximate_predict} and
 * {@code approximate_predict_scores} (0.8.43).
 *
 * <p><b>Label.</b> Start at the cluster {@code C} the connecting point falls out of; if that point falls
 * out at a lambda above the new point's, climb while {@code C} is not the root and is born at a lambda
 * {@code >=} the new point's. The label is that of the selected cluster at or above {@code C}, else -1;
 * when that cluster is the root, selected as the single cluster, the new point falls out of it at the smaller
 * of its lambda and the connecting point's and, as in the fit, belongs to it only from the fit's threshold on
 * ({@code 1/epsilon}, else the largest lambda among the root's rows).
 * <b>Probability</b>: {@code min(lambda, lmax) / lmax} with {@code lmax} the largest lambda among the
 * selected cluster's own rows (1 when {@code lmax} is 0), 0 for noise. <b>Outlier score</b> (GLOSH of a
 * new point): {@code (lmax_sub - lambda) / lmax_sub} with {@code lmax_sub} the largest lambda in the
 * subtree of {@code C} (no climbing) and, when the new point coincides with a fitted point, that
 * point's own lambda; negative where the new point is denser than every fitted point of {@code C}.
 *
 * <p><b>Where Sylva departs, and why.</b> (0) The label is the fit's: the package labels a new point by
 * its {@code cluster_map}, -1 unless {@code C} itself is in it, and its prediction data selects those
 * clusters again, apart from the fit, picking others wherever a selected cluster has points falling out of
 * its child clusters; Sylva takes the fit's selected cluster at or above {@code C}, so a fitted point given
 * as a new point gets its fit's label back. The two others only where the package divides by an infinite
 * lambda, which needs exact duplicates among the fitted points. (1) The probability of a new point at
 * mutual reachability 0 ({@code lambda = Double.MAX_VALUE}) in a cluster whose {@code lmax} is infinite is 1,
 * as the fitted points it coincides with have; the package computes {@code MAX_VALUE / inf = 0}.
 * (2) Outlier scores follow {@link org.sylva.hdbscan.hierarchy.OutlierScores}: 1.0 where
 * {@code lmax_sub} is infinite and the lambda finite, 0 where the lambda is infinite (the package's
 * {@code inf / inf = NaN}). When the root never splits the package returns label -1, probability 0 and
 * score 1 for every new point; so does Sylva.
 *
 * <pre>{@code
 * int label = HardAssignment.label(tree, neighbour, lambda);
 * double p = HardAssignment.probability(tree, label, lambda);
 * }</pre>
 */
final class HardAssignment {
    private HardAssignment() {
    }

    /** The label of a new point connecting to fitted point {@code neighbour} at {@code lambda}. */
    static int label(ClusterTree t, int neighbour, double lambda) {
        if (!t.splits()) return -1;
        int c = t.pointCluster(neighbour);
        double own = t.pointLambda(neighbour);
        if (own > lambda) {
            for (int step = t.depth(c); step > 0 && c > 0 && t.birth(c) >= lambda; step--) c = t.parent(c);
        }
        // the lambda at which the new point falls out of c: its own, or its neighbour's where it departs with it
        return t.label(c, Math.min(own, lambda));
    }

    /** The probability of a new point with {@code label} (from {@link #label}) at {@code lambda}. */
    static double probability(ClusterTree t, int label, double lambda) {
        if (label < 0) return 0.0;
        double max = t.directMax(t.selected(label));
        if (!(max > 0.0)) return 1.0;
        if (Double.isInfinite(max) && lambda == Double.MAX_VALUE) return 1.0;   // see the class comment, (1)
        return Math.min(max, lambda) / max;
    }

    /**
     * The outlier score of a new point connecting to {@code neighbour} at {@code lambda}; {@code coincides}:
     * it is at distance 0 from a fitted point.
     */
    static double score(ClusterTree t, int neighbour, double lambda, boolean coincides) {
        if (!t.splits()) return 1.0;
        int c = t.pointCluster(neighbour);
        double lam = coincides ? t.pointLambda(neighbour) : lambda;
        double max = t.subtreeMax(c);
        if (max == 0.0 || Double.isInfinite(lam)) return 0.0;
        if (Double.isInfinite(max)) return 1.0;   // see the class comment, (2)
        return (max - lam) / max;
    }
}
