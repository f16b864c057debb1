package org.sylva.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sylva.data.InvalidInputException;
import org.sylva.io.DelimitedReader.Delimiter;
import org.sylva.io.DelimitedReader.Header;

/**
 * The character-level state machine of {@link DelimitedReader}: one instance per read, one pass over the
 * characters, every loop bounded by the input's length. Records, quoting, the header decision and every
 * message naming a line and a column live here; the reader chooses the delimiter and the header mode.
 *
 * <pre>{@code
 * NumericTable t = new DelimitedParser(in, "", "points.csv", Delimiter.COMMA, Header.AUTO, false, false).parse();
 * }</pre>
 */
final class DelimitedParser {
    private static final int EOF = -1;

    private final BufferedReader in;
    private final CharSequence prefix;
    private int prefixPos;
    private final String source;
    private final Delimiter delim;
    private final Header headerMode;
    /**
     * The delimiter was found from the first line (a {@code .txt}, standard input), not given by the name: tabs
     * that end a tab-separated line are whitespace, as {@code numpy.loadtxt}'s default delimiter takes them (a
     * {@code .tsv} is read as {@code delimiter='\t'} is, where they are empty values), and a hint about another
     * separator does not advise a {@code .txt} name.
     */
    private final boolean sniffed;
    /** A decimal beyond float64's range reads as an infinity of its sign ({@link DelimitedReader#withOverflowToInfinity}). */
    private final boolean overflowToInfinity;

    private int line = 1;
    private final char[] buf = new char[1 << 13];
    private int bufPos;
    private int bufLen;

    private double[] values = new double[1024];
    private long count;          // values stored
    private int columns = -1;    // known after the first row (header or data)
    private int rows;
    private int firstDataLine = -1;
    /** The line each data row stands on (1-based), for messages about a row's values once the table is read. */
    private int[] rowLines = new int[1024];
    private List<String> headerNames;
    private int headerLine = -1;
    private boolean firstRecordPending = true;
    /** Set when the first row, read as data, looks like a header of column numbers (see {@link NumericTable#note()}). */
    private String firstRowNote;
    private final List<String> firstCells = new ArrayList<>();
    private final List<Integer> firstCellLines = new ArrayList<>();

    // Current record.
    private int recordLine;
    private int col;             // cells seen in the current record
    private final StringBuilder cell = new StringBuilder();
    private boolean quoted;      // the current cell was quoted ("" is an empty value given as such)

    /** {@code overflowToInfinity}: a decimal beyond float64's range reads as an infinity of its sign. */
    DelimitedParser(BufferedReader in, CharSequence prefix, String source, Delimiter delim, Header headerMode,
            boolean sniffed, boolean overflowToInfinity) {
        this.overflowToInfinity = overflowToInfinity;
        this.in = in;
        this.prefix = prefix;
        this.source = source;
        this.delim = delim;
        this.headerMode = headerMode;
        this.sniffed = sniffed;
    }

    NumericTable parse() throws IOException {
        int c = read();
        if (c == '\uFEFF') c = read();
        boolean sawAnything = c != EOF;
        // One iteration per record (or skipped line); each consumes at least one character.
        while (c != EOF) {
            boolean leadingTab = false;
            while (c == ' ' || c == '\t') {
                leadingTab |= c == '\t';
                c = read();
            }
            if (c == EOF) break;
            if (c == '\n' || c == '\r') {
                c = endOfLine(c);
                continue;
            }
            if (c == '#') {
                c = skipToEndOfLine(c);
                continue;
            }
            if (leadingTab && delim == Delimiter.TAB && !sniffed) {
                // In a .tsv a tab before the first value delimits an empty first cell (skipping it would shift
                // columns); a .txt's tab-separated lines may start with tabs as they may end in them, both
                // whitespace to numpy.loadtxt, whose default delimiter a .txt is read as.
                throw cellError(line, 1, "empty value");
            }
            c = record(c);
        }
        if (firstRecordPending) {
            throw new InvalidInputException(source + ": " + (sawAnything
                    ? "no data (only blank lines and comments)" : "empty file (no data)"));
        }
        double[] v = count == values.length ? values : Arrays.copyOf(values, (int) count);
        return new NumericTable(source, rows, columns, v, headerNames, firstRowNote, Arrays.copyOf(rowLines, rows));
    }

    /** Parses one record starting at its first non-space character; returns the char after its end. */
    private int record(int c) throws IOException {
        recordLine = line;
        col = 0;
        int at = c;
        // empty cells held back until a value follows them: in a sniffed tab file they may be tabs ending the line
        boolean holdEmpty = sniffed && delim == Delimiter.TAB;
        int held = 0, heldLine = 0;
        // One iteration per cell; each cell consumes at least its delimiter or line end.
        while (true) {
            col++;
            if (col > DelimitedReader.MAX_COLUMNS) {
                throw error(recordLine, "more than " + DelimitedReader.MAX_COLUMNS + " values in one row, the most"
                        + " a row may hold (is the delimiter right, or is the table transposed?)");
            }
            at = cellText(at);
            int cellLine = line;
            if (holdEmpty && cell.isEmpty() && !quoted) {
                if (held++ == 0) heldLine = cellLine;
            } else {
                int now = col;
                for (col = now - held; col < now; col++) finishCell("", heldLine);   // empty values after all
                held = 0;
                finishCell(cell, cellLine);
            }
            if (delim == Delimiter.WHITESPACE) at = skipInlineSpace(at, true);
            if (at == EOF || at == '\n' || at == '\r') {
                col -= held;   // trailing tabs end the line
                finishRecord();
                return at == EOF ? EOF : endOfLine(at);
            }
            if (delim == Delimiter.WHITESPACE) continue; // at is the first char of the next cell
            // at is the delimiter
            at = read();
        }
    }

