package org.sylva.io;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackInputStream;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import org.sylva.data.InvalidInputException;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * Reads numeric delimited text (CSV, TSV, whitespace-separated) into a {@link NumericTable} of
 * float64 values, each decimal correctly rounded (as {@code numpy.loadtxt} reads text). Every row must
 * have the same number of values; blank lines and lines starting with
 * {@code #} (as {@code numpy.savetxt} writes headers) are skipped; cells may be quoted
 * ({@code "1.5"}, RFC 4180 style) and surrounded by spaces; a UTF-8 byte-order mark is ignored.
 * Values are decimal numbers ({@code 1}, {@code -2.5}, {@code .5}, {@code 1e-3}) or, in any case,
 * {@code nan}, {@code inf}, {@code infinity} with an optional sign: they are read as values, the caller
 * decides whether to accept them.
 *
 * <p>Header row: with {@link Header#AUTO} (the default) the first row is a header when <em>none</em>
 * of its cells is a number and not every cell begins as a number does; a first row mixing numbers and
 * text, or of cells such as {@code 1.5f} or {@code 0x10} only, is an error naming the first non-numeric
 * cell (a typo in the first data row must not silently become a header). Errors are
 * {@link InvalidInputException}s naming the file, line and column: {@code "pts.csv line 3, column 2:
 * 'abc' is not a number"}, {@code "pts.csv line 17: 5 values, expected 4 (as on line 2)"}, or the file
 * being empty.
 *
 * <pre>{@code
 * NumericTable t = DelimitedReader.forFile("points.tsv").read(Path.of("points.tsv"));
 * NumericTable u = DelimitedReader.of(DelimitedReader.Delimiter.COMMA).withHeader(DelimitedReader.Header.ABSENT)
 *         .read(System.in, "-");
 * }</pre>
 */
public final class DelimitedReader {
    /**
     * How cells are separated.
     *
     * <pre>{@code
     * DelimitedReader r = DelimitedReader.of(DelimitedReader.Delimiter.forFileName("points.tsv"));   // TAB
     * }</pre>
     */
    public enum Delimiter {
        /** {@code ,} (spaces and tabs around cells are ignored). */
        COMMA,
        /** a tab character (spaces around cells are ignored). */
        TAB,
        /** any run of spaces and tabs, as {@code numpy.loadtxt} by default. */
        WHITESPACE,
        /**
         * decided from the first non-blank, non-comment line: tab if it has one between values, else comma, else
         * whitespace; a tab-separated line may start or end in tabs, which are ignored as {@code numpy.loadtxt}
         * ignores leading and trailing whitespace.
         */
        AUTO;

        /** {@code .csv} -> COMMA, {@code .tsv}/{@code .tab} -> TAB, anything else (e.g. {@code .txt}) -> AUTO. */
        public static Delimiter forFileName(String name) {
            String n = name.toLowerCase(Locale.ROOT);
            if (n.endsWith(".csv")) return COMMA;
            if (n.endsWith(".tsv") || n.endsWith(".tab")) return TAB;
            return AUTO;
        }
    }

    /**
     * Whether the first row holds column names.
     *
     * <pre>{@code
     * DelimitedReader r = DelimitedReader.forFile("data.csv").withHeader(DelimitedReader.Header.ABSENT);
     * }</pre>
     */
    public enum Header {
        /** a header exactly when no cell of the first row is a number. */
        AUTO,
        PRESENT,
        ABSENT
    }

    /** Longest cell accepted; numbers are short, and a binary file read as text must fail fast. */
    static final int MAX_CELL_CHARS = 10_000;
    /**
     * Most values one row may hold: far beyond any point's dimension Sylva clusters, and small enough that
     * the first row (kept as text until the header is decided) stays a few tens of megabytes; a longer row
     * is refused as soon as it passes the limit, not after filling the heap.
     */
    static final int MAX_COLUMNS = 1_000_000;
    private static final int SNIFF_LIMIT = 1 << 20;
    static final long MAX_ELEMENTS = Integer.MAX_VALUE - 8;

    private final Delimiter delimiter;
    private final Header header;
    /** Whether a decimal beyond float64's range reads as an infinity of its sign (see {@link #withOverflowToInfinity}). */
    private final boolean overflowToInfinity;

    private DelimitedReader(Delimiter delimiter, Header header) {
        this(delimiter, header, false);
    }

    private DelimitedReader(Delimiter delimiter, Header header, boolean overflowToInfinity) {
        this.delimiter = Objects.requireNonNull(delimiter, "delimiter");
        this.header = Objects.requireNonNull(header, "header");
        this.overflowToInfinity = overflowToInfinity;
    }

    /** A reader whose delimiter follows the file name's extension, header detected. */
    public static DelimitedReader forFile(String fileName) {
        return new DelimitedReader(Delimiter.forFileName(fileName), Header.AUTO);
    }

    public static DelimitedReader of(Delimiter delimiter) {
        return new DelimitedReader(delimiter, Header.AUTO);
    }

    public DelimitedReader withDelimiter(Delimiter d) {
        return new DelimitedReader(d, header, overflowToInfinity);
    }

    public DelimitedReader withHeader(Header h) {
        return new DelimitedReader(delimiter, h, overflowToInfinity);
    }

    /**
     * A reader that reads a decimal beyond float64's range ({@code 1e400}, {@code -1e999}) as an infinity of its sign,
     * as {@code numpy.loadtxt} does, for a caller that leaves non-finite rows out; by default such a cell is an error
     * naming it ("beyond the float64 range"), which says more than the infinity a check would find later.
     */
    public DelimitedReader withOverflowToInfinity(boolean on) {
        return new DelimitedReader(delimiter, header, on);
    }

    public Delimiter delimiter() {
        return delimiter;
    }

    public Header header() {
        return header;
    }

    /** Reads a file; a missing or unreadable file is an {@link InvalidInputException} naming it. */
    public NumericTable read(Path path) throws IOException {
        return read(path, CancellationToken.NEVER);
    }

    /** As {@link #read(Path)}, checking {@code cancel} before every read of at most 1 MiB. */
    public NumericTable read(Path path, CancellationToken cancel) throws IOException {
        return read(path, cancel, ProgressListener.NONE);
    }

    /**
     * As {@link #read(Path, CancellationToken)}, telling {@code progress} the bytes read of a regular file's size as
     * the stage {@code "reading NAME"} (a pipe or FIFO, whose length is not known beforehand, tells nothing).
     */
    public NumericTable read(Path path, CancellationToken cancel, ProgressListener progress) throws IOException {
        String source = path.toString();
        if (Files.isDirectory(path)) throw new InvalidInputException(source + ": is a directory, not a text file");
        long size = Files.isRegularFile(path) ? Files.size(path) : 0;
        InputStream in = InputFiles.open(path, (reason, e) -> new InvalidInputException(source + ": " + reason, e));
        try (InputStream open = size > 0 ? CancellableInputStream.of(in, cancel, progress, readingStage(path), size)
                : CancellableInputStream.of(in, cancel)) {
            return read(open, source);
        }
    }

    /** The stage in which {@link #read(Path, CancellationToken, ProgressListener)} tells its progress. */
    public static String readingStage(Path path) {
        Path name = path.getFileName();
        return "reading " + (name == null ? path : name);
    }

    /**
     * Reads UTF-8 text from a stream (not closed); {@code sourceName} names it in messages. UTF-16 text (Excel's
     * "Unicode text"), told by its byte-order mark, is refused as such: decoded as UTF-8 it would be a NUL between
     * characters and be called binary.
     */
    public NumericTable read(InputStream in, String sourceName) throws IOException {
        PushbackInputStream p = new PushbackInputStream(in, 4);
        byte[] head = p.readNBytes(4);
        p.unread(head);
        // the mark and a first character of text after it (its high byte 0, as for every digit, sign or letter of a
        // table): two bytes alone are as likely the start of binary data, which gets the binary advice below
        if (head.length == 4 && (head[0] == (byte) 0xFF && head[1] == (byte) 0xFE && head[3] == 0
                || head[0] == (byte) 0xFE && head[1] == (byte) 0xFF && head[2] == 0)) {
            throw new InvalidInputException((sourceName.equals("-") ? "standard input" : sourceName) + " is UTF-16 "
                    + "text (it starts with UTF-16's byte-order mark, as Excel's \"Unicode text\" does): save it as "
                    + "UTF-8 (Excel: CSV UTF-8)");
        }
        Reader r = new InputStreamReader(p, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE));
        return read(r, sourceName);
    }

    /** Reads from a character stream (not closed). */
    public NumericTable read(Reader reader, String sourceName) throws IOException {
        BufferedReader in = new BufferedReader(reader, 1 << 13);
        StringBuilder prefix = new StringBuilder();
        Delimiter d = delimiter == Delimiter.AUTO ? sniff(in, prefix) : delimiter;
        return new DelimitedParser(in, prefix, sourceName, d, header, delimiter == Delimiter.AUTO, overflowToInfinity).parse();
    }

    /**
     * Refuses input whose first row is not text (its cells, {@code firstRow}): a NUL or another control
     * character than tab, line and page breaks, or mostly bytes that are not UTF-8. Raw float32 on standard
     * input, or a binary file named {@code .csv}, would otherwise have its first line taken for a header and
     * fail on the second with a line of mangled bytes. (Text in another encoding, a Latin-1 header, has no control characters and
     * few undecodable bytes, so it still reads.)
     */
    static void refuseBinary(CharSequence firstRow, String sourceName) {
        String source = sourceName.equals("-") ? "standard input" : sourceName;
        // NumPy's magic (0x93 "NUMPY") as decoded text: the byte that is not UTF-8, then the word
        if (firstRow.length() >= 6 && firstRow.subSequence(0, 6).toString().equals("\uFFFDNUMPY")) {
            throw new InvalidInputException(source + " is a .npy file (it starts with NumPy's magic bytes), not "
                    + "delimited text: name it .npy" + (sourceName.equals("-") ? "" : " to read it"));
        }
        int undecodable = 0;
        for (int i = 0; i < firstRow.length(); i++) {
            char c = firstRow.charAt(i);
            if (c == '\uFFFD') undecodable++;
            boolean control = c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x0B;
            if (control || undecodable > 8 && undecodable * 4 > i) {
                String what = control ? String.format(java.util.Locale.ROOT, "the control character 0x%02x",
                        (int) c) : "mostly bytes that are not UTF-8 text";
                throw new InvalidInputException(source
                        + " does not look like delimited text (its first row holds " + what + "); a binary input is"
                        + " read as .npy (by its magic bytes) or as raw little-endian float32 with --shape N,D");
            }
        }
    }

    /**
     * Reads up to the end of the first non-blank, non-comment line (at most 1 MiB of text) into
     * {@code consumed}, which the parser then reads first, and decides the delimiter from that line: a tab counts
     * only between values, so that whitespace-separated lines ending in a tab (which {@code numpy.loadtxt} reads)
     * are not taken for tab-separated ones. (Not mark/reset: BufferedReader allocates the whole mark limit up front.)
     */
    private static Delimiter sniff(BufferedReader in, StringBuilder consumed) throws IOException {
        boolean lineStart = true, comment = false, content = false, comma = false, tab = false, tabAfterContent = false;
        for (int i = 0; i < SNIFF_LIMIT; i++) {
            int c = in.read();
            if (c < 0) break;
            consumed.append((char) c);
            if (c == '\n' || c == '\r') {
                if (content) break;
                lineStart = true;
                comment = false;
                continue;
            }
            if (comment) continue;
            if (c == '\t') {
                tabAfterContent |= content;
                continue;
            }
            if (c == ' ' || c == '\uFEFF') continue;
            if (lineStart && !content && c == '#') {
                comment = true;
                continue;
            }
            lineStart = false;
            content = true;
            tab |= tabAfterContent;
            if (c == ',') comma = true;
        }
        return tab ? Delimiter.TAB : comma ? Delimiter.COMMA : Delimiter.WHITESPACE;
    }

    /**
     * The float64 value of a cell (the decimal correctly rounded, as {@code numpy.loadtxt} reads it), or
     * null when it is not a number or a finite decimal overflows float64 (the caller tells those apart for
     * its message).
     */
    static Double number(CharSequence s) {
        if (isDecimal(s)) {
            double f = DecimalParser.parse(s);
            return Double.isInfinite(f) ? null : f;
        }
        String t = s.toString();
        boolean negative = false;
        if (!t.isEmpty() && (t.charAt(0) == '+' || t.charAt(0) == '-')) {
            negative = t.charAt(0) == '-';
            t = t.substring(1);
        }
        if (t.equalsIgnoreCase("nan")) return Double.NaN;
        if (t.equalsIgnoreCase("inf") || t.equalsIgnoreCase("infinity")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return null;
    }

    /** A number, or a decimal too large for float64 (still "numeric" when deciding about a header). */
    static boolean looksNumeric(String s) {
        return isDecimal(s) || number(s) != null;
    }

    /** Whether {@code s} begins as a decimal does: an ASCII digit, after an optional sign and point. */
    static boolean startsLikeNumber(String s) {
        int i = 0, n = s.length();
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
        if (i < n && s.charAt(i) == '.') i++;
        return i < n && isDigit(s.charAt(i));
    }

    /** {@code [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?}, ASCII digits only. */
    static boolean isDecimal(CharSequence s) {
        int n = s.length(), i = 0;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
        int intDigits = 0, fracDigits = 0;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
            intDigits++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                fracDigits++;
            }
        }
        if (intDigits + fracDigits == 0) return false;
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
            int expDigits = 0;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                expDigits++;
            }
            if (expDigits == 0) return false;
        }
        return i == n;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static String quote(String text) {
        return NpyHeader.quoted(text);
    }

    static String describe(int c) {
        if (c >= 0x20 && c < 0x7f) return "'" + (char) c + "'";
        return String.format("character U+%04X", c);
    }
}
