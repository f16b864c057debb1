package org.sylva.io;

import static java.nio.ByteOrder.BIG_ENDIAN;
import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sylva.io.NpyBytes.bytes;
import static org.sylva.io.NpyBytes.dict;
import static org.sylva.io.NpyBytes.file;
import static org.sylva.io.NpyBytes.shorts;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;

/**
 * The raw acquisition dtypes (int8, int16, uint16, float16) from hand-made bytes, in every byte order
 * NumPy writes: read exactly, converted to float32 and float64 exactly (float16 including subnormals,
 * infinities and NaN, checked against {@link Float#float16ToFloat} and an independent decoding),
 * written back as NumPy would, and refused where a conversion would change a value.
 */
class NpyNarrowDtypesTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    /** Reads through both paths (stream, regular file) and checks they agree. */
    private NpyArray read(byte[] bytes) throws IOException {
        NpyArray fromStream = Npy.read(new ByteArrayInputStream(bytes), "x.npy");
        Path p = dir.resolve("x.npy");
        Files.write(p, bytes);
        NpyArray fromFile = Npy.read(p);
        assertEquals(fromStream, fromFile);
        return fromStream;
    }

    private float[] f32(NpyArray a) {
        float[] f = a.toFloat32(warnings::add);
        assertEquals(List.of(), warnings, "every value of " + a.dtype().numpyName() + " is exact in float32");
        return f;
    }

    /** Writes the array back and reads it again: same dtype, shape and values, little-endian descr. */
    private static void roundTrips(NpyArray a, String littleEndianDescr) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Npy.write(out, a);
        byte[] b = out.toByteArray();
        String header = new String(b, 0, 128, java.nio.charset.StandardCharsets.ISO_8859_1);
        assertTrue(header.contains("'descr': '" + littleEndianDescr + "'"), header);
        assertEquals(a, Npy.read(new ByteArrayInputStream(b), "back.npy"));
    }

    @Test
    void int8() throws IOException {
        for (String descr : new String[] {"|i1", "<i1", ">i1"}) {
            NpyArray a = read(file(dict(descr, false, "(5,)"), bytes(-128, -1, 0, 1, 127)));
            assertEquals(NpyDtype.INT8, a.dtype());
            assertEquals("int8", a.dtype().numpyName());
            assertArrayEquals(new float[] {-128, -1, 0, 1, 127}, f32(a));
            assertArrayEquals(new double[] {-128, -1, 0, 1, 127}, a.toFloat64());
            assertArrayEquals(new int[] {-128, -1, 0, 1, 127}, a.toInt32());
            assertArrayEquals(new long[] {-128, -1, 0, 1, 127}, a.toInt64());
            roundTrips(a, "|i1");
        }
        NpyArray neg = read(file(dict("|i1", false, "(2,)"), bytes(1, -1)));
        NpyFormatException e = assertThrows(NpyFormatException.class, neg::toUint8);
        assertEquals("x.npy: int8 value -1 at index 1 is out of range for uint8 (0 to 255)", e.getMessage());
        assertArrayEquals(new boolean[] {true, false}, read(file(dict("|i1", false, "(2,)"), bytes(1, 0))).toBool());
    }

    @Test
    void int16BothByteOrders() throws IOException {
        int[] v = {-32768, -1, 0, 1, 12345, 32767};
        for (ByteOrder order : new ByteOrder[] {LITTLE_ENDIAN, BIG_ENDIAN}) {
            String descr = (order == LITTLE_ENDIAN ? "<" : ">") + "i2";
            NpyArray a = read(file(dict(descr, false, "(3, 2)"), shorts(order, v)));
            assertEquals(NpyDtype.INT16, a.dtype());
            assertArrayEquals(new int[] {3, 2}, a.shape());
            assertArrayEquals(new float[] {-32768, -1, 0, 1, 12345, 32767}, f32(a), descr);
            assertArrayEquals(new double[] {-32768, -1, 0, 1, 12345, 32767}, a.toFloat64(), descr);
            assertArrayEquals(v, a.toInt32(), descr);
            roundTrips(a, "<i2");
            PointSet p = a.toPointSet(warnings::add);
            assertEquals(3, p.size());
            assertEquals(-32768f, p.get(0, 0));
            assertEquals(32767f, p.get(2, 1));
        }
    }

    @Test
    void int16FortranOrder() throws IOException {
        // Column-major [[1, 2], [3, 4], [5, 6]] is stored 1 3 5 2 4 6.
        NpyArray a = read(file(dict(">i2", true, "(3, 2)"), shorts(BIG_ENDIAN, 1, 3, 5, -2, -4, -6)));
        assertArrayEquals(new float[] {1, -2, 3, -4, 5, -6}, f32(a));
    }

    @Test
    void uint16BothByteOrders() throws IOException {
        int[] v = {0, 1, 32767, 32768, 40000, 65535};
        for (ByteOrder order : new ByteOrder[] {LITTLE_ENDIAN, BIG_ENDIAN}) {
            String descr = (order == LITTLE_ENDIAN ? "<" : ">") + "u2";
            NpyArray a = read(file(dict(descr, false, "(6,)"), shorts(order, v)));
            assertEquals(NpyDtype.UINT16, a.dtype());
            assertEquals("uint16", a.dtype().numpyName());
            assertArrayEquals(new float[] {0, 1, 32767, 32768, 40000, 65535}, f32(a), descr);
            assertArrayEquals(new double[] {0, 1, 32767, 32768, 40000, 65535}, a.toFloat64(), descr);
            assertArrayEquals(v, a.toInt32(), descr);
            roundTrips(a, "<u2");
        }
        NpyArray big = read(file(dict("<u2", false, "(2,)"), shorts(LITTLE_ENDIAN, 255, 65535)));
        NpyFormatException e = assertThrows(NpyFormatException.class, big::toUint8);
        assertEquals("x.npy: uint16 value 65535 at index 1 is out of range for uint8 (0 to 255)", e.getMessage());
    }

    @Test
    void uint32BothByteOrdersAndFortranOrder() throws IOException {
        int[] bits = {0, 1, 16_777_217, 0x7fffffff, 0x80000000, 0xffffffff};
        long[] v = {0, 1, 16_777_217, 2_147_483_647, 2_147_483_648L, 4_294_967_295L};
        for (ByteOrder order : new ByteOrder[] {LITTLE_ENDIAN, BIG_ENDIAN}) {
            String descr = (order == LITTLE_ENDIAN ? "<" : ">") + "u4";
            NpyArray a = read(file(dict(descr, false, "(3, 2)"), NpyBytes.ints(order, bits)));
            assertEquals(NpyDtype.UINT32, a.dtype());
            assertEquals("uint32", a.dtype().numpyName());
            assertArrayEquals(v, a.toInt64(), descr);
            assertArrayEquals(new double[] {0, 1, 16_777_217, 2_147_483_647, 2_147_483_648.0, 4_294_967_295.0},
                    a.toFloat64(), descr);
            roundTrips(a, "<u4");
            // float64 holds every uint32: a fit reads them exactly
            PointSet p = a.toPointSet(warnings::add);
            assertEquals(4_294_967_295.0, p.getDouble(2, 1));
            assertEquals(16_777_217.0, p.getDouble(1, 0));
            // float32 does not: rounded, with one warning naming the first value that changed
            float[] f = a.toFloat32(warnings::add);
            assertEquals(4_294_967_296f, f[5]);
            assertEquals(List.of("x.npy: 3 of 6 uint32 values are not exactly representable as float32 and were rounded "
                    + "(first: 16777217 at row 1, column 0)"), warnings);
            warnings.clear();
            NpyFormatException e = assertThrows(NpyFormatException.class, a::toInt32);
            assertEquals("x.npy: uint32 value 2147483648 at row 2, column 0 is out of range for int32 "
                    + "(-2147483648 to 2147483647)", e.getMessage());
        }
        // Column-major [[1, 2], [3, 4^9]] is stored 1 3 2 4^9.
        NpyArray f = read(file(dict("<u4", true, "(2, 2)"), NpyBytes.ints(LITTLE_ENDIAN, 1, 3, 2, 0xfffffffe)));
        assertArrayEquals(new long[] {1, 2, 3, 4_294_967_294L}, f.toInt64());
    }

    @Test
    void uint64UpToInt64sLimit() throws IOException {
        long[] v = {0, 1, 9_007_199_254_740_993L, Long.MAX_VALUE};
        for (ByteOrder order : new ByteOrder[] {LITTLE_ENDIAN, BIG_ENDIAN}) {
            String descr = (order == LITTLE_ENDIAN ? "<" : ">") + "u8";
            NpyArray a = read(file(dict(descr, false, "(4,)"), NpyBytes.longs(order, v)));
            assertEquals(NpyDtype.UINT64, a.dtype());
            assertArrayEquals(v, a.toInt64(), descr);
            roundTrips(a, "<u8");
            // beyond 2^53 float64 does not hold every integer: refused naming the type, as for int64
            NpyFormatException e = assertThrows(NpyFormatException.class, a::toFloat64);
            assertEquals("x.npy: uint64 value 9007199254740993 at index 2 is not exactly representable as float64 "
                    + "(integers beyond 2^53 = 9007199254740992 in magnitude are not)", e.getMessage());
        }
        // 2^63 and above: no Sylva integer holds it; refused when read, the value written as NumPy prints it
        for (ByteOrder order : new ByteOrder[] {LITTLE_ENDIAN, BIG_ENDIAN}) {
            String descr = (order == LITTLE_ENDIAN ? "<" : ">") + "u8";
            NpyFormatException e = assertThrows(NpyFormatException.class,
                    () -> read(file(dict(descr, true, "(2, 2)"), NpyBytes.longs(order, 1, 2, -1L, Long.MIN_VALUE))));
            // Fortran order: the file's third value (2^64 - 1) is element [0, 1]
            assertEquals("x.npy: uint64 value 18446744073709551615 at row 0, column 1 is beyond int64's range "
                    + "(up to 9223372036854775807), the largest integer Sylva reads", e.getMessage());
        }
    }

    /** The descr forms NumPy's np.load reads besides np.save's own: no byte order or '=' or '|' (the machine's), and
     * one-character type codes. */
    @Test
    void descrFormsNumpyLoadReads() throws IOException {
        ByteOrder nativeOrder = ByteOrder.nativeOrder();
        for (String descr : new String[] {"f8", "=f8", "|f8", "<d", "d", "=d"}) {
            NpyArray a = read(file(dict(descr, false, "(2,)"),
                    descr.startsWith("<") ? NpyBytes.doubles(LITTLE_ENDIAN, 1.5, -2) : NpyBytes.doubles(nativeOrder, 1.5, -2)));
            assertEquals(NpyDtype.FLOAT64, a.dtype(), descr);
            assertArrayEquals(new double[] {1.5, -2}, a.toFloat64(), descr);
        }
        String[][] codes = {{"e", "FLOAT16"}, {"f", "FLOAT32"}, {"d", "FLOAT64"}, {"b", "INT8"}, {"B", "UINT8"},
            {"h", "INT16"}, {"H", "UINT16"}, {"i", "INT32"}, {"I", "UINT32"}, {"l", "INT64"}, {"L", "UINT64"},
            {"q", "INT64"}, {"Q", "UINT64"}, {"?", "BOOL"}};
        for (String[] c : codes) {
            NpyDtype t = NpyDtype.valueOf(c[1]);
            for (String prefix : new String[] {"<", ">"}) {
                String descr = prefix + c[0];
                NpyArray a = read(file(dict(descr, false, "(3,)"), new byte[3 * t.itemSize()]));
                assertEquals(t, a.dtype(), descr);
            }
        }
        // the byte order is the prefix's: 1 as '>i' (big-endian) is 1, as '<i' it is 2^24
        assertArrayEquals(new long[] {1}, read(file(dict(">i", false, "(1,)"), NpyBytes.ints(BIG_ENDIAN, 1))).toInt64());
        assertArrayEquals(new long[] {16_777_216}, read(file(dict("<i", false, "(1,)"), NpyBytes.ints(BIG_ENDIAN, 1))).toInt64());
    }

    /** IEEE 754 binary16 decoded by hand, independently of {@link Float#float16ToFloat}. */
    private static double halfByHand(int bits) {
        int sign = (bits >> 15) & 1, exp = (bits >> 10) & 0x1f, mant = bits & 0x3ff;
        double s = sign == 1 ? -1 : 1;
        if (exp == 0x1f) return mant == 0 ? s * Double.POSITIVE_INFINITY : Double.NaN;
        if (exp == 0) return s * mant * 0x1p-24;                       // subnormal (and zero)
        return s * (1024 + mant) * Math.scalb(1.0, exp - 15 - 10);     // normal
    }

    @Test
    void float16EveryBitPatternBothByteOrders() throws IOException {
        int[] all = new int[65536];
        for (int i = 0; i < all.length; i++) all[i] = i;
        for (ByteOrder order : new ByteOrder[] {LITTLE_ENDIAN, BIG_ENDIAN}) {
            String descr = (order == LITTLE_ENDIAN ? "<" : ">") + "f2";
            NpyArray a = read(file(dict(descr, false, "(65536,)"), shorts(order, all)));
            assertEquals(NpyDtype.FLOAT16, a.dtype());
            assertEquals("float16", a.dtype().numpyName());
            float[] f = f32(a);
            double[] d = a.toFloat64();
            for (int bits = 0; bits < 65536; bits++) {
                float expected = Float.float16ToFloat((short) bits);
                double byHand = halfByHand(bits);
                String what = descr + " bits 0x" + Integer.toHexString(bits);
                if (Float.isNaN(expected)) {
                    assertTrue(Double.isNaN(byHand) && Float.isNaN(f[bits]) && Double.isNaN(d[bits]), what);
                } else {
                    assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(f[bits]), what);
                    assertEquals(Double.doubleToRawLongBits(byHand), Double.doubleToRawLongBits(d[bits]), what);
                    assertEquals(byHand, (double) expected, what);
                }
            }
            roundTrips(a, "<f2");
        }
    }

    @Test
    void float16SpecialValues() throws IOException {
        int[] bits = {0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0x3555, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
            0xfe01};
        NpyArray a = read(file(dict(">f2", false, "(13,)"), shorts(BIG_ENDIAN, bits)));
        float[] f = f32(a);
        assertEquals(Float.floatToRawIntBits(0f), Float.floatToRawIntBits(f[0]));
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(f[1]), "negative zero keeps its sign");
        assertEquals(0x1p-24f, f[2], "smallest subnormal");
        assertEquals(1023 * 0x1p-24f, f[3], "largest subnormal");
        assertEquals(0x1p-14f, f[4], "smallest normal");
        assertEquals(1f, f[5]);
        assertEquals(0.333251953125f, f[6], "nearest float16 to 1/3");
        assertEquals(65504f, f[7], "largest finite");
        assertEquals(-65504f, f[8]);
        assertEquals(Float.POSITIVE_INFINITY, f[9]);
        assertEquals(Float.NEGATIVE_INFINITY, f[10]);
        assertTrue(Float.isNaN(f[11]) && Float.isNaN(f[12]));
        for (int i = 0; i < bits.length; i++) {
            assertEquals(Float.floatToRawIntBits(Float.float16ToFloat((short) bits[i])), Float.floatToRawIntBits(f[i]));
        }
        // Non-finite values reach the points as they are: the fit's non-finite policy decides.
        PointSet p = a.toPointSet(warnings::add);
        assertEquals(9, p.firstNonFinite());
    }

    @Test
    void float16ToIntegerIsExactOrRefused() throws IOException {
        NpyArray whole = read(file(dict("<f2", false, "(3,)"), shorts(LITTLE_ENDIAN, 0xc000, 0x0000, 0x7bff)));
        assertArrayEquals(new int[] {-2, 0, 65504}, whole.toInt32());
        NpyArray half = read(file(dict("<f2", false, "(2,)"), shorts(LITTLE_ENDIAN, 0x3c00, 0x3800)));
        NpyFormatException e = assertThrows(NpyFormatException.class, half::toInt32);
        assertEquals("x.npy: float16 value 0.5 at index 1 is not an integer; cannot convert to int32", e.getMessage());
        NpyArray inf = read(file(dict("<f2", false, "(1,)"), shorts(LITTLE_ENDIAN, 0x7c00)));
        assertThrows(NpyFormatException.class, inf::toInt64);
    }

    @Test
    void emptyAndZeroDimensionalArrays() throws IOException {
        NpyArray empty = read(file(dict("<i2", false, "(0, 3)"), new byte[0]));
        assertEquals(0, empty.size());
        assertEquals(0, f32(empty).length);
        NpyArray scalar = read(file(dict(">u2", false, "()"), shorts(BIG_ENDIAN, 65535)));
        assertArrayEquals(new double[] {65535}, scalar.toFloat64());
    }

    @Test
    void truncatedNarrowDataIsRefused() {
        byte[] b = file(dict("<i2", false, "(4,)"), shorts(LITTLE_ENDIAN, 1, 2, 3));
        NpyFormatException e = assertThrows(NpyFormatException.class, () -> read(b));
        assertTrue(e.getMessage().contains("truncated data: shape (4,) of int16 needs 8 bytes"), e.getMessage());
    }

    @Test
    void pointReadersReadsInt16Exactly() throws IOException {
        Path p = dir.resolve("raw.npy");
        Files.write(p, file(dict(">i2", false, "(2, 2)"), shorts(BIG_ENDIAN, -32768, 7, 32767, -1)));
        PointSet pts = PointReaders.readPoints(p, Optional.empty(), warnings::add);
        assertEquals(List.of(), warnings);
        assertEquals(2, pts.size());
        assertEquals(2, pts.dimensions());
        assertEquals(-32768f, pts.get(0, 0));
        assertEquals(7f, pts.get(0, 1));
        assertEquals(32767f, pts.get(1, 0));
        assertEquals(-1f, pts.get(1, 1));
    }
}
