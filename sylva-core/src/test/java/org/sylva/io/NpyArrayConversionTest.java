package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;

/** Type conversions: exact where possible, one warning where float rounding loses precision, refusals otherwise. */
class NpyArrayConversionTest {
    private final List<String> warnings = new ArrayList<>();

    private static NpyArray named(NpyArray a) {
        return a.withSource("x.npy");
    }

    /** A float32 array is handed over as it is (the input held once); other dtypes convert as toFloat32 does. */
    @Test
    void transferringHandsFloat32OverAndConvertsTheRest() {
        float[] values = {1.5f, -2f, 3.25f, 4f, 5f, 6.5f};
        NpyArray f32 = named(NpyArray.ofFloat32(values, 3, 2));
        float[] shared = f32.toFloat32Transferring(warnings::add);
        assertTrue(shared == f32.toFloat32Transferring(warnings::add), "the same backing array each time");
        assertArrayEquals(values, shared);
        assertTrue(shared != f32.toFloat32(warnings::add), "toFloat32 still copies");
        PointSet p = f32.toFloat32PointSetTransferring(warnings::add);
        assertTrue(p.coordinates() == shared, "the point set holds the array read, not a copy");
        assertEquals(3, p.size());
        assertEquals(2, p.dimensions());
        NpyArray f64 = named(NpyArray.ofFloat64(new double[] {0.5, 0.1}, 2, 1));
        assertArrayEquals(f64.toFloat32(warnings::add), f64.toFloat32Transferring(warnings::add));
        assertEquals(2, warnings.size(), "0.1 is not a float32: one warning per conversion, as toFloat32");
    }

    @Test
    void float64ToFloat32WarnsNotWhenEveryValueIsExact() {
        NpyArray a = named(NpyArray.ofFloat64(new double[] {0.5, -1.25, 3.0, 1e-3f, Double.NaN, Double.POSITIVE_INFINITY,
            Float.MAX_VALUE, Float.MIN_VALUE}, 4, 2));
        float[] f = a.toFloat32(warnings::add);
        assertEquals(List.of(), warnings);
        assertEquals(0.5f, f[0]);
        assertEquals(1e-3f, f[3]);
        assertTrue(Float.isNaN(f[4]));
        assertEquals(Float.POSITIVE_INFINITY, f[5]);
    }

    @Test
    void float64ToFloat32WarnsOnceWithTheCountWhenPrecisionIsLost() {
        NpyArray a = named(NpyArray.ofFloat64(new double[] {0.5, 0.1, 0.25, 1.0 / 3, 16777217.0}, 5));
        float[] f = a.toFloat32(warnings::add);
        assertEquals(1, warnings.size(), warnings.toString());
        String w = warnings.get(0);
        assertTrue(w.startsWith("x.npy: 3 of 5 float64 values are not exactly representable as float32"), w);
        assertTrue(w.contains("first: 0.1 at index 1"), w);
        assertEquals(0.1f, f[1]);
        assertEquals(16777216f, f[4]);
    }

