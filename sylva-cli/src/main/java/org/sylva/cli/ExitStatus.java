package org.sylva.cli;

/** The exit statuses of {@code sylva}. */
final class ExitStatus {
    /** Success. */
    static final int OK = 0;
    /** Bad input, bad parameters and failed I/O. */
    static final int ERROR = 2;
    /**
     * Every output was written, but the report was not (its rendering or writing failed): the results
     * are usable; a script that needs the report can tell this from both success and {@link #ERROR}.
     */
    static final int REPORT_FAILED = 3;
    /** {@code sylva verify}: the folder has no manifest (a run did not finish there). */
    static final int INCOMPLETE = 1;
    /** {@code sylva devices}: no device of either GPU API is usable (the listing says why). */
    static final int NO_DEVICE = 1;
    /** {@code sylva verify}: the manifest does not match a file it names. */
    static final int MISMATCH = 4;
    /** After Ctrl-C (128 + SIGINT), as shells report it; SIGTERM ends with 143, set by the JVM. */
    static final int INTERRUPTED = 130;

    private ExitStatus() {
    }
}
