package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Properties over random arrays: what the writer writes reads back identically, and the same
 * array laid out by hand in Fortran order and/or big-endian reads back to the same C-order values.
 */
class NpyRoundTripProperties {

    @Property(tries = 300)
    void writeThenReadIsIdentity(@ForAll long seed, @ForAll @IntRange(min = 0, max = 11) int dtypeIndex,
            @ForAll @IntRange(min = 0, max = 4) int rank) throws IOException {
        Random r = new Random(seed);
        NpyDtype t = NpyDtype.values()[dtypeIndex];
        int[] shape = randomShape(r, rank);
        NpyArray a = randomArray(r, t, shape);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Npy.write(out, a);
        byte[] bytes = out.toByteArray();
        assertEquals(0, (bytes.length - (long) a.size() * t.itemSize()) % 64, "data is 64-byte aligned");
        assertEquals(a, Npy.read(new ByteArrayInputStream(bytes), "p.npy"));
    }

    @Property(tries = 300)
    void fortranOrderAndByteOrderDoNotChangeValues(@ForAll long seed, @ForAll @IntRange(min = 0, max = 11) int dtypeIndex,
            @ForAll @IntRange(min = 0, max = 4) int rank, @ForAll boolean fortran, @ForAll boolean bigEndian) throws IOException {
        Random r = new Random(seed);
        NpyDtype t = NpyDtype.values()[dtypeIndex];
        int[] shape = randomShape(r, rank);
        NpyArray a = randomArray(r, t, shape);
        int n = a.size();
        ByteOrder order = bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        ByteBuffer data = ByteBuffer.allocate(n * t.itemSize()).order(order);
        boolean wide = t == NpyDtype.INT64 || t == NpyDtype.UINT64;
        double[] values = wide ? null : a.toFloat64();
        long[] longs = wide ? a.toInt64() : null;
        // Element at file position p is the C-order element whose multi-index, read first-index-fastest, is p.
        for (int p = 0; p < n; p++) {
            int c = fortran ? fortranToC(p, shape) : p;
            switch (t) {
                case FLOAT32 -> data.putFloat((float) values[c]);
                case FLOAT64 -> data.putDouble(values[c]);
                case INT32 -> data.putInt((int) values[c]);
                case INT64, UINT64 -> data.putLong(longs[c]);
                case UINT32 -> data.putInt((int) (long) values[c]);
                case UINT8, BOOL -> data.put((byte) values[c]);
                case INT8 -> data.put(((byte[]) a.rawData())[c]);
                case INT16, UINT16, FLOAT16 -> data.putShort(((short[]) a.rawData())[c]);
            }
        }
        String descr = (t.itemSize() == 1 ? "|" : bigEndian ? ">" : "<") + t.code();
        byte[] file = NpyBytes.file(NpyBytes.dict(descr, fortran, shapeText(shape)), data.array());
        NpyArray back = Npy.read(new ByteArrayInputStream(file), "p.npy");
        assertEquals(a, back);
        assertArrayEquals(shape, back.shape());
    }

    private static int fortranToC(int p, int[] shape) {
        int rest = p, c = 0, stride = 1;
        int[] idx = new int[shape.length];
        for (int a = 0; a < shape.length; a++) {
            idx[a] = rest % shape[a];
            rest /= shape[a];
        }
        for (int a = shape.length - 1; a >= 0; a--) {
            c += idx[a] * stride;
            stride *= shape[a];
        }
        return c;
    }

    private static int[] randomShape(Random r, int rank) {
        int[] s = new int[rank];
        for (int i = 0; i < rank; i++) s[i] = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(rank <= 2 ? 40 : 6);
        return s;
    }

    private static NpyArray randomArray(Random r, NpyDtype t, int[] shape) {
        int n = 1;
        for (int s : shape) n *= s;
        return switch (t) {
            case FLOAT32 -> {
                float[] v = new float[n];
                for (int i = 0; i < n; i++) v[i] = Float.intBitsToFloat(r.nextInt());
                yield NpyArray.ofFloat32(v, shape);
            }
            case FLOAT64 -> {
                double[] v = new double[n];
                for (int i = 0; i < n; i++) v[i] = r.nextBoolean() ? Double.longBitsToDouble(r.nextLong()) : r.nextInt(100);
                yield NpyArray.ofFloat64(v, shape);
            }
            case INT32 -> {
                int[] v = new int[n];
                for (int i = 0; i < n; i++) v[i] = r.nextInt();
                yield NpyArray.ofInt32(v, shape);
            }
            case INT64 -> {
                long[] v = new long[n];
                for (int i = 0; i < n; i++) v[i] = r.nextLong();
                yield NpyArray.ofInt64(v, shape);
            }
            case UINT8 -> {
                byte[] v = new byte[n];
                r.nextBytes(v);
                yield NpyArray.ofUint8(v, shape);
            }
            case BOOL -> {
                boolean[] v = new boolean[n];
                for (int i = 0; i < n; i++) v[i] = r.nextBoolean();
                yield NpyArray.ofBool(v, shape);
            }
            case INT8 -> {
                byte[] v = new byte[n];
                r.nextBytes(v);
                yield new NpyArray(t, NpyArray.checkShape(n, shape), v, "<memory>");
            }
            case UINT32, UINT64 -> { // uint64: up to 2^63 - 1, the most a read accepts
                long[] v = new long[n];
                for (int i = 0; i < n; i++) v[i] = t == NpyDtype.UINT32 ? r.nextInt() & 0xffffffffL : r.nextLong() >>> 1;
                yield new NpyArray(t, NpyArray.checkShape(n, shape), v, "<memory>");
            }
            case INT16, UINT16, FLOAT16 -> { // float16: any bits, NaN payloads and subnormals included
                short[] v = new short[n];
                for (int i = 0; i < n; i++) v[i] = (short) r.nextInt();
                yield new NpyArray(t, NpyArray.checkShape(n, shape), v, "<memory>");
            }
        };
    }

    private static String shapeText(int[] shape) {
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) {
            if (i > 0) b.append(", ");
            b.append(shape[i]);
        }
        if (shape.length == 1) b.append(',');
        return b.append(')').toString();
    }
}
