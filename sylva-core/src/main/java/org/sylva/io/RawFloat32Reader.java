package org.sylva.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.progress.CancellationToken;

/**
 * Reads raw little-endian float32 values (no header) with a shape the user states, e.g.
 * {@code --shape 1000000,3}: the file must hold exactly {@code N * D * 4} bytes, else the error names
 * both the expected and the actual size. Points are returned row-major without a finiteness check.
 *
 * <pre>{@code
 * RawFloat32Reader.Shape s = RawFloat32Reader.Shape.parse("1000000,3");
 * PointSet pts = RawFloat32Reader.read(Path.of("cloud.f32"), s);
 * }</pre>
 */
public final class RawFloat32Reader {
    private static final long MAX_ELEMENTS = Integer.MAX_VALUE - 8;
    private static final int CHUNK_BYTES = 1 << 20;

    private RawFloat32Reader() {
    }

    /**
     * A stated shape: {@code rows >= 0} points of {@code columns >= 1} coordinates, at most
     * {@code Integer.MAX_VALUE - 8} values in all.
     *
     * <pre>{@code
     * RawFloat32Reader.Shape s = RawFloat32Reader.Shape.parse("1000,3");   // s.rows() == 1000
     * }</pre>
     */
    public record Shape(int rows, int columns) {
        public Shape {
            if (rows < 0) throw new InvalidInputException("shape: number of rows must be >= 0, got " + rows);
            if (columns < 1) throw new InvalidInputException("shape: number of columns must be >= 1, got " + columns);
            if ((long) rows * columns > MAX_ELEMENTS) {
                throw new InvalidInputException("shape " + rows + "," + columns + " has " + ((long) rows * columns)
                        + " values, beyond a Java array's limit of " + MAX_ELEMENTS);
            }
        }

        /** Parses {@code "N,D"} (spaces allowed around the numbers). */
        public static Shape parse(String text) {
            String[] parts = text.split(",", -1);
            if (parts.length != 2) {
                throw new InvalidInputException("shape '" + text + "': expected N,D (rows and columns, e.g. 1000,3)");
            }
            long n = parseCount(parts[0].strip(), text);
            long d = parseCount(parts[1].strip(), text);
            if (n > Integer.MAX_VALUE || d > Integer.MAX_VALUE) {
                throw new InvalidInputException("shape '" + text + "' is beyond a Java array's limit of "
                        + MAX_ELEMENTS + " values");
            }
            return new Shape((int) n, (int) d);
        }

        private static long parseCount(String s, String text) {
            if (s.isEmpty() || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new InvalidInputException("shape '" + text + "': '" + s
                        + "' is not a non-negative integer; expected N,D (e.g. 1000,3)");
            }
            // a count of more than 12 digits is beyond any array: refused as such by the caller
            return s.length() > 12 ? Long.MAX_VALUE : Long.parseLong(s);
        }

        /** Bytes the file must hold. */
        public long bytes() {
            return (long) rows * columns * Float.BYTES;
        }
    }

    /** Reads a file whose size must be exactly {@code shape.bytes()}. */
    public static PointSet read(Path path, Shape shape) throws IOException {
        return read(path, shape, CancellationToken.NEVER);
    }

    /** As {@link #read(Path, Shape)}, checking {@code cancel} between reads of at most 1 MiB. */
    public static PointSet read(Path path, Shape shape, CancellationToken cancel) throws IOException {
        String source = path.toString();
        if (Files.isDirectory(path)) throw new InvalidInputException(source + ": is a directory, not a raw float32 file");
        InputStream in = InputFiles.open(path, (reason, e) -> new InvalidInputException(source + ": " + reason, e));
        try (InputStream open = CancellableInputStream.of(in, cancel)) {
            if (Files.isRegularFile(path)) {
                long size = Files.size(path);
                if (size != shape.bytes()) throw sizeMismatch(source, shape, size + " bytes");
                return decode(open, source, shape);
            }
            return read(open, source, shape);
        }
    }

    /** Reads a stream (e.g. standard input) that must hold exactly {@code shape.bytes()} bytes; not closed. */
    public static PointSet read(InputStream in, String sourceName, Shape shape) throws IOException {
        ChunkedBytes buffered = ChunkedBytes.read(in, shape.bytes());
        if (buffered.total() < shape.bytes()) throw sizeMismatch(sourceName, shape, buffered.total() + " bytes");
        if (buffered.hasMore()) throw sizeMismatch(sourceName, shape, "more than " + shape.bytes() + " bytes");
        return decode(buffered, sourceName, shape);
    }

    private static InvalidInputException sizeMismatch(String source, Shape s, String actual) {
        return new InvalidInputException(source + ": shape " + s.rows() + "," + s.columns() + " of float32 needs "
                + s.bytes() + " bytes (" + s.rows() + " * " + s.columns() + " * 4) but the input holds " + actual);
    }

    private static PointSet decode(InputStream in, String source, Shape s) throws IOException {
        int count = s.rows() * s.columns();
        float[] coords = new float[count];
        byte[] buf = new byte[(int) Math.min(CHUNK_BYTES, (long) count * 4)];
        ByteBuffer bb = ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN);
        for (int done = 0; done < count; ) {
            int n = Math.min(buf.length / 4, count - done);
            int got = in.readNBytes(buf, 0, n * 4);
            if (got < n * 4) throw sizeMismatch(source, s, "fewer bytes (it shrank while being read)");
            bb.clear();
            bb.asFloatBuffer().get(coords, done, n);
            done += n;
        }
        return PointSet.unchecked(s.rows(), s.columns(), coords);
    }
}
