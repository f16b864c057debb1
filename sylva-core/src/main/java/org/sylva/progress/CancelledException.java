package org.sylva.progress;

/**
 * Thrown out of a computation whose {@link CancellationToken} was cancelled, or whose thread was
 * interrupted (the thread's interrupt status then stays set). No partial result exists.
 *
 * <pre>{@code
 * try { tree = builder.cancellation(token).build(points, ids); } catch (CancelledException e) { return; }
 * }</pre>
 */
public final class CancelledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CancelledException() {
        super("cancelled");
    }
}
