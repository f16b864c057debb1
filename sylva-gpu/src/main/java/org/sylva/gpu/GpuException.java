package org.sylva.gpu;

/**
 * A failure of the GPU path: a library or device missing, a kernel that did not compile (the message
 * carries the build log), device memory exhausted, a call that returned an error code (named). One
 * clear message; the fit that hit it produced no output.
 *
 * <pre>{@code
 * try { engine.spanningTree(points, 20, 1.0, ex); } catch (GpuException e) { System.err.println(e.getMessage()); }
 * }</pre>
 */
public class GpuException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public GpuException(String message) {
        super(message);
    }

    public GpuException(String message, Throwable cause) {
        super(message, cause);
    }
}
