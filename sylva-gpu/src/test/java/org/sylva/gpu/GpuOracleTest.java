package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.io.NpyDtype;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
import org.sylva.testsupport.Oracles;

/**
 * Every case of {@code ../shared/oracle/hdbscan} fitted with the GPU engine (OpenCL; PoCL in CI) and
 * with the CPU engine: core distances, the spanning tree's from/to/weight arrays and the labels,
 * probabilities and outlier scores must be the same bytes. PoCL runs the kernels on two CPU cores
 * about 20 s per full clip20k fit, so by default the clip20k cases fit its first
 * {@value #CLIP_ROWS} rows; {@code -Dsylva.gpu.fullOracle=true} fits every case whole.
 */
class GpuOracleTest {
    static final int CLIP_ROWS = 4000;
    private static final Pattern CASE = Pattern.compile("(.+)_mcs(\\d+)_ms(\\d+)_core\\.npy");

    static Stream<String> cases() throws IOException {
        try (Stream<Path> s = Files.list(Oracles.hdbscan())) {
            List<String> l = new ArrayList<>();
            s.map(p -> p.getFileName().toString()).filter(f -> CASE.matcher(f).matches())
                    .map(f -> f.substring(0, f.length() - "_core.npy".length())).sorted().forEach(l::add);
            assertTrue(l.size() >= 15, "expected the oracle's 15 cases, found " + l);
            return l.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void gpuFitIsBytewiseTheCpuFit(String prefix) throws IOException {
        GpuHdbscanEngine gpu = TestDevice.engine(LaunchPolicy.DEFAULT, true);
        Matcher m = Pattern.compile("(.+)_mcs(\\d+)_ms(\\d+)").matcher(prefix);
        assertTrue(m.matches());
        NpyArray xa = Npy.read(Oracles.hdbscan().resolve(m.group(1) + "_X.npy"));
        int n = xa.shape()[0], d = xa.shape()[1];
        if (n > CLIP_ROWS && !Boolean.getBoolean("sylva.gpu.fullOracle")) {
            n = CLIP_ROWS;   // a prefix of rows (still float32 values): the CI budget, see the class comment
            double[] all = xa.toFloat64();
            float[] head = new float[n * d];
            for (int i = 0; i < head.length; i++) head[i] = (float) all[i];
            xa = NpyArray.ofFloat32(head, n, d);
        }
        Hdbscan cpu = Hdbscan.builder().minClusterSize(Integer.parseInt(m.group(2)))
                .minSamples(Integer.parseInt(m.group(3)) + 1).build();
        Hdbscan onGpu = cpu.toBuilder().engine(gpu).build();
        HdbscanResult a = fit(cpu, xa, n, d), b = fit(onGpu, xa, n, d);
        SameBytes.assertSame(a, b);
    }

    private static HdbscanResult fit(Hdbscan h, NpyArray xa, int n, int d) {
        return xa.dtype() == NpyDtype.FLOAT64
                ? h.fit(xa.toFloat64(), n, d, ProgressListener.NONE, CancellationToken.NEVER)
                : h.fit(xa.toPointSet(w -> { throw new AssertionError(w); }));
    }
}
