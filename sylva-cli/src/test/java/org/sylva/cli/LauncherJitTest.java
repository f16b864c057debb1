package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.engine.StageKernels;
import org.sylva.kernels.KernelProvider;

/**
 * The launchers' JIT choice (bin/sylva-java.sh, sylva_jit_opts): C1 only for a small .npy under
 * `sylva hdbscan` with the auto or scalar backend, its bound the library's; every other run C2 with the
 * vector kernels compiled sooner (SYLVA_VECTOR_JIT), options this JVM accepts without a word on stdout.
 * The small runs also start without the Vector API module (sylva_java_args ... no-vector-module).
 */
class LauncherJitTest {
    private static final Path SCRIPT = Path.of("..", "bin", "sylva-java.sh");

    @Test
    void theBoundsAreTheLibrarysScalarBounds() throws IOException {
        String script = Files.readString(SCRIPT);
        assertEquals(StageKernels.VECTOR_MIN_VALUES, bound(script, "SYLVA_SMALL_VALUES"));
        assertEquals(StageKernels.SCALAR_MAX_POINTS, bound(script, "SYLVA_SMALL_POINTS"));
        assertEquals(StageKernels.SCALAR_MAX_VALUES, bound(script, "SYLVA_SMALL_POINTS_VALUES"));
        // the launcher stops multiplying at the larger bound: it must be the larger
        assertTrue(StageKernels.SCALAR_MAX_VALUES >= StageKernels.VECTOR_MIN_VALUES);
    }

