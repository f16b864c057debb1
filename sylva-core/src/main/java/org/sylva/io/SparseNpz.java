package org.sylva.io;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import org.sylva.data.InvalidInputException;
import org.sylva.progress.CancellationToken;

/**
 * Reads the sparse matrix files of {@code scipy.sparse.save_npz}: a zip archive (compressed or not) of the
 * {@code .npy} arrays {@code data}, {@code indices}, {@code indptr}, {@code shape} and {@code format}, in
 * the CSR or CSC format ({@code X.tocsr()} first for the others), returned in CSR form ({@link SparseMatrix};
 * a CSC file is transposed in O(nnz), keeping each row's entries in column order). Each array is read by
 * {@link Npy}, with its checks; the archive's own faults (not a zip, a missing array, a format other than
 * CSR or CSC, arrays whose lengths disagree, an index array that decreases or ends elsewhere than at the
 * number of entries) are refused naming the file and the fault. Column indices are checked by whoever uses
 * the matrix ({@link SparseMatrix#toDense}, {@link org.sylva.hdbscan.metric.DistanceGraph}).
 *
 * <pre>{@code
 * SparseMatrix m = SparseNpz.read(Path.of("graph.npz"), CancellationToken.NEVER);   // scipy.sparse.save_npz's file
 * }</pre>
 */
public final class SparseNpz {
    private static final List<String> ARRAYS = List.of("data", "indices", "indptr", "shape", "format");
    /** The header of the {@code format} array: a 0-d byte string ({@code |S3}) or unicode string. */
    private static final Pattern STRING_HEADER = Pattern.compile("'descr':\\s*'(\\|S|<U)(\\d+)'.*'shape':\\s*\\(\\)");

    /**
     * The end of the refusal of a .npz that comes as a stream (standard input, a pipe, a FIFO): a zip archive's
     * directory is at its end, so it is read with random access, which a stream cannot give.
     */
    public static final String NEEDS_A_FILE = "give a .npz by its file name, it is read with random access";

    private SparseNpz() {
    }

    /**
     * The matrix in {@code path}, in CSR form.
     *
     * @throws InvalidInputException naming the file and what in it is wrong
     * @throws IOException for a failure to read it
     */
    public static SparseMatrix read(Path path, CancellationToken cancel) throws IOException {
        String name = path.toString();
        if (java.nio.file.Files.isDirectory(path)) throw new InvalidInputException(name + ": is a directory, not a .npz file");
        if (!java.nio.file.Files.exists(path)) throw new InvalidInputException(name + ": " + InputFiles.missing(path));
        if (!java.nio.file.Files.isReadable(path)) throw new InvalidInputException(name + ": permission denied");
        if (!java.nio.file.Files.isRegularFile(path)) {   // ZipFile would see a FIFO as an empty file
            throw new InvalidInputException(name + ": not a regular file (a pipe, FIFO or device): " + NEEDS_A_FILE);
        }
        try (ZipFile zip = new ZipFile(path.toFile())) {
            // the format first: save_npz of a COO, DIA or BSR matrix holds other arrays, which would read as missing
            String format = zip.getEntry("format.npy") == null ? null : format(zip, name);
            if (format != null && !format.equals("csr") && !format.equals("csc")) {
                throw new InvalidInputException(name + ": a sparse matrix in the '" + format + "' format; Sylva reads "
                        + "'csr' and 'csc' (save X.tocsr())");
            }
            List<String> missing = new ArrayList<>();
            for (String a : ARRAYS) if (zip.getEntry(a + ".npy") == null) missing.add(a + ".npy");
            if (!missing.isEmpty()) {
                List<String> held = new ArrayList<>();
                zip.stream().forEach(e -> held.add(e.getName()));
                throw new InvalidInputException(name + ": not a sparse matrix of scipy.sparse.save_npz: it lacks "
                        + String.join(", ", missing) + " (it holds " + (held.isEmpty() ? "nothing" : String.join(", ", held))
                        + ")");
            }
            int[] shape = shape(zip, name, cancel);
            int rows = shape[0], columns = shape[1];
            boolean csr = format.equals("csr");
            int major = csr ? rows : columns, minor = csr ? columns : rows;
            int[] indptr = indexArray(array(zip, "indptr", name, cancel), name + ": indptr");
            if (indptr.length != major + 1L) {   // before the other arrays: a shape that lies allocates nothing
                throw new InvalidInputException(name + ": indptr has " + indptr.length + " entries, expected "
                        + (major + 1L) + " for the shape " + rows + " x " + columns);
            }
            int[] indices = indexArray(array(zip, "indices", name, cancel), name + ": indices");
            NpyArray values = array(zip, "data", name, cancel);
            if (values.rank() != 1) {
                throw new InvalidInputException(name + ": data.npy must be 1-D; got " + values.rank() + "-D");
            }
            double[] data = values.toFloat64();
            checkCompressed(name, major, indptr, indices, data);
            if (csr) return new SparseMatrix(rows, columns, indptr, indices, data);
            SparseMatrix.requireHeap(name, 4L * (minor + 1L) + 12L * data.length, "to read this CSC matrix of shape "
                    + rows + " x " + columns + " as rows (save it as CSR: X.tocsr())");
            return transposed(name, minor, major, indptr, indices, data);
        } catch (ZipException e) {
            throw new InvalidInputException(name + ": not a readable .npz (zip) archive: " + e.getMessage());
        }
    }

