package org.sylva.hdbscan.metric;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import org.sylva.data.InvalidInputException;
import org.sylva.progress.CancellationToken;

/**
 * A sparse precomputed distance matrix: the stored entries of a symmetric {@code n x n} matrix in compressed
 * rows (scipy's CSR: row {@code i}'s columns are {@code indices[indptr[i] .. indptr[i + 1] - 1]}, its distances
 * the same slice of {@code data}), for data whose full matrix would not fit, such as a k-nearest-neighbour graph
 * or a matrix with its large distances left out. A stored entry {@code (i, j)} is an edge of the graph; an entry
 * not stored is no edge (infinitely far). The fit's semantics are scikit-learn's for a sparse precomputed matrix
 * ({@link GraphSpanningTree}): a point's core distance is the {@code min_samples}-th smallest distance stored in
 * its row, a stored diagonal entry counting as the point itself.
 *
 * <p>Checked once when made, each refusal naming the first entry at fault: the shape of the three arrays,
 * columns within {@code [0, n)} and none twice in a row, distances finite and {@code >= 0}, a stored diagonal
 * entry 0 (round-off of at most 1e-9 either way where a distance is 0, a diagonal entry or a negative one, is
 * stored as 0, as the dense path reads it), and symmetry: every stored {@code (i, j)} has a stored {@code (j, i)} within scikit-learn's tolerance
 * ({@code |D_ij - D_ji| <= 1e-9 + 1e-7 |D_ji|}, as the dense matrix's check). Both entries then hold the upper
 * triangle's value {@code D[min(i, j), max(i, j)]}, as the dense path reads, so a matrix symmetric only to
 * rounding gives one answer. Immutable: rows are kept sorted by column in private copies; {@code -0.0} is
 * stored as {@code 0.0}.
 *
 * <pre>{@code
 * // points 0-1 at 1.0 and 1-2 at 2.0, both directions stored
 * DistanceGraph g = DistanceGraph.ofCsr(3, new int[] {0, 1, 3, 4}, new int[] {1, 0, 2, 1},
 *         new double[] {1.0, 1.0, 2.0, 2.0});
 * int degree = g.rowLength(1);   // 2
 * }</pre>
 */
public final class DistanceGraph {
    /** Rows between two looks at the cancellation token. */
    static final int ROWS_PER_CHECK = 1 << 16;
    private final int n;
    private final int[] rowStart;
    private final int[] columns;
    private final double[] distances;
    private final int widestRow;

    private DistanceGraph(int n, int[] rowStart, int[] columns, double[] distances) {
        int widest = 0;
        for (int i = 0; i < n; i++) widest = Math.max(widest, rowStart[i + 1] - rowStart[i]);
        this.widestRow = widest;
        this.n = n;
        this.rowStart = rowStart;
        this.columns = columns;
        this.distances = distances;
    }

    /**
     * The graph of {@code n} points whose row {@code i} stores columns {@code indices[indptr[i] ..
     * indptr[i + 1] - 1]} at distances {@code data[..]} (in any order within a row). The arrays are copied.
     *
     * @throws InvalidInputException naming the first entry or array that breaks a rule of the class comment
     */
    public static DistanceGraph ofCsr(int n, int[] indptr, int[] indices, double[] data) {
        return ofCsr(n, indptr, indices, data, CancellationToken.NEVER);
    }

