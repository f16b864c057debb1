package org.sylva.hdbscan.hierarchy;

import java.util.Arrays;

/**
 * GLOSH outlier scores, as the {@code hdbscan} package 0.8.43 computes {@code outlier_scores_}
 * (scikit-learn has none): for a point that falls out of cluster {@code C} at {@code lambda_p},
 * {@code (lambda_max - lambda_p) / lambda_max} where {@code lambda_max} is the largest lambda anywhere
 * in {@code C}'s subtree (the semantics since hdbscan PR #697; older releases used {@code C}'s direct
 * rows only). The score is 0 where {@code lambda_max} is 0 or {@code lambda_p} is infinite.
 *
 * <p><b>Sylva's one deviation.</b> Where {@code lambda_max} is infinite (exact duplicate points under
 * {@code C} merge at distance 0) and {@code lambda_p} finite, the Python formula gives
 * {@code inf / inf = NaN}. Sylva gives <b>1.0</b>: it is the limit of the formula as
 * {@code lambda_max} grows without bound, and it says what the situation is: the point leaves the
 * cluster infinitely earlier (at a positive distance) than its densest members (at distance 0), as
 * outlying relative to them as a score in [0, 1] can express. Every score is therefore a number in
 * [0, 1].
 *
 * <pre>{@code
 * OutlierScores glosh = OutlierScores.of(condensed);
 * double s = glosh.score(17);
 * }</pre>
 */
public final class OutlierScores {
    private final double[] scores;

    private OutlierScores(double[] scores) {
        this.scores = scores;
    }

    /** GLOSH scores of every point of {@code tree}; all 0 when the tree has fewer than two points. */
    public static OutlierScores of(CondensedTree tree) {
        int n = tree.points();
        int nc = tree.clusterCount();
        double[] out = new double[n];
        if (nc == 0) return new OutlierScores(out);
        double[] subtreeMax = new double[nc];
        for (int k = 0; k < nc; k++) subtreeMax[k] = tree.directMaxLambda(k);
        // Children have larger ids than their parents: a descending pass sees every subtree complete.
        for (int k = nc - 1; k > 0; k--) {
            int q = tree.clusterParent(k) - n;
            if (subtreeMax[k] > subtreeMax[q]) subtreeMax[q] = subtreeMax[k];
        }
        for (int x = 0; x < n; x++) {
            int r = tree.pointRow(x);
            double lam = tree.lambda(r);
            double max = subtreeMax[tree.parent(r) - n];
            if (max == 0.0 || !Double.isFinite(lam)) out[x] = 0.0;
            else if (Double.isInfinite(max)) out[x] = 1.0; // the reference's NaN; see the class comment
            else out[x] = (max - lam) / max;
        }
        return new OutlierScores(out);
    }

    /** Number of points. */
    public int points() {
        return scores.length;
    }

    public double score(int point) {
        return scores[point];
    }

    /** A copy of all scores. */
    public double[] scores() {
        return scores.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OutlierScores s && Arrays.equals(s.scores, scores);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(scores);
    }

    @Override
    public String toString() {
        return "OutlierScores[n=" + scores.length + "]";
    }
}
