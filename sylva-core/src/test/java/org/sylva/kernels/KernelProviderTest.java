package org.sylva.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The one provider of kernels: what it hands out under the test JVM's flags (the Vector API module is
 * present), and, in child JVMs, what it hands out and says when the switch or the missing module forces
 * the scalar twins. Never {@code null}; every fall-back has its reason.
 */
class KernelProviderTest {

    @Test
    void vectorKernelsUnderTheTestFlagsAndScalarTwinsOnRequest() {
        KernelProvider k = KernelProvider.get();
        assertEquals("auto", k.mode());
        assertEquals("vector", k.partition(true).name());
        assertInstanceOf(ScalarPartitionKernel.class, k.partition(false));
        assertEquals("vector", k.newLanes(true).name());
        assertInstanceOf(ScalarLaneSubtrees.class, k.newLanes(false));
        assertEquals("simd", k.bestDistance().name());
        assertEquals("scalar", k.scalarDistance().name());
        String d = k.describe();
        assertTrue(d.contains("distance:      vector"), d);
        assertTrue(d.contains("partition:     vector"), d);
        assertTrue(d.contains("lane subtrees: vector"), d);
    }

    @Test
    void theSwitchForcesEveryScalarTwinAndSaysSo() throws Exception {
        String out = child(true, "-D" + KernelProvider.PROPERTY + "=scalar");
        assertTrue(out.contains("partition=scalar lanes=scalar distance=scalar"), out);
        assertTrue(out.contains("partition:     scalar (-Dsylva.kernels=scalar)"), out);
    }

    @Test
    void withoutTheModuleTheReasonNamesTheFlag() throws Exception {
        String out = child(false);
        assertTrue(out.contains("partition=scalar lanes=scalar distance=scalar"), out);
        assertTrue(out.contains("module jdk.incubator.vector is not in the boot layer (start the JVM with "
                + "--add-modules jdk.incubator.vector)"), out);
        assertTrue(out.contains("simd refused: backend simd is not available: module jdk.incubator.vector"), out);
    }

    @Test
    void anUnknownSwitchValueFallsBackToScalarWithAWarning() throws Exception {
        String out = child(true, "-D" + KernelProvider.PROPERTY + "=fast");
        assertTrue(out.contains("partition=scalar lanes=scalar distance=scalar"), out);
        assertTrue(out.contains("-Dsylva.kernels=fast is not auto, scalar or vector"), out);
    }

    /** Runs {@link Print} in a fresh JVM; returns its stdout and stderr together. */
    private static String child(boolean vectorModule, String... props) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("java.home") + "/bin/java");
        if (vectorModule) cmd.addAll(List.of("--add-modules", "jdk.incubator.vector"));
        cmd.addAll(List.of(props));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Print.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] bytes = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        assertEquals(0, p.exitValue(), new String(bytes, StandardCharsets.UTF_8));
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** What the provider of a fresh JVM hands out, and its description. */
    public static final class Print {
        public static void main(String[] args) {
            KernelProvider k = KernelProvider.get();
            System.out.println("partition=" + k.partition(true).name() + " lanes=" + k.newLanes(true).name()
                    + " distance=" + (k.bestDistance().name().equals("simd") ? "vector" : "scalar"));
            System.out.println(k.describe());
            try {
                k.distance("simd");
                System.out.println("simd accepted");
            } catch (org.sylva.data.InvalidInputException e) {
                System.out.println("simd refused: " + e.getMessage());
            }
        }
    }
}
