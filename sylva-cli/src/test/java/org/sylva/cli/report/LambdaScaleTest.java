package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The icicle plot's λ axis shows the selected clusters, whatever the spread of the distances. */
class LambdaScaleTest {
    /** Plot area of the icicle plot: top and height of the finite axis (no +inf rows in these trees). */
    static final double TOP = 16, HEIGHT = IciclePlot.HEIGHT - 16 - 74;

    /**
     * A tree as high-dimensional data give it (all distances alike): 5 % of the points leave the root
     * between λ = 0.85 and 0.9, the root splits into {@code k} clusters at λ 0.90 .. 0.92, and their points
     * leave between 0.97 and 1.0; with {@code duplicates}, 5 points of cluster 0 leave at λ = 1e6 (near
     * duplicates). On a linear axis from 0 the selected clusters would take the bottom tenth of the plot.
     */
    static CondensedTreeData highDimensional(int n, int k, boolean duplicates) {
        Random rnd = new Random(3);
        List<int[]> rows = new ArrayList<>();
        List<Double> lam = new ArrayList<>();
        int noise = n / 20, per = (n - noise) / k;
        for (int c = 0; c < k; c++) {
            rows.add(new int[] {n, n + 1 + c, c < k - 1 ? per : n - noise - per * (k - 1)});
            lam.add(0.90 + 0.02 * c / k);
        }
        for (int p = 0; p < noise; p++) {
            rows.add(new int[] {n, p, 1});
            lam.add(0.85 + 0.05 * rnd.nextDouble());
        }
        for (int p = noise; p < n; p++) {
            int c = Math.min(k - 1, (p - noise) / per);
            rows.add(new int[] {n + 1 + c, p, 1});
            boolean dup = duplicates && c == 0 && p < noise + 5;
            lam.add(dup ? 1e6 : 0.97 + 0.03 * Math.sqrt(rnd.nextDouble()));
        }
        return IciclePlotTest.tree(n, rows, lam);
    }

    static long[] clusters(int n, int k) {
        long[] ids = new long[k];
        for (int c = 0; c < k; c++) ids[c] = n + 1 + c;
        return ids;
    }

    /** Fraction of the plot height between the top and the bottom of the selected clusters' bars. */
    static double selectedHeightShare(String svg) {
        double top = Double.POSITIVE_INFINITY, bottom = Double.NEGATIVE_INFINITY;
        Matcher m = Pattern.compile("class=\"node selected\"[^>]* d=\"([^\"]+)\"").matcher(svg);
        while (m.find()) {
            for (double y : HtmlReportTest.pathYs(m.group(1))) {
                top = Math.min(top, y);
                bottom = Math.max(bottom, y);
            }
        }
        return (bottom - top) / HEIGHT;
    }

    @Test
    void onHighDimensionalDataTheSelectedClustersFillMostOfTheHeight() {
        int n = 2_000, k = 6;
        CondensedTreeData t = highDimensional(n, k, false);
        StringBuilder sb = new StringBuilder();
        IciclePlot.Summary s = IciclePlot.render(sb, "hd", t, clusters(n, k));
        assertEquals(LambdaScale.Kind.LOG, s.scale().kind);
        double share = selectedHeightShare(sb.toString());
        assertTrue(share > 0.6, "selected clusters take " + share + " of the height");
        // the old axis, linear from 0, gives them only the bottom tenth (births at 0.90 of the largest lambda)
        double firstBirth = Double.POSITIVE_INFINITY, lambdaMax = 0;
        for (int r = 0; r < t.rows(); r++) {
            if (t.child()[r] > n) firstBirth = Math.min(firstBirth, t.lambda()[r]);
            lambdaMax = Math.max(lambdaMax, t.lambda()[r]);
        }
        assertTrue(1 - firstBirth / lambdaMax < 0.12, "a squashed case on the linear axis");
        assertTrue(sb.toString().contains("log scale (increasing downward)"), "the axis says which scale");
        // where the points leave (0.97 .. 1.0) gets over 15 % of the height, five times the 3 % of the linear axis
        LambdaScale scale = s.scale();
        assertTrue(scale.position(1.0) - scale.position(0.97) > 0.15, scale.toString());
    }

    @Test
    void nearDuplicatesFarBeyondTheClustersSwitchToTheRankScale() {
        int n = 2_000, k = 6;
        CondensedTreeData t = highDimensional(n, k, true);
        StringBuilder sb = new StringBuilder();
        IciclePlot.Summary s = IciclePlot.render(sb, "dup", t, clusters(n, k));
        // on a log axis from 0.85 to 1e6 the clusters (0.9 .. 1.0) would take under 1 % of the height
        assertEquals(LambdaScale.Kind.RANK, s.scale().kind, s.scale().toString());
        assertTrue(s.scale().selectedShare >= LambdaScale.MIN_SELECTED_SHARE, s.scale().toString());
        assertTrue(selectedHeightShare(sb.toString()) > 0.6);
        assertTrue(sb.toString().contains("by rank (increasing downward)"));
        assertTrue(s.scale().describe().contains("by rank"));
    }

    @Test
    void ticksAreDistinctOrderedAndShort() {
        for (boolean dup : new boolean[] {false, true}) {
            CondensedTreeData t = highDimensional(1_000, 4, dup);
            List<LambdaScale.Tick> ticks = LambdaScale.choose(t, clusters(1_000, 4)).ticks();
            assertTrue(ticks.size() >= 3, ticks.toString());
            for (int i = 0; i < ticks.size(); i++) {
                LambdaScale.Tick tk = ticks.get(i);
                assertTrue(tk.position() >= 0 && tk.position() <= 1, tk.toString());
                assertTrue(tk.label().length() <= 7, tk.toString());
                if (i > 0) {
                    assertTrue(tk.position() > ticks.get(i - 1).position(), ticks.toString());
                    assertTrue(!tk.label().equals(ticks.get(i - 1).label()), ticks.toString());
                }
            }
        }
        // several decades: 1-2-5 ticks, thinned to at most 8
        LambdaScale wide = LambdaScale.choose(IciclePlotTest.twoClusters(), new long[0]);
        assertEquals(LambdaScale.Kind.LOG, wide.kind);
        assertTrue(wide.ticks().size() <= 8);
    }

    @Test
    void theChoiceIsAFunctionOfTheTreeAndTheSelection() {
        CondensedTreeData t = highDimensional(1_500, 5, true);
        LambdaScale a = LambdaScale.choose(t, clusters(1_500, 5));
        LambdaScale b = LambdaScale.choose(t, clusters(1_500, 5));
        assertEquals(a.toString(), b.toString());
        // without a selection there is nothing to show: the log scale
        assertEquals(LambdaScale.Kind.LOG, LambdaScale.choose(t, new long[0]).kind);
    }
}
