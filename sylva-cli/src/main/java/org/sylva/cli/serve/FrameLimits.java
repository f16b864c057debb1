package org.sylva.cli.serve;

/**
 * The bounds a frame must keep, checked by {@link FrameReader} before it allocates anything and
 * announced in the engine's {@code hello}, so that a client refuses an oversized request itself,
 * before sending it, with the same numbers.
 *
 * <pre>{@code
 * FrameLimits limits = FrameLimits.defaults().withMaxFrameBytes(1L << 30);
 * }</pre>
 *
 * @param maxJsonBytes      longest parameter text, in bytes
 * @param maxArrays         most arrays in one frame
 * @param maxDims           most dimensions of one array
 * @param maxArrayElements  most elements in one array (a Java array holds at most about 2^31)
 * @param maxFrameBytes     most payload bytes of all the arrays of one frame together
 */
public record FrameLimits(int maxJsonBytes, int maxArrays, int maxDims, long maxArrayElements, long maxFrameBytes) {
    /** The longest kind (the command's name), in bytes. */
    public static final int MAX_KIND_BYTES = 64;
    /** The longest array name or dtype name, in bytes. */
    public static final int MAX_NAME_BYTES = 64;
    /** Elements a Java array can hold on every JVM. */
    public static final long JAVA_ARRAY_ELEMENTS = Integer.MAX_VALUE - 8;

    public FrameLimits {
        if (maxJsonBytes < 2 || maxArrays < 0 || maxArrays > 255 || maxDims < 1 || maxDims > 255
                || maxArrayElements < 0 || maxArrayElements > JAVA_ARRAY_ELEMENTS || maxFrameBytes < 0) {
            throw new IllegalArgumentException("bad frame limits");
        }
    }

    /** 1 MiB of parameters, 16 arrays of at most 4 dimensions, 2^31 - 9 elements each, 16 GiB a frame. */
    public static FrameLimits defaults() {
        return new FrameLimits(1 << 20, 16, 4, JAVA_ARRAY_ELEMENTS, 16L << 30);
    }

    /** These limits with another bound on a frame's payload bytes. */
    public FrameLimits withMaxFrameBytes(long bytes) {
        return new FrameLimits(maxJsonBytes, maxArrays, maxDims, maxArrayElements, bytes);
    }
}
