package org.sylva.io;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.sylva.data.PointSet;

/**
 * A rectangular table of float64 values read from delimited text ({@link DelimitedReader}): its
 * shape, its row-major values and the header row's names when the file had one. Immutable:
 * {@link #values()} returns a copy.
 *
 * <pre>{@code
 * NumericTable t = DelimitedReader.forFile("points.csv").read(Path.of("points.csv"));
 * PointSet pts = t.toPointSet();                  // float64, t.rows() x t.columns(), finiteness not checked
 * t.header().ifPresent(names -> System.out.println(names));
 * }</pre>
 */
public final class NumericTable {
    private final String source;
    private final int rows;
    private final int columns;
    private final double[] values;
    private final List<String> header;
    private final String note;
    private final int[] lines;

    NumericTable(String source, int rows, int columns, double[] values, List<String> header) {
        this(source, rows, columns, values, header, null, null);
    }

    NumericTable(String source, int rows, int columns, double[] values, List<String> header, String note, int[] lines) {
        this.note = note;
        this.lines = lines;
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
    public double[] values() {
        return values.clone();
    }

    /**
     * Something about the file worth a warning, though it was read as it says: a first row of the column
     * numbers 0, 1, ..., d-1 (what pandas writes as the header of unnamed columns) is a point, since every
     * cell of it is a number, but probably was meant as a header.
     */
    public Optional<String> note() {
        return Optional.ofNullable(note).map(n -> source + ": " + n);
    }

    /**
     * The line of the source (counting from 1) on which data row {@code row} stands, past any header, comment
     * and blank lines; -1 where the table was not read from text line by line.
     */
    public int line(int row) {
        Objects.checkIndex(row, rows);
        return lines == null ? -1 : lines[row];
    }

    /** The header row's cell texts, when the file had a header row. */
    public Optional<List<String>> header() {
        return Optional.ofNullable(header);
    }

    /** The table as {@code rows x columns} float64 points, exactly as read; finiteness is not checked (callers decide). */
    public PointSet toPointSet() {
        return PointSet.uncheckedFloat64(rows, columns, values.clone());
    }

    /**
     * The values rounded to float32 (the float64 value rounded to nearest, as NumPy's {@code astype(np.float32)}
     * does). A decimal is rarely a float32 value, so rounding is expected and silent; a value beyond the
     * float32 range, which becomes infinite, is not: if there are any, {@code warnings} receives one message
     * naming the file, how many and the first of them.
     */
    public float[] toFloat32(Consumer<String> warnings) {
        return toFloat32(warnings, false);
    }

    /**
     * As {@link #toFloat32(Consumer)}; with {@code digits}, also one warning when some values carry more
     * significant digits than float32 holds, so that rounding changed the number the text wrote (16777217
     * becomes 16777216, 0.123456789 becomes 0.12345679), naming how many and the first. A short decimal such
     * as 0.1 is not float32 either, but its float32 reads back as the same decimal: it is not counted.
     */
    public float[] toFloat32(Consumer<String> warnings, boolean digits) {
        Objects.requireNonNull(warnings, "warnings");
        float[] out = new float[values.length];
        long overflow = 0, longer = 0;
        int first = -1, firstLonger = -1;
        for (int i = 0; i < values.length; i++) {
            double v = values[i];
            float r = (float) v;
            out[i] = r;
            if (Float.isInfinite(r) && !Double.isInfinite(v)) {
                overflow++;
                if (first < 0) first = i;
            } else if (digits && r != v && v == v && Double.parseDouble(Float.toString(r)) != v) {
                // the shortest decimal that names r is not the value read: the text said more than r holds
                longer++;
                if (firstLonger < 0) firstLonger = i;
            }
        }
        if (longer > 0) {
            warnings.accept(source + ": " + longer + " of " + values.length + " values have more significant digits"
                    + " than float32 holds and were rounded (first: " + values[firstLonger] + " became "
                    + out[firstLonger] + ", at row " + firstLonger / columns + ", column " + firstLonger % columns
                    + ", counting from 0)");
        }
        if (overflow > 0) {
            warnings.accept(source + ": " + overflow + " of " + values.length + " values exceed the float32 range (about"
                    + " 3.4e38) and became infinite (first: " + values[first] + " at row " + first / columns + ", column "
                    + first % columns + ", counting from 0)");
        }
        return out;
    }

    /**
     * The table as float32 points ({@link #toFloat32}); {@link #note()} goes to {@code warnings} too; finiteness
     * is not checked.
     */
    public PointSet toFloat32PointSet(Consumer<String> warnings) {
        return toFloat32PointSet(warnings, false);
    }

    /**
     * The table as float32 points ({@link #toFloat32(Consumer, boolean)}, with {@code digits}); {@link #note()}
     * goes to {@code warnings} too; finiteness is not checked.
     */
    public PointSet toFloat32PointSet(Consumer<String> warnings, boolean digits) {
        note().ifPresent(warnings);
        return PointSet.unchecked(rows, columns, toFloat32(warnings, digits));
    }

    @Override
    public String toString() {
        return "NumericTable[" + rows + " x " + columns + " from " + source + (header != null ? ", with header" : "") + "]";
    }
}
