package org.sylva.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What this process's standard output and standard error are connected to, read from {@code /proc/self/fd} (Linux,
 * where the distribution runs): whether stderr is a terminal, so that progress may repaint a line there
 * ({@link java.io.Console#isTerminal()} tells of stdin and stdout instead: {@code sylva demo 2>log} on a terminal
 * filled the log with repainted lines), and whether stdout is a pipe, so that help piped into {@code head -1} can
 * end quietly when the reader has gone. Where {@code /proc} cannot be read, the answer is "unknown" ({@code null}).
 *
 * <pre>{@code
 * boolean repaint = StandardDescriptors.isTerminal(StandardDescriptors.target(2));
 * }</pre>
 */
final class StandardDescriptors {
    private StandardDescriptors() {
    }

    /** What descriptor {@code fd} of this process points at ({@code /dev/pts/3}, {@code pipe:[123]}), or null. */
    static String target(int fd) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return null;
        }
    }

    /** Whether {@code target} (of {@link #target}) is a terminal: a pseudo-terminal, a console or a serial line. */
    static boolean isTerminal(String target) {
        return target != null && (target.startsWith("/dev/pts/") || target.startsWith("/dev/tty")
                || target.equals("/dev/console"));
    }

    /** Whether {@code target} (of {@link #target}) is a pipe, a named pipe (FIFO) or a socket: a reader that can go. */
    static boolean isPipe(String target) {
        if (target == null) return false;
        if (target.startsWith("pipe:") || target.startsWith("socket:")) return true;
        try {
            Object mode = Files.getAttribute(Path.of(target), "unix:mode");
            return mode instanceof Integer m && (m & 0170000) == 0010000;   // S_IFIFO
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
