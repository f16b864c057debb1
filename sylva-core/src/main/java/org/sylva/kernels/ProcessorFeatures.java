package org.sylva.kernels;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether this JVM compiles fused multiply-add ({@code Vector.fma}) to one instruction. The vector distance kernel
 * computes with it; where the JIT cannot, each {@code fma} falls back to a per-lane call of {@code Math.fma} in
 * software, and the kernel runs 30 to 1 000 times slower than its scalar twin (same results). That is the case on
 * x86 processors without FMA3 (before Haswell and Piledriver; some virtual machines hide it) and in a JVM started
 * with {@code -XX:-UseFMA}, {@code -XX:UseAVX=0} or {@code -XX:UseSSE} below 4. The answer comes from what costs
 * no JVM service: the options on the JVM's command line and in {@code JAVA_TOOL_OPTIONS}, {@code _JAVA_OPTIONS}
 * and {@code JDK_JAVA_OPTIONS} (not those of an {@code @argfile}, {@code -XX:VMOptionsFile} or {@code -XX:Flags}),
 * and on x86 Linux the processor's flags in {@code /proc/cpuinfo}. Where none says (another system, an unreadable
 * file), FMA is taken as present, as it is on every 64-bit ARM processor; an x86 Mac or Windows machine without FMA3
 * still takes the slow vector kernel (the JVM's own flag, read through {@code jdk.management}, would say, at tens of
 * milliseconds of a cold start and a module the distribution's runtime does not hold).
 *
 * <pre>{@code
 * String why = ProcessorFeatures.fmaMissing();   // null, or why the vector distance kernel would be slow
 * }</pre>
 */
final class ProcessorFeatures {
    private static volatile String fmaMissing;
    private static volatile boolean known;

    private ProcessorFeatures() {
    }

    /** Why this JVM has no fused multiply-add in compiled code, or null where it has it (or nothing says). */
    static String fmaMissing() {
        if (!known) {
            fmaMissing = fmaMissing(System.getProperty("os.arch", ""), cpuFlags(), jvmOptions());
            known = true;
        }
        return fmaMissing;
    }

    /**
     * Why {@code jvmOptions} or the processor's {@code flags} (the {@code flags} line of {@code /proc/cpuinfo}, or
     * null) leave a JVM on {@code arch} without compiled fused multiply-add, or null. The last of the options that
     * set one flag decides, as the JVM reads them.
     */
    static String fmaMissing(String arch, String flags, List<String> jvmOptions) {
        Boolean useFma = null;
        String avx = null, sse = null;
        for (String o : jvmOptions) {
            if (o.equals("-XX:-UseFMA")) useFma = false;
            else if (o.equals("-XX:+UseFMA")) useFma = true;
            else if (o.startsWith("-XX:UseAVX=")) avx = o;
            else if (o.startsWith("-XX:UseSSE=")) sse = o;
        }
        if (Boolean.FALSE.equals(useFma)) return "the JVM runs with -XX:-UseFMA";
        if (avx != null && level(avx) == 0) return "the JVM runs with " + avx + " (no FMA without AVX)";
        if (sse != null && level(sse) >= 0 && level(sse) < 4) {
            return "the JVM runs with " + sse + " (no AVX, hence no FMA, below SSE 4)";
        }
        String a = arch.toLowerCase(Locale.ROOT);
        boolean x86 = a.equals("amd64") || a.equals("x86_64") || a.equals("x86") || a.equals("i386");
        if (!x86 || flags == null) return null;
        List<String> words = List.of(flags.strip().split("\\s+"));
        if (!words.contains("fma")) return "the processor has no FMA (fused multiply-add; /proc/cpuinfo's flags lack fma)";
        if (!words.contains("avx")) return "the processor's AVX is off (/proc/cpuinfo's flags lack avx), and FMA with it";
        return null;
    }

    /** The number after the {@code =} of {@code option} ({@code -XX:UseAVX=00} is 0), or -1 for none. */
    private static int level(String option) {
        try {
            return Integer.parseInt(option.substring(option.indexOf('=') + 1).strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The first {@code flags} line of {@code /proc/cpuinfo} (the part after its colon), or null. */
    static String cpuFlags() {
        Path info = Path.of("/proc/cpuinfo");
        if (!Files.isReadable(info)) return null;
        try (BufferedReader r = Files.newBufferedReader(info, StandardCharsets.ISO_8859_1)) {
            // the first processor's block: a few dozen lines (bounded, in case of an odd file)
            for (int i = 0; i < 200; i++) {
                String line = r.readLine();
                if (line == null) return null;
                if (line.startsWith("flags")) {
                    int colon = line.indexOf(':');
                    return colon < 0 ? null : line.substring(colon + 1);
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /**
     * The JVM's options in the order it reads them, the last of one flag's taking effect: {@code JAVA_TOOL_OPTIONS},
     * then {@code JDK_JAVA_OPTIONS} (the launcher puts them before the command line's), the command line, and
     * {@code _JAVA_OPTIONS}.
     */
    static List<String> jvmOptions() {
        List<String> all = new ArrayList<>();
        words(all, System.getenv("JAVA_TOOL_OPTIONS"));
        words(all, System.getenv("JDK_JAVA_OPTIONS"));
        ProcessHandle.current().info().arguments().ifPresent(args -> all.addAll(List.of(args)));
        words(all, System.getenv("_JAVA_OPTIONS"));
        return all;
    }

    private static void words(List<String> into, String value) {
        if (value != null && !value.isBlank()) into.addAll(List.of(value.strip().split("\\s+")));
    }
}
