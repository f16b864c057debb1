package org.sylva.bench.ab;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NpyMatrixTest {
    @TempDir
    Path dir;

    /** A version 1.0 file as numpy.save writes it: the header padded with spaces to a multiple of 64 bytes. */
    private Path npy(String name, String descr, String order, String shape, byte[] data) throws IOException {
        String dict = "{'descr': '" + descr + "', 'fortran_order': " + order + ", 'shape': " + shape + ", }";
        int pad = 64 - (10 + dict.length() + 1) % 64;
        String header = dict + " ".repeat(pad % 64) + "\n";
        ByteBuffer b = ByteBuffer.allocate(10 + header.length() + data.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.ISO_8859_1)).put((byte) 1).put((byte) 0);
        b.putShort((short) header.length()).put(header.getBytes(StandardCharsets.ISO_8859_1)).put(data);
        return Files.write(dir.resolve(name), b.array());
    }

    private static byte[] doubles(double... v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : v) b.putDouble(x);
        return b.array();
    }

    private static byte[] floats(float... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float x : v) b.putFloat(x);
        return b.array();
    }

    @Test
    void readsFloat32AndFloat64Matrices() throws IOException {
        NpyMatrix m = NpyMatrix.read(npy("a.npy", "<f8", "False", "(2, 3)", doubles(1, 2, 3, 4.5, -5, 6e300)));
        assertEquals(2, m.n());
        assertEquals(3, m.d());
        assertNull(m.float32());
        assertArrayEquals(new double[] {1, 2, 3, 4.5, -5, 6e300}, m.float64());
        m = NpyMatrix.read(npy("b.npy", "<f4", "False", "(3, 1)", floats(0.25f, -1f, 7f)));
        assertEquals(3, m.n());
        assertEquals(1, m.d());
        assertNull(m.float64());
        assertArrayEquals(new float[] {0.25f, -1f, 7f}, m.float32());
    }

    @Test
    void refusesWhatItDoesNotReadNamingIt() throws IOException {
        Path[] bad = {
            npy("short.npy", "<f8", "False", "(2, 3)", doubles(1, 2, 3, 4, 5)),
            npy("long.npy", "<f4", "False", "(1, 2)", floats(1, 2, 3)),
            npy("big.npy", ">f8", "False", "(1, 1)", doubles(1)),
            npy("int.npy", "<i8", "False", "(1, 1)", doubles(1)),
            npy("fortran.npy", "<f8", "True", "(1, 1)", doubles(1)),
            npy("flat.npy", "<f8", "False", "(2,)", doubles(1, 2)),
            npy("cube.npy", "<f8", "False", "(1, 1, 1)", doubles(1)),
            Files.write(dir.resolve("text.npy"), "1,2\n3,4\n".getBytes(StandardCharsets.US_ASCII)),
        };
        for (Path p : bad) {
            IOException e = assertThrows(IOException.class, () -> NpyMatrix.read(p), p.toString());
            assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
        }
    }
}
