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

    /**
     * When tracing, prints where each thread running Sylva's code is ({@code sylva: at THREAD: FRAME < FRAME ...},
     * the innermost frames first): the hook calls it when a command did not stop in time, so that a slow
     * stop names the loop that did not look at the token.
     */
    static void whereStuck(PrintWriter err) {
        if (ON) printWhere(err);
    }

    /** {@link #whereStuck}'s lines, whether tracing or not (its test calls it). */
    static void printWhere(PrintWriter err) {
        Thread.getAllStackTraces().forEach((thread, frames) -> {
            if (thread == Thread.currentThread()) return;
            StringBuilder line = new StringBuilder();
            int shown = 0;
            for (StackTraceElement f : frames) {
                if (shown == 0 && !f.getClassName().startsWith("org.sylva.")) {
                    if (line.isEmpty()) line.append(f.getClassName()).append('.').append(f.getMethodName());
                    continue;
                }
                if (!f.getClassName().startsWith("org.sylva.")) continue;
                line.append(line.isEmpty() ? "" : " < ").append(f.getClassName().substring("org.sylva.".length()))
                        .append('.').append(f.getMethodName()).append(':').append(f.getLineNumber());
                if (++shown == 6) break;
            }
            if (shown > 0) err.println("sylva: at " + thread.getName() + ": " + line);
        });
    }
}
