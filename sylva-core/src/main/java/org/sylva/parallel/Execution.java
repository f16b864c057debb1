package org.sylva.parallel;

import java.util.Objects;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * How one job of an engine runs: on how many threads, where its progress goes, and the token that
 * cancels it. Every engine that plugs in at the stage level (the CPU and GPU engines of both products)
 * takes its threads, progress and cancellation from this one record.
 *
 * <pre>{@code
 * Execution ex = new Execution(2, ProgressListener.NONE, CancellationToken.NEVER);
 * }</pre>
 *
 * @param threads worker threads, 1 .. {@link Pools#MAX_WORKERS} (the calling thread counts as one where it works);
 *     otherwise an {@code InvalidInputException} naming {@code threads}
 * @param progress receives {@code (stage, done, total)} between bounded chunks of work
 * @param cancel checked between bounded chunks of work; a cancelled job throws {@code CancelledException}
 */
public record Execution(int threads, ProgressListener progress, CancellationToken cancel) {
    public Execution {
        Pools.checkThreads(threads);
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(cancel, "cancel");
    }

    /**
     * Every available processor, no progress, never cancelled: what the library's methods without an
     * {@code Execution} argument run on (results never depend on the thread count).
     */
    public static Execution everyCore() {
        return new Execution(Runtime.getRuntime().availableProcessors(), ProgressListener.NONE, CancellationToken.NEVER);
    }

    /** One thread, no progress, never cancelled. */
    public static Execution sequential() {
        return new Execution(1, ProgressListener.NONE, CancellationToken.NEVER);
    }
}
