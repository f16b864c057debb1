package org.sylva.cli;

/** The exit statuses of {@code sylva}. */
final class ExitStatus {
    /** Success. */
    static final int OK = 0;
    /** Bad input, bad parameters and failed I/O. */
    static final int ERROR = 2;
    /** After Ctrl-C (128 + SIGINT), as shells report it; SIGTERM ends with 143, set by the JVM. */
    static final int INTERRUPTED = 130;

    private ExitStatus() {
    }
}
