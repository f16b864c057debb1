package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.InvalidInputException;
import org.sylva.io.DelimitedReader.Delimiter;
import org.sylva.io.DelimitedReader.Header;

/** CSV/TSV/whitespace text: header detection, quoting, comments, and errors naming line and column. */
class DelimitedReaderTest {
    @TempDir
    Path dir;

    private NumericTable read(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return DelimitedReader.forFile(name).read(p);
    }

    private String error(String name, String text) {
        Path p = dir.resolve(name);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> {
            Files.writeString(p, text);
            DelimitedReader.forFile(name).read(p);
        });
        assertTrue(e.getMessage().startsWith(p.toString()), e.getMessage());
        return e.getMessage().substring(p.toString().length());
    }

    @Test
    void plainCsv() throws IOException {
        NumericTable t = read("a.csv", "1,2,3\n4.5,-5e-1,.25\n");
        assertEquals(2, t.rows());
        assertEquals(3, t.columns());
        assertArrayEquals(new double[] {1, 2, 3, 4.5, -0.5, 0.25}, t.values());
        assertEquals(Optional.empty(), t.header());
    }

    @Test
    void headerIsDetectedWhenNoCellIsANumber() throws IOException {
        NumericTable t = read("h.csv", "x,y\n1,2\n3,4\n");
        assertEquals(Optional.of(List.of("x", "y")), t.header());
        assertEquals(2, t.rows());
        NumericTable q = read("q.csv", "\"x, in mm\",\"y\"\n1,2\n");
        assertEquals(Optional.of(List.of("x, in mm", "y")), q.header());
        // A header alone is a table of zero rows with the header's width.
        NumericTable empty = read("e.csv", "a,b,c\n");
        assertEquals(0, empty.rows());
        assertEquals(3, empty.columns());
    }

    @Test
    void firstRowMixingNumbersAndTextIsAnErrorNotAHeader() {
        assertEquals(" line 1, column 2: 'abc' is not a number", error("m.csv", "1.0,abc\n2,3\n"));
    }

    /** A first row of mistyped numbers only (every cell begins as a number does) is a point with an error, not a header. */
    @Test
    void firstRowOfMistypedNumbersIsAnErrorNotAHeader() throws IOException {
        assertEquals(" line 1, column 1: '1.5f' is not a number", error("f.csv", "1.5f,2.5f\n1,2\n3,4\n"));
        assertEquals(" line 1, column 1: '0x10' is not a number", error("x.csv", "0x10\n1\n2\n"));
        assertEquals(" line 1, column 1: '1d1' is not a number", error("u.csv", "1d1,-.5_0\n1,2\n"));
        // names, or names some of which begin with a digit, stay a header
        assertEquals(Optional.of(List.of("1st", "second")), read("n.csv", "1st,second\n1,2\n").header());
        assertEquals(Optional.of(List.of("True")), read("t.csv", "True\n1\n").header());
    }

    @Test
    void headerModesCanBeForced() throws IOException {
        Path p = dir.resolve("f.csv");
        Files.writeString(p, "1,2\n3,4\n");
        NumericTable t = DelimitedReader.forFile("f.csv").withHeader(Header.PRESENT).read(p);
        assertEquals(Optional.of(List.of("1", "2")), t.header());
        assertEquals(1, t.rows());
        Files.writeString(p, "x,y\n3,4\n");
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> DelimitedReader.forFile("f.csv").withHeader(Header.ABSENT).read(p));
        assertTrue(e.getMessage().endsWith(" line 1, column 1: 'x' is not a number"), e.getMessage());
    }

    @Test
    void raggedRowsNameLineAndCounts() {
        String text = "a,b,c,d\n" + "1,2,3,4\n".repeat(15) + "1,2,3,4,5\n";
        assertEquals(" line 17: 5 values, expected 4 (as in the header on line 1)", error("r.csv", text));
        assertEquals(" line 3: 1 value, expected 2 (as on line 1)", error("r2.csv", "1,2\n3,4\n5\n"));
        assertEquals(" line 2: 3 values, expected 2 (as in the header on line 1)", error("r3.csv", "x,y\n1,2,3\n"));
    }

    /** numpy.loadtxt's reading of decimals beyond float64's range, for a caller that leaves non-finite rows out. */
    @Test
    void overflowingDecimalsAsInfinitiesWhenAsked() throws IOException {
        Path p = dir.resolve("big.csv");
        Files.writeString(p, "1e400,-1E999,+2e308\n1e-400,-0.5e-999,1.7976931348623157e308\n");
        NumericTable t = DelimitedReader.forFile("big.csv").withOverflowToInfinity(true).read(p);
        assertArrayEquals(new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
            0.0, -0.0, Double.MAX_VALUE}, t.values());
        // the setting survives the other settings; off again, the cell is an error naming it
        NumericTable again = DelimitedReader.forFile("big.csv").withOverflowToInfinity(true).withHeader(Header.ABSENT)
                .withDelimiter(DelimitedReader.Delimiter.COMMA).read(p);
        assertArrayEquals(t.values(), again.values());
        assertEquals(" line 1, column 1: '1e400' is beyond the float64 range", error("big.csv",
                "1e400,-1E999,+2e308\n1e-400,-0.5e-999,1.7976931348623157e308\n"));
    }

    @Test
    void nonNumericCellsNameLineAndColumn() {
        assertEquals(" line 3, column 2: 'abc' is not a number", error("n.csv", "1,2\n3,4\n5,abc\n"));
        assertEquals(" line 2, column 2: empty value", error("e.csv", "1,2\n3,\n"));
        assertEquals(" line 2, column 2: empty value", error("e2.csv", "1,2\n3,,4\n"));
        assertEquals(" line 2, column 1: '1e309' is beyond the float64 range", error("o.csv", "1\n1e309\n"));
        assertEquals(" line 2, column 1: '1,5' is not a number", error("o.tsv", "1\n1,5\n"));
        assertEquals(" line 1, column 2: 'NA' is not a number", error("na.csv", "1,NA\n"));
        assertEquals(" line 1: a quoted value opened in column 2 is never closed", error("qq.csv", "1,\"2\n"));
        assertEquals(" line 1, column 1: unexpected '3' after a closing quote", error("qc.csv", "\"1\"3,2\n"));
        // Java-only spellings are not numbers in a text file.
        assertEquals(" line 2, column 1: '1f' is not a number", error("j.csv", "1\n1f\n"));
        assertEquals(" line 2, column 2: '0x10' is not a number", error("x.csv", "1,2\n3,0x10\n"));
        // another separator than the file's: a first row that begins as a number is a point, so the error is on
        // line 1, and it says what the values look like
        assertEquals(" line 1, column 1: '1;2;3' is not a number (the values look separated by ';', but this file is"
                + " read with ',' between values; write it with ',' between values)", error("semi.csv", "1;2;3\n4;5;6\n"));
        assertEquals(" line 1, column 1: '1 2' is not a number (the values look separated by spaces, but this file is"
                + " read with ',' between values; name it .txt to have the separator found from its first line)",
                error("sp.csv", "1 2\n4 5\n"));
        // after a header, on line 2
        assertEquals(" line 2, column 1: '4;5;6' is not a number (the values look separated by ';', but this file is"
                + " read with ',' between values; write it with ',' between values)", error("semh.csv", "a;b;c\n4;5;6\n"));
        // the advice names the file's own separator (a .tsv is read with tabs)
        assertEquals(" line 1, column 1: '1;2;3' is not a number (the values look separated by ';', but this file is"
                + " read with a tab between values; write it with a tab between values)", error("semi.tsv", "1;2;3\n4;5;6\n"));
        // commas in a tab file: a separator where they cannot be decimal commas (three values, or a point)
        assertEquals(" line 1, column 1: '0.12,-0.13' is not a number (the values look separated by ',', but this file"
                + " is read with a tab between values; name it .csv)", error("c.tsv", "0.12,-0.13\n1,2\n"));
        assertEquals(" line 1, column 1: '1,5,7' is not a number (the values look separated by ',', but this file"
                + " is read with a tab between values; name it .csv)", error("c3.tsv", "1,5,7\n1,2,3\n"));
        // pandas' to_csv with its row index and unnamed columns: the header's first cell is empty
        assertEquals(" line 1, column 1: empty value (the line reads ,0,1, the header pandas' to_csv writes with the row"
                + " index as a first column; write the file with index=False)", error("ix.csv", ",0,1\n0,1.5,2\n"));
    }

    @Test
    void emptyFiles() {
        assertEquals(": empty file (no data)", error("empty.csv", ""));
        assertEquals(": no data (only blank lines and comments)", error("blank.csv", "\n\n# just a comment\n  \n"));
    }

    @Test
    void nanAndInfinityAreValuesForTheCallerToJudge() throws IOException {
        NumericTable t = read("n.csv", "nan,inf\n-Infinity,NaN\n+inf,-nan\n");
        double[] v = t.values();
        assertTrue(Double.isNaN(v[0]));
        assertEquals(Double.POSITIVE_INFINITY, v[1]);
        assertEquals(Double.NEGATIVE_INFINITY, v[2]);
        assertEquals(Double.POSITIVE_INFINITY, v[4]);
        assertTrue(Double.isNaN(v[5]));
        assertEquals(0, t.toPointSet().firstNonFinite());
    }

    @Test
    void tsvWithHeaderAndSpaces() throws IOException {
        NumericTable t = read("t.tsv", "x\ty\tz\n 1\t2 \t3\n4\t5\t6\n");
        assertEquals(Optional.of(List.of("x", "y", "z")), t.header());
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, t.values());
        assertEquals(" line 3: 2 values, expected 3 (as in the header on line 1)", error("bad.tsv", "x\ty\tz\n1\t2\t3\n4\t5\n"));
        assertEquals(" line 2, column 1: empty value", error("lead.tsv", "1\t2\n\t3\n"));
        assertArrayEquals(new double[] {1, 2}, read("blank.tsv", "1\t2\n\t\t\n").values());
    }

    @Test
    void whitespaceSeparatedAsNumpySavetxtWritesIt() throws IOException {
        NumericTable t = read("s.txt", "# x y\n1.000000000000000000e+00 2.000000000000000000e+00\n\n  3 \t 4  \n");
        assertArrayEquals(new double[] {1, 2, 3, 4}, t.values());
        assertEquals(2, t.rows());
    }

    @Test
    void txtSniffsCommasAndTabs() throws IOException {
        assertArrayEquals(new double[] {1, 2, 3, 4}, read("c.txt", "# comment, with comma\n1, 2\n3, 4\n").values());
        assertArrayEquals(new double[] {1, 2, 3, 4}, read("t.txt", "1\t2\n3\t4\n").values());
    }

    /**
     * Tabs ending a line of a .txt or of standard input are whitespace, as {@code numpy.loadtxt} (its default
     * delimiter) reads them: a first line ending in a tab does not make a space-separated file tab-separated, and a
     * tab-separated line may start or end in tabs. A .tsv is read as {@code delimiter='\t'} is: there a leading or trailing
     * tab is an empty value, as NumPy says too.
     */
    @Test
    void txtLinesMayStartAndEndInTabsAsNumpyLoadtxtReadsThem() throws IOException {
        assertArrayEquals(new double[] {1.5, 2, 3, 4}, read("tt.txt", "1.5\t2\t\n3\t4\t\n").values());
        assertArrayEquals(new double[] {1, 2, 3, 4}, read("tt2.txt", "1\t2\t\t \n3\t4\n").values());
        assertArrayEquals(new double[] {1, 2, 3, 4}, read("st.txt", "1 2\t\n3 4\n").values());
        // indented lines too (numpy.loadtxt reads them), but not in a .tsv, where a leading tab is an empty value
        assertArrayEquals(new double[] {1, 2, 3, 4}, read("lt.txt", "\t1\t2\n\t\t3\t4\t\n").values());
        assertArrayEquals(new double[] {1, 2, 3, 4}, read("lt2.txt", "\t1 2\n 3\t4\n").values());
        assertEquals(" line 1, column 1: empty value", error("lt.tsv", "\t1\t2\n\t3\t4\n"));
        NumericTable h = read("ht.txt", "x\ty\t\n1\t2\t\n");
        assertEquals(Optional.of(List.of("x", "y")), h.header());
        assertArrayEquals(new double[] {1, 2}, h.values());
        NumericTable stdin = DelimitedReader.of(Delimiter.AUTO)
                .read(new ByteArrayInputStream("1\t2\t\n3\t4\t\n".getBytes(StandardCharsets.UTF_8)), "-");
        assertArrayEquals(new double[] {1, 2, 3, 4}, stdin.values());
        // an empty value between values, or one given as "", is still one; so is a trailing tab in a .tsv
        assertEquals(" line 1, column 2: empty value", error("mid.txt", "1\t\t2\n"));
        assertEquals(" line 2, column 2: empty value", error("mid2.txt", "1\t2\t3\n4\t\t5\t\n"));
        assertEquals(" line 1, column 3: empty value", error("q.txt", "1\t2\t\"\"\n"));
        assertEquals(" line 2: 1 value, expected 2 (as on line 1)", error("short.txt", "1\t2\n3\t\t\n"));
        assertEquals(" line 1, column 3: empty value", error("t.tsv", "1\t2\t\n3\t4\t\n"));
        // a separator found from the first line: the hint does not advise the .txt name the file has
        assertEquals(" line 2, column 1: '3 4' is not a number (the values look separated by spaces, but this file is"
                + " read with a tab between values; the separator is found from the first line: use the same one on"
                + " every line)", error("mixed.txt", "1\t2\n3 4\n"));
    }

    @Test
    void lineEndingsBomCommentsQuotes() throws IOException {
        NumericTable t = read("w.csv", "\uFEFFa,b\r\n# note\r\n1,\"2\"\r\n\r\n3 , 4\r5,6");
        assertEquals(Optional.of(List.of("a", "b")), t.header());
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, t.values());
        assertEquals(" line 4, column 2: 'x' is not a number", error("l.csv", "1,2\r\n\r\n3,4\r\n5,x\r\n"));
        // each row's line, past the header, comment and blank lines (a lone CR ends a line too)
        assertEquals(List.of(3, 5, 6), List.of(t.line(0), t.line(1), t.line(2)));
        NumericTable noHeader = read("n.csv", "\n1,2\n# c\n3,4\n");
        assertEquals(List.of(2, 4), List.of(noHeader.line(0), noHeader.line(1)));
    }

    @Test
    void singleColumnAndLargeFile() throws IOException {
        StringBuilder b = new StringBuilder("value\n");
        for (int i = 0; i < 20000; i++) b.append(i).append('\n');
        NumericTable t = read("one.csv", b.toString());
        assertEquals(20000, t.rows());
        assertEquals(1, t.columns());
        assertEquals(19999.0, t.values()[19999]);
        assertEquals(20001, t.line(19999), "past the header and the array's first growth");
    }

    @Test
    void aRowBeyondTheColumnLimitIsRefusedAtTheLimit() {
        String row = "1,".repeat(DelimitedReader.MAX_COLUMNS) + "1\n";
        String m = error("wide.csv", row);
        assertTrue(m.startsWith(" line 1: more than 1000000 values in one row"), m);
        assertTrue(m.length() < 200, m);
    }

    @Test
    void overlongCellsFailFast() {
        String m = error("bin.csv", "1," + "9".repeat(DelimitedReader.MAX_CELL_CHARS + 5) + "\n");
        assertTrue(m.startsWith(" line 1, column 2: value longer than 10000 characters"), m);
    }

    @Test
    void streamsAndMissingFiles() throws IOException {
        NumericTable t = DelimitedReader.of(Delimiter.AUTO)
                .read(new ByteArrayInputStream("1 2\n3 4\n".getBytes(StandardCharsets.UTF_8)), "-");
        assertEquals("-", t.source());
        assertArrayEquals(new int[] {2, 2}, t.shape());
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> DelimitedReader.forFile("x.csv").read(dir.resolve("missing.csv")));
        assertTrue(e.getMessage().endsWith("missing.csv: no such file"), e.getMessage());
    }

    @Test
    void aFirstRowOfColumnNumbersIsReadAsDataWithANote() throws IOException {
        // pandas' to_csv(index=False) of unnamed columns writes "0,1,2" as the header: every cell a number,
        // so the row is a point (a header would need a non-numeric cell), but the table says so
        NumericTable t = read("p.csv", "0,1,2\n5.5,6,7\n");
        assertEquals(2, t.rows());
        assertTrue(t.note().orElseThrow().endsWith("p.csv: line 1 reads 0, 1, 2, as pandas writes the names of"
                + " unnamed columns (to_csv without header=False); it was read as a point"), t.note().toString());
        java.util.List<String> warnings = new java.util.ArrayList<>();
        t.toFloat32PointSet(warnings::add);
        assertEquals(List.of(t.note().orElseThrow()), warnings);
        assertTrue(read("p2.csv", "0,1\n5,6\n").note().orElseThrow().contains("line 1 reads 0, 1, as pandas"));
        assertTrue(read("p6.csv", "0,1,2,3,4,5\n1,2,3,4,5,6\n").note().orElseThrow()
                .contains("line 1 reads 0, 1, ..., 5, as pandas"));
        // a header whose first column has no name (pandas' row index, named columns): read, with a note
        NumericTable ix = read("ix.csv", ",a,b\n0,1.5,2\n1,2.5,3\n");
        assertArrayEquals(new int[] {2, 3}, ix.shape());
        assertTrue(ix.note().orElseThrow().endsWith("ix.csv: line 1, the header, leaves its first column unnamed, as"
                + " pandas' to_csv names its row index; that column was read as a coordinate (write the file with"
                + " index=False to leave it out)"), ix.note().toString());
        // any other first row, a single column, or a header given as such: no note
        assertTrue(read("q.csv", "0,2,1\n5,6,7\n").note().isEmpty());
        assertTrue(read("r.csv", "0\n5\n").note().isEmpty());
        assertTrue(read("s.csv", "1,2,3\n5,6,7\n").note().isEmpty());
        Path p = dir.resolve("h.csv");
        Files.writeString(p, "0,1,2\n5,6,7\n");
        assertTrue(DelimitedReader.forFile("h.csv").withHeader(Header.PRESENT).read(p).note().isEmpty());
    }

    @Test
    void decimalsAreReadAsFloat64AsNumPyReadsThem() throws IOException {
        // 0.1 and 1e300 are not float32 values: kept exactly as float64 (scikit-learn fits these values);
        // 1e-320 is a float64 subnormal; 1e400 is beyond float64 and refused, naming the cell.
        NumericTable t = read("r.csv", "0.1,1e300\n1e-320,-2.5\n");
        assertArrayEquals(new double[] {0.1, 1e300, 1e-320, -2.5}, t.values());
        assertTrue(t.toPointSet().isFloat64());
        assertEquals(0.1, t.toPointSet().getDouble(0, 0));
        assertTrue(error("big.csv", "1,1e400\n").contains("line 1, column 2: '1e400' is beyond the float64 range"),
                error("big.csv", "1,1e400\n"));
    }

    @Test
    void theFloat32ViewIsTheFloat64ValueRoundedWarningOnlyOfOverflow() throws IOException {
        // 1.00000005960464477539062500001 lies just above the midpoint between 1 and the next float: as
        // float64 it is 1.0000000596046448 (the midpoint itself), which rounds to even, 1.0f, as
        // numpy.loadtxt(dtype=float32) and astype(float32) round it. Rounding a decimal is silent; a value
        // that becomes infinite is not.
        NumericTable t = read("r.csv", "1.00000005960464477539062500001,2\n0.1,1e300\n");
        java.util.List<String> warnings = new java.util.ArrayList<>();
        float[] f = t.toFloat32(warnings::add);
        assertArrayEquals(new float[] {1f, 2f, 0.1f, Float.POSITIVE_INFINITY}, f);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("1 of 4 values exceed the float32 range")
                && warnings.get(0).contains("row 1, column 1"), warnings.get(0));
        java.util.List<String> none = new java.util.ArrayList<>();
        read("i.csv", "1,2\n0.3,-inf\n").toFloat32(none::add);
        assertTrue(none.isEmpty(), none.toString());
    }

    /** Raw float32 bytes, on standard input or in a file named .csv, are refused as not text, before any header. */
    @Test
    void binaryInputIsRefusedAsNotText() throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 * 600).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        java.util.SplittableRandom rng = new java.util.SplittableRandom(7);
        for (int i = 0; i < 600; i++) b.putFloat((float) (rng.nextGaussian() * 50));
        byte[] raw = b.array();
        InvalidInputException stdin = assertThrows(InvalidInputException.class,
                () -> DelimitedReader.of(Delimiter.AUTO).read(new ByteArrayInputStream(raw), "-"));
        assertTrue(stdin.getMessage().startsWith("standard input does not look like delimited text"), stdin.getMessage());
        assertTrue(stdin.getMessage().contains("raw little-endian float32 with --shape N,D"), stdin.getMessage());
        Path p = dir.resolve("binary.csv");
        Files.write(p, raw);
        InvalidInputException file = assertThrows(InvalidInputException.class, () -> DelimitedReader.forFile("binary.csv").read(p));
        assertTrue(file.getMessage().startsWith(p + " does not look like delimited text"), file.getMessage());
        // a NUL in a first row of otherwise printable text is enough
        InvalidInputException nul = assertThrows(InvalidInputException.class,
                () -> DelimitedReader.of(Delimiter.AUTO).read(new ByteArrayInputStream("a,b\0c\n1,2\n".getBytes(StandardCharsets.UTF_8)), "-"));
        assertTrue(nul.getMessage().contains("the control character 0x00"), nul.getMessage());
    }

    /** UTF-16 text (Excel's "Unicode text", either byte order) is named as such, not called binary. */
    @Test
    void utf16TextIsNamedAsSuch() throws IOException {
        String text = "\uFEFFx\ty\n1\t2\n";
        for (java.nio.charset.Charset cs : new java.nio.charset.Charset[] {StandardCharsets.UTF_16LE,
            StandardCharsets.UTF_16BE}) {
            Path p = dir.resolve("unicode.txt");
            Files.write(p, text.getBytes(cs));
            assertEquals(p + " is UTF-16 text (it starts with UTF-16's byte-order mark, as Excel's \"Unicode text\""
                    + " does): save it as UTF-8 (Excel: CSV UTF-8)", assertThrows(InvalidInputException.class,
                    () -> DelimitedReader.forFile("unicode.txt").read(p)).getMessage(), cs.name());
            InvalidInputException stdin = assertThrows(InvalidInputException.class, () -> DelimitedReader
                    .of(Delimiter.AUTO).read(new ByteArrayInputStream(text.getBytes(cs)), "-"));
            assertTrue(stdin.getMessage().startsWith("standard input is UTF-16 text"), stdin.getMessage());
        }
        // the same text in UTF-8, its byte-order mark included, reads
        assertArrayEquals(new double[] {1, 2}, read("utf8.txt", text).values());
        // binary that begins with those two bytes (raw float32 without --shape) is not called UTF-16
        byte[] binary = {(byte) 0xFF, (byte) 0xFE, 0x12, 0x3F, 0, 0, (byte) 0x80, 0x3F};
        InvalidInputException raw = assertThrows(InvalidInputException.class, () -> DelimitedReader
                .of(Delimiter.AUTO).read(new ByteArrayInputStream(binary), "-"));
        assertFalse(raw.getMessage().contains("UTF-16"), raw.getMessage());
    }

    /** A .npy file under a text name is named for what it is. */
    @Test
    void anNpyFileUnderATextNameIsNamedAsSuch() throws IOException {
        Path npy = dir.resolve("points.npy");
        Npy.writeFloat32(npy, new float[] {1, 2, 3, 4, 5, 6}, 3, 2);
        Path p = dir.resolve("points.csv");
        Files.copy(npy, p);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> DelimitedReader.forFile("points.csv").read(p));
        assertEquals(p + " is a .npy file (it starts with NumPy's magic bytes), not delimited text: name it .npy to read it",
                e.getMessage());
    }

    /** Text in another encoding (a Latin-1 header) has no control characters and few undecodable bytes: it reads. */
    @Test
    void aLatin1HeaderStillReads() throws IOException {
        byte[] latin1 = "temp\u00e9rature,dur\u00e9e\n1,2\n3,4\n".getBytes(StandardCharsets.ISO_8859_1);
        NumericTable t = DelimitedReader.of(Delimiter.AUTO).read(new ByteArrayInputStream(latin1), "-");
        assertEquals(2, t.rows());
        assertArrayEquals(new double[] {1, 2, 3, 4}, t.values());
    }

    /** Runs of blank lines count line by line: each row's line, and an error's, is the file's. */
    @Test
    void blankLinesCountInLineNumbers() throws IOException {
        NumericTable t = read("b.csv", "1,2\n\n\n3,4\n\n5,6\n");
        assertEquals(List.of(1, 4, 6), List.of(t.line(0), t.line(1), t.line(2)));
        assertEquals(" line 4, column 2: 'x' is not a number", error("bx.csv", "1,2\n\n\n3,x\n"));
        assertEquals(" line 3: 1 value, expected 2 (as on line 1)", error("bw.txt", "1 2\n\n3\n"));
    }

    /** Every control character but tab and line and page breaks marks a first row as binary, up to 0x1f. */
    @Test
    void everyControlCharacterInTheFirstRowIsBinary() {
        for (int c : new int[] {0x01, 0x08, 0x0e, 0x1b, 0x1f}) {
            byte[] text = ("a,b" + (char) c + "c\n1,2\n").getBytes(StandardCharsets.UTF_8);
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> DelimitedReader.of(Delimiter.AUTO).read(new ByteArrayInputStream(text), "-"));
            assertTrue(e.getMessage().contains(String.format("the control character 0x%02x", c)), e.getMessage());
        }
    }
}
