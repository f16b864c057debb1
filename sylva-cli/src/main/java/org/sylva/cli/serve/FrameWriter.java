package org.sylva.cli.serve;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Writes {@link Frame}s to a byte stream, the layout {@link FrameReader} reads: parameters as one
 * JSON line ({@link org.sylva.io.JsonWriter}: a non-finite number becomes the string {@code "inf"}, {@code "-inf"} or
 * {@code "nan"}), payloads little-endian through a fixed buffer. Each frame is written whole and
 * flushed under this writer's lock, so frames from different threads never interleave.
 *
 * <pre>{@code
 * FrameWriter out = new FrameWriter(System.out);
 * out.write(new Frame("ok", Map.of("n_clusters", 3), List.of(WireArray.of("labels", labels, n))));
 * }</pre>
 */
public final class FrameWriter {
    private final OutputStream out;
    private final byte[] chunk = new byte[FrameReader.CHUNK];
    private final ByteBuffer chunkLe = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN);

    public FrameWriter(OutputStream out) {
        this.out = Objects.requireNonNull(out, "out");
    }

    /** Writes {@code f} and flushes the stream. */
    public synchronized void write(Frame f) throws IOException {
        byte[] kind = f.kind().getBytes(StandardCharsets.US_ASCII);
        if (kind.length == 0 || kind.length > FrameLimits.MAX_KIND_BYTES) throw new IllegalArgumentException("bad kind");
        byte[] json = f.params().isEmpty() ? new byte[0] : org.sylva.io.JsonWriter.write(f.params()).getBytes(StandardCharsets.UTF_8);
        out.write(FrameReader.MAGIC);
        out.write(kind.length);
        out.write(kind);
        writeLe(json.length, 4);
        out.write(json);
        out.write(f.arrays().size());
        for (WireArray a : f.arrays()) {
            byte[] name = a.name().getBytes(StandardCharsets.US_ASCII);
            byte[] dtype = a.dtype().wireName().getBytes(StandardCharsets.US_ASCII);
            out.write(name.length);
            out.write(name);
            out.write(dtype.length);
            out.write(dtype);
            out.write(a.ndim());
            for (int k = 0; k < a.ndim(); k++) writeLe(a.dim(k), 8);
            writePayload(a);
        }
        out.flush();
    }

    private void writeLe(long v, int bytes) throws IOException {
        for (int k = 0; k < bytes; k++) out.write((int) (v >>> (8 * k)) & 0xff);
    }

    /** The values through the chunk buffer, a bounded number of chunks. */
    private void writePayload(WireArray a) throws IOException {
        int size = a.size();
        int item = a.dtype().itemSize();
        int per = chunk.length / item;
        for (int done = 0; done < size; ) {
            int k = Math.min(per, size - done);
            chunkLe.clear();
            switch (a.data()) {
                case float[] x -> chunkLe.asFloatBuffer().put(x, done, k);
                case double[] x -> chunkLe.asDoubleBuffer().put(x, done, k);
                case int[] x -> chunkLe.asIntBuffer().put(x, done, k);
                case long[] x -> chunkLe.asLongBuffer().put(x, done, k);
                case boolean[] x -> {
                    for (int j = 0; j < k; j++) chunk[j] = (byte) (x[done + j] ? 1 : 0);
                }
                case byte[] x -> System.arraycopy(x, done, chunk, 0, k);
                default -> throw new IllegalStateException();
            }
            out.write(chunk, 0, k * item);
            done += k;
        }
    }
}
