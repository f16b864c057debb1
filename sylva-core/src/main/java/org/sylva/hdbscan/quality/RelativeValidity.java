package org.sylva.hdbscan.quality;

import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.numeric.NumpySum;

/**
 * The {@code hdbscan} package's {@code relative_validity_} (0.8.43): a fast DBCV-like score read off the
 * mutual-reachability spanning tree of the fit. Over the tree's edges: the largest weight of any edge
 * ({@code max_distance}); per cluster, the largest weight of an edge inside it (density sparseness,
 * {@code DSC}) and the smallest weight of an edge to another cluster ({@code DSPC}, twice
 * {@code max_distance} when there is none, or with a single cluster twice the smallest weight of an
 * edge to noise); per cluster {@code V = (DSPC - DSC) / max(DSPC, DSC)}; the score is the sum of
 * {@code |C| V / n} (NumPy's sum; n counts noise). It depends on the edge <em>set</em>: where the fit had
 * ties another exact spanning tree can give another value.
 *
 * <pre>{@code
 * double v = RelativeValidity.of(result.spanningTree(), fittedLabels);
 * }</pre>
 */
public final class RelativeValidity {
    private RelativeValidity() {
    }

    /**
     * The score of {@code labels} (one per point of {@code tree}: -1 noise, clusters {@code 0 ..}, no gaps)
     * on {@code tree}.
     *
     * @throws org.sylva.data.InvalidInputException when {@code tree} is no spanning tree ({@link
     *     SpanningTree#requireTree}) or the labels do not fit it
     */
    public static double of(SpanningTree tree, int[] labels) {
        tree.requireTree();
        int n = tree.points();
        int[][] members = Members.of(labels, n);
        int k = members.length;
        double[] dsc = new double[k], dspc = new double[k];
        java.util.Arrays.fill(dspc, Double.POSITIVE_INFINITY);
        double maxDistance = 0, minOutlierSep = Double.POSITIVE_INFINITY;
        for (int e = 0; e < tree.edges(); e++) {
            int a = labels[tree.from(e)], b = labels[tree.to(e)];
            double w = tree.weight(e);
            maxDistance = pyMax(maxDistance, w);
            if (a < 0 && b < 0) continue;
            if (a < 0 || b < 0) {
                minOutlierSep = Math.min(minOutlierSep, w);
            } else if (a == b) {
                dsc[a] = pyMax(w, dsc[a]);
            } else {
                dspc[a] = Math.min(w, dspc[a]);
                dspc[b] = Math.min(w, dspc[b]);
            }
        }
        if (minOutlierSep == Double.POSITIVE_INFINITY) minOutlierSep = maxDistance;
        double correction = 2 * (k > 1 ? maxDistance : minOutlierSep);
        double[] terms = new double[k];
        for (int c = 0; c < k; c++) {
            if (dspc[c] == Double.POSITIVE_INFINITY) dspc[c] = correction;
            double v = (dspc[c] - dsc[c]) / pyMax(dspc[c], dsc[c]);
            terms[c] = members[c].length * v / n;
        }
        return NumpySum.of(terms, 0, k);
    }

    /** Python's {@code max(a, b)}: {@code a} unless {@code b > a}. */
    static double pyMax(double a, double b) {
        return b > a ? b : a;
    }
}
