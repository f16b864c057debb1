package org.sylva.progress;

/**
 * Receives progress from long computations: the stage name, how much of it is done and the total
 * (same unit, e.g. points processed). Called from the computing thread between bounded chunks of work
 * (about every 0.1 - 0.5 s), never from inside a hot loop; implementations must be cheap and
 * thread-safe.
 *
 * <pre>{@code
 * ProgressListener p = (stage, done, total) -> System.err.printf("%s %d/%d%n", stage, done, total);
 * }</pre>
 */
@FunctionalInterface
public interface ProgressListener {
    /** A listener that ignores everything. */
    ProgressListener NONE = (stage, done, total) -> { };

    void progress(String stage, long done, long total);
}