    /** Reads one cell into {@link #cell}; returns the char that ended it (delimiter, line end or EOF). */
    private int cellText(int c) throws IOException {
        cell.setLength(0);
        c = skipInlineSpace(c, delim != Delimiter.TAB);
        quoted = c == '"';
        if (quoted) {
            int openLine = line;
            // Quoted: up to the closing quote; "" is a quote; line breaks inside are kept.
            while (true) {
                c = read();
                if (c == EOF) {
                    throw error(openLine, "a quoted value opened in column " + col + " is never closed");
                }
                if (c == '"') {
                    c = read();
                    if (c != '"') break;
                }
                if (c == '\n') line++;
                append((char) c);
            }
            c = skipInlineSpace(c, delim != Delimiter.TAB);
            if (!isCellEnd(c)) {
                throw cellError(line, col, "unexpected " + DelimitedReader.describe(c) + " after a closing quote");
            }
            return c;
        }
        while (!isCellEnd(c)) {
            append((char) c);
            c = read();
        }
        // Trim trailing spaces (and tabs, unless they delimit).
        int end = cell.length();
        while (end > 0 && (cell.charAt(end - 1) == ' ' || (delim != Delimiter.TAB && cell.charAt(end - 1) == '\t'))) {
            end--;
        }
        cell.setLength(end);
        return c;
    }

    private boolean isCellEnd(int c) {
        if (c == EOF || c == '\n' || c == '\r') return true;
        return switch (delim) {
            case COMMA -> c == ',';
            case TAB -> c == '\t';
            default -> c == ' ' || c == '\t';
        };
    }

    private void append(char ch) {
        if (cell.length() >= DelimitedReader.MAX_CELL_CHARS) {
            throw cellError(line, col, "value longer than " + DelimitedReader.MAX_CELL_CHARS
                    + " characters (is this a text file with the right delimiter?)");
        }
        cell.append(ch);
    }

    private void finishCell(CharSequence text, int cellLine) {
        if (firstRecordPending) {
            firstCells.add(text.toString());
            firstCellLines.add(cellLine);
            return;
        }
        store(parseCell(text, recordLine, col));
    }

    private void finishRecord() {
        if (firstRecordPending) {
            firstRecordPending = false;
            decideFirstRow();
            return;
        }
        if (col != columns) {
            String ref = headerNames != null ? "as in the header on line " + headerLine : "as on line " + firstDataLine;
            throw error(recordLine, col + " value" + (col == 1 ? "" : "s") + ", expected " + columns + " (" + ref + ")");
        }
        if (firstDataLine < 0) firstDataLine = recordLine;
        rowOnLine(recordLine);
        rows++;
    }

    /** Notes that data row {@code rows} stands on {@code line}. */
    private void rowOnLine(int line) {
        if (rows == rowLines.length) rowLines = Arrays.copyOf(rowLines, (int) Math.min(2L * rows, Integer.MAX_VALUE - 8));
        rowLines[rows] = line;
    }

    private void decideFirstRow() {
        DelimitedReader.refuseBinary(String.join("", firstCells), source);
        int n = firstCells.size();
        int numeric = 0, numberLike = 0;
        for (String s : firstCells) {
            if (DelimitedReader.looksNumeric(s)) numeric++;
            if (DelimitedReader.startsLikeNumber(s)) numberLike++;
        }
        // a row whose every cell starts as a number does (1.5f, 1d1, 0x10) is a mistyped point, not names: it is
        // parsed as a point, and its first bad cell named, where it would otherwise vanish as a header
        boolean isHeader = switch (headerMode) {
            case PRESENT -> true;
            case ABSENT -> false;
            case AUTO -> numeric == 0 && numberLike < n;
        };
        columns = n;
        if (isHeader) {
            headerNames = List.copyOf(firstCells);
            headerLine = recordLine;
            if (n >= 2 && firstCells.get(0).isEmpty()) {
                firstRowNote = "line " + recordLine + ", the header, leaves its first column unnamed, as pandas' to_csv"
                        + " names its row index; that column was read as a coordinate (write the file with"
                        + " index=False to leave it out)";
            }
        } else {
            if (n >= 2 && firstCells.get(0).isEmpty() && countsFrom(1)) {
                throw cellError(firstCellLines.get(0), 1, "empty value (the line reads " + String.join(",", firstCells)
                        + ", the header pandas' to_csv writes with the row index as a first column; write the file"
                        + " with index=False)");
            }
            for (int i = 0; i < n; i++) store(parseCell(firstCells.get(i), firstCellLines.get(i), i + 1));
            firstDataLine = recordLine;
            rowOnLine(recordLine);
            rows = 1;
            if (headerMode == Header.AUTO && n >= 2) {
                if (countsFrom(0)) {
                    firstRowNote = "line " + recordLine + " reads " + (n <= 4 ? String.join(", ", firstCells)
                            : "0, 1, ..., " + (n - 1)) + ", as pandas writes the names of unnamed columns (to_csv"
                            + " without header=False); it was read as a point";
                }
            }
        }
        firstCells.clear();
        firstCellLines.clear();
    }

