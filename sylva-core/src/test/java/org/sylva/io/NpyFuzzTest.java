package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutation and generation fuzzer for the {@code .npy} reader (issue 6, "hostile files"). Each run
 * feeds at least 100 000 inputs (seeded, reproducible; {@code -Dsylva.fuzz.seed=N},
 * {@code -Dsylva.fuzz.count=N} to explore further): valid files of every dtype, order, byte order
 * and version, mutated by bit flips, byte overwrites, truncations, appended garbage, spliced
 * chunks, forged header lengths and versions, and freshly generated headers with lying, huge,
 * negative, overflowing or ill-typed shapes and wrong dtypes. Property: {@link Npy#read} either
 * returns an array consistent with the input (element count times item size plus header equals
 * the input's size, and the values equal an independent element-by-element decoding) or throws
 * {@link NpyFormatException} whose message names the source; never anything else, never a hang
 * (the whole run is under a preemptive timeout), and never an allocation beyond a small multiple
 * of the input's size (measured per input with the thread's allocation counter).
 */
class NpyFuzzTest {
    private static final int TARGET = Integer.getInteger("sylva.fuzz.count", 100_000);
    private static final long SEED = Long.getLong("sylva.fuzz.seed", 0x5EED_0F_F00DL);
    private static final Duration TIME_CAP = Duration.ofSeconds(60);
    /** Every FILE_EVERY-th input also goes through the file path (size known up front). */
    private static final int FILE_EVERY = 50;
    private static final int WARM_UP = 5_000;
    private static final Pattern QUOTED = Pattern.compile("'[^']*'");
    private static final Pattern NUMBER = Pattern.compile("-?\\d+");

    @TempDir
    Path dir;

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void readerOnlyReturnsConsistentArraysOrRefuses() {
        Stats stats = assertTimeoutPreemptively(TIME_CAP.plusSeconds(60), this::run,
                "the reader hung or the fuzz run exceeded its time budget");
        System.out.printf("NpyFuzzTest: %d inputs (seed %d) in %.1f s (%.1f s CPU): %d read, %d refused, %d also via"
                        + " files; slowest input %.1f ms; largest allocation %d bytes for a %d-byte input%n",
                stats.inputs, SEED, stats.nanos / 1e9, stats.cpuNanos / 1e9, stats.accepted, stats.refused, stats.viaFiles,
                stats.slowestNanos / 1e6, stats.worstAllocation, stats.worstAllocationInput);
        System.out.println("NpyFuzzTest: most frequent refusals: " + stats.topRefusals(12));
        if (stats.timeCapHit) {
            System.out.println("NpyFuzzTest: WARNING: time cap of " + TIME_CAP.toSeconds() + " s reached");
            assertTrue(stats.inputs >= TARGET / 5, "fewer than " + TARGET / 5 + " inputs within the time cap");
        } else {
            assertEquals(TARGET, stats.inputs);
        }
        // The fuzzer must exercise both outcomes and many different refusals, or it proves little.
        assertTrue(stats.accepted >= stats.inputs / 20, "too few inputs were valid: " + stats.accepted);
        assertTrue(stats.refused >= stats.inputs / 4, "too few inputs were refused: " + stats.refused);
        assertTrue(stats.refusalKinds.size() >= 25, "too few kinds of refusal: " + stats.refusalKinds.keySet());
    }

    /** Headers claiming 10^12 elements, or just past the Java array limit, cost no large allocation. */
    @Test
    void hugeClaimsAreRefusedWithoutLargeAllocations() throws IOException {
        String[][] claims = {
            {"<f8", "(1000000, 1000000)"}, {"<f4", "(1000000000000,)"}, {"|u1", "(2147483640,)"},
            {"<i4", "(2147483639,)"}, {">i8", "(65536, 65536, 65536)"}, {"<f4", "(4611686018427387904,)"},
        };
        for (String[] c : claims) {
            byte[] input = NpyBytes.file(NpyBytes.dict(c[0], false, c[1]), new byte[4096]);
            Path file = dir.resolve("claim.npy");
            Files.write(file, input);
            for (boolean viaFile : new boolean[] {false, true}) {
                long before = threads.getCurrentThreadAllocatedBytes();
                NpyFormatException e = org.junit.jupiter.api.Assertions.assertThrows(NpyFormatException.class,
                        () -> {
                            if (viaFile) Npy.read(file);
                            else Npy.read(new ByteArrayInputStream(input), "claim");
                        });
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                assertTrue(allocated < 256 << 10, c[1] + ": allocated " + allocated + " bytes; " + e.getMessage());
            }
        }
    }

    private static final class Stats {
        int inputs, accepted, refused, viaFiles;
        long nanos, cpuNanos, slowestNanos, worstAllocation, worstAllocationInput;
        boolean timeCapHit;
        final Map<String, Integer> refusalKinds = new HashMap<>();

        String topRefusals(int k) {
            List<Map.Entry<String, Integer>> e = new ArrayList<>(refusalKinds.entrySet());
            e.sort((a, b) -> b.getValue() - a.getValue());
            return e.subList(0, Math.min(k, e.size())).toString();
        }
    }

    private Stats run() throws IOException {
        Random rnd = new Random(SEED);
        List<byte[]> seeds = seeds(rnd);
        // Warm-up with another seed (not counted, allocation not checked): the first pass through each
        // code path loads and initialises classes, which allocates far more than the reader itself.
        Random warm = new Random(~SEED);
        Stats ignored = new Stats();
        for (int i = 0; i < WARM_UP; i++) check(generate(warm, seeds), -1 - i, ignored, i % FILE_EVERY == 0, false);
        Stats st = new Stats();
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long deadline = start + TIME_CAP.toNanos();
        for (int i = 0; i < TARGET; i++) {
            if (System.nanoTime() > deadline) {
                st.timeCapHit = true;
                break;
            }
            byte[] input = generate(rnd, seeds);
            long t0 = System.nanoTime();
            check(input, i, st, false, true);
            st.slowestNanos = Math.max(st.slowestNanos, System.nanoTime() - t0);
            if (i % FILE_EVERY == 0) {
                check(input, i, st, true, true);
                st.viaFiles++;
            }
            st.inputs++;
        }
        st.nanos = System.nanoTime() - start;
        st.cpuNanos = threads.getCurrentThreadCpuTime() - cpuStart;
        return st;
    }

    /** Reads one input and checks the property; on a violation fails with a reproducible dump. */
    private void check(byte[] input, int index, Stats st, boolean viaFile, boolean measure) throws IOException {
        Path file = null;
        if (viaFile) {
            file = dir.resolve("fuzz.npy");
            Files.write(file, input);
        }
        String source = viaFile ? file.toString() : "fuzz-" + index;
        long before = threads.getCurrentThreadAllocatedBytes();
        NpyArray a;
        try {
            a = viaFile ? Npy.read(file) : Npy.read(new ByteArrayInputStream(input), source);
        } catch (NpyFormatException e) {
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            if (measure) checkAllocation(allocated, input, index, st);
            if (!e.getMessage().startsWith(source + ": ") || e.problem().isBlank()) {
                fail("message does not name the source: " + e.getMessage() + dump(input, index));
            }
            if (!viaFile) {
                st.refused++;
                st.refusalKinds.merge(kind(e.problem()), 1, Integer::sum);
            }
            return;
        } catch (Throwable t) {
            throw new AssertionError("reader threw " + t + dump(input, index), t);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        if (measure) checkAllocation(allocated, input, index, st);
        if (!viaFile) st.accepted++;
        checkConsistent(a, input, index);
    }

    private static void checkAllocation(long allocated, byte[] input, int index, Stats st) {
        if (allocated > st.worstAllocation) {
            st.worstAllocation = allocated;
            st.worstAllocationInput = input.length;
        }
        // Chunked stream buffering holds at most ~2x the data (8 KiB first chunk); the rest is header
        // text, the parsed literal and messages: a few KiB.
        long bound = 4L * input.length + (64 << 10);
        if (allocated > bound) fail("allocated " + allocated + " bytes for a " + input.length + "-byte input" + dump(input, index));
    }

    /** The first words of a problem, with numbers removed: groups refusals by kind for the report. */
    private static String kind(String problem) {
        String p = NUMBER.matcher(QUOTED.matcher(problem).replaceAll("'…'")).replaceAll("N");
        String[] w = p.split(" ");
        return String.join(" ", Arrays.copyOf(w, Math.min(5, w.length)));
    }

    /** An accepted input: sizes add up exactly and the values match a slow independent decoding. */
    private static void checkConsistent(NpyArray a, byte[] in, int index) {
        int major = in[6] & 0xff;
        int lenBytes = major == 1 ? 2 : 4;
        ByteBuffer b = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
        long hlen = major == 1 ? b.getShort(8) & 0xffff : b.getInt(8) & 0xffffffffL;
        long offset = 8 + lenBytes + hlen;
        long dataBytes = (long) a.size() * a.dtype().itemSize();
        if (offset + dataBytes != in.length) {
            fail("accepted but sizes do not add up: header ends at " + offset + ", data " + dataBytes + ", file "
                    + in.length + dump(in, index));
        }
        String text = new String(in, 8 + lenBytes, (int) hlen, major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        NpyHeader h = NpyHeader.parse(text, major, "ref");
        assertEquals(h.dtype(), a.dtype());
        int[] shape = a.shape();
        assertEquals(h.shape().length, shape.length);
        for (int i = 0; i < shape.length; i++) assertEquals(h.shape()[i], shape[i]);
        double[] expected = referenceDecode(in, (int) offset, h, shape);
        double[] actual = a.dtype() == NpyDtype.INT64 ? null : a.toFloat64();
        if (actual != null) {
            assertArrayEquals(expected, actual, "values differ" + dump(in, index));
        } else {
            long[] al = a.toInt64();
            ByteBuffer d = ByteBuffer.wrap(in).order(h.order());
            for (int k = 0; k < al.length; k++) {
                assertEquals(d.getLong((int) offset + 8 * fileIndex(k, shape, h.fortranOrder())), al[k], "int64 differs" + dump(in, index));
            }
        }
    }

    /** Element k (C order) decoded from the file with absolute reads. */
    private static double[] referenceDecode(byte[] in, int offset, NpyHeader h, int[] shape) {
        int n = 1;
        for (int s : shape) n *= s;
        double[] out = new double[n];
        ByteBuffer d = ByteBuffer.wrap(in).order(h.order());
        int item = h.dtype().itemSize();
        for (int k = 0; k < n; k++) {
            int at = offset + item * fileIndex(k, shape, h.fortranOrder());
            out[k] = switch (h.dtype()) {
                case FLOAT32 -> d.getFloat(at);
                case FLOAT64 -> d.getDouble(at);
                case INT32 -> d.getInt(at);
                case INT64 -> d.getLong(at);
                case UINT8 -> in[at] & 0xff;
                case BOOL -> in[at] != 0 ? 1 : 0;
            };
        }
        return out;
    }

    /** Where the element with C-order flat index k sits in the file's order. */
    private static int fileIndex(int k, int[] shape, boolean fortran) {
        if (!fortran) return k;
        int[] idx = new int[shape.length];
        int rest = k;
        for (int a = shape.length - 1; a >= 0; a--) {
            idx[a] = rest % shape[a];
            rest /= shape[a];
        }
        int f = 0, stride = 1;
        for (int a = 0; a < shape.length; a++) {
            f += idx[a] * stride;
            stride *= shape[a];
        }
        return f;
    }

    private static String dump(byte[] input, int index) {
        return "\n  input #" + index + " (seed " + SEED + "), base64: " + Base64.getEncoder().encodeToString(
                input.length > 4096 ? Arrays.copyOf(input, 4096) : input) + (input.length > 4096 ? " (first 4096 bytes)" : "");
    }

    // ------------------------------------------------------------------ corpus and mutations

    private static final String[] GOOD_DESCRS = {"<f4", ">f4", "<f8", ">f8", "<i4", ">i4", "<i8", ">i8", "|u1", "|b1"};
    private static final String[] ANY_DESCRS = {"<f4", ">f4", "<f8", ">f8", "<i4", ">i4", "<i8", ">i8", "|u1", "|b1",
        "|O", "<U3", "|S4", "<i2", "<f2", "<c8", "<u4", "=f4", "f8", "|f4", "?", "<M8[ns]", "", "<f", "<f44", "<\u00e9"};

    private static List<byte[]> seeds(Random rnd) throws IOException {
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

    private static byte[] generate(Random rnd, List<byte[]> seeds) {
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
