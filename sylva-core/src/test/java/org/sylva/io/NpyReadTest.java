package org.sylva.io;

import static java.nio.ByteOrder.BIG_ENDIAN;
import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sylva.io.NpyBytes.bytes;
import static org.sylva.io.NpyBytes.dict;
import static org.sylva.io.NpyBytes.doubles;
import static org.sylva.io.NpyBytes.file;
import static org.sylva.io.NpyBytes.floats;
import static org.sylva.io.NpyBytes.ints;
import static org.sylva.io.NpyBytes.longs;
import static org.sylva.io.NpyBytes.raw;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.InsufficientMemoryException;

/** Reading hand-built .npy layouts: every dtype, both byte orders, C and Fortran order, versions, ranks. */
class NpyReadTest {
    @TempDir
    Path dir;

    /** Reads through both paths (stream of unknown length, regular file) and checks they agree. */
    private NpyArray read(byte[] bytes) throws IOException {
        NpyArray fromStream = Npy.read(new ByteArrayInputStream(bytes), "test.npy");
        Path p = dir.resolve("test.npy");
        Files.write(p, bytes);
        NpyArray fromFile = Npy.read(p);
        assertEquals(fromStream, fromFile);
        assertEquals("test.npy", fromStream.source());
        return fromFile;
    }

    /** Both paths refuse; returns the file path's message (which names the file). */
    private String refused(byte[] bytes, String... fragments) throws IOException {
        NpyFormatException s = assertThrows(NpyFormatException.class,
                () -> Npy.read(new ByteArrayInputStream(bytes), "bad.npy"));
        assertTrue(s.getMessage().startsWith("bad.npy: "), s.getMessage());
        Path p = dir.resolve("bad.npy");
        Files.write(p, bytes);
        NpyFormatException f = assertThrows(NpyFormatException.class, () -> Npy.read(p));
        assertTrue(f.getMessage().startsWith(p + ": "), f.getMessage());
        for (String frag : fragments) {
            assertTrue(f.getMessage().contains(frag), "'" + f.getMessage() + "' should contain '" + frag + "'");
        }
        return f.getMessage();
    }

    @Test
    void float32LittleEndianAsNumpyWritesIt() throws IOException {
        byte[] b = file("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }" + " ".repeat(20),
                floats(LITTLE_ENDIAN, 1f, 2f, 3f, 4f, 5.5f, -6f));
        assertEquals(128 + 24, b.length); // same size as np.save's file
        NpyArray a = read(b);
        assertEquals(NpyDtype.FLOAT32, a.dtype());
        assertArrayEquals(new int[] {3, 2}, a.shape());
        assertArrayEquals(new float[] {1f, 2f, 3f, 4f, 5.5f, -6f}, a.toFloat32(w -> { throw new AssertionError(w); }));
    }

    @Test
    void float32BigEndian() throws IOException {
        NpyArray a = read(file(dict(">f4", false, "(3, 2)"), floats(BIG_ENDIAN, 1f, 2f, 3f, 4f, 5.5f, -6f)));
        assertArrayEquals(new float[] {1f, 2f, 3f, 4f, 5.5f, -6f}, a.toFloat32(w -> { }));
    }

