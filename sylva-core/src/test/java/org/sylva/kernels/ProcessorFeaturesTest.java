package org.sylva.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** When the vector distance kernel's fused multiply-add would run in software: the options, then the processor. */
class ProcessorFeaturesTest {
    private static final String HASWELL = " fpu vme sse4_1 sse4_2 avx f16c fma avx2 bmi2";
    private static final String SANDY_BRIDGE = " fpu vme sse4_1 sse4_2 avx xsave";

    @Test
    void theProcessorsFlagsDecideOnX86() {
        assertNull(ProcessorFeatures.fmaMissing("amd64", HASWELL, List.of()));
        assertTrue(ProcessorFeatures.fmaMissing("amd64", SANDY_BRIDGE, List.of()).contains("no FMA"));
        assertTrue(ProcessorFeatures.fmaMissing("x86_64", " fpu sse2 fma", List.of()).contains("AVX is off"));
        assertNull(ProcessorFeatures.fmaMissing("amd64", null, List.of()), "nothing says: taken as present");
        // "fma4" (AMD's older four-operand form) is not FMA3, and a flag is a whole word
        assertTrue(ProcessorFeatures.fmaMissing("amd64", " avx fma4", List.of()).contains("no FMA"));
    }

    @Test
    void otherProcessorsAreTakenAsHavingIt() {
        assertNull(ProcessorFeatures.fmaMissing("aarch64", SANDY_BRIDGE, List.of()));
        assertNull(ProcessorFeatures.fmaMissing("riscv64", null, List.of()));
    }

    @Test
    void theJvmsOptionsDecideFirstAndTheLastOfAFlagWins() {
        assertEquals("the JVM runs with -XX:-UseFMA", ProcessorFeatures.fmaMissing("amd64", HASWELL, List.of("-XX:-UseFMA")));
        assertNull(ProcessorFeatures.fmaMissing("amd64", HASWELL, List.of("-XX:-UseFMA", "-XX:+UseFMA")));
        assertTrue(ProcessorFeatures.fmaMissing("amd64", HASWELL, List.of("-XX:UseAVX=0")).contains("UseAVX=0"));
        assertNull(ProcessorFeatures.fmaMissing("amd64", HASWELL, List.of("-XX:UseAVX=0", "-XX:UseAVX=2")));
        assertNull(ProcessorFeatures.fmaMissing("amd64", HASWELL, List.of("-XX:UseAVX=1")));
        assertTrue(ProcessorFeatures.fmaMissing("amd64", HASWELL, List.of("-XX:UseSSE=2")).contains("UseSSE=2"));
        assertNull(ProcessorFeatures.fmaMissing("amd64", HASWELL, List.of("-XX:UseSSE=4")));
        assertTrue(ProcessorFeatures.fmaMissing("aarch64", null, List.of("-XX:-UseFMA")).contains("UseFMA"));
        // the JVM reads the numbers as numbers
        assertTrue(ProcessorFeatures.fmaMissing("amd64", HASWELL, List.of("-XX:UseAVX=00")).contains("UseAVX=00"));
        assertTrue(ProcessorFeatures.fmaMissing("amd64", HASWELL, List.of("-XX:UseSSE=03")).contains("UseSSE=03"));
        assertNull(ProcessorFeatures.fmaMissing("amd64", HASWELL, List.of("-XX:UseSSE=x")));
    }

    /** This JVM's own reading: its command line is among the options, and on x86 Linux the flags are the processor's. */
    @Test
    void thisJvmsOptionsAndFlagsAreRead() {
        List<String> options = ProcessorFeatures.jvmOptions();
        assertTrue(options.stream().noneMatch(String::isEmpty), options.toString());
        // surefire starts this JVM with a class path, on its command line
        assertTrue(options.stream().anyMatch(o -> o.equals("-cp") || o.equals("-classpath") || o.startsWith("-jar")
                || o.startsWith("@")), options.toString());
        String arch = System.getProperty("os.arch");
        if (System.getProperty("os.name").equals("Linux") && (arch.equals("amd64") || arch.equals("x86_64"))) {
            String flags = ProcessorFeatures.cpuFlags();
            assertTrue(flags != null && List.of(flags.strip().split("\\s+")).contains("sse2"), String.valueOf(flags));
        }
    }
}