    private static long bound(String script, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + "=(\\d+)$").matcher(script);
        assertTrue(m.find(), name + " in " + SCRIPT);
        return Long.parseLong(m.group(1));
    }

    /** Around each bound the launcher's choice is the library's (StageKernels.coldScalar). */
    @Test
    void theLauncherDecidesAsTheLibraryAroundEachBound(@TempDir Path tmp) throws Exception {
        String c1 = "-XX:TieredStopAtLevel=1";
        String c2 = vectorJit();
        int[][] shapes = {{4_918, 61}, {4_919, 61}, {11_475, 61}, {11_476, 61}, {11_999, 58}, {12_000, 58},
            {18_749, 16}, {18_750, 16}, {20_000, 12}, {3_825, 183}, {5_000, 183}};
        for (int[] shape : shapes) {
            int n = shape[0], d = shape[1];
            Path f = TestData.writeNpy(PointSet.of(n, d, new float[n * d]), tmp.resolve(n + "x" + d + ".npy"));
            String expected = StageKernels.coldScalar(n, d) ? c1 : c2;
            assertEquals(expected, jit("hdbscan", f.toString()), n + " x " + d);
        }
        // the rule's corners as measured (BENCHMARKS.md, "Cold runs: which inputs the scalar kernel wins")
        assertTrue(StageKernels.coldScalar(5_000, 61) && StageKernels.coldScalar(11_000, 61));
        assertTrue(!StageKernels.coldScalar(14_000, 61) && !StageKernels.coldScalar(20_000, 16));
        assertTrue(StageKernels.coldScalar(20_000, 12) && !StageKernels.coldScalar(5_000, 183));
    }

    @Test
    void smallNpyInputsRunOnC1OnlyAndEveryOtherRunOnC2WithTheVectorOptions(@TempDir Path tmp) throws Exception {
        Path small = TestData.writeNpy(PointSet.of(1000, 3, new float[3000]), tmp.resolve("small.npy"));
        Path large = TestData.writeNpy(PointSet.of(100_000, 3, new float[300_000]), tmp.resolve("large.npy"));
        String c1 = "-XX:TieredStopAtLevel=1";
        String c2 = vectorJit();
        assertEquals(c1, jit("hdbscan", small.toString(), "--out", "x"));
        assertEquals(c1, jit("hdbscan", "--backend", "scalar", small.toString()));
        assertEquals(c1, jit("hdbscan", small.toString(), "--backend=auto"));
        assertEquals(c2, jit("hdbscan", large.toString(), "--out", "x"), "300 000 coordinates: the vector kernels");
        assertEquals(c2, jit("hdbscan", small.toString(), "--backend", "simd"));
        assertEquals(c2, jit("hdbscan", small.toString(), "--backend=opencl"));
        assertEquals(c2, jit("balltree", small.toString()));
        assertEquals(c2, jit("demo"));
        assertEquals(c1, jit("hdbscan", small.toString(), "--metric", "euclidean"));
        assertEquals(c2, jit("hdbscan", small.toString(), "--metric", "manhattan"), "brute force: C2 pays off");
        assertEquals(c2, jit("hdbscan", small.toString(), "--metric=cosine"));
        assertEquals(c2, jit("hdbscan", tmp.resolve("missing.npy").toString()));
        // an option's .npy value is not the input
        assertEquals(c2, jit("hdbscan", "--sample-weight", small.toString(), large.toString()));
        assertEquals(c2, jit("hdbscan", "--waveforms-from=" + small, large.toString()));
        assertEquals(c1, jit("hdbscan", "--waveforms-from", large.toString(), small.toString()));
        // by bash alone: with no external command to be found, the choice is the same (every process the
        // launcher starts counts in every cold run)
        assertEquals(c1, bash(". '" + SCRIPT + "'; PATH=/nonexistent; sylva_jit_opts hdbscan '" + small + "'"));
        assertEquals(c2, bash(". '" + SCRIPT + "'; PATH=/nonexistent; sylva_jit_opts hdbscan '" + large + "'"));
    }

    @Test
    void theVectorKernelOptionsNameTheKernelsAndTheJvmTakesThemSilently() throws Exception {
        List<String> opts = vectorJit().lines().toList();
        assertEquals("-XX:CompileCommand=quiet", opts.get(0), "quiet first, or the JVM echoes each command on stdout");
        assertTrue(opts.stream().anyMatch(o -> o.contains("CompileThresholdScaling,org/sylva/kernels/Vector*.*,")), opts::toString);
        assertTrue(opts.stream().anyMatch(o -> o.equals("-XX:CompileCommand=BackgroundCompilation,org/sylva/kernels/Vector*.*,false")),
                opts::toString);
        // the pattern still names the vector kernels (a renamed package would silently drop the options)
        for (String kernel : List.of("VectorDistanceKernel", "VectorPartitionKernel", "VectorLaneSubtrees")) {
            assertTrue(KernelProvider.class.getResource(kernel + ".class") != null, kernel + " in org/sylva/kernels");
        }
        assertEquals("org.sylva.kernels", KernelProvider.class.getPackageName());
        // this JVM (Java 25) starts with them, exits 0, and prints nothing on stdout
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(opts);
        cmd.add("-version");
        Process p = new ProcessBuilder(cmd).start();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), stderr);
        assertEquals("", stdout, "stdout is the user's: " + stdout);
        assertFalse(stderr.contains("CompileCommand"), stderr);
    }

    @Test
    void smallInputsStartWithoutTheVectorModuleAndEveryOtherRunWithIt() throws Exception {
        List<String> all = bash(". '" + SCRIPT + "'; sylva_java_args /x/sylva.jar /nonexistent").lines().toList();
        List<String> small = bash(". '" + SCRIPT + "'; sylva_java_args /x/sylva.jar /nonexistent no-vector-module")
                .lines().toList();
        assertEquals(List.of("--add-modules", "jdk.incubator.vector"), all.subList(0, 2));
        assertEquals(all.subList(2, all.size()), small, "the same options less the module");
        // the small branch of sylva_exec passes no-vector-module and the -small cache; the others neither
        String exec = Files.readString(SCRIPT);
        assertTrue(exec.contains("sylva_add_java_args \"$jar\" \"${aot%.aot}-small.aot\" no-vector-module"), "sylva_exec");
    }

    private static String vectorJit() throws Exception {
        return bash(". '" + SCRIPT + "'; printf '%s\\n' \"${SYLVA_VECTOR_JIT[@]}\"");
    }

    private static String jit(String... args) throws Exception {
        StringBuilder cmd = new StringBuilder(". '" + SCRIPT + "'; sylva_jit_opts");
        for (String a : args) cmd.append(" '").append(a).append('\'');
        return bash(cmd.toString());
    }

    private static String bash(String cmd) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        return out;
    }
}
