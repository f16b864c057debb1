package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.engine.StageKernels;

/**
 * The launchers' JIT choice (bin/sylva-java.sh, sylva_jit_opts): C1 only for a small .npy under
 * `sylva hdbscan` with the auto or scalar backend, the default JIT otherwise; its bound is the library's.
 */
class LauncherJitTest {
    private static final Path SCRIPT = Path.of("..", "bin", "sylva-java.sh");

    @Test
    void theBoundIsTheLibrarysScalarBound() throws IOException {
        Matcher m = Pattern.compile("(?m)^SYLVA_SMALL_VALUES=(\\d+)$").matcher(Files.readString(SCRIPT));
        assertTrue(m.find(), "SYLVA_SMALL_VALUES in " + SCRIPT);
        assertEquals(StageKernels.VECTOR_MIN_VALUES, Long.parseLong(m.group(1)));
    }

    @Test
    void smallNpyInputsUnderAutoOrScalarRunOnC1Only(@TempDir Path tmp) throws Exception {
        Path small = TestData.writeNpy(PointSet.of(1000, 3, new float[3000]), tmp.resolve("small.npy"));
        Path large = TestData.writeNpy(PointSet.of(100_000, 3, new float[300_000]), tmp.resolve("large.npy"));
        String c1 = "-XX:TieredStopAtLevel=1";
        assertEquals(c1, jit("hdbscan", small.toString(), "--out", "x"));
        assertEquals(c1, jit("hdbscan", "--backend", "scalar", small.toString()));
        assertEquals(c1, jit("hdbscan", small.toString(), "--backend=auto"));
        assertEquals("", jit("hdbscan", large.toString(), "--out", "x"), "300 000 coordinates: the vector kernels");
        assertEquals("", jit("hdbscan", small.toString(), "--backend", "simd"));
        assertEquals("", jit("hdbscan", small.toString(), "--backend=opencl"));
        assertEquals("", jit("balltree", small.toString()));
        assertEquals(c1, jit("hdbscan", small.toString(), "--metric", "euclidean"));
        assertEquals("", jit("hdbscan", small.toString(), "--metric", "manhattan"), "brute force: C2 pays off");
        assertEquals("", jit("hdbscan", small.toString(), "--metric=cosine"));
        assertEquals("", jit("hdbscan", tmp.resolve("missing.npy").toString()));
    }

    private static String jit(String... args) throws Exception {
        StringBuilder cmd = new StringBuilder(". '" + SCRIPT + "'; sylva_jit_opts");
        for (String a : args) cmd.append(" '").append(a).append('\'');
        Process p = new ProcessBuilder("bash", "-c", cmd.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        return out;
    }
}
