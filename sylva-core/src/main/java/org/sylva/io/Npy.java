package org.sylva.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.sylva.progress.CancellationToken;

/**
 * Reads and writes NumPy {@code .npy} files: what numpy wrote, Sylva reads; what Sylva writes,
 * {@code np.load} reads (byte-identical to {@code np.save} of the same array).
 *
 * <p><b>Reading</b> accepts format versions 1.0, 2.0 and 3.0; element types float16, float32, float64,
 * int16, int32, int64, uint16, uint32, uint64 (either byte order; uint64 up to 2^63 - 1), int8, uint8 and bool,
 * in every descr form {@code np.load} reads ({@code '<f8'}, {@code '<d'}, {@code 'f8'}: no order is the
 * machine's); C or Fortran order; any rank including 0-d. The result
 * is always in C order with native values. Everything else is refused with an
 * {@link NpyFormatException} naming the file and the problem: bad magic, other versions, a header
 * that is not a Python dict literal with exactly the keys {@code descr}, {@code fortran_order},
 * {@code shape}, other dtypes (object, string, structured, ...), negative or non-integer dimensions,
 * a header longer than 1 MiB, a shape whose data would not fit in the file (checked before anything
 * is allocated), more than {@code Integer.MAX_VALUE - 8} elements (beyond a Java array's limit), a
 * truncated file, and <b>bytes after the data</b>: NumPy ignores those, Sylva refuses them, because a
 * header whose shape does not account for the whole file is a header that lies about the shape.
 * A sound file whose array the heap cannot hold is refused with an
 * {@link org.sylva.data.InsufficientMemoryException} naming the bytes needed and the heap's maximum.
 * Reading never throws anything else except {@link IOException} for real I/O failures, and never
 * allocates more than about twice the bytes the input actually holds.
 *
 * <p><b>Writing</b> produces format 1.0 (2.0 only if a header exceeds 64 KiB), little-endian, C
 * order, the header padded with spaces to a multiple of 64 bytes and ended by a newline, exactly as
 * NumPy does; files are written through {@link AtomicOutput}.
 *
 * <pre>{@code
 * NpyArray a = Npy.read(Path.of("points.npy"));
 * PointSet pts = a.toPointSet(System.err::println);
 * Npy.writeInt32(Path.of("out/labels.npy"), labels, labels.length);
 * Npy.writeFloat32(Path.of("out/xy.npy"), coords, n, 2);
 * }</pre>
 */
public final class Npy {
    /** numpy's GROWTH_AXIS_MAX_DIGITS: spare spaces after the dict so the first dim can grow in place. */
    private static final int GROWTH_AXIS_MAX_DIGITS = 21;
    private static final int ARRAY_ALIGN = 64;
    private static final int CHUNK_BYTES = 1 << 16;

    private Npy() {
    }

    // ---------------------------------------------------------------- reading

    /** Reads a {@code .npy} file (or a pipe / device, read as a stream of unknown length). */
    public static NpyArray read(Path path) throws IOException {
        return read(path, CancellationToken.NEVER);
    }

    /** As {@link #read(Path)}, checking {@code cancel} between reads of at most 1 MiB. */
    public static NpyArray read(Path path, CancellationToken cancel) throws IOException {
        String source = path.toString();
        if (Files.isDirectory(path)) throw new NpyFormatException(source, "is a directory, not a .npy file");
        long size;
        InputStream in = InputFiles.open(path, (reason, e) -> new NpyFormatException(source, reason, e));
        try (InputStream open = CancellableInputStream.of(in, cancel)) {
            size = Files.isRegularFile(path) ? Files.size(path) : -1;
            return NpyReader.read(open, source, size);
        }
    }

    /**
     * Reads a {@code .npy} array from a stream of unknown length (e.g. standard input, named
     * {@code "-"}), which must hold exactly one array and then end. The stream is not closed.
     */
    public static NpyArray read(InputStream in, String sourceName) throws IOException {
        return NpyReader.read(in, sourceName, -1);
    }

    // ---------------------------------------------------------------- writing

    /** Writes {@code array} to {@code path} atomically. */
    public static void write(Path path, NpyArray array) throws IOException {
        AtomicOutput.write(path, out -> write(out, array));
    }

    /** Writes {@code array} as a complete {@code .npy} file to {@code out} (not closed, not atomic). */
    public static void write(OutputStream out, NpyArray array) throws IOException {
        writeRaw(out, array.dtype(), array.shape(), array.rawData());
    }

    /** Writes float32 values of the given shape ({@code data.length} must equal the product). */
    public static void writeFloat32(Path path, float[] data, int... shape) throws IOException {
        writeChecked(path, NpyDtype.FLOAT32, data, data.length, shape);
    }

    public static void writeFloat64(Path path, double[] data, int... shape) throws IOException {
        writeChecked(path, NpyDtype.FLOAT64, data, data.length, shape);
    }

