package org.sylva.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Properties;
import org.sylva.kernels.KernelProvider;

/**
 * What {@code sylva --version} prints. The short form loads no kernel and no picocli class, so that
 * {@code sylva --version} (and only it, with {@code -V}) is answered before the command line is built:
 * a cold JVM then spends its time on nothing else. {@code sylva --version --verbose} loads every vector
 * kernel (running its self-test) and says which implementation of each runs, and why one fell back.
 *
 * <pre>{@code
 * sylva --version             # sylva 0.1.0 (Java 25.0.3+9-LTS) and one line on the kernels
 * sylva --version --verbose   # plus each kernel's implementation
 * }</pre>
 */
final class VersionText {
    private VersionText() {
    }

    /** Answers a command line that only asks for the version; false (nothing printed) for any other. */
    static boolean answer(String[] args, PrintStream out) {
        boolean version = false, verbose = false;
        for (String a : args) {
            switch (a) {
                case "--version", "-V" -> version = true;
                case "--verbose", "-v" -> verbose = true;
                default -> {
                    return false;
                }
            }
        }
        if (!version) return false;
        out.println(verbose ? longText() : shortText());
        out.flush();
        return true;
    }

    /** The launchers' mark on a {@code --version} JVM they start without the Vector API module. */
    static final String LAUNCHER_PROPERTY = "sylva.launcher";

    /** Version, Java and one line on the kernels, without loading any of them. */
    static String shortText() {
        KernelProvider k = KernelProvider.get();
        String kernels = k.summary();
        if ("adds-vector-module".equals(System.getProperty(LAUNCHER_PROPERTY)) && !k.mode().equals("scalar")) {
            // this JVM only answers --version; the launcher starts the computing commands with the module,
            // all but a small `hdbscan` input, which runs the scalar kernels in a fresh JVM anyway
            kernels = "kernels: -D" + KernelProvider.PROPERTY + "=" + k.mode() + ", vector kernels in the computing"
                    + " commands (the launcher adds the Vector API module), loaded on first use (scalar for small"
                    + " inputs in a fresh JVM, which the launcher starts without the module)";
        }
        return "sylva " + version() + " (Java " + Runtime.version() + ")\n" + kernels;
    }

    /** The short text's first line, then each kernel's implementation (loads them). */
    static String longText() {
        return "sylva " + version() + " (Java " + Runtime.version() + ")\n" + KernelProvider.get().describe();
    }

    static String version() {
        try (InputStream in = VersionText.class.getResourceAsStream("/sylva-version.properties")) {
            Properties p = new Properties();
            if (in != null) p.load(in);
            return p.getProperty("version", "unknown");
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
