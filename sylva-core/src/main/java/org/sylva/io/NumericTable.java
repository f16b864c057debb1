package org.sylva.io;

import java.util.List;
import java.util.Optional;
import org.sylva.data.PointSet;

/**
 * A rectangular table of float32 values read from delimited text ({@link DelimitedReader}): its
 * shape, its row-major values and the header row's names when the file had one. Immutable:
 * {@link #values()} returns a copy.
 *
 * <pre>{@code
 * NumericTable t = DelimitedReader.forFile("points.csv").read(Path.of("points.csv"));
 * PointSet pts = t.toPointSet();                  // t.rows() x t.columns(), finiteness not checked
 * t.header().ifPresent(names -> System.out.println(names));
 * }</pre>
 */
public final class NumericTable {
    private final String source;
    private final int rows;
    private final int columns;
    private final float[] values;
    private final List<String> header;

    NumericTable(String source, int rows, int columns, float[] values, List<String> header) {
        this.source = source;
        this.rows = rows;
        this.columns = columns;
        this.values = values;
        this.header = header == null ? null : List.copyOf(header);
    }

    /** The file the table was read from ({@code "-"} for standard input). */
    public String source() {
        return source;
    }

    public int rows() {
        return rows;
    }

    public int columns() {
        return columns;
    }

    /** {@code {rows, columns}}. */
    public int[] shape() {
        return new int[] {rows, columns};
    }

    /** A copy of the values, row-major ({@code values[r * columns + c]}); NaN and infinities kept as read. */
    public float[] values() {
        return values.clone();
    }

    /** The header row's cell texts, when the file had a header row. */
    public Optional<List<String>> header() {
        return Optional.ofNullable(header);
    }

    /** The table as {@code rows x columns} points; finiteness is not checked (callers decide). */
    public PointSet toPointSet() {
        return PointSet.unchecked(rows, columns, values.clone());
    }

    /** As {@link #toPointSet()} without the copy; for readers that drop the table afterwards. */
    PointSet toPointSetTransferring() {
        return PointSet.unchecked(rows, columns, values);
    }

    @Override
    public String toString() {
        return "NumericTable[" + rows + " x " + columns + " from " + source + (header != null ? ", with header" : "") + "]";
    }
}