    /**
     * The matrix's shape {@code (rows, columns)} as {@code path}'s {@code shape.npy} states it, read alone (the
     * rest of the file is not read, so a command can refuse a shape before it reads a large file); null when the
     * file is not a readable archive holding {@code shape.npy} ({@link #read} then names the fault).
     */
    public static int[] shape(Path path) throws IOException {
        String name = path.toString();
        if (!java.nio.file.Files.isRegularFile(path)) return null;
        try (ZipFile zip = new ZipFile(path.toFile())) {
            return zip.getEntry("shape.npy") == null ? null : shape(zip, name, CancellationToken.NEVER);
        } catch (ZipException e) {
            return null;   // read() names the fault
        }
    }

    private static int[] shape(ZipFile zip, String name, CancellationToken cancel) throws IOException {
        NpyArray a = array(zip, "shape", name, cancel);
        if (a.rank() != 1 || a.size() != 2 || (a.dtype() != NpyDtype.INT64 && a.dtype() != NpyDtype.INT32)) {
            throw new InvalidInputException(name + ": shape.npy must hold two integers; got a " + a.dtype().numpyName()
                    + " array of " + a.size() + " values");
        }
        long[] shape = a.toInt64();
        if (shape[0] < 0 || shape[1] < 0 || shape[0] > Integer.MAX_VALUE - 8 || shape[1] > Integer.MAX_VALUE - 8) {
            throw new InvalidInputException(name + ": shape.npy must hold two sizes within a Java array's limit; got "
                    + java.util.Arrays.toString(shape));
        }
        return new int[] {(int) shape[0], (int) shape[1]};
    }

    private static NpyArray array(ZipFile zip, String array, String name, CancellationToken cancel) throws IOException {
        cancel.throwIfCancelled();
        ZipEntry e = zip.getEntry(array + ".npy");
        CRC32 crc = new CRC32();
        try (CheckedInputStream in = new CheckedInputStream(CancellableInputStream.of(zip.getInputStream(e), cancel), crc)) {
            NpyArray a;
            try {
                a = Npy.read(in, name + ": " + array + ".npy");
            } catch (InvalidInputException symptom) {
                requireCrc(in, e, name);   // a corrupt member is named as such, not by what its bytes now look like
                throw symptom;
            }
            requireCrc(in, e, name);
            return a;
        } catch (ZipException | EOFException corrupt) {
            throw unreadable(name, e, corrupt);
        }
    }

    /**
     * The refusal of a member whose compressed bytes do not inflate: a ZipException, or an EOFException where they
     * end before the member does (a truncated or lying archive), which is no ZipException and would otherwise pass
     * for an I/O failure.
     */
    private static InvalidInputException unreadable(String name, ZipEntry e, IOException corrupt) {
        return new InvalidInputException(name + ": " + e.getName() + ": not a readable .npz (zip) archive: "
                + corrupt.getMessage(), corrupt);
    }

    /**
     * Reads what is left of {@code e}'s stream and refuses the entry if its bytes do not match the CRC-32 the
     * archive records: {@link ZipFile} does not check it, and a flipped bit in a stored member (scipy's
     * {@code compressed=False}) would otherwise read as other numbers.
     */
    private static void requireCrc(CheckedInputStream in, ZipEntry e, String name) throws IOException {
        in.transferTo(OutputStream.nullOutputStream());
        if (e.getCrc() != -1 && in.getChecksum().getValue() != e.getCrc()) {
            throw new InvalidInputException(name + ": " + e.getName() + " fails the archive's CRC-32 check: the file "
                    + "is corrupt (NumPy refuses it too)");
        }
    }