    /** True when the first row's cells from {@code from} on read 0, 1, 2, ... (pandas' unnamed columns). */
    private boolean countsFrom(int from) {
        for (int i = from; i < firstCells.size(); i++) {
            if (!firstCells.get(i).equals(Integer.toString(i - from))) return false;
        }
        return true;
    }

    private void store(double v) {
        // Cells beyond the expected count are not stored: the row is refused when it ends.
        if (columns >= 0 && col > columns) return;
        if (count >= DelimitedReader.MAX_ELEMENTS) {
            throw error(recordLine, "more than " + DelimitedReader.MAX_ELEMENTS + " values, beyond a Java array's limit");
        }
        if (count == values.length) {
            values = Arrays.copyOf(values, (int) Math.min(DelimitedReader.MAX_ELEMENTS, (long) values.length * 2));
        }
        values[(int) count++] = v;
    }

    private double parseCell(CharSequence cellText, int atLine, int column) {
        Double v = DelimitedReader.number(cellText);
        if (v != null) return v;
        String text = cellText.toString();
        if (text.isEmpty()) {
            throw cellError(atLine, column, "empty value");
        }
        if (DelimitedReader.isDecimal(text)) {
            if (overflowToInfinity) return text.charAt(0) == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            throw cellError(atLine, column, DelimitedReader.quote(text) + " is beyond the float64 range");
        }
        throw cellError(atLine, column, DelimitedReader.quote(text) + " is not a number" + separatorHint(text));
    }

    /**
     * A hint when a cell that is not a number holds another common separator between numbers
     * ({@code 1;2;3} in a comma file): the file's separator is likely another one. Empty otherwise.
     */
    private String separatorHint(String text) {
        String expected = switch (delim) {
            case COMMA -> "','";
            case TAB -> "a tab";
            case WHITESPACE -> "spaces";
            case AUTO -> null;
        };
        if (expected == null) return "";
        for (char c : new char[] {';', '\t', '|', ' ', ','}) {
            if (c == ',' && delim == Delimiter.COMMA) continue;
            String[] parts = text.split(java.util.regex.Pattern.quote(String.valueOf(c)), -1);
            if (parts.length < 2) continue;
            boolean numbers = true;
            for (String part : parts) numbers &= DelimitedReader.number(part.strip()) != null;
            // ',' only where it cannot be a decimal comma ('1,5' in a tab file): three values, or a point in one
            if (c == ',' && parts.length == 2 && !text.contains(".")) numbers = false;
            if (numbers) {
                String sep = c == '\t' ? "tabs" : c == ' ' ? "spaces" : "'" + c + "'";
                // a sniffed separator is the first line's: naming the file .txt or .csv would not read that line
                String advice = sniffed && (c == '\t' || c == ' ' || c == ',')
                        ? "; the separator is found from the first line: use the same one on every line"
                        : c == '\t' || c == ' ' ? "; name it .txt to have the separator found from its first line"
                        : c == ',' ? "; name it .csv" : "; write it with " + expected + " between values";
                return " (the values look separated by " + sep + ", but this file is read with " + expected
                        + " between values" + advice + ")";
            }
        }
        return "";
    }

    private int skipInlineSpace(int c, boolean tabsToo) throws IOException {
        while (c == ' ' || (tabsToo && c == '\t')) c = read();
        return c;
    }

    private int skipToEndOfLine(int c) throws IOException {
        while (c != EOF && c != '\n' && c != '\r') c = read();
        return c == EOF ? EOF : endOfLine(c);
    }

    /** Consumes a line end (\n, \r\n or \r) given its first char; returns the next char. */
    private int endOfLine(int c) throws IOException {
        line++;
        int next = read();
        if (c == '\r' && next == '\n') next = read();
        return next;
    }

    /** Next char from a local buffer: BufferedReader.read() takes a lock per call, too slow per character. */
    private int read() throws IOException {
        if (prefixPos < prefix.length()) return prefix.charAt(prefixPos++);
        if (bufPos == bufLen) {
            bufLen = in.read(buf, 0, buf.length);
            bufPos = 0;
            if (bufLen <= 0) {
                bufLen = 0;
                return EOF;
            }
        }
        return buf[bufPos++];
    }

    private InvalidInputException cellError(int atLine, int column, String problem) {
        return new InvalidInputException(source + " line " + atLine + ", column " + column + ": " + problem);
    }

    private InvalidInputException error(int atLine, String problem) {
        return new InvalidInputException(source + " line " + atLine + ": " + problem);
    }
}
