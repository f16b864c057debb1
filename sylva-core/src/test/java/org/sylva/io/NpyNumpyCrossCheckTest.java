package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Optional cross-check against the real NumPy, run only where {@code python3 -c "import numpy"} works
 * (CI does not depend on it): NumPy reads what Sylva writes, byte-identical to {@code np.save}, and
 * Sylva reads what NumPy writes in every supported dtype, byte order, memory order and version
 * (the read-only dtypes float16, int8, int16, uint16, uint32 and uint64 included, float16 over every bit pattern).
 */
class NpyNumpyCrossCheckTest {
    @TempDir
    Path dir;

    private static final String[] DTYPES = {"f4", "f8", "i4", "i8", "u1", "b1"};
    /** Read, never written: NumPy writes them, Sylva reads them (checked in {@link #sylvaReadsWhatNumpyWrites}). */
    private static final String[] READ_DTYPES = {"f4", "f8", "i4", "i8", "u1", "b1", "f2", "i1", "i2", "u2", "u4", "u8"};
    private static final int[][] SHAPES = {{}, {0}, {7}, {4, 3}, {0, 2}, {2, 3, 4}};

    /** The value of element k of a test array, identical in Java and in the Python script. */
    private static double value(String t, int k) {
        return switch (t) {
            case "f4", "f8" -> k * 0.5 - 3.25;
            case "i4" -> k * 7 - 11;
            case "i8" -> k * 4_000_000_007L - 11;
            case "u1" -> (k * 37) % 256;
            case "f2" -> k * 0.25 - 2.75;
            case "i1" -> (k * 37) % 256 - 128;
            case "i2" -> k * 2801 - 32768;
            case "u2" -> (k * 2801 + 7) % 65536;
            case "u4" -> (k * 2_654_435_761L) % 4_294_967_296L;
            default -> k % 3 == 0 ? 1 : 0;
        };
    }

    private static final String PY_VALUE = """
            import numpy as np, sys, os, io
            def values(t, shape):
                n = int(np.prod(shape)) if len(shape) else 1
                k = np.arange(n, dtype=np.int64)
                if t in ('f4', 'f8'): v = k * 0.5 - 3.25
                elif t == 'i4': v = k * 7 - 11
                elif t == 'i8': v = k * 4000000007 - 11
                elif t == 'u1': v = (k * 37) % 256
                elif t == 'f2': v = k * 0.25 - 2.75
                elif t == 'i1': v = (k * 37) % 256 - 128
                elif t == 'i2': v = k * 2801 - 32768
                elif t == 'u2': v = (k * 2801 + 7) % 65536
                elif t == 'u4': v = (k * 2654435761) % 4294967296
                elif t == 'u8': v = k * 300000000000000007
                else: v = (k % 3 == 0)
                return np.asarray(v).astype('?' if t == 'b1' else t).reshape(shape)
            """;

