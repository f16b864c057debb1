package org.sylva.parallel;

import java.util.concurrent.ExecutionException;

/**
 * The one way the library surfaces a failure of work that ran on another thread: the original
 * unchecked exception or error, as the worker threw it, on the calling thread. Fork-join tasks re-create
 * an exception on the joining thread (same type, the original as cause); this unwraps it again so that
 * callers see, for example, the library's {@code CancelledException} itself.
 *
 * <pre>{@code
 * try { future.get(); } catch (ExecutionException e) { throw Failures.rethrow(Failures.original(e)); }
 * }</pre>
 */
public final class Failures {
    private Failures() { }

    /** The original failure behind {@code e}: the cause, without fork-join's re-created copy. */
    public static Throwable original(ExecutionException e) {
        return original(e.getCause() == null ? e : e.getCause());
    }

    /**
     * {@code failure} without fork-join's re-created copies: of the same type as their cause, with no message of their
     * own (the cause's {@code toString()}, or none). An exception a caller made itself around another of its type,
     * with its own message (a progress listener's {@code new IllegalStateException("request 42", cause)}), is kept.
     */
    public static Throwable original(Throwable failure) {
        Throwable c = failure;
        // A task joined through several threads may have been re-created more than once.
        for (int depth = 0; depth < 16 && isCopy(c); depth++) c = c.getCause();
        return c;
    }

    private static boolean isCopy(Throwable t) {
        Throwable cause = t.getCause();
        if (cause == null || t.getClass() != cause.getClass()) return false;
        String message = t.getMessage();
        return message == null || message.equals(cause.toString()) || message.equals(cause.getMessage());
    }

    /** Rethrows {@code failure} if it is unchecked; wraps a checked one in {@link IllegalStateException}. */
    public static RuntimeException rethrow(Throwable failure) {
        if (failure instanceof RuntimeException re) throw re;
        if (failure instanceof Error er) throw er;
        throw new IllegalStateException(failure);
    }
}
