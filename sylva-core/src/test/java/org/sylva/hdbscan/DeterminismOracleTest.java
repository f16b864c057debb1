package org.sylva.hdbscan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sylva.kernels.KernelProvider;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.io.NpyDtype;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
import org.sylva.testsupport.Oracles;

/** The same result, bit for bit, for 1, 2 and 8 threads, the scalar and SIMD backends and repeated runs, on oracle data. */
class DeterminismOracleTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"blobs500", "blobs2000noise", "iris", "grid3000", "clip20k"})
    void identicalForEveryThreadCountAndBackend(String name) throws IOException {
        Path dir = Oracles.hdbscan();
        NpyArray xa = Npy.read(dir.resolve(name + "_X.npy"));
        int n = xa.shape()[0], d = xa.shape()[1];
        double[] x = xa.toFloat64();
        int mcs = name.startsWith("clip") ? 20 : 5;
        HdbscanResult base = null;
        Backend[] backends = KernelProvider.get().vectorDistanceAvailable() ? new Backend[] {Backend.SIMD, Backend.SCALAR} : new Backend[] {Backend.SCALAR};
        int[][] runs = name.startsWith("clip") ? new int[][] {{1, 0}, {8, 0}, {2, 1}} : new int[][] {{1, 0}, {2, 0}, {8, 0}, {1, 1}, {2, 1}, {8, 1}, {2, 0}};
        for (int[] run : runs) {
            Hdbscan h = Hdbscan.builder().minClusterSize(mcs).minSamples(mcs).threads(run[0])
                    .backend(backends[Math.min(run[1], backends.length - 1)]).build();
            HdbscanResult r = xa.dtype() == NpyDtype.FLOAT64
                    ? h.fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER)
                    : h.fit(xa.toPointSet(w -> { }));
            if (base == null) {
                base = r;
                continue;
            }
            String what = name + " threads=" + run[0] + " backend=" + h.backend();
            assertEquals(base.spanningTree(), r.spanningTree(), what);
            assertArrayEquals(base.coreDistances(), r.coreDistances(), what);
            assertArrayEquals(base.labels(), r.labels(), what);
            assertArrayEquals(base.probabilities(), r.probabilities(), what);
            assertArrayEquals(base.outlierScores(), r.outlierScores(), what);
            assertEquals(base.condensedTree(), r.condensedTree(), what);
        }
    }
}