    public static void writeInt32(Path path, int[] data, int... shape) throws IOException {
        writeChecked(path, NpyDtype.INT32, data, data.length, shape);
    }

    public static void writeInt64(Path path, long[] data, int... shape) throws IOException {
        writeChecked(path, NpyDtype.INT64, data, data.length, shape);
    }

    /** Writes unsigned bytes (Java's signed bytes reinterpreted: {@code (byte) 255} is 255). */
    public static void writeUint8(Path path, byte[] data, int... shape) throws IOException {
        writeChecked(path, NpyDtype.UINT8, data, data.length, shape);
    }

    public static void writeBool(Path path, boolean[] data, int... shape) throws IOException {
        writeChecked(path, NpyDtype.BOOL, data, data.length, shape);
    }

    private static void writeChecked(Path path, NpyDtype t, Object data, int length, int[] shape) throws IOException {
        int[] s = NpyArray.checkShape(length, shape);
        AtomicOutput.write(path, out -> writeRaw(out, t, s, data));
    }

    /** Header bytes (magic, version, length, dict, padding, newline) exactly as {@code np.save} writes them. */
    static byte[] header(NpyDtype t, int[] shape) {
        StringBuilder dict = new StringBuilder();
        dict.append("{'descr': '").append(t.littleEndianDescr()).append("', 'fortran_order': False, 'shape': (");
        for (int i = 0; i < shape.length; i++) {
            if (i > 0) dict.append(", ");
            dict.append(shape[i]);
        }
        if (shape.length == 1) dict.append(',');
        dict.append("), }");
        if (shape.length > 0) dict.repeat(' ', GROWTH_AXIS_MAX_DIGITS - Integer.toString(shape[0]).length());
        byte[] text = dict.toString().getBytes(StandardCharsets.ISO_8859_1); // ASCII only: digits and quotes
        int hlen = text.length + 1;
        int lengthBytes = 2;
        int padlen = ARRAY_ALIGN - ((8 + lengthBytes + hlen) % ARRAY_ALIGN);
        if (hlen + padlen > 0xffff) {
            lengthBytes = 4;
            padlen = ARRAY_ALIGN - ((8 + lengthBytes + hlen) % ARRAY_ALIGN);
        }
        int total = hlen + padlen;
        ByteBuffer b = ByteBuffer.allocate(8 + lengthBytes + total).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII));
        b.put((byte) (lengthBytes == 2 ? 1 : 2)).put((byte) 0);
        if (lengthBytes == 2) b.putShort((short) total);
        else b.putInt(total);
        b.put(text);
        for (int i = 0; i < padlen; i++) b.put((byte) ' ');
        b.put((byte) '\n');
        return b.array();
    }

    /** Writes header and little-endian data from float[], double[], int[], long[], short[], byte[] or boolean[]. */
    private static void writeRaw(OutputStream out, NpyDtype t, int[] shape, Object data) throws IOException {
        out.write(header(t, shape));
        int count = java.lang.reflect.Array.getLength(data);
        int item = t.itemSize();
        int chunkElems = CHUNK_BYTES / item;
        byte[] buf = new byte[Math.min(count, chunkElems) * item];
        ByteBuffer bb = ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN);
        for (int done = 0; done < count; ) {
            int n = Math.min(chunkElems, count - done);
            bb.clear();
            // instanceof tests, not a pattern switch: a fresh JVM bootstraps a type switch by generating a class,
            // several milliseconds of every one-shot run that writes a file
            if (data instanceof float[] f) {
                bb.asFloatBuffer().put(f, done, n);
            } else if (data instanceof double[] d) {
                bb.asDoubleBuffer().put(d, done, n);
            } else if (data instanceof int[] a) {
                bb.asIntBuffer().put(a, done, n);
            } else if (data instanceof long[] a && item == 4) {
                for (int i = 0; i < n; i++) bb.putInt(4 * i, (int) a[done + i]); // uint32, held as long values
            } else if (data instanceof long[] a) {
                bb.asLongBuffer().put(a, done, n);
            } else if (data instanceof short[] a) {
                bb.asShortBuffer().put(a, done, n); // int16, uint16, float16 bits
            } else if (data instanceof byte[] a) {
                if (t == NpyDtype.BOOL) {
                    for (int i = 0; i < n; i++) buf[i] = a[done + i] != 0 ? (byte) 1 : (byte) 0;
                } else {
                    System.arraycopy(a, done, buf, 0, n);
                }
            } else if (data instanceof boolean[] a) {
                for (int i = 0; i < n; i++) buf[i] = a[done + i] ? (byte) 1 : (byte) 0;
            } else {
                throw new IllegalArgumentException("unsupported array " + data.getClass());
            }
            out.write(buf, 0, n * item);
            done += n;
        }
    }
}
