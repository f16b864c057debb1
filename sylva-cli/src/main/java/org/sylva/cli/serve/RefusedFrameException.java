package org.sylva.cli.serve;

/**
 * A well-formed frame broke a {@link FrameLimits} bound (or did not fit in memory). The reader has
 * skipped the rest of it, so the stream is still in step and the engine answers with an error and
 * goes on.
 *
 * <pre>{@code
 * try {
 *     Frame f = reader.read();
 * } catch (RefusedFrameException e) {
 *     send(withId(ErrorFrames.frame(e.outOfMemory() ? "MemoryError" : "ValueError", e.getMessage(), null), e.id()));
 * }
 * }</pre>
 */
public final class RefusedFrameException extends Exception {
    private final String kind;
    private final boolean outOfMemory;
    private final transient Object id;

    RefusedFrameException(String kind, String message, boolean outOfMemory, Object id) {
        super(message);
        this.kind = kind;
        this.outOfMemory = outOfMemory;
        this.id = id;
    }

    /** The refused request's {@code id} parameter, or null (none given, or the parameters were not read). */
    public Object id() {
        return id;
    }

    /** The refused frame's kind. */
    public String kind() {
        return kind;
    }

    /** True when the frame kept the limits but its arrays did not fit in the JVM's heap. */
    public boolean outOfMemory() {
        return outOfMemory;
    }
}
