package org.sylva.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The inputs of {@link NpyFuzzTest}: valid seed files of every dtype, order, byte order and version,
 * mutated (bit flips, byte overwrites, truncations, appended garbage, spliced chunks, forged header
 * lengths and versions) or replaced by freshly generated headers with lying, huge, negative,
 * overflowing or ill-typed shapes and wrong dtypes. Deterministic for a given {@link Random}.
 *
 * <pre>{@code
 * byte[] input = NpyFuzzInputs.generate(rnd, NpyFuzzInputs.seeds(rnd));
 * }</pre>
 */
final class NpyFuzzInputs {
    private static final String[] GOOD_DESCRS = {"<f4", ">f4", "<f8", ">f8", "<i4", ">i4", "<i8", ">i8", "|u1", "|b1",
        "<f2", ">f2", "<i2", ">i2", "<u2", ">u2", "|i1"};
    private static final String[] ANY_DESCRS = {"<f4", ">f4", "<f8", ">f8", "<i4", ">i4", "<i8", ">i8", "|u1", "|b1",
        "|O", "<U3", "|S4", "<i2", "<f2", "<c8", "<u4", "=f4", "f8", "|f4", "?", "<M8[ns]", "", "<f", "<f44", "<\u00e9",
        "|i2", "<u8", "|f2", ">i1", "<e"};

    private NpyFuzzInputs() { }

    static List<byte[]> seeds(Random rnd) throws IOException {
        List<byte[]> seeds = new ArrayList<>();
        int[][] shapes = {{}, {0}, {1}, {5}, {3, 4}, {4, 1}, {2, 3, 2}, {0, 3}, {1, 1, 1, 1}};
        for (String descr : GOOD_DESCRS) {
            for (int[] shape : shapes) {
                for (boolean fortran : new boolean[] {false, true}) {
                    for (int major = 1; major <= 3; major++) {
                        NpyDtype t = dtypeOf(descr);
                        int n = 1;
                        for (int s : shape) n *= s;
                        byte[] data = new byte[n * t.itemSize()];
                        rnd.nextBytes(data);
                        seeds.add(NpyBytes.file(major, NpyBytes.dict(descr, fortran, shapeText(shape)), data));
                    }
                }
            }
        }
        // What the writer produces (exact NumPy layout, with its growth padding).
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Npy.write(out, NpyArray.ofFloat32(new float[] {1, 2, 3, 4, 5, 6}, 3, 2));
        seeds.add(out.toByteArray());
        out.reset();
        Npy.write(out, NpyArray.ofInt64(new long[] {1, -2, 3}, 3));
        seeds.add(out.toByteArray());
        return seeds;
    }

