package org.sylva.io;

import java.util.Locale;
import org.sylva.data.InsufficientMemoryException;
import org.sylva.data.InvalidInputException;

/**
 * A sparse matrix in compressed rows (CSR), as {@link SparseNpz} reads it: row {@code i}'s entries are at
 * positions {@code indptr[i] .. indptr[i + 1] - 1} of {@code indices} (their columns) and {@code data} (their
 * values). The arrays are held as given, not copied; their lengths and {@code indptr}'s order are checked when
 * made.
 *
 * <pre>{@code
 * SparseMatrix m = SparseNpz.read(Path.of("features.npz"), CancellationToken.NEVER);
 * double[] rows = m.toDense("features.npz");   // row-major, rows() x columns()
 * }</pre>
 *
 * @param rows the number of rows
 * @param columns the number of columns
 * @param indptr {@code rows + 1} offsets
 * @param indices each entry's column
 * @param data each entry's value
 */
public record SparseMatrix(int rows, int columns, int[] indptr, int[] indices, double[] data) {
    /** Checks the shape of the arrays ({@link #toDense} checks the columns). */
    public SparseMatrix {
        if (rows < 0 || columns < 0) throw new InvalidInputException("a sparse matrix of " + rows + " x " + columns);
        if (indptr.length != rows + 1L || indices.length != data.length || indptr[0] != 0
                || indptr[rows] != indices.length) {
            throw new InvalidInputException("sparse matrix arrays of lengths " + indptr.length + ", " + indices.length
                    + ", " + data.length + " do not describe " + rows + " rows");
        }
        for (int i = 0; i < rows; i++) {
            if (indptr[i + 1] < indptr[i]) throw new InvalidInputException("sparse matrix: indptr decreases at " + i);
        }
    }

    /**
     * The dense row-major values, entries stored twice summed (as scipy's {@code toarray()} does).
     *
     * @throws InvalidInputException for a column outside the shape, or a dense matrix beyond a Java array's limit
     */
    public double[] toDense(String source) {
        long size = (long) rows * columns;
        if (size > Integer.MAX_VALUE - 8) {
            throw new InvalidInputException(String.format(Locale.ROOT, "%s: a sparse matrix of %d x %d is read as a "
                    + "dense one, and %d values are beyond a Java array's limit", source, rows, columns, size));
        }
        requireHeap(source, 8 * size, "to read this sparse matrix of shape " + rows + " x " + columns + " as dense rows");
        double[] dense = new double[(int) size];
        for (int i = 0; i < rows; i++) {
            for (int e = indptr[i]; e < indptr[i + 1]; e++) {
                int j = indices[e];
                if (j < 0 || j >= columns) {
                    throw new InvalidInputException(String.format(Locale.ROOT, "%s: row %d stores column %d, outside "
                            + "[0, %d)", source, i, j, columns));
                }
                dense[i * columns + j] += data[e];
            }
        }
        return dense;
    }

    /** Refuses, naming {@code source} and {@code what}, an allocation of {@code bytes} the heap cannot hold now. */
    static void requireHeap(String source, long bytes, String what) {
        Runtime rt = Runtime.getRuntime();
        long available = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (bytes > available) {
            throw new InsufficientMemoryException(String.format(Locale.ROOT, "%s: %s needs %d MiB of heap; %d MiB are "
                    + "available (give the JVM more: SYLVA_JAVA_OPTS=-Xmx...)", source, what, (bytes + (1 << 20) - 1) >> 20,
                    Math.max(available, 0) >> 20));
        }
    }
}