    private static boolean numpyAvailable() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import numpy").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static String name(String t, int[] shape, String variant) {
        StringBuilder b = new StringBuilder(t).append('_').append(variant);
        for (int s : shape) b.append('_').append(s);
        return b.append(".npy").toString();
    }

    private static int count(int[] shape) {
        int n = 1;
        for (int s : shape) n *= s;
        return n;
    }

    private String runPython(String script) throws IOException, InterruptedException {
        Path py = dir.resolve("check.py");
        Files.writeString(py, PY_VALUE + script);
        Process p = new ProcessBuilder("python3", py.toString(), dir.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("python timed out");
        }
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void numpyReadsWhatSylvaWritesAndNpSaveIsByteIdentical() throws Exception {
        Assumptions.assumeTrue(numpyAvailable(), "python3 with numpy not available; cross-check skipped");
        List<String> cases = new ArrayList<>();
        for (String t : DTYPES) {
            for (int[] shape : SHAPES) {
                int n = count(shape);
                Path p = dir.resolve(name(t, shape, "java"));
                switch (t) {
                    case "f4" -> {
                        float[] a = new float[n];
                        for (int k = 0; k < n; k++) a[k] = (float) value(t, k);
                        Npy.writeFloat32(p, a, shape);
                    }
                    case "f8" -> {
                        double[] a = new double[n];
                        for (int k = 0; k < n; k++) a[k] = value(t, k);
                        Npy.writeFloat64(p, a, shape);
                    }
                    case "i4" -> {
                        int[] a = new int[n];
                        for (int k = 0; k < n; k++) a[k] = (int) value(t, k);
                        Npy.writeInt32(p, a, shape);
                    }
                    case "i8" -> {
                        long[] a = new long[n];
                        for (int k = 0; k < n; k++) a[k] = k * 4_000_000_007L - 11;
                        Npy.writeInt64(p, a, shape);
                    }
                    case "u1" -> {
                        byte[] a = new byte[n];
                        for (int k = 0; k < n; k++) a[k] = (byte) value(t, k);
                        Npy.writeUint8(p, a, shape);
                    }
                    default -> {
                        boolean[] a = new boolean[n];
                        for (int k = 0; k < n; k++) a[k] = value(t, k) == 1;
                        Npy.writeBool(p, a, shape);
                    }
                }
                cases.add("('" + t + "', " + tuple(shape) + ", '" + p.getFileName() + "')");
            }
        }
        String out = runPython("""
                d = sys.argv[1]
                cases = [%s]
                for t, shape, f in cases:
                    a = np.load(os.path.join(d, f))
                    e = values(t, shape)
                    assert a.dtype == e.dtype and a.shape == e.shape and np.array_equal(a, e), f
                    b = io.BytesIO(); np.save(b, e)
                    assert b.getvalue() == open(os.path.join(d, f), 'rb').read(), 'bytes differ: ' + f
                print('ok', len(cases))
                """.formatted(String.join(", ", cases)));
        assertEquals("ok " + cases.size(), out.strip());
    }

    @Test
    void sylvaReadsWhatNumpyWrites() throws Exception {
        Assumptions.assumeTrue(numpyAvailable(), "python3 with numpy not available; cross-check skipped");
        List<String> cases = new ArrayList<>();
        for (String t : READ_DTYPES) for (int[] shape : SHAPES) cases.add("('" + t + "', " + tuple(shape) + ")");
        runPython("""
                d = sys.argv[1]
                F = lambda a: np.asfortranarray(a) if a.ndim else a  # asfortranarray makes 0-d arrays 1-d
                for t, shape in [%s]:
                    e = values(t, shape)
                    tag = t + '_%%s' + ''.join('_' + str(s) for s in shape) + '.npy'
                    np.save(os.path.join(d, tag %% 'c'), e)
                    np.save(os.path.join(d, tag %% 'f'), F(e))
                    np.save(os.path.join(d, tag %% 'be'), e.astype(e.dtype.newbyteorder('>')))
                    np.save(os.path.join(d, tag %% 'bef'), F(e.astype(e.dtype.newbyteorder('>'))))
                    for v in ((2, 0), (3, 0)):
                        with open(os.path.join(d, tag %% ('v%%d' %% v[0])), 'wb') as fh:
                            np.lib.format.write_array(fh, F(e), version=v)
                """.formatted(String.join(", ", cases)));
        int files = 0;
        for (String t : READ_DTYPES) {
            for (int[] shape : SHAPES) {
                for (String variant : new String[] {"c", "f", "be", "bef", "v2", "v3"}) {
                    NpyArray a = Npy.read(dir.resolve(name(t, shape, variant)));
                    String what = name(t, shape, variant);
                    assertArrayEquals(shape, a.shape(), what);
                    double[] expected = new double[count(shape)];
                    for (int k = 0; k < expected.length; k++) expected[k] = value(t, k);
                    if (t.equals("i8") || t.equals("u8")) {
                        long[] el = new long[expected.length];
                        for (int k = 0; k < el.length; k++) el[k] = t.equals("u8") ? k * 300_000_000_000_000_007L : k * 4_000_000_007L - 11;
                        assertArrayEquals(el, a.toInt64(), what);
                    } else {
                        assertArrayEquals(expected, a.toFloat64(), what);
                    }
                    files++;
                }
            }
        }
        assertEquals(READ_DTYPES.length * SHAPES.length * 6, files);
    }

    /** Every float16 bit pattern as NumPy decodes it (to float32), in both byte orders. */
    @Test
    void float16EveryBitPatternAsNumpyDecodesIt() throws Exception {
        Assumptions.assumeTrue(numpyAvailable(), "python3 with numpy not available; cross-check skipped");
        runPython("""
                d = sys.argv[1]
                h = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
                np.save(os.path.join(d, 'half_le.npy'), h.astype('<f2'))
                np.save(os.path.join(d, 'half_be.npy'), h.astype('>f2'))
                np.save(os.path.join(d, 'half_as_f4.npy'), h.astype(np.float32))
                """);
        float[] numpy = Npy.read(dir.resolve("half_as_f4.npy")).toFloat32(w -> { throw new AssertionError(w); });
        for (String f : new String[] {"half_le.npy", "half_be.npy"}) {
            NpyArray a = Npy.read(dir.resolve(f));
            assertEquals(NpyDtype.FLOAT16, a.dtype(), f);
            float[] sylva = a.toFloat32(w -> { throw new AssertionError(w); });
            assertEquals(65536, sylva.length);
            for (int i = 0; i < sylva.length; i++) {
                String what = f + " bits 0x" + Integer.toHexString(i);
                if (Float.isNaN(numpy[i])) org.junit.jupiter.api.Assertions.assertTrue(Float.isNaN(sylva[i]), what);
                else assertEquals(Float.floatToRawIntBits(numpy[i]), Float.floatToRawIntBits(sylva[i]), what);
            }
        }
    }

    private static String tuple(int[] shape) {
        StringBuilder b = new StringBuilder("(");
        for (int s : shape) b.append(s).append(',');
        return b.append(')').toString();
    }
}
