package org.sylva.data;

/**
 * Thrown before a fit starts when the JVM's heap cannot hold the fit's estimated peak, and before a sparse matrix
 * is expanded into a dense one the heap cannot hold: the message says how much it needs, how much is available and
 * how to give the JVM more ({@code -Xmx}), and when a sound {@code .npy} file's array is larger than the heap can hold
 * (the message names the file); and, by a GPU engine, before a fit or a build whose buffers its device cannot
 * hold. An {@link InvalidInputException}, so
 * that callers that handle bad input handle it too; a front end may tell it apart to report a memory error (the
 * engine protocol answers it as Python's {@code MemoryError}, as scikit-learn's users expect).
 *
 * <pre>{@code
 * try {
 *     hdbscan.fit(points);
 * } catch (InsufficientMemoryException e) {
 *     System.err.println("not enough heap: " + e.getMessage());
 * }
 * }</pre>
 */
public class InsufficientMemoryException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    public InsufficientMemoryException(String message) {
        super(message);
    }

    /** With the failure that showed memory ran out (a device driver's error code, say) as its cause. */
    public InsufficientMemoryException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    protected InvalidInputException withMessage(String message) {
        return new InsufficientMemoryException(message, this);
    }
}