    /** The {@code format} array's string, read from its header and bytes (Npy refuses string dtypes). */
    private static String format(ZipFile zip, String name) throws IOException {
        byte[] b;
        ZipEntry e = zip.getEntry("format.npy");
        try (CheckedInputStream in = new CheckedInputStream(zip.getInputStream(e), new CRC32())) {
            b = in.readNBytes(4096);
            requireCrc(in, e, name);
        } catch (ZipException | EOFException corrupt) {
            throw unreadable(name, e, corrupt);
        }
        String text = new String(b, StandardCharsets.ISO_8859_1);
        int headerEnd = text.indexOf('\n');
        Matcher m = STRING_HEADER.matcher(headerEnd < 0 ? "" : text.substring(0, headerEnd));
        if (!text.startsWith("\u0093NUMPY") || !m.find()) {
            throw new InvalidInputException(name + ": format.npy is not a 0-d string array as save_npz writes it");
        }
        // save_npz writes a width of 3 ('csr'); one of more than two digits, which may not fit an int, is no format
        int width = m.group(2).length() > 2 ? Integer.MAX_VALUE : Integer.parseInt(m.group(2));
        boolean unicode = m.group(1).equals("<U");
        int start = headerEnd + 1;
        if (width > 16 || start + (unicode ? 4 * width : width) > b.length) {
            throw new InvalidInputException(name + ": format.npy is not a 0-d string array as save_npz writes it");
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < width; i++) s.append((char) (b[start + (unicode ? 4 * i : i)] & 0xFF));
        // numpy pads a string with NULs, which it strips; anything after a NUL is not a format scipy wrote
        String f = s.toString().replaceAll("\u0000+$", "");
        if (f.indexOf('\u0000') >= 0) {
            throw new InvalidInputException(name + ": format.npy is not a 0-d string array as save_npz writes it");
        }
        return f;
    }

    private static int[] indexArray(NpyArray a, String what) {
        if (a.rank() != 1) throw new InvalidInputException(what + " must be 1-D; got " + a.rank() + "-D");
        return switch (a.dtype()) {
            case INT32 -> a.toInt32();
            case INT64 -> {
                long[] v = a.toInt64();
                int[] out = new int[v.length];
                for (int i = 0; i < v.length; i++) {
                    if (v[i] < 0 || v[i] > Integer.MAX_VALUE) {
                        throw new InvalidInputException(what + "[" + i + "] is " + v[i] + ", outside [0, 2^31)");
                    }
                    out[i] = (int) v[i];
                }
                yield out;
            }
            default -> throw new InvalidInputException(what + " must be int32 or int64; got " + a.dtype().numpyName());
        };
    }

    private static void checkCompressed(String name, int major, int[] indptr, int[] indices, double[] data) {
        if (indptr.length != major + 1L) {
            throw new InvalidInputException(name + ": indptr has " + indptr.length + " entries, expected " + (major + 1L)
                    + " for the shape");
        }
        if (indices.length != data.length) {
            throw new InvalidInputException(name + ": indices has " + indices.length + " entries but data has "
                    + data.length);
        }
        if (indptr[0] != 0 || indptr[major] != indices.length) {
            throw new InvalidInputException(name + ": indptr must run from 0 to the number of entries ("
                    + indices.length + "); it runs from " + indptr[0] + " to " + indptr[major]);
        }
        for (int i = 0; i < major; i++) {
            if (indptr[i + 1] < indptr[i]) throw new InvalidInputException(name + ": indptr decreases at " + i);
        }
    }

    /** CSC arrays ({@code columns} compressed) as the CSR arrays of the same matrix. */
    private static SparseMatrix transposed(String name, int rows, int columns, int[] colptr, int[] rowIndex, double[] v) {
        int nnz = v.length;
        int[] indptr = new int[rows + 1];
        for (int e = 0; e < nnz; e++) {
            int r = rowIndex[e];
            if (r < 0 || r >= rows) {
                throw new InvalidInputException(name + ": indices[" + e + "] is " + r + ", outside [0, " + rows + ")");
            }
            indptr[r + 1]++;
        }
        for (int r = 0; r < rows; r++) indptr[r + 1] += indptr[r];
        int[] fill = java.util.Arrays.copyOf(indptr, rows);
        int[] indices = new int[nnz];
        double[] data = new double[nnz];
        for (int c = 0; c < columns; c++) {   // columns in order: each row's entries come out in column order
            for (int e = colptr[c]; e < colptr[c + 1]; e++) {
                int at = fill[rowIndex[e]]++;
                indices[at] = c;
                data[at] = v[e];
            }
        }
        return new SparseMatrix(rows, columns, indptr, indices, data);
    }
}
