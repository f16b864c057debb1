package org.sylva.cli;

import java.io.PrintWriter;

/**
 * A test-only trace of where a command is, off by default: with the system property
 * {@code -Dsylva.trace-phases=true} (through the launcher: {@code SYLVA_JAVA_OPTS=-Dsylva.trace-phases=true})
 * {@code sylva hdbscan} prints a line {@code sylva: phase NAME} on stderr when each of its phases starts
 * ({@code read}, {@code fit}, {@code write}, {@code report}; the stages inside the fit show as progress
 * lines), and the shutdown hook says {@code sylva: phase NAME did not stop within N ms} when the command
 * did not notice a signal's cancellation in time and the hook ended the run itself. {@code SignalLatencyTest}
 * uses it to send SIGINT inside a known phase and to tell a prompt stop from the hook's fallback.
 */
final class PhaseTrace {
    static final boolean ON = Boolean.getBoolean("sylva.trace-phases");
    private static volatile String current = "start";

    private PhaseTrace() {
    }

    /** Notes that {@code phase} starts and, when tracing, says so on {@code err}. */
    static void enter(PrintWriter err, String phase) {
        current = phase;
        if (!ON) return;
        err.println("sylva: phase " + phase);
        err.flush();
    }

    /** The phase entered last. */
    static String current() {
        return current;
    }
}
