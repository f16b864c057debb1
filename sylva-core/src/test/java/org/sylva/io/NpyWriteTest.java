package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.InvalidInputException;

/** The writer lays files out byte for byte as np.save does, and everything written reads back. */
class NpyWriteTest {
    @TempDir
    Path dir;

    /** Header text and padding exactly as numpy 2.4 (np.save) writes them; padding counts taken from numpy. */
    @Test
    void headersMatchNumpyByteForByte() {
        check(NpyDtype.FLOAT32, new int[] {3, 2}, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2), }", 58);
        check(NpyDtype.FLOAT64, new int[] {3}, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", 60);
        check(NpyDtype.FLOAT32, new int[] {}, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 62);
        check(NpyDtype.INT64, new int[] {2, 3}, "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }", 58);
        check(NpyDtype.BOOL, new int[] {0, 3}, "{'descr': '|b1', 'fortran_order': False, 'shape': (0, 3), }", 58);
        check(NpyDtype.UINT8, new int[] {7}, "{'descr': '|u1', 'fortran_order': False, 'shape': (7,), }", 60);
        check(NpyDtype.INT32, new int[] {123456, 1}, "{'descr': '<i4', 'fortran_order': False, 'shape': (123456, 1), }", 53);
        check(NpyDtype.FLOAT32, new int[] {2, 3, 4}, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }", 55);
    }

    private static void check(NpyDtype t, int[] shape, String dict, int trailingSpaces) {
        byte[] h = Npy.header(t, shape);
        assertEquals(128, h.length);
        assertEquals((byte) 0x93, h[0]);
        assertEquals("NUMPY", new String(h, 1, 5, StandardCharsets.US_ASCII));
        assertEquals(1, h[6]);
        assertEquals(0, h[7]);
        assertEquals(118, (h[8] & 0xff) | (h[9] & 0xff) << 8);
        assertEquals(dict + " ".repeat(trailingSpaces) + "\n", new String(h, 10, 118, StandardCharsets.ISO_8859_1));
    }

    @Test
    void hugeRankNeedsVersionTwo() throws IOException {
        int[] shape = new int[30000];
        Arrays.fill(shape, 1);
        byte[] h = Npy.header(NpyDtype.FLOAT32, shape);
        assertEquals(2, h[6]);
        assertEquals(0, h.length % 64);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Npy.write(out, NpyArray.ofFloat32(new float[] {5f}, shape));
        NpyArray back = Npy.read(new ByteArrayInputStream(out.toByteArray()), "v2");
        assertEquals(30000, back.rank());
    }

    @Test
    void everyDtypeAndRankRoundTrips() throws IOException {
        Random r = new Random(7);
        int[][] shapes = {{}, {0}, {5}, {0, 4}, {3, 4}, {2, 3, 4}, {1, 1, 1, 1}};
        for (int[] shape : shapes) {
            int n = 1;
            for (int s : shape) n *= s;
            float[] f = new float[n];
            double[] d = new double[n];
            int[] i = new int[n];
            long[] l = new long[n];
            byte[] u = new byte[n];
            boolean[] b = new boolean[n];
            for (int k = 0; k < n; k++) {
                f[k] = r.nextFloat() * 1e6f - 5e5f;
                d[k] = r.nextGaussian() * 1e200;
                i[k] = r.nextInt();
                l[k] = r.nextLong();
                u[k] = (byte) r.nextInt(256);
                b[k] = r.nextBoolean();
            }
            Path p = dir.resolve("a.npy");
            Npy.writeFloat32(p, f, shape);
            assertArrayEquals(f, readBack(p, NpyDtype.FLOAT32, shape).toFloat32(w -> { throw new AssertionError(w); }));
            Npy.writeFloat64(p, d, shape);
            assertArrayEquals(d, readBack(p, NpyDtype.FLOAT64, shape).toFloat64());
            Npy.writeInt32(p, i, shape);
            assertArrayEquals(i, readBack(p, NpyDtype.INT32, shape).toInt32());
            Npy.writeInt64(p, l, shape);
            assertArrayEquals(l, readBack(p, NpyDtype.INT64, shape).toInt64());
            Npy.writeUint8(p, u, shape);
            assertArrayEquals(u, readBack(p, NpyDtype.UINT8, shape).toUint8());
            Npy.writeBool(p, b, shape);
            assertArrayEquals(b, readBack(p, NpyDtype.BOOL, shape).toBool());
        }
    }

    private static NpyArray readBack(Path p, NpyDtype t, int[] shape) throws IOException {
        NpyArray a = Npy.read(p);
        assertEquals(t, a.dtype());
        assertArrayEquals(shape, a.shape());
        assertEquals(0, (Files.size(p) - (long) a.size() * t.itemSize()) % 64, "data starts 64-byte aligned");
        return a;
    }

    @Test
    void specialFloatValuesSurviveBitForBit() throws IOException {
        float[] f = {Float.NaN, Float.intBitsToFloat(0x7fc00001), -0f, Float.MIN_VALUE, Float.NEGATIVE_INFINITY};
        Path p = dir.resolve("s.npy");
        Npy.writeFloat32(p, f, 5);
        float[] back = Npy.read(p).toFloat32(w -> { });
        for (int k = 0; k < f.length; k++) assertEquals(Float.floatToRawIntBits(f[k]), Float.floatToRawIntBits(back[k]));
    }

    @Test
    void writtenLayoutIsLittleEndianCOrder() throws IOException {
        Path p = dir.resolve("c.npy");
        Npy.writeInt32(p, new int[] {1, 2, 3, 4, 5, 6}, 2, 3);
        byte[] all = Files.readAllBytes(p);
        byte[] data = Arrays.copyOfRange(all, 128, all.length);
        assertArrayEquals(NpyBytes.ints(ByteOrder.LITTLE_ENDIAN, 1, 2, 3, 4, 5, 6), data);
    }

    @Test
    void writerRefusesWrongShapesAndLeavesNoFile() throws IOException {
        Path p = dir.resolve("w.npy");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> Npy.writeFloat32(p, new float[5], 2, 2));
        assertTrue(e.getMessage().contains("holds 4 values but the data has 5"), e.getMessage());
        assertTrue(Files.notExists(p));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(0, s.count(), "no temporaries left behind");
        }
    }

    /**
     * A shape whose dict and 21 spare spaces end exactly on a 64-byte boundary: NumPy 2.4's np.save then pads a whole
     * further 64 bytes (192 in all), which only the exact count of spare spaces reproduces.
     */
    @Test
    void headerWhoseSpareSpacesReachA64ByteBoundaryMatchesNumpy() {
        int[] shape = {1, 1000000000, 1000000000, 1000000000, 100};
        String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1000000000, 1000000000, 1000000000, 100), }";
        byte[] h = Npy.header(NpyDtype.FLOAT32, shape);
        assertEquals(192, h.length);
        assertEquals(182, (h[8] & 0xff) | (h[9] & 0xff) << 8);
        assertEquals(dict + " ".repeat(182 - dict.length() - 1) + "\n", new String(h, 10, 182, StandardCharsets.ISO_8859_1));
    }
}
