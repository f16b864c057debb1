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
    /** What {@link #cancel()} runs (guarded by itself). */
    private final java.util.List<Runnable> onCancel = new java.util.ArrayList<>();
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

    /**
     * Cancels: every job checking this token throws {@code CancelledException} at its next check, and the
     * actions registered with {@link #whenCancelled} run once, on this thread. No effect on {@link #NEVER}
     * or a token already cancelled.
     */
    public void cancel() {
        if (this == NEVER || cancelled.getAndSet(true)) return;
        Runnable[] actions;
        synchronized (onCancel) {
            actions = onCancel.toArray(new Runnable[0]);
            onCancel.clear();
        }
        for (Runnable a : actions) {
            try {
                a.run();
            } catch (RuntimeException ignored) {
                // an action is best effort (closing a stream that is already closed, say)
            }
        }
    }

    /**
     * Runs {@code action} when {@link #cancel()} is called (at once if it was): for work that blocks where
     * no check can run, such as a read from a pipe that never delivers, which closing its channel ends.
     * Returns the handle that unregisters it (close it when the blocking work is over). Polled conditions
     * ({@link #polling}) and {@link #NEVER} run no actions.
     */
    public AutoCloseable whenCancelled(Runnable action) {
        java.util.Objects.requireNonNull(action, "action");
        if (this == NEVER) return () -> { };
        synchronized (onCancel) {
            if (!cancelled.get()) {
                onCancel.add(action);
                return () -> {
                    synchronized (onCancel) {
                        onCancel.remove(action);
                    }
                };
            }
        }
        action.run();
        return () -> { };
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