    @Test
    void float64BeyondFloat32RangeIsReported() {
        NpyArray a = named(NpyArray.ofFloat64(new double[] {1, 2, 1e300, 4}, 2, 2));
        float[] f = a.toFloat32(warnings::add);
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("1 of 4 values exceed the float32 range (about 3.4e38) and became infinite"),
                warnings.get(0));
        assertTrue(warnings.get(0).contains("at row 1, column 0"), warnings.get(0));
        assertEquals(Float.POSITIVE_INFINITY, f[2]);
    }

    /** Rounded values and overflows each name their own first value: the overflow is what a later error is about. */
    @Test
    void roundingAndOverflowNameTheirOwnFirstValues() {
        NpyArray a = named(NpyArray.ofFloat64(new double[] {0.1, 2, 3, -1e39}, 2, 2));
        a.toFloat32(warnings::add);
        assertEquals(1, warnings.size());
        String w = warnings.get(0);
        assertTrue(w.contains("1 of 4 float64 values are not exactly representable as float32 and were rounded (first: 0.1 at row 0, column 0"), w);
        assertTrue(w.contains("1 of 4 values exceed the float32 range (about 3.4e38) and became infinite (first: -1.0E39 at row 1, column 1"), w);
    }

    @Test
    void integersToFloat32WarnOnlyBeyondTwoToThe24() {
        assertArrayEquals(new float[] {-16777216f, 16777216f, Integer.MIN_VALUE},
                named(NpyArray.ofInt32(new int[] {-16777216, 16777216, Integer.MIN_VALUE}, 3)).toFloat32(warnings::add));
        assertEquals(List.of(), warnings);
        named(NpyArray.ofInt32(new int[] {16777217, Integer.MAX_VALUE}, 2)).toFloat32(warnings::add);
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).startsWith("x.npy: 2 of 2 int32 values are not exactly representable"), warnings.get(0));
        warnings.clear();
        named(NpyArray.ofInt64(new long[] {1L << 40, Long.MIN_VALUE}, 2)).toFloat32(warnings::add);
        assertEquals(List.of(), warnings);
        named(NpyArray.ofInt64(new long[] {Long.MAX_VALUE}, 1)).toFloat32(warnings::add);
        assertEquals(1, warnings.size(), "Long.MAX_VALUE rounds to 2^63, which is not exact");
    }

    @Test
    void toFloat64IsExactOrRefusesOrWarns() {
        assertArrayEquals(new double[] {0.1f, 2}, NpyArray.ofFloat32(new float[] {0.1f, 2f}, 2).toFloat64());
        assertArrayEquals(new double[] {1L << 53}, NpyArray.ofInt64(new long[] {1L << 53}, 1).toFloat64());
        NpyArray big = named(NpyArray.ofInt64(new long[] {1, (1L << 53) + 1}, 2));
        NpyFormatException e = assertThrows(NpyFormatException.class, big::toFloat64);
        assertEquals("x.npy: int64 value 9007199254740993 at index 1 is not exactly representable as float64"
                + " (integers beyond 2^53 = 9007199254740992 in magnitude are not)", e.getMessage());
        double[] rounded = big.toFloat64(warnings::add);
        assertEquals(0x1p53, rounded[1]);
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("1 of 2 int64 values"), warnings.get(0));
    }

    @Test
    void int64ToInt32RefusesOutOfRangeValues() {
        assertArrayEquals(new int[] {Integer.MIN_VALUE, 0, Integer.MAX_VALUE},
                NpyArray.ofInt64(new long[] {Integer.MIN_VALUE, 0, Integer.MAX_VALUE}, 3).toInt32());
        NpyFormatException e = assertThrows(NpyFormatException.class,
                () -> named(NpyArray.ofInt64(new long[] {0, 1, 2, 3000000000L}, 2, 2)).toInt32());
        assertEquals("x.npy: int64 value 3000000000 at row 1, column 1 is out of range for int32 (-2147483648 to 2147483647)",
                e.getMessage());
    }

    @Test
    void floatsToIntegersMustBeIntegral() {
        assertArrayEquals(new int[] {0, 3, -7}, NpyArray.ofFloat64(new double[] {0, 3, -7}, 3).toInt32());
        assertArrayEquals(new long[] {1L << 60}, NpyArray.ofFloat64(new double[] {0x1p60}, 1).toInt64());
        NpyFormatException e = assertThrows(NpyFormatException.class,
                () -> named(NpyArray.ofFloat64(new double[] {0, 2.5}, 2)).toInt32());
        assertEquals("x.npy: float64 value 2.5 at index 1 is not an integer; cannot convert to int32", e.getMessage());
        assertThrows(NpyFormatException.class, () -> NpyArray.ofFloat32(new float[] {Float.NaN}, 1).toInt64());
        assertThrows(NpyFormatException.class, () -> NpyArray.ofFloat64(new double[] {0x1p63}, 1).toInt64());
        assertThrows(NpyFormatException.class, () -> NpyArray.ofFloat64(new double[] {0x1p40}, 1).toInt32());
    }

    @Test
    void boolAndUint8Conversions() {
        assertArrayEquals(new boolean[] {true, false, true}, NpyArray.ofInt32(new int[] {1, 0, 1}, 3).toBool());
        assertArrayEquals(new boolean[] {true, false}, NpyArray.ofBool(new boolean[] {true, false}, 2).toBool());
        NpyFormatException e = assertThrows(NpyFormatException.class,
                () -> named(NpyArray.ofUint8(new byte[] {0, 2}, 2)).toBool());
        assertTrue(e.getMessage().contains("uint8 value 2 at index 1 is out of range for bool"), e.getMessage());
        assertArrayEquals(new byte[] {0, (byte) 255}, NpyArray.ofInt64(new long[] {0, 255}, 2).toUint8());
        assertThrows(NpyFormatException.class, () -> NpyArray.ofInt32(new int[] {256}, 1).toUint8());
        assertThrows(NpyFormatException.class, () -> NpyArray.ofInt32(new int[] {-1}, 1).toUint8());
        assertArrayEquals(new int[] {1, 0}, NpyArray.ofBool(new boolean[] {true, false}, 2).toInt32());
    }

    @Test
    void pointSetFromOneAndTwoDimensions() {
        PointSet p = NpyArray.ofFloat64(new double[] {1, 2, 3, 4, 5, 6}, 3, 2).toPointSet(warnings::add);
        assertEquals(3, p.size());
        assertEquals(2, p.dimensions());
        assertEquals(6f, p.get(2, 1));
        PointSet line = NpyArray.ofInt32(new int[] {7, 8, 9}, 3).toPointSet(warnings::add);
        assertEquals(3, line.size());
        assertEquals(1, line.dimensions());
        assertEquals(List.of(), warnings);
        // Finiteness is the caller's decision.
        PointSet nan = NpyArray.ofFloat32(new float[] {Float.NaN, 1}, 1, 2).toPointSet(warnings::add);
        assertEquals(0, nan.firstNonFinite());
    }

    @Test
    void pointSetKeepsWhatFloat32CannotHoldAndTheFloat32FormRoundsIt() {
        NpyArray decimals = NpyArray.ofFloat64(new double[] {0.1, 0.2}, 1, 2);
        PointSet exact = decimals.toPointSet(warnings::add);
        assertTrue(exact.isFloat64());
        assertEquals(0.1, exact.getDouble(0, 0));
        PointSet big = NpyArray.ofInt32(new int[] {16_777_217}, 1).toPointSet(warnings::add);
        assertTrue(big.isFloat64());
        assertEquals(16_777_217.0, big.getDouble(0, 0));
        assertTrue(NpyArray.ofInt64(new long[] {-3}, 1).toPointSet(warnings::add).isFloat64());
        assertEquals(List.of(), warnings);
        assertThrows(NpyFormatException.class, () -> NpyArray.ofInt64(new long[] {(1L << 53) + 1}, 1).toPointSet(warnings::add));
        for (NpyArray narrow : new NpyArray[] {NpyArray.ofFloat32(new float[] {0.1f}, 1), NpyArray.ofUint8(new byte[] {7}, 1)}) {
            assertTrue(!narrow.toPointSet(warnings::add).isFloat64(), "float32 holds " + narrow.dtype() + " exactly");
        }
        PointSet rounded = decimals.toFloat32PointSet(warnings::add);
        assertTrue(!rounded.isFloat64());
        assertEquals((double) 0.1f, rounded.getDouble(0, 0));
        assertEquals(1, warnings.size(), "one warning names the first rounded value: " + warnings);
        for (NpyDtype t : NpyDtype.values()) {
            boolean wide = t == NpyDtype.FLOAT64 || t == NpyDtype.INT32 || t == NpyDtype.INT64 || t == NpyDtype.UINT32
                    || t == NpyDtype.UINT64;
            assertEquals(!wide, t.fitsFloat32(), t.numpyName());
        }
    }

    @Test
    void pointSetRefusesOtherRanksAndNoCoordinates() {
        NpyFormatException scalar = assertThrows(NpyFormatException.class,
                () -> named(NpyArray.ofFloat32(new float[] {1})).toPointSet(warnings::add));
        assertTrue(scalar.getMessage().startsWith("x.npy: a 0-d array"), scalar.getMessage());
        NpyFormatException cube = assertThrows(NpyFormatException.class,
                () -> named(NpyArray.ofFloat32(new float[8], 2, 2, 2)).toPointSet(warnings::add));
        assertEquals("x.npy: points must be a 2-D array of shape (n, d), found shape (2, 2, 2)", cube.getMessage());
        NpyFormatException none = assertThrows(NpyFormatException.class,
                () -> named(NpyArray.ofFloat32(new float[0], 5, 0)).toPointSet(warnings::add));
        assertTrue(none.getMessage().contains("shape (5, 0) has no coordinates"), none.getMessage());
    }

    @Test
    void factoriesCopyAndCheckShapes() {
        float[] data = {1, 2};
        NpyArray a = NpyArray.ofFloat32(data, 2);
        data[0] = 99;
        assertEquals(1f, a.toFloat32(warnings::add)[0]);
        a.toFloat32(warnings::add)[1] = 42;
        assertEquals(2f, a.toFloat32(warnings::add)[1]);
        int[] shape = a.shape();
        shape[0] = 7;
        assertArrayEquals(new int[] {2}, a.shape());
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> NpyArray.ofFloat32(new float[5], 2, 3));
        assertEquals("shape [2, 3] holds 6 values but the data has 5", e.getMessage());
        assertThrows(InvalidInputException.class, () -> NpyArray.ofFloat32(new float[0], -1, 0));
        InvalidInputException big = assertThrows(InvalidInputException.class, () -> NpyArray.ofFloat32(new float[0], 65536, 65536));
        assertEquals("shape [65536, 65536] holds more than 2147483647 values but the data has 0", big.getMessage());
        assertEquals(0, NpyArray.ofFloat32(new float[0], 65536, 65536, 0, 1 << 30).size(), "empty despite big dims");
    }

    /** A finite float64 that rounds to an infinity is refused by value, before any float32 copy calls it "+inf". */
    @Test
    void aValueBeyondFloat32IsRefusedByNameAndValue() {
        NpyArray wide = named(NpyArray.ofFloat64(new double[] {1, 2, 3, 4, 5, -1e39}, 3, 2));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> wide.requireFloat32Range("the ball tree"));
        assertEquals("x.npy: row 2, column 1 (counting from 0) is -1.0E39, beyond float32's range (+-3.4028235E38),"
                + " in which the ball tree works", e.getMessage());
        // the largest float64 that still rounds to Float.MAX_VALUE passes; the next one rounds to infinity
        double edge = Math.nextDown((double) Float.MAX_VALUE + Math.ulp(Float.MAX_VALUE) / 2);
        named(NpyArray.ofFloat64(new double[] {edge, Double.NaN, Double.POSITIVE_INFINITY}, 3)).requireFloat32Range("x");
        NpyArray over = named(NpyArray.ofFloat64(new double[] {0, Math.nextUp(edge)}, 2));
        assertTrue(assertThrows(InvalidInputException.class, () -> over.requireFloat32Range("x")).getMessage()
                .startsWith("x.npy: index 1 (counting from 0) is "));
        named(NpyArray.ofInt64(new long[] {Long.MIN_VALUE, Long.MAX_VALUE}, 2)).requireFloat32Range("x");
        named(NpyArray.ofFloat32(new float[] {Float.POSITIVE_INFINITY}, 1)).requireFloat32Range("x");
    }

    /** int64's largest value rounds to 2^63 in float64, which no int64 holds: refused, or rounded with a warning. */
    @Test
    void int64MaxIsNotExactInFloat64() {
        NpyArray a = named(NpyArray.ofInt64(new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE}, 3));
        NpyFormatException e = assertThrows(NpyFormatException.class, a::toFloat64);
        assertTrue(e.getMessage().contains("int64 value 9223372036854775807 at index 1 is not exactly representable"),
                e.getMessage());
        assertThrows(NpyFormatException.class, () -> a.toPointSet(warnings::add));
        assertArrayEquals(new double[] {0, 0x1p63, -0x1p63}, a.toFloat64(warnings::add));
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("1 of 3 int64 values"), warnings.get(0));
        // -2^63 itself is exact
        assertArrayEquals(new double[] {-0x1p63}, NpyArray.ofInt64(new long[] {Long.MIN_VALUE}, 1).toFloat64());
    }
}
