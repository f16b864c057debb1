package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

class IciclePlotTest {
    private static final double LEFT = 78, PW = IciclePlot.WIDTH - 78 - 24;

    /** Root 100 points: 10 noise leave at lambda 0.5, then split at 1 into A (60) and B (30); A's points leave by 3, B's by 2. */
    static CondensedTreeData twoClusters() {
        int n = 100;
        List<int[]> rows = new ArrayList<>();
        List<Double> lam = new ArrayList<>();
        int a = n + 1, b = n + 2;
        rows.add(new int[] {n, a, 60});
        lam.add(1.0);
        rows.add(new int[] {n, b, 30});
        lam.add(1.0);
        for (int p = 0; p < 10; p++) {
            rows.add(new int[] {n, p, 1});
            lam.add(0.5);
        }
        for (int p = 10; p < 70; p++) {
            rows.add(new int[] {a, p, 1});
            lam.add(p < 40 ? 2.0 : 3.0);
        }
        for (int p = 70; p < 100; p++) {
            rows.add(new int[] {b, p, 1});
            lam.add(2.0);
        }
        return IciclePlotTest.tree(n, rows, lam);
    }

    /** x coordinates of the outline: M and H commands. */
    static List<Double> xs(String d) {
        List<Double> out = new ArrayList<>();
        Matcher m = Pattern.compile("M([-0-9.]+) |H([-0-9.]+)").matcher(d);
        while (m.find()) out.add(Double.parseDouble(m.group(1) != null ? m.group(1) : m.group(2)));
        return out;
    }

    static String pathOf(String svg, int node) {
        Matcher m = Pattern.compile("data-node=\"" + node + "\"[^>]* d=\"([^\"]+)\"").matcher(svg);
        assertTrue(m.find(), "no path for node " + node);
        return m.group(1);
    }

    @Test
    void widthsAreProportionalToThePointsStillInTheCluster() {
        StringBuilder sb = new StringBuilder();
        IciclePlot.Summary s = IciclePlot.render(sb, "t", twoClusters(), new long[] {101, 102});
        String svg = sb.toString();
        assertEquals(3, s.clusters());
        assertEquals(3, s.shapes());
        assertEquals(0, s.aggregated());
        double unit = PW / 100;
        // root: starts full width, then 90 wide after the noise left at lambda 0.5
        List<Double> root = xs(pathOf(svg, 100));
        assertEquals(LEFT, root.get(0), 0.06);
        assertTrue(root.contains(round(LEFT + 5 * unit)), "root narrows to 90 points: " + root);
        // children: 90 points centred under the root, A (60) left of B (30)
        List<Double> a = xs(pathOf(svg, 101));
        List<Double> b = xs(pathOf(svg, 102));
        double blockStart = LEFT + 5 * unit;
        assertEquals(round(blockStart), a.get(0), 0.06);
        assertEquals(round(blockStart + 60 * unit), a.stream().mapToDouble(Double::doubleValue).max().orElseThrow(), 0.06);
        assertEquals(round(blockStart + 60 * unit), b.get(0), 0.06);
        // A narrows to its 30 late points, centred: outline passes through centre +- 15 points
        double ca = blockStart + 30 * unit;
        assertTrue(a.contains(round(ca - 15 * unit)), "A narrows to 30 points: " + a);
        assertTrue(svg.contains("class=\"node selected\" data-node=\"101\" data-label=\"0\""));
        assertTrue(svg.contains("class=\"node selected\" data-node=\"102\" data-label=\"1\""));
        assertTrue(svg.contains("class=\"node\" data-node=\"100\""));
    }

    @Test
    void hugeTreesAreAggregatedWithinTheShapeBudget() {
        // a caterpillar: every cluster sheds 5 points and splits into a big and a 20-point child, 20 000 clusters
        int clusters = 20_000, leafSize = 20;
        int n = clusters * 25;
        List<int[]> rows = new ArrayList<>();
        List<Double> lam = new ArrayList<>();
        int nextPoint = 0, nextId = n + 1;
        int spine = n;
        long remaining = n;
        for (int level = 0; level < clusters / 2; level++) {
            for (int p = 0; p < 5; p++) {
                rows.add(new int[] {spine, nextPoint++, 1});
                lam.add(level + 0.5);
            }
            remaining -= 5;
            int big = nextId++, small = nextId++;
            rows.add(new int[] {spine, big, (int) (remaining - leafSize)});
            lam.add(level + 1.0);
            rows.add(new int[] {spine, small, leafSize});
            lam.add(level + 1.0);
            for (int p = 0; p < leafSize; p++) {
                rows.add(new int[] {small, nextPoint++, 1});
                lam.add(level + 1.5);
            }
            remaining -= leafSize;
            spine = big;
        }
        for (; nextPoint < n; nextPoint++) {
            rows.add(new int[] {spine, nextPoint, 1});
            lam.add(clusters / 2 + 1.0);
        }
        int m = rows.size();
        int[] par = new int[m], chi = new int[m], sz = new int[m];
        double[] l = new double[m];
        for (int r = 0; r < m; r++) {
            par[r] = rows.get(r)[0];
            chi[r] = rows.get(r)[1];
            sz[r] = rows.get(r)[2];
            l[r] = lam.get(r);
        }
        CondensedTreeData t = new CondensedTreeData(n, par, chi, l, sz);
        StringBuilder sb = new StringBuilder();
        long t0 = System.nanoTime();
        IciclePlot.Summary s = IciclePlot.render(sb, "t", t, new long[] {n + 2, n + 4});
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(seconds < 5, "icicle took " + seconds + " s");
        assertTrue(s.shapes() <= IciclePlot.MAX_SHAPES);
        assertTrue(s.aggregated() >= 1);
        assertEquals(0, s.hiddenSelected());
        int paths = ChromiumReportTest.count(sb.toString(), "<path class=\"node");
        assertTrue(paths <= IciclePlot.MAX_SHAPES, "paths " + paths);
        assertTrue(sb.length() < 2_000_000, "svg size " + sb.length());
        assertEquals(2, ChromiumReportTest.count(sb.toString(), "class=\"node selected\""));
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    /** A condensed tree of {@code n} points from rows {@code [parent, child, size]} and their lambdas. */
    static CondensedTreeData tree(int n, List<int[]> rows, List<Double> lam) {
        int m = rows.size();
        int[] par = new int[m], chi = new int[m], sz = new int[m];
        double[] l = new double[m];
        for (int r = 0; r < m; r++) {
            par[r] = rows.get(r)[0];
            chi[r] = rows.get(r)[1];
            sz[r] = rows.get(r)[2];
            l[r] = lam.get(r);
        }
        return new CondensedTreeData(n, par, chi, l, sz);
    }
}
