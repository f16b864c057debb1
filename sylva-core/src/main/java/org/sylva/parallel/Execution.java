package org.sylva.parallel;

import java.util.Objects;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * How one job of an engine runs: on how many threads, where its progress goes, and the token that
 * cancels it. Every engine (CPU today; GPU and Spark engines later) takes its threads, progress and
 * cancellation from this one record.
 *
 * <pre>{@code
 * Execution ex = new Execution(2, ProgressListener.NONE, CancellationToken.NEVER);
 * }</pre>
 *
 * @param threads worker threads, at least 1 (the calling thread counts as one where it works)
 * @param progress receives {@code (stage, done, total)} between bounded chunks of work
 * @param cancel checked between bounded chunks of work; a cancelled job throws {@code CancelledException}
 */
public record Execution(int threads, ProgressListener progress, CancellationToken cancel) {
    public Execution {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(cancel, "cancel");
    }

    /** One thread, no progress, never cancelled. */
    public static Execution sequential() {
        return new Execution(1, ProgressListener.NONE, CancellationToken.NEVER);
    }
}
