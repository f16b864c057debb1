package org.sylva.progress;

import java.util.concurrent.atomic.AtomicBoolean;

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

    public void cancel() {
        if (this != NEVER) cancelled.set(true);
    }

    public boolean isCancelled() {
        return cancelled.get();
    }

    /** Throws {@link CancelledException} if {@link #cancel()} was called. */
    public void throwIfCancelled() {
        if (cancelled.get()) throw new CancelledException();
    }
}
