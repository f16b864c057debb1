package org.sylva.io;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.sylva.data.InvalidInputException;

/**
 * Writes 0-, 1- and 2-D numeric arrays as CSV or TSV text ({@code --format csv}): one row per line,
 * {@code \n} line ends, an optional header row. Floating-point values are printed with the shortest
 * decimal that reads back to the same float32/float64 ({@link Float#toString}, {@link Double#toString}),
 * so a round trip through text is exact; NaN and infinities are written {@code nan}, {@code inf},
 * {@code -inf} as NumPy does. Integer arrays are written as integers, bools as {@code 1}/{@code 0}. A
 * floating-point array whose columns hold integers (ids and sizes in a float64 matrix such as
 * {@code [from, to, weight]}) can name those columns ({@link #withIntegerColumns}): their whole values
 * are then written as integers ({@code 407}, not {@code 407.0}). Files are written through
 * {@link AtomicOutput}.
 *
 * <pre>{@code
 * DelimitedWriter.csv().writeInt32(Path.of("out/labels.csv"), labels, labels.length);
 * DelimitedWriter.csv().withHeader(List.of("x", "y")).writeFloat32(Path.of("out/xy.csv"), xy, n, 2);
 * DelimitedWriter.csv().withIntegerColumns(0, 1).writeFloat64(Path.of("out/mst.csv"), mst, n - 1, 3);
 * }</pre>
 */
public final class DelimitedWriter {
    private final char delimiter;
    private final List<String> header;
    /** Columns of a floating-point array written as integers where their values are whole; may be empty. */
    private final int[] integerColumns;

    private DelimitedWriter(char delimiter, List<String> header, int[] integerColumns) {
        this.delimiter = delimiter;
        this.header = header;
        this.integerColumns = integerColumns;
    }

    /** Comma-separated. */
    public static DelimitedWriter csv() {
        return new DelimitedWriter(',', null, new int[0]);
    }

    /** Tab-separated. */
    public static DelimitedWriter tsv() {
        return new DelimitedWriter('\t', null, new int[0]);
    }

    /** TSV for {@code .tsv}/{@code .tab} names, CSV otherwise. */
    public static DelimitedWriter forFile(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        return n.endsWith(".tsv") || n.endsWith(".tab") ? tsv() : csv();
    }

    /** The same writer with a header row (one name per column; quoted where needed). */
    public DelimitedWriter withHeader(List<String> names) {
        return new DelimitedWriter(delimiter, List.copyOf(names), integerColumns);
    }

    /**
     * The same writer, writing the given columns (counting from 0; column 0 of a 1-D array) of a
     * floating-point array as integers: a whole value of magnitude below 2<sup>53</sup> is written
     * without a fraction ({@code 407}, {@code -1}); any other value (a fraction, NaN, an infinity) as
     * usual. Integer and bool arrays are unaffected; the binary {@code .npy} form is not involved.
     */
    public DelimitedWriter withIntegerColumns(int... columns) {
        for (int c : columns) {
            if (c < 0) throw new IllegalArgumentException("negative column " + c);
        }
        return new DelimitedWriter(delimiter, header, columns.clone());
    }

    public void writeFloat32(Path path, float[] data, int... shape) throws IOException {
        write(path, data, data.length, shape);
    }

    public void writeFloat64(Path path, double[] data, int... shape) throws IOException {
        write(path, data, data.length, shape);
    }

    public void writeInt32(Path path, int[] data, int... shape) throws IOException {
        write(path, data, data.length, shape);
    }

    public void writeInt64(Path path, long[] data, int... shape) throws IOException {
        write(path, data, data.length, shape);
    }

    public void writeBool(Path path, boolean[] data, int... shape) throws IOException {
        write(path, data, data.length, shape);
    }

    /** Writes an array read or built as {@link NpyArray} (uint8 as 0..255, bool as 1/0). */
    public void write(Path path, NpyArray array) throws IOException {
        Object data = array.rawData();
        int[] shape = array.shape();
        checkRank(shape);
        AtomicOutput.write(path, out -> write(out, data, shape, array.dtype() == NpyDtype.UINT8));
    }

    /** Writes to a stream (e.g. standard output), not atomically; the stream is flushed, not closed. */
    public void write(OutputStream out, NpyArray array) throws IOException {
        int[] shape = array.shape();
        checkRank(shape);
        write(out, array.rawData(), shape, array.dtype() == NpyDtype.UINT8);
    }

    private void write(Path path, Object data, int length, int[] shape) throws IOException {
        int[] s = NpyArray.checkShape(length, shape);
        checkRank(s);
        AtomicOutput.write(path, out -> write(out, data, s, false));
    }

    private void checkRank(int[] shape) {
        if (shape.length > 2) {
            throw new InvalidInputException("delimited text holds at most 2-D arrays, got shape "
                    + java.util.Arrays.toString(shape));
        }
        int columns = shape.length == 2 ? shape[1] : 1;
        if (header != null && header.size() != columns) {
            throw new InvalidInputException("header has " + header.size() + " names but the array has "
                    + columns + " column" + (columns == 1 ? "" : "s"));
        }
    }

    private void write(OutputStream out, Object data, int[] shape, boolean unsigned) throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        if (header != null) {
            StringBuilder b = new StringBuilder();
            for (int j = 0; j < header.size(); j++) {
                if (j > 0) b.append(delimiter);
                b.append(quoteIfNeeded(header.get(j)));
            }
            w.write(b.append('\n').toString());
        }
        int rows = shape.length == 0 ? 1 : shape[0];
        int columns = shape.length == 2 ? shape[1] : 1;
        boolean[] whole = new boolean[columns];
        for (int c : integerColumns) {
            if (c < columns) whole[c] = true;
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < rows; i++) {
            b.setLength(0);
            for (int j = 0; j < columns; j++) {
                if (j > 0) b.append(delimiter);
                appendValue(b, data, i * columns + j, unsigned, whole[j]);
            }
            b.append('\n');
            w.write(b.toString());
        }
        w.flush();
    }

    /** Above 2^53 every double is whole: such values are no ids or counts, and keep their usual form. */
    private static final double WHOLE_LIMIT = 0x1p53;

    private static void appendValue(StringBuilder b, Object data, int k, boolean unsigned, boolean whole) {
        switch (data) {
            case float[] f -> {
                float v = f[k];
                if (whole && v == Math.rint(v) && Math.abs(v) < WHOLE_LIMIT) b.append((long) v);
                else if (Float.isFinite(v)) b.append(v);
                else b.append(Float.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf");
            }
            case double[] d -> {
                double v = d[k];
                if (whole && v == Math.rint(v) && Math.abs(v) < WHOLE_LIMIT) b.append((long) v);
                else if (Double.isFinite(v)) b.append(v);
                else b.append(Double.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf");
            }
            case int[] a -> b.append(a[k]);
            case long[] a -> b.append(a[k]);
            case boolean[] a -> b.append(a[k] ? '1' : '0');
            case byte[] a -> b.append(unsigned ? a[k] & 0xff : (a[k] != 0 ? 1 : 0));
            default -> throw new IllegalArgumentException("unsupported array " + data.getClass());
        }
    }

    private String quoteIfNeeded(String s) {
        boolean needs = s.indexOf(delimiter) >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0
                || s.indexOf('\r') >= 0 || (!s.isEmpty() && (s.charAt(0) == ' ' || s.charAt(s.length() - 1) == ' '));
        return needs ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }
}
