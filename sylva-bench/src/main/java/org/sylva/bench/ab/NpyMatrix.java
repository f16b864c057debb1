package org.sylva.bench.ab;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A two-dimensional little-endian float32 or float64 {@code .npy} file, read whole, for {@link VersionAB}'s
 * {@code --input}. The harness compiles against nothing of the core, so it cannot use the core's reader;
 * this one takes only what {@code numpy.save} writes for a C-ordered {@code (n, d)} array of {@code <f4} or
 * {@code <f8}, and refuses anything else naming what it found. Exactly one of {@link #float32} and
 * {@link #float64} is set.
 *
 * <pre>{@code
 * NpyMatrix m = NpyMatrix.read(Path.of("mnist.npy"));   // m.n() x m.d()
 * }</pre>
 */
record NpyMatrix(int n, int d, float[] float32, double[] float64) {
    private static final Pattern DESCR = Pattern.compile("'descr':\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order':\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape':\\s*\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,?\\s*\\)");

    static NpyMatrix read(Path file) throws IOException {
        byte[] b = Files.readAllBytes(file);
        if (b.length < 10 || b[0] != (byte) 0x93 || !new String(b, 1, 5, StandardCharsets.ISO_8859_1).equals("NUMPY")) {
            throw new IOException(file + ": not a .npy file");
        }
        int major = b[6];
        int headerAt = major == 1 ? 10 : 12;
        if (b.length < headerAt) throw new IOException(file + ": truncated header");
        long headerLength = major == 1
                ? (b[8] & 0xff) | (b[9] & 0xff) << 8
                : ByteBuffer.wrap(b, 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xffffffffL;
        if (headerAt + headerLength > b.length) throw new IOException(file + ": truncated header");
        String header = new String(b, headerAt, (int) headerLength, StandardCharsets.ISO_8859_1);
        Matcher descr = DESCR.matcher(header), fortran = FORTRAN.matcher(header), shape = SHAPE.matcher(header);
        if (!descr.find() || !fortran.find() || !shape.find()) {
            throw new IOException(file + ": expected a two-dimensional array, header " + header.strip());
        }
        String type = descr.group(1);
        int width = type.equals("<f4") ? 4 : type.equals("<f8") ? 8 : 0;
        if (width == 0) throw new IOException(file + ": dtype " + type + ", expected <f4 or <f8");
        if (fortran.group(1).equals("True")) throw new IOException(file + ": Fortran order, expected C order");
        long n = Long.parseLong(shape.group(1)), d = Long.parseLong(shape.group(2));
        if (n < 1 || d < 1 || n * d > Integer.MAX_VALUE - 8) throw new IOException(file + ": shape " + n + " x " + d);
        int dataAt = (int) (headerAt + headerLength);
        if ((long) b.length - dataAt != n * d * width) {
            throw new IOException(file + ": " + (b.length - dataAt) + " bytes of data, the shape " + n + " x " + d
                    + " needs " + n * d * width);
        }
        ByteBuffer data = ByteBuffer.wrap(b, dataAt, b.length - dataAt).order(ByteOrder.LITTLE_ENDIAN);
        if (width == 4) {
            float[] f = new float[(int) (n * d)];
            data.asFloatBuffer().get(f);
            return new NpyMatrix((int) n, (int) d, f, null);
        }
        double[] f = new double[(int) (n * d)];
        data.asDoubleBuffer().get(f);
        return new NpyMatrix((int) n, (int) d, null, f);
    }
}
