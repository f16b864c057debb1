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
 * <p>Updated on purpose since: the left axis title sits clear of the widest tick label and the lambda axis
 * is a {@link LambdaScale} (log or rank) instead of linear from 0 (issue 17).
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
                        "62eda22fff6b3090f11594a4c276c298efaecc9955a41b7c6acc00b1ed973f06"),
                g("two clusters, both selected", two, new long[] {101, 102},
                        "8c406a412bdf434e754d451d3df113e2cd7d69623f14b7ccab54e7a38be1bd5b"),
                g("two clusters, none selected", two, new long[0],
                        "817178ed4dbf4543b96bf852c758723c1a83d0b9e38e814cd566def407d5f355"),
                g("two clusters, the root selected", two, new long[] {100},
                        "c9f3568ce5d4f51d89935757fa1995d5a66574f1ebcb964ae3b1e4d71ce88a5d"),
                g("synthetic clips with +inf rows", clips.tree(), clips.selectedClusterIds(),
                        "db5f829a7613fb3bce314b4560d5eb3ec000098327c1fd627d1043ca7b1672cf"),
                g("synthetic clips, finite", noInf.tree(), noInf.selectedClusterIds(),
                        "f6bc04736a79d86f364215059dd1781814212aefe3aeb81d7a617b43c8f61de4"),
                g("caterpillar, aggregated", caterpillar(3_000, false), leaves(3_000, 40),
                        "eef9a6a4533d32da61ce14c369505a1c907b5583ff77a059019788ddf0cb0832"),
                g("caterpillar, selected beyond the budget", caterpillar(3_000, true), leaves(3_000, 1_400),
                        "cd14005fab7771b47854e3d3c0d6c0bfc244cabc21dbd47deac1e511ab9e688c"),
                g("bushy random tree", bushy(40_000, 5), new long[0],
                        "d065d27341628b9f199d8c3c42271fdc44b0ee1e104ab77c0f2b64a22a543bfb"),
                g("bushy random tree, some selected", bushy(40_000, 6), new long[] {40_001, 40_005, 40_012},
                        "f6f303a7f7653224654599ec132c83b059f79f1e9c15bcc3aa3607e33598906f"));
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
