package org.sylva.hdbscan.hierarchy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sylva.hdbscan.mst.SpanningTree;

/**
 * Item 5 of the oracle README's comparison rule, on every case in {@code shared/oracle/hdbscan}: the
 * reference spanning tree, fed in its stored row order, must give the reference's single-linkage tree,
 * condensed tree, EOM and leaf labels, probabilities, persistence and selected node ids, and GLOSH
 * scores, all bit for bit (GLOSH: Sylva's documented 1.0 where the reference has NaN).
 */
class OracleHierarchyTest {
    private static final Pattern CASE = Pattern.compile("(.+)_mcs(\\d+)_ms(\\d+)_mst\\.npy");

    static Stream<String> cases() throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.list(OracleData.dir())) {
            files.forEach(f -> {
                Matcher m = CASE.matcher(f.getFileName().toString());
                if (m.matches()) out.add(f.getFileName().toString().replace("_mst.npy", ""));
            });
        }
        return out.stream();
    }

    @Test
    void everyPublishedCaseIsPresent() throws IOException {
        Set<String> found = new TreeSet<>(cases().toList());
        for (String name : List.of("blobs500", "blobs2000noise", "iris", "grid3000")) {
            for (int ms : new int[] {4, 5, 10}) {
                assertTrue(found.contains(name + "_mcs5_ms" + ms), name + "_mcs5_ms" + ms + " missing from " + found);
            }
        }
        for (int ms : new int[] {9, 19, 20}) {
            assertTrue(found.contains("clip20k_mcs20_ms" + ms), "clip20k_mcs20_ms" + ms + " missing from " + found);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void hierarchyMatchesReferenceExactly(String prefix) {
        Matcher m = CASE.matcher(prefix + "_mst.npy");
        assertTrue(m.matches());
        int mcs = Integer.parseInt(m.group(2));
        OracleData.Npy mst = OracleData.read(prefix + "_mst.npy");
        int edges = mst.rows();
        int n = edges + 1;
        int[] from = new int[edges], to = new int[edges];
        double[] w = new double[edges];
        for (int i = 0; i < edges; i++) {
            from[i] = (int) mst.at(i, 0);
            to[i] = (int) mst.at(i, 1);
            w[i] = mst.at(i, 2);
        }
        SingleLinkageTree slt = SingleLinkageTree.of(SpanningTree.of(n, from, to, w));
        assertBitwiseEqual(OracleData.read(prefix + "_slt.npy").data(), slt.toMatrix(), prefix + " single-linkage tree");

        CondensedTree ct = CondensedTree.condense(slt, mcs);
        OracleData.Npy ref = OracleData.read(prefix + "_ctree.npy");
        assertEquals(ref.rows(), ct.rows(), prefix + " condensed tree rows");
        assertBitwiseEqual(ref.data(), ct.toMatrix(), prefix + " condensed tree");

        for (SelectionMethod method : SelectionMethod.values()) {
            String tag = method.name().toLowerCase(java.util.Locale.ROOT);
            Clustering c = ClusterSelector.select(ct,
                    SelectionParameters.builder().method(method).build());
            String what = prefix + " " + tag;
            assertArrayEquals(OracleData.read(prefix + "_" + tag + "_labels.npy").asInts(), c.labels(), what + " labels");
            assertArrayEquals(OracleData.read(prefix + "_" + tag + "_selected.npy").asInts(), c.selectedNodes(),
                    what + " selected");
            assertBitwiseEqual(OracleData.read(prefix + "_" + tag + "_prob.npy").data(), c.probabilities(),
                    what + " probabilities");
            assertBitwiseEqual(OracleData.read(prefix + "_" + tag + "_persistence.npy").data(), c.persistence(),
                    what + " persistence");
        }

        double[] refGlosh = OracleData.read(prefix + "_glosh.npy").data();
        double[] glosh = OutlierScores.of(ct).scores();
        assertEquals(refGlosh.length, glosh.length);
        int nan = 0;
        for (int i = 0; i < n; i++) {
            if (Double.isNaN(refGlosh[i])) {
                nan++;
                // Sylva's convention where lambda_max is infinite and the point's lambda finite.
                assertEquals(1.0, glosh[i], prefix + " GLOSH at reference NaN, point " + i);
                double lam = ct.lambda(ct.pointRow(i));
                assertTrue(Double.isFinite(lam), prefix + " point " + i + " has a finite lambda");
            } else if (Double.doubleToLongBits(refGlosh[i]) != Double.doubleToLongBits(glosh[i])) {
                fail(prefix + " GLOSH point " + i + ": reference " + refGlosh[i] + ", Sylva " + glosh[i]);
            }
        }
        if (!prefix.startsWith("grid3000")) assertEquals(0, nan, prefix + ": NaN GLOSH expected on grid3000 only");
    }

    static void assertBitwiseEqual(double[] expected, double[] actual, String what) {
        assertEquals(expected.length, actual.length, what + " length");
        for (int i = 0; i < expected.length; i++) {
            if (Double.doubleToLongBits(expected[i]) != Double.doubleToLongBits(actual[i])) {
                fail(what + " differs at flat index " + i + ": expected " + expected[i] + ", got " + actual[i]);
            }
        }
    }
}
