package org.sylva.progress;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * A flag another thread sets to stop a long computation. The computation checks it between bounded
 * chunks of work and throws {@link CancelledException}; a cancelled computation returns no partial
 * result.
 *
 * <pre>{@code
 * CancellationToken token = new CancellationToken();
 * Runtime.getRuntime().addShutdownHook(new Thread(token::cancel));
 * hdbscan.fit(points, ProgressListener.NONE, token);
 * }</pre>
 */
public final class CancellationToken {
    /** A token that is never cancelled. */
    public static final CancellationToken NEVER = new CancellationToken();

    private final AtomicBoolean cancelled = new AtomicBoolean();
    /** A condition owned by someone else (a cluster task's kill flag, say), polled with the flag; or null. */
    private final BooleanSupplier source;

    /** A token cancelled only through {@link #cancel()}. */
    public CancellationToken() {
        this.source = null;
    }

    private CancellationToken(BooleanSupplier source) {
        this.source = source;
    }

    /**
     * A token that also counts as cancelled whenever {@code condition} is true: for work whose owner
     * signals a stop through its own flag, such as a Spark task's {@code TaskContext.isInterrupted()}.
     * The condition is polled at the same chunk boundaries as the flag, so it must be cheap.
     */
    public static CancellationToken polling(BooleanSupplier condition) {
        return new CancellationToken(java.util.Objects.requireNonNull(condition, "condition"));
    }

    public void cancel() {
        if (this != NEVER) cancelled.set(true);
    }

    public boolean isCancelled() {
        if (cancelled.get()) return true;
        if (source != null && source.getAsBoolean()) {
            cancelled.set(true);
            return true;
        }
        return false;
    }

    /** Throws {@link CancelledException} if {@link #cancel()} was called (or the polled condition holds). */
    public void throwIfCancelled() {
        if (isCancelled()) throw new CancelledException();
    }
}
