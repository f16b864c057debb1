package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM without compiled fused multiply-add (here {@code -XX:-UseFMA}, as on an x86 processor before FMA3) runs
 * the scalar distance kernel under {@code auto} instead of the vector one, whose every {@code fma} would be a call
 * per lane (30 to 1 000 times slower, the same results); {@code --version --verbose} says why, {@code --backend
 * simd} is refused saying why, and the fit's outputs are the ones of a JVM with it.
 */
class ProcessorWithoutFmaTest {
    private static Process sylva(String jvmOption, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        if (jvmOption != null) cmd.add(jvmOption);
        cmd.addAll(List.of("--add-modules", "jdk.incubator.vector", "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    private static String said(Process p) throws Exception {
        String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return s;
    }

    @org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES,
            threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    @Test
    void theDistanceKernelIsTheScalarOneAndSaysWhy(@TempDir Path tmp) throws Exception {
        String version = said(sylva("-XX:-UseFMA", "--version", "--verbose"));
        assertTrue(version.contains("distance:      scalar (vector distance kernel not used: the JVM runs with -XX:-UseFMA)"),
                version);
        assertTrue(!version.contains("WARNING: sylva:"), "auto: no warning for a fact of the machine\n" + version);
        Path in = TestData.writeNpy(TestData.clips(400), tmp.resolve("clips.npy"));
        Process simd = sylva("-XX:-UseFMA", "hdbscan", in.toString(), "--backend", "simd", "--out",
                tmp.resolve("simd").toString());
        String refused = said(simd);
        assertEquals(ExitStatus.ERROR, simd.exitValue(), refused);
        assertTrue(refused.contains("backend simd is not available: vector distance kernel not used: the JVM runs with "
                + "-XX:-UseFMA"), refused);
        Process without = sylva("-XX:-UseFMA", "hdbscan", in.toString(), "--out", tmp.resolve("without").toString(), "-q");
        assertEquals(0, without.waitFor(), said(without));
        Process with = sylva(null, "hdbscan", in.toString(), "--out", tmp.resolve("with").toString(), "-q");
        assertEquals(0, with.waitFor(), said(with));
        for (String f : List.of("labels.npy", "mst.npy", "core_distances.npy")) {
            assertEquals(-1L, Files.mismatch(tmp.resolve("with").resolve(f), tmp.resolve("without").resolve(f)), f);
        }
    }
}
