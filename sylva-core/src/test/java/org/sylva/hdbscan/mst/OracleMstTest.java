package org.sylva.hdbscan.mst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sylva.hdbscan.mst.MstTestSupport.assertSpanningTreeInEdgeOrder;
import static org.sylva.hdbscan.mst.MstTestSupport.assertWeightsRecomputed;
import static org.sylva.hdbscan.mst.MstTestSupport.sortedWeights;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.sylva.kernels.KernelProvider;
import org.sylva.kernels.DistanceKernel;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The oracle comparison rule, items 1 and 2 (README of {@code ../shared/oracle/hdbscan}), on every case
 * present: core distances bitwise equal to {@code _core.npy}; the tree spans, each weight is
 * {@code max(core_a, core_b, dist)} recomputed, and the sorted weights are bitwise those of
 * {@code _mst.npy}. Sylva's minSamples = the file's lib min_samples + 1.
 */
class OracleMstTest {
    private static final Pattern CASE = Pattern.compile("(.+)_mcs(\\d+)_ms(\\d+)_core\\.npy");

    @TestFactory
    Stream<DynamicTest> everyOracleCase() throws IOException {
        Path dir = OracleData.dir();
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString()).filter(s -> CASE.matcher(s).matches()).sorted().forEach(names::add);
        }
        assertFalse(names.isEmpty(), "no *_core.npy in " + dir);
        for (String expected : new String[] {"blobs500", "blobs2000noise", "iris", "grid3000", "clip20k"}) {
            assertTrue(names.stream().anyMatch(s -> s.startsWith(expected + "_mcs")), "oracle case " + expected + " missing");
        }
        return names.stream().map(file -> DynamicTest.dynamicTest(file.replace("_core.npy", ""), () -> check(dir, file)));
    }

    private static void check(Path dir, String coreFile) {
        Matcher m = CASE.matcher(coreFile);
        assertTrue(m.matches());
        String data = m.group(1);
        String prefix = coreFile.replace("_core.npy", "");
        int libMs = Integer.parseInt(m.group(3));
        OracleData.Array x = OracleData.read(dir.resolve(data + "_X.npy"));
        int n = x.rows(), d = x.cols();
        double[] rows = x.values();
        double[] refCore = OracleData.read(dir.resolve(coreFile)).values();
        OracleData.Array mst = OracleData.read(dir.resolve(prefix + "_mst.npy"));

        DistanceKernel b = KernelProvider.get().bestDistance();
        PointIndex idx = PointIndex.build(rows, n, d, b);
        CoreDistances cd = CoreDistances.compute(idx, libMs + 1, b, 2, ProgressListener.NONE, CancellationToken.NEVER);
        double[] core = cd.coreDistances();
        for (int i = 0; i < n; i++) {
            assertEquals(Double.doubleToRawLongBits(refCore[i]), Double.doubleToRawLongBits(core[i]),
                    prefix + ": core distance of point " + i + " (" + refCore[i] + " vs " + core[i] + ")");
        }
        SpanningTree t = BoruvkaMst.builder().threads(2).backend(b).build().compute(idx, cd, ProgressListener.NONE,
                CancellationToken.NEVER);
        assertSpanningTreeInEdgeOrder(t, n);
        assertWeightsRecomputed(t, rows, d, core, 1.0);
        double[] ref = new double[n - 1];
        for (int e = 0; e < n - 1; e++) ref[e] = mst.values()[e * 3 + 2];
        Arrays.sort(ref);
        double[] got = sortedWeights(t);
        for (int e = 0; e < n - 1; e++) {
            assertEquals(Double.doubleToRawLongBits(ref[e]), Double.doubleToRawLongBits(got[e]),
                    prefix + ": sorted weight " + e + " (" + ref[e] + " vs " + got[e] + ")");
        }
    }
}