    /**
     * As {@link #ofCsr(int, int[], int[], double[])}, looking at {@code cancel} every 65 536 rows of each
     * pass over the graph.
     *
     * @throws org.sylva.progress.CancelledException when cancelled
     */
    public static DistanceGraph ofCsr(int n, int[] indptr, int[] indices, double[] data, CancellationToken cancel) {
        Objects.requireNonNull(cancel, "cancel");
        Objects.requireNonNull(indptr, "indptr");
        Objects.requireNonNull(indices, "indices");
        Objects.requireNonNull(data, "data");
        if (n < 0) throw new InvalidInputException("a sparse distance matrix needs n >= 0 points; got " + n);
        if (indptr.length != n + 1) {
            throw new InvalidInputException("sparse distance matrix: indptr has " + indptr.length + " entries, expected n + 1 = "
                    + (n + 1L) + " for " + n + " points");
        }
        if (indices.length != data.length) {
            throw new InvalidInputException("sparse distance matrix: indices has " + indices.length + " entries but data has "
                    + data.length + "; they must match");
        }
        if (indptr[0] != 0 || indptr[n] != indices.length) {
            throw new InvalidInputException("sparse distance matrix: indptr must start at 0 and end at the number of stored "
                    + "entries (" + indices.length + "); it runs from " + indptr[0] + " to " + indptr[n]);
        }
        for (int i = 0; i < n; i++) {
            if (i % ROWS_PER_CHECK == 0) cancel.throwIfCancelled();
            if (indptr[i + 1] < indptr[i]) {
                throw new InvalidInputException("sparse distance matrix: indptr decreases at row " + i + " (" + indptr[i]
                        + " then " + indptr[i + 1] + ")");
            }
        }
        int[] cols = indices.clone();
        double[] vals = data.clone();
        sortRows(n, indptr, cols, vals, cancel);
        for (int i = 0; i < n; i++) {
            if (i % ROWS_PER_CHECK == 0) cancel.throwIfCancelled();
            for (int e = indptr[i]; e < indptr[i + 1]; e++) {
                int j = cols[e];
                double v = vals[e];
                if (j < 0 || j >= n) {
                    throw new InvalidInputException(String.format(Locale.ROOT, "sparse distance matrix: row %d stores "
                            + "column %d, outside [0, %d)", i, j, n));
                }
                if (e > indptr[i] && cols[e - 1] == j) {
                    throw new InvalidInputException(String.format(Locale.ROOT, "sparse distance matrix: row %d stores "
                            + "column %d twice; sum or drop duplicate entries first (scipy: sum_duplicates())", i, j));
                }
                if (!Double.isFinite(v) || v < -PairDistances.ZERO_ATOL) {
                    throw new InvalidInputException(String.format(Locale.ROOT, "sparse distance matrix: entry (%d, %d) "
                            + "is %s; distances must be finite and >= 0%s", i, j, v, v == Double.POSITIVE_INFINITY
                            ? " (a sparse matrix leaves a missing distance out; a dense one may hold inf for it)"
                            : " (round-off down to -1e-9 is read as 0)"));
                }
                if (i == j && v > PairDistances.ZERO_ATOL) {
                    throw new InvalidInputException(String.format(Locale.ROOT, "sparse distance matrix: diagonal entry "
                            + "(%d, %d) is %s; a point's distance to itself must be 0 (round-off up to 1e-9 is read "
                            + "as 0)", i, i, v));
                }
                // -0.0 sorts before 0.0 in the edge order; round-off below 0, and on the diagonal, is a 0
                if (v <= 0 || i == j) vals[e] = 0.0;
            }
        }
        int[] start = indptr.clone();
        symmetrise(n, start, cols, vals, cancel);
        return new DistanceGraph(n, start, cols, vals);
    }

    /** Sorts each row's entries by column (rows already in order, as scipy's canonical form, are left as they are). */
    private static void sortRows(int n, int[] indptr, int[] cols, double[] vals, CancellationToken cancel) {
        int widest = 0;
        for (int i = 0; i < n; i++) widest = Math.max(widest, indptr[i + 1] - indptr[i]);
        long[] keys = null;   // made once, for the widest row, when a first row needs sorting
        double[] tmp = null;
        for (int i = 0; i < n; i++) {
            if (i % ROWS_PER_CHECK == 0) cancel.throwIfCancelled();
            int a = indptr[i], b = indptr[i + 1];
            boolean sorted = true;
            for (int e = a + 1; e < b && sorted; e++) sorted = cols[e - 1] <= cols[e];
            if (sorted) continue;
            int m = b - a;
            if (keys == null) {
                keys = new long[widest];
                tmp = new double[widest];
            }
            // column in the high half, position in the low half: one sort keeps each distance with its column
            for (int e = 0; e < m; e++) keys[e] = ((long) cols[a + e] << 32) | e;
            Arrays.sort(keys, 0, m);
            for (int e = 0; e < m; e++) tmp[e] = vals[a + (int) keys[e]];
            for (int e = 0; e < m; e++) {
                cols[a + e] = (int) (keys[e] >> 32);
                vals[a + e] = tmp[e];
            }
        }
    }