    private static NpyDtype dtypeOf(String descr) {
        String code = descr.substring(1);
        return NpyDtype.forCode(code);
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

    static byte[] generate(Random rnd, List<byte[]> seeds) {
        int choice = rnd.nextInt(10);
        byte[] x;
        if (choice < 5) {
            x = seeds.get(rnd.nextInt(seeds.size())).clone();
            int mutations = 1 + rnd.nextInt(rnd.nextInt(4) + 1);
            for (int m = 0; m < mutations; m++) x = mutate(rnd, x, seeds);
        } else if (choice < 8) {
            x = forgedHeader(rnd);
        } else {
            x = forgedHeader(rnd);
            x = mutate(rnd, x, seeds);
        }
        return x;
    }

    private static byte[] mutate(Random rnd, byte[] x, List<byte[]> seeds) {
        if (x.length == 0) return new byte[] {(byte) rnd.nextInt(256)};
        int headerEnd = Math.min(x.length, 140);
        switch (rnd.nextInt(11)) {
            case 0 -> { // bit flip, mostly in the header
                int at = rnd.nextInt(4) == 0 ? rnd.nextInt(x.length) : rnd.nextInt(headerEnd);
                x[at] ^= (byte) (1 << rnd.nextInt(8));
            }
            case 1 -> { // overwrite bytes with interesting values
                int at = rnd.nextInt(headerEnd);
                byte[] interesting = {0, (byte) 0xff, (byte) 0x7f, (byte) 0x80, '(', ')', ',', '\'', '-', '9', '{', '}', ' ', '\n', '\\', 'L'};
                x[at] = interesting[rnd.nextInt(interesting.length)];
            }
            case 2 -> { // truncate
                x = Arrays.copyOf(x, rnd.nextInt(x.length + 1));
            }
            case 3 -> { // append garbage
                byte[] g = new byte[1 + rnd.nextInt(rnd.nextBoolean() ? 8 : 300)];
                rnd.nextBytes(g);
                byte[] y = Arrays.copyOf(x, x.length + g.length);
                System.arraycopy(g, 0, y, x.length, g.length);
                x = y;
            }
            case 4 -> { // forge the header length field
                if (x.length >= 12) {
                    long[] lies = {0, 1, 2, 63, 64, 65535, 0x7fff_ffffL, 0xffff_ffffL, 1 << 20, (1 << 20) + 1, x.length, x.length - 10};
                    long v = rnd.nextBoolean() ? lies[rnd.nextInt(lies.length)] : rnd.nextInt(x.length + 10);
                    x[8] = (byte) v;
                    x[9] = (byte) (v >> 8);
                    if ((x[6] & 0xff) != 1) {
                        x[10] = (byte) (v >> 16);
                        x[11] = (byte) (v >> 24);
                    }
                }
            }
            case 5 -> { // forge the version
                if (x.length >= 8) {
                    x[6] = (byte) (rnd.nextInt(5));
                    x[7] = (byte) (rnd.nextInt(8) == 0 ? 1 : 0);
                }
            }
            case 6 -> { // delete a chunk
                int from = rnd.nextInt(x.length);
                int len = rnd.nextInt(Math.min(16, x.length - from) + 1);
                byte[] y = new byte[x.length - len];
                System.arraycopy(x, 0, y, 0, from);
                System.arraycopy(x, from + len, y, from, x.length - from - len);
                x = y;
            }
            case 7 -> { // duplicate a chunk
                int from = rnd.nextInt(x.length);
                int len = rnd.nextInt(Math.min(16, x.length - from) + 1);
                byte[] y = new byte[x.length + len];
                System.arraycopy(x, 0, y, 0, from + len);
                System.arraycopy(x, from, y, from + len, x.length - from);
                x = y;
            }
            case 8 -> { // splice with another seed
                byte[] other = seeds.get(rnd.nextInt(seeds.size()));
                int cut = rnd.nextInt(Math.min(x.length, other.length) + 1);
                byte[] y = Arrays.copyOf(x, cut + other.length - cut);
                System.arraycopy(other, cut, y, cut, other.length - cut);
                x = y;
            }
            case 9 -> { // replace one header character with a random printable one
                int at = 10 + rnd.nextInt(Math.max(1, headerEnd - 10));
                if (at < x.length) x[at] = (byte) (32 + rnd.nextInt(95));
            }
            default -> { // a random byte anywhere
                x[rnd.nextInt(x.length)] = (byte) rnd.nextInt(256);
            }
        }
        return x;
    }

    private static final long[] BIG_DIMS = {1_000_000L, Integer.MAX_VALUE - 8L, Integer.MAX_VALUE - 7L, Integer.MAX_VALUE,
        1L << 31, 1L << 32, 1_000_000_000_000L, 1L << 62, Long.MAX_VALUE};

    /** A freshly laid-out file whose header may lie about the shape, name a wrong dtype, or be ill-formed. */
    private static byte[] forgedHeader(Random rnd) {
        String descr = rnd.nextInt(3) == 0 ? ANY_DESCRS[rnd.nextInt(ANY_DESCRS.length)] : GOOD_DESCRS[rnd.nextInt(GOOD_DESCRS.length)];
        String fortran = switch (rnd.nextInt(12)) {
            case 0 -> "0";
            case 1 -> "'True'";
            case 2 -> "None";
            default -> rnd.nextBoolean() ? "True" : "False";
        };
        int rank = rnd.nextInt(20) == 0 ? 5 + rnd.nextInt(60) : rnd.nextInt(4);
        StringBuilder shape = new StringBuilder();
        long count = 1;
        boolean overflow = false;
        for (int i = 0; i < rank; i++) {
            String dim;
            int kind = rnd.nextInt(40);
            long v;
            if (kind == 0) {
                dim = "-" + (1 + rnd.nextInt(5));
                v = -1;
            } else if (kind == 1) {
                dim = "99999999999999999999";
                v = -1;
            } else if (kind == 2) {
                dim = rnd.nextBoolean() ? "1.5" : "'a'";
                v = -1;
            } else if (kind == 3) {
                dim = "-9223372036854775808";
                v = -1;
            } else if (kind < 8) {
                v = BIG_DIMS[rnd.nextInt(BIG_DIMS.length)];
                dim = Long.toString(v);
            } else {
                v = rnd.nextInt(rank > 4 ? 2 : 6);
                dim = Long.toString(v);
            }
            if (rnd.nextInt(30) == 0) dim += "L";
            if (i > 0) shape.append(", ");
            shape.append(dim);
            if (v < 0 || overflow) {
                overflow = true;
            } else if (v != 0 && count > Long.MAX_VALUE / v) {
                overflow = true;
            } else {
                count *= v;
            }
        }
        String shapeText = switch (rnd.nextInt(25)) {
            case 0 -> "[" + shape + "]";
            case 1 -> shape.toString();
            default -> "(" + shape + (rank == 1 ? ",)" : ")");
        };
        String dict = switch (rnd.nextInt(30)) {
            case 0 -> "{'descr': '" + descr + "', 'shape': " + shapeText + "}";
            case 1 -> "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shapeText + ", 'x': 1}";
            case 2 -> "{'descr': [('a', '" + descr + "')], 'fortran_order': " + fortran + ", 'shape': " + shapeText + "}";
            case 3 -> "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shapeText;
            case 4 -> "{\"shape\": " + shapeText + ", \"descr\": \"" + descr + "\", \"fortran_order\": " + fortran + "}";
            default -> "{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shapeText + ", }";
        };
        int item = 8;
        NpyDtype t = descr.length() > 1 ? NpyDtype.forCode(descr.substring(1)) : null;
        if (t != null) item = t.itemSize();
        int dataLength;
        if (!overflow && count <= 4096 && rnd.nextInt(4) != 0) {
            dataLength = (int) count * item + (rnd.nextInt(4) == 0 ? rnd.nextInt(9) - 4 : 0);
        } else {
            dataLength = rnd.nextInt(64);
        }
        byte[] data = new byte[Math.max(0, dataLength)];
        rnd.nextBytes(data);
        int major = rnd.nextInt(6) == 0 ? 2 + rnd.nextInt(2) : 1;
        return NpyBytes.file(major, dict, data);
    }
}