    @Test
    void fortranOrderTwoDimensionsBothByteOrders() throws IOException {
        // C-order matrix [[1,2,3],[4,5,6]] stored column-major: 1,4,2,5,3,6.
        for (ByteOrder o : new ByteOrder[] {LITTLE_ENDIAN, BIG_ENDIAN}) {
            String bo = o == LITTLE_ENDIAN ? "<" : ">";
            NpyArray f8 = read(file(dict(bo + "f8", true, "(2, 3)"), doubles(o, 1, 4, 2, 5, 3, 6)));
            assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, f8.toFloat64());
            NpyArray i4 = read(file(dict(bo + "i4", true, "(2, 3)"), ints(o, 1, 4, 2, 5, 3, 6)));
            assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6}, i4.toInt32());
            NpyArray i8 = read(file(dict(bo + "i8", true, "(2, 3)"), longs(o, 1, 4, 2, 5, 3, 6)));
            assertArrayEquals(new long[] {1, 2, 3, 4, 5, 6}, i8.toInt64());
            NpyArray f4 = read(file(dict(bo + "f4", true, "(2, 3)"), floats(o, 1, 4, 2, 5, 3, 6)));
            assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, f4.toFloat32(w -> { }));
        }
    }

    @Test
    void fortranOrderRankThree() throws IOException {
        // shape (2, 3, 4): value at (i, j, k) = 100i + 10j + k; Fortran order: i fastest, then j, then k.
        int[] fortran = new int[24];
        int p = 0;
        for (int k = 0; k < 4; k++) for (int j = 0; j < 3; j++) for (int i = 0; i < 2; i++) fortran[p++] = 100 * i + 10 * j + k;
        int[] c = new int[24];
        p = 0;
        for (int i = 0; i < 2; i++) for (int j = 0; j < 3; j++) for (int k = 0; k < 4; k++) c[p++] = 100 * i + 10 * j + k;
        NpyArray a = read(file(dict(">i4", true, "(2, 3, 4)"), ints(BIG_ENDIAN, fortran)));
        assertArrayEquals(new int[] {2, 3, 4}, a.shape());
        assertArrayEquals(c, a.toInt32());
    }

    @Test
    void fortranOrderOfOneDimensionIsTheSameAsC() throws IOException {
        NpyArray a = read(file(dict("<i8", true, "(4,)"), longs(LITTLE_ENDIAN, 9, 8, 7, 6)));
        assertArrayEquals(new long[] {9, 8, 7, 6}, a.toInt64());
    }

    @Test
    void zeroDimensionalAndEmptyArrays() throws IOException {
        NpyArray scalar = read(file(dict("<f8", false, "()"), doubles(LITTLE_ENDIAN, 2.5)));
        assertEquals(0, scalar.rank());
        assertEquals(1, scalar.size());
        assertArrayEquals(new double[] {2.5}, scalar.toFloat64());

        NpyArray empty = read(file(dict("<f4", false, "(0, 3)"), new byte[0]));
        assertArrayEquals(new int[] {0, 3}, empty.shape());
        assertEquals(0, empty.size());
        assertEquals(0, empty.toPointSet(w -> { }).size());
        assertEquals(3, empty.toPointSet(w -> { }).dimensions());

        NpyArray emptyFortran = read(file(dict("<f4", true, "(3, 0)"), new byte[0]));
        assertArrayEquals(new int[] {3, 0}, emptyFortran.shape());
        NpyArray empty1 = read(file(dict("|b1", false, "(0,)"), new byte[0]));
        assertEquals(0, empty1.toBool().length);
    }

    @Test
    void uint8AndBool() throws IOException {
        NpyArray u = read(file(dict("|u1", false, "(4,)"), bytes(0, 1, 200, 255)));
        assertEquals(NpyDtype.UINT8, u.dtype());
        assertArrayEquals(bytes(0, 1, 200, 255), u.toUint8());
        assertArrayEquals(new int[] {0, 1, 200, 255}, u.toInt32());
        assertArrayEquals(new float[] {0, 1, 200, 255}, u.toFloat32(w -> { throw new AssertionError(w); }));

        // Any non-zero byte is True (NumPy semantics); stored normalised to 1.
        NpyArray b = read(file(dict("|b1", false, "(2, 2)"), bytes(0, 1, 2, 0)));
        assertEquals(NpyDtype.BOOL, b.dtype());
        assertArrayEquals(new boolean[] {false, true, true, false}, b.toBool());
        assertArrayEquals(bytes(0, 1, 1, 0), b.toUint8());
        // Other spellings NumPy accepts for one-byte types.
        assertEquals(NpyDtype.BOOL, read(file(dict("?", false, "(1,)"), bytes(1))).dtype());
        assertEquals(NpyDtype.UINT8, read(file(dict("=u1", false, "(1,)"), bytes(1))).dtype());
        assertEquals(NpyDtype.UINT8, read(file(dict("<u1", false, "(1,)"), bytes(1))).dtype());
    }

    @Test
    void int64BigEndianExtremes() throws IOException {
        NpyArray a = read(file(dict(">i8", false, "(3,)"), longs(BIG_ENDIAN, Long.MIN_VALUE, -1, Long.MAX_VALUE)));
        assertArrayEquals(new long[] {Long.MIN_VALUE, -1, Long.MAX_VALUE}, a.toInt64());
    }

    @Test
    void versionsTwoAndThree() throws IOException {
        NpyArray v2 = read(file(2, dict("<f4", false, "(2,)"), floats(LITTLE_ENDIAN, 1f, 2f)));
        assertArrayEquals(new float[] {1f, 2f}, v2.toFloat32(w -> { }));
        NpyArray v3 = read(file(3, dict("<f4", false, "(2,)"), floats(LITTLE_ENDIAN, 3f, 4f)));
        assertArrayEquals(new float[] {3f, 4f}, v3.toFloat32(w -> { }));
        // Version 3 headers are UTF-8; a non-ASCII character in whitespace position is still refused cleanly.
        refused(file(3, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\u00e9", floats(LITTLE_ENDIAN, 1, 2)),
                "not a valid Python dict literal");
    }

    @Test
    void headerVariantsNumpyAlsoReads() throws IOException {
        byte[] data = floats(LITTLE_ENDIAN, 1f, 2f);
        // Python 2 long suffix, double quotes, other key order, no trailing comma, no padding, no newline.
        assertEquals(2, read(file("{'descr': '<f4', 'fortran_order': False, 'shape': (2L,), }", data)).size());
        assertEquals(2, read(file("{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"<f4\"}", data)).size());
        byte[] header = "{'descr':'<f4','fortran_order':False,'shape':(2,)}".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(2, read(raw(1, 0, header.length, header, data)).size());
        assertEquals(2, read(file("{'descr': u'<f4', 'fortran_order': False, 'shape': ( 2 , ) , }", data)).size());
    }

    @Test
    void refusesWhatIsNotNpy() throws IOException {
        refused(new byte[0], "empty file");
        refused("hello world, not numpy".getBytes(StandardCharsets.US_ASCII), "not a .npy file", "68 65 6c 6c 6f 20");
        refused(new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0}, "zip archive");
        refused(new byte[] {(byte) 0x93, 'N', 'U', 'M'}, "truncated", "inside the .npy magic (4 bytes)");
        refused(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1}, "preamble");
        refused(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 5}, "header length field");
    }

    @Test
    void refusesOtherVersions() throws IOException {
        byte[] h = (dict("<f4", false, "(1,)") + "\n").getBytes(StandardCharsets.ISO_8859_1);
        refused(raw(1, 1, h.length, h, floats(LITTLE_ENDIAN, 1f)), "unsupported .npy format version 1.1");
        refused(raw(4, 0, h.length, h, floats(LITTLE_ENDIAN, 1f)), "unsupported .npy format version 4.0");
        refused(raw(0, 0, h.length, h, floats(LITTLE_ENDIAN, 1f)), "version 0.0");
    }

    @Test
    void refusesBadHeaders() throws IOException {
        byte[] one = floats(LITTLE_ENDIAN, 1f);
        refused(file("[1, 2]", one), "not a Python dict");
        refused(file("{'descr': '<f4', 'fortran_order': False, 'shape': (1,)", one), "found end of header");
        refused(file("{'descr': '<f4', 'fortran_order': False}", one), "keys must be exactly");
        refused(file("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}", one), "keys must be exactly", "extra");
        refused(file("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", one), "duplicate key");
        refused(file("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}", one), "fortran_order must be True or False");
        refused(file("{'descr': '<f4', 'fortran_order': False, 'shape': [1]}", one), "shape must be a tuple of integers");
        refused(file("{'descr': '<f4', 'fortran_order': False, 'shape': (1)}", one), "shape must be a tuple of integers");
        refused(file("{'descr': '<f4', 'fortran_order': False, 'shape': (1.0,)}", one), "shape must be a tuple of integers");
        refused(file("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } # note", one), "not a valid Python dict literal");
        refused(file("{'descr': '<f4', 'fortran_order': False, 'shape': (01,)}", one), "leading zeros");
        refused(file("{'descr': '<f4', 'fortran_order': fals, 'shape': (1,)}", one), "unexpected name 'fals'");
        refused(file("{'descr': '<f\\x34', 'fortran_order': False, 'shape': (1,)}", one), "escape sequences");
        refused(file("{'descr': '<f4', 'fortran_order': False, 'shape': " + "(".repeat(40) + "1" + ")".repeat(40) + "}", one),
                "nested more than");
        // Python 3 files (version 3.0) may not use the Python 2 long suffix.
        refused(file(3, "{'descr': '<f4', 'fortran_order': False, 'shape': (1L,), }", one), "invalid number literal");
    }

    @Test
    void refusesUnsupportedDtypes() throws IOException {
        byte[] eight = new byte[8];
        refused(file(dict("|O", false, "(1,)"), eight), "object arrays are not supported");
        refused(file(dict("<U2", false, "(1,)"), eight), "string arrays are not supported");
        refused(file(dict("|S8", false, "(1,)"), eight), "string arrays are not supported");
        refused(file(dict("<c8", false, "(1,)"), eight), "complex");
        refused(file(dict("<f16", false, "(1,)"), new byte[16]), "dtype is not supported", "'<f16'", "int16 '<i2'",
                "float16 '<f2'", "uint64 '<u8'", "int8 '|i1'");
        refused(file(dict("<g", false, "(1,)"), new byte[16]), "dtype is not supported");
        refused(file(dict("<f44", false, "(1,)"), eight), "dtype is not supported");
        refused(file(dict("", false, "(1,)"), eight), "dtype is not supported");
        refused(file("{'descr': [('x', '<f4'), ('y', '<f4')], 'fortran_order': False, 'shape': (1,), }", eight),
                "structured (record) dtypes are not supported");
        refused(file("{'descr': 4, 'fortran_order': False, 'shape': (1,), }", eight), "descr must be a dtype string");
    }

    @Test
    void refusesLyingShapes() throws IOException {
        byte[] six = floats(LITTLE_ENDIAN, 1, 2, 3, 4, 5, 6);
        refused(file(dict("<f4", false, "(-1, 2)"), six), "negative dimension -1");
        refused(file(dict("<f4", false, "(3, 3)"), six), "truncated data", "needs 36 bytes", "only 24 bytes");
        refused(file(dict("<f4", false, "(2, 2)"), six), "8 unexpected bytes after the data");
        refused(file(dict("<f4", false, "(99999999999999999999,)"), six), "too large");
        refused(file(dict("<f4", false, "(4294967296, 4294967296)"), six), "more elements than a 64-bit count");
        refused(file(dict("<f8", false, "(1152921504606846976,)"), six), "more bytes than a 64-bit size");
        // 10^12 elements: refused from the sizes alone (file) or when the stream runs dry (stream).
        refused(file(dict("<f4", false, "(1000000, 1000000)"), six), "truncated data", "needs 4000000000000 bytes");
        // A zero dimension makes an empty array even if another dimension is enormous, but Java cannot shape it.
        refused(file(dict("<f4", false, "(0, 3000000000)"), new byte[0]), "beyond a Java array's limit");
    }

    @Test
    void refusesTruncatedAndHugeHeaders() throws IOException {
        byte[] h = (dict("<f4", false, "(1,)") + "\n").getBytes(StandardCharsets.ISO_8859_1);
        refused(raw(1, 0, h.length + 50, h, new byte[0]), "truncated", "header length field says");
        refused(raw(2, 0, 0x7fffffffL, h, new byte[0]), "exceeds the limit of 1048576 bytes");
        refused(raw(2, 0, 0xffffffffL, h, new byte[0]), "header length 4294967295 bytes exceeds");
        // The header itself says less than it needs: the dict is cut off.
        refused(raw(1, 0, 20, h, new byte[0]), "not a valid Python dict literal");
    }

    @Test
    void streamRefusesElementCountBeyondJavaArraysBeforeReadingData() {
        // A stream of unknown length: the count alone decides, before any data is read or allocated.
        byte[] b = file(dict("|u1", false, "(2147483640,)"), new byte[16]);
        NpyFormatException e = assertThrows(NpyFormatException.class, () -> Npy.read(new ByteArrayInputStream(b), "-"));
        assertTrue(e.getMessage().contains("beyond a Java array's limit of 2147483639 elements"), e.getMessage());
        byte[] claims = file(dict("<f8", false, "(1000000, 1000000)"), new byte[64]);
        NpyFormatException e2 = assertThrows(NpyFormatException.class, () -> Npy.read(new ByteArrayInputStream(claims), "-"));
        assertTrue(e2.getMessage().startsWith("-: "), e2.getMessage());
        assertTrue(e2.getMessage().contains("beyond a Java array's limit"), e2.getMessage());
    }

    @Test
    void streamRefusesTruncatedAndTrailingData() {
        byte[] b = file(dict("<f4", false, "(100000,)"), new byte[100]);
        NpyFormatException e = assertThrows(NpyFormatException.class, () -> Npy.read(new ByteArrayInputStream(b), "-"));
        assertTrue(e.getMessage().contains("needs 400000 bytes but the stream ended after 100"), e.getMessage());
        byte[] t = file(dict("<f4", false, "(1,)"), new byte[5]);
        NpyFormatException e2 = assertThrows(NpyFormatException.class, () -> Npy.read(new ByteArrayInputStream(t), "-"));
        assertTrue(e2.getMessage().contains("unexpected bytes after the data"), e2.getMessage());
    }

    @Test
    void fileBeyondJavaArrayLimitIsRefusedWithoutReadingIt() throws IOException {
        // A sparse file of the exact size the header claims: the size checks pass, the count does not.
        byte[] head = file(dict("|u1", false, "(2147483640,)"), new byte[0]);
        Path p = dir.resolve("big.npy");
        Files.write(p, head);
        try (var raf = new java.io.RandomAccessFile(p.toFile(), "rw")) {
            raf.setLength(head.length + 2147483640L);
        }
        NpyFormatException e = assertThrows(NpyFormatException.class, () -> Npy.read(p));
        assertTrue(e.getMessage().contains("has 2147483640 elements, beyond a Java array's limit"), e.getMessage());
    }

    @Test
    void arrayLargerThanTheHeapIsRefusedWithTheFigure() throws IOException {
        long elements = Integer.MAX_VALUE - 8L;
        long bytes = elements * 8;
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.getRuntime().maxMemory() < bytes,
                "the heap could hold a 17 GB array; this check needs a smaller heap (surefire runs with -Xmx6g)");
        byte[] head = file(dict("<f8", false, "(" + elements + ",)"), new byte[0]);
        Path p = dir.resolve("huge.npy");
        Files.write(p, head);
        try (var raf = new java.io.RandomAccessFile(p.toFile(), "rw")) {
            raf.setLength(head.length + bytes); // sparse: no disk used
        }
        // The file is sound: the heap is what is short, as for a fit too large for it (Python: MemoryError).
        InsufficientMemoryException e = assertThrows(InsufficientMemoryException.class, () -> Npy.read(p));
        assertTrue(e.getMessage().startsWith(p + ": "), e.getMessage());
        assertTrue(e.getMessage().contains("needs " + bytes + " bytes of memory, more than the Java heap can provide"),
                e.getMessage());
    }

    @Test
    void missingFileAndDirectory() {
        NpyFormatException e = assertThrows(NpyFormatException.class, () -> Npy.read(dir.resolve("nope.npy")));
        assertTrue(e.getMessage().endsWith("nope.npy: no such file"), e.getMessage());
        NpyFormatException d = assertThrows(NpyFormatException.class, () -> Npy.read(dir));
        assertTrue(d.getMessage().contains("is a directory"), d.getMessage());
    }

    /** The magic is all six bytes: a file that differs in any one of the last five is not a .npy file. */
    @Test
    void magicWithOneWrongByteIsRefused() throws IOException {
        byte[] good = file(dict("<f4", false, "(1,)"), floats(LITTLE_ENDIAN, 1f));
        for (int i = 1; i < 6; i++) {
            byte[] bad = good.clone();
            bad[i] = 'X';
            refused(bad, "not a .npy file");
        }
    }

    /** A header of exactly 1 MiB is the longest read (the limit is on what exceeds it); one byte more is refused. */
    @Test
    void headerOfExactlyTheLimitIsRead() throws IOException {
        byte[] text = dict("<f4", false, "(2,)").getBytes(StandardCharsets.ISO_8859_1);
        byte[] header = new byte[NpyReader.MAX_HEADER_BYTES];
        java.util.Arrays.fill(header, (byte) ' ');
        System.arraycopy(text, 0, header, 0, text.length);
        header[header.length - 1] = '\n';
        byte[] data = floats(LITTLE_ENDIAN, 1f, 2f);
        assertArrayEquals(new float[] {1f, 2f}, read(raw(2, 0, header.length, header, data)).toFloat32(w -> { }));
        byte[] longer = java.util.Arrays.copyOf(header, header.length + 1);
        longer[header.length - 1] = ' ';
        longer[header.length] = '\n';
        refused(raw(2, 0, longer.length, longer, data), "header length 1048577 bytes exceeds the limit of 1048576");
    }
}
