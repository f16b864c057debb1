package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The icicle plot's SVG and summary, byte for byte, for a few fixed inputs: the SHA-256 of each was
 * taken from the drawing code before it was split into its parts (layout, axes, shapes, labels), so a
 * change to any of them that moves a single byte fails here. The inputs cover the empty tree, a small
 * tree with and without selected clusters, lambda = +inf rows (the shaded band), and a tree large
 * enough to be aggregated with selected clusters left hidden by the shape budget.
 *
 * <p>Updated on purpose since: the left axis title now sits clear of the widest tick label (issue 17).
 * After an intended change to the drawing, run with {@code -Dsylva.test.show=true} to print the
 * new hashes.
 */
class IciclePlotGoldenTest {
    static Arguments g(String name, CondensedTreeData tree, long[] selected, String sha256) {
        return Arguments.of(name, tree, selected, sha256);
    }

    static Stream<Arguments> cases() {
        CondensedTreeData two = IciclePlotTest.twoClusters();
        HdbscanReportData clips = SyntheticData.clips(3_000, 5, 1, 40, false);
        HdbscanReportData noInf = SyntheticData.clips(1_500, 9, 7, 0, false);
        return Stream.of(
                g("empty tree", CondensedTreeData.empty(10), new long[0],
                        "f0304c635a09604f54eb522a60e2062b9d8c7419fc039ac7d97d3c3feab1b781"),
                g("two clusters, both selected", two, new long[] {101, 102},
                        "2e1e6c99c2fc77965f1fb8bf6bd06623a819b6429d265119093db0787bd600af"),
                g("two clusters, none selected", two, new long[0],
                        "436604b443ce3c338cc993a436a1532c111d3ba76e8968e2444ad481747f959a"),
                g("two clusters, the root selected", two, new long[] {100},
                        "386af15660885778cdb93908925b2c32f742816f72603b331b5c9afa610bc1fe"),
                g("synthetic clips with +inf rows", clips.tree(), clips.selectedClusterIds(),
                        "a695b29c44099b83b397f8d72b2065f2fc8e16230d9ed2e9f9df6351186c9f61"),
                g("synthetic clips, finite", noInf.tree(), noInf.selectedClusterIds(),
                        "e48dd6e89e9ee6d7b73216071e99976543ae8c5ba012ecfa0e04dd1ee45570c2"),
                g("caterpillar, aggregated", caterpillar(3_000, false), leaves(3_000, 40),
                        "21fb2ca78333be95de66d35e8a4fb1576b090ef8b8a44eea86baf073f0a431c5"),
                g("caterpillar, selected beyond the budget", caterpillar(3_000, true), leaves(3_000, 1_400),
                        "347795b0c2ee5763c82c3e62d57cf1b7d701fde613484e1007f06218d568673a"),
                g("bushy random tree", bushy(40_000, 5), new long[0],
                        "21fff3b0b941a3c7addf3d072648a2d337274f873da4956f0e3838ecaa799739"),
                g("bushy random tree, some selected", bushy(40_000, 6), new long[] {40_001, 40_005, 40_012},
                        "e24849178a7b3f491d636cc465685619601413bc41c06b736bbf3f8ea0b7d5d8"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void renderIsByteIdenticalToTheRecordedDrawing(String name, CondensedTreeData tree, long[] selected,
            String sha256) {
        StringBuilder sb = new StringBuilder();
        IciclePlot.Summary s = IciclePlot.render(sb, "golden", tree, selected);
        String actual = sha256(sb + "\n" + s);
        if (Boolean.getBoolean("sylva.test.show")) System.out.println("[" + name + "] " + actual + " " + s);
        assertEquals(sha256, actual, () -> name + ": the SVG or the summary changed; summary now " + s);
    }

    /**
     * A caterpillar of {@code levels} levels: the spine sheds 3 points, then splits into the rest and a
     * 12-point leaf whose points leave later; with {@code infinite}, every tenth leaf's points are exact
     * duplicates (lambda = +inf).
     */
    static CondensedTreeData caterpillar(int levels, boolean infinite) {
        int leafSize = 12, shed = 3;
        int n = levels * (leafSize + shed) + 20;
        List<int[]> rows = new ArrayList<>();
        List<Double> lam = new ArrayList<>();
        int nextPoint = 0, nextId = n + 1, spine = n;
        long remaining = n;
        for (int level = 0; level < levels; level++) {
            for (int p = 0; p < shed; p++) {
                rows.add(new int[] {spine, nextPoint++, 1});
                lam.add(level + 0.25 + 0.1 * p);
            }
            remaining -= shed;
            int big = nextId++, small = nextId++;
            rows.add(new int[] {spine, big, (int) (remaining - leafSize)});
            lam.add(level + 1.0);
            rows.add(new int[] {spine, small, leafSize});
            lam.add(level + 1.0);
            for (int p = 0; p < leafSize; p++) {
                rows.add(new int[] {small, nextPoint++, 1});
                lam.add(infinite && level % 10 == 0 ? Double.POSITIVE_INFINITY : level + 1.0 + (p + 1) * 0.07);
            }
            remaining -= leafSize;
            spine = big;
        }
        for (; nextPoint < n; nextPoint++) {
            rows.add(new int[] {spine, nextPoint, 1});
            lam.add(levels + 1.0 + nextPoint % 7);
        }
        return IciclePlotTest.tree(n, rows, lam);
    }

    /** The ids of the first {@code count} leaves of {@link #caterpillar}, spread over its levels, ascending. */
    static long[] leaves(int levels, int count) {
        int n = levels * 15 + 20;
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            int level = (int) ((long) i * levels / count);
            ids[i] = n + 2L + 2L * level;
        }
        return ids;
    }

    /**
     * A random tree on {@code n} points (fixed seed): each cluster sheds a random share of its points,
     * then splits into 2 to 5 children of random sizes while it holds at least 8 points; ids breadth-first.
     */
    static CondensedTreeData bushy(int n, long seed) {
        java.util.Random rnd = new java.util.Random(seed);
        List<int[]> rows = new ArrayList<>();
        List<Double> lam = new ArrayList<>();
        java.util.ArrayDeque<double[]> queue = new java.util.ArrayDeque<>(); // id, size, birth
        queue.add(new double[] {n, n, 0});
        int nextId = n + 1, nextPoint = 0;
        while (!queue.isEmpty()) {
            double[] c = queue.poll();
            int id = (int) c[0], size = (int) c[1];
            double birth = c[2], split = birth + 0.1 + rnd.nextDouble();
            int shed = size < 8 ? size : (int) (size * 0.3 * rnd.nextDouble());
            for (int p = 0; p < shed; p++) {
                rows.add(new int[] {id, nextPoint++, 1});
                lam.add(size < 8 ? birth + 2 * rnd.nextDouble() : birth + (split - birth) * rnd.nextDouble());
            }
            int rest = size - shed;
            if (rest == 0) continue;
            int k = Math.min(rest / 2, 2 + rnd.nextInt(4));
            int[] sizes = new int[k];
            int left = rest;
            for (int i = 0; i < k; i++) {
                sizes[i] = i == k - 1 ? left : 2 + rnd.nextInt(Math.max(1, left - 2 * (k - i)));
                left -= sizes[i];
            }
            for (int s : sizes) {
                rows.add(new int[] {id, nextId, s});
                lam.add(split);
                queue.add(new double[] {nextId++, s, split});
            }
        }
        return IciclePlotTest.tree(n, rows, lam);
    }

    static String sha256(String s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