    /**
     * Checks that {@code (j, i)} is stored for every {@code (i, j)}, within tolerance, and writes the upper
     * triangle's value into both. The partners come from one counting transpose (O(entries)); a pattern that is
     * not symmetric is then searched entry by entry, in order, for the first fault to name.
     */
    private static void symmetrise(int n, int[] start, int[] cols, double[] vals, CancellationToken cancel) {
        int nnz = cols.length;
        int[] fill = java.util.Arrays.copyOf(start, n);
        int[] partner = new int[nnz];
        // the entries of column c, rows ascending, land where row c's entries are when the pattern is symmetric
        boolean symmetric = true;
        for (int i = 0; i < n && symmetric; i++) {
            if (i % ROWS_PER_CHECK == 0) cancel.throwIfCancelled();
            for (int e = start[i]; e < start[i + 1]; e++) {
                int at = fill[cols[e]]++;
                if (at >= start[cols[e] + 1]) {   // column cols[e] holds more entries than its row
                    symmetric = false;
                    break;
                }
                partner[at] = e;
            }
        }
        for (int i = 0; i < n && symmetric; i++) {
            if (i % ROWS_PER_CHECK == 0) cancel.throwIfCancelled();
            if (fill[i] != start[i + 1]) symmetric = false;   // column i holds fewer entries than its row
            for (int p = start[i]; p < start[i + 1] && symmetric; p++) {
                int e = partner[p];   // an entry (r, i); p is (i, cols[p]): partners when r == cols[p]
                if (e < start[cols[p]] || e >= start[cols[p] + 1]) symmetric = false;
            }
        }
        if (!symmetric) {
            searchFirstFault(n, start, cols, cancel);
            throw new IllegalStateException("the graph's pattern is not symmetric, yet no entry lacks its partner");
        }
        for (int i = 0; i < n; i++) {
            if (i % ROWS_PER_CHECK == 0) cancel.throwIfCancelled();
            for (int e = start[i]; e < start[i + 1]; e++) {
                int j = cols[e];
                if (j <= i) continue;
                int t = partner[e];
                double a = vals[e], b = vals[t];
                if (Math.abs(a - b) > PairDistances.SYMMETRY_ATOL + PairDistances.SYMMETRY_RTOL * Math.abs(b)) {
                    throw new InvalidInputException(String.format(Locale.ROOT, "sparse distance matrix is not symmetric: "
                            + "entry (%d, %d) is %s but (%d, %d) is %s (symmetrise it, e.g. (G + G.T) / 2)", i, j, a, j, i, b));
                }
                vals[t] = a;
            }
        }
    }

    /** Refuses the first stored entry, in row order, whose partner is not stored. */
    private static void searchFirstFault(int n, int[] start, int[] cols, CancellationToken cancel) {
        for (int i = 0; i < n; i++) {
            if (i % ROWS_PER_CHECK == 0) cancel.throwIfCancelled();
            for (int e = start[i]; e < start[i + 1]; e++) {
                int j = cols[e];
                if (j == i) continue;
                int t = Arrays.binarySearch(cols, start[j], start[j + 1], i);
                if (t < 0) {
                    throw new InvalidInputException(String.format(Locale.ROOT, "sparse distance matrix is not symmetric: "
                            + "entry (%d, %d) is stored but (%d, %d) is not (symmetrise it: from Python, "
                            + "sylva.symmetric_graph(G), which keeps the stored zeros that G.maximum(G.T) drops)", i, j, j, i));
                }
            }
        }
    }

    /** The number of points. */
    public int size() {
        return n;
    }

    /** The number of stored entries (both directions of each edge, and any diagonal entries). */
    public int storedEntries() {
        return columns.length;
    }

    /** The most entries any row stores. */
    public int widestRow() {
        return widestRow;
    }

    /** The number of entries stored in row {@code i}. */
    public int rowLength(int i) {
        return rowStart[i + 1] - rowStart[i];
    }

    /** The position of row {@code i}'s first entry (rows are consecutive, each sorted by column). */
    public int rowStart(int i) {
        return rowStart[i];
    }

    /** The column of the entry at {@code position}. */
    public int column(int position) {
        return columns[position];
    }

    /** The distance of the entry at {@code position}: the upper triangle's value of its pair. */
    public double distance(int position) {
        return distances[position];
    }
}
