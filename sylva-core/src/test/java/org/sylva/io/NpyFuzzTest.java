package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
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
 * Mutation and generation fuzzer for the {@code .npy} reader (hostile files; inputs from
 * {@link NpyFuzzInputs}). Each run
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
        List<byte[]> seeds = NpyFuzzInputs.seeds(rnd);
        // Warm-up with another seed (not counted, allocation not checked): the first pass through each
        // code path loads and initialises classes, which allocates far more than the reader itself.
        Random warm = new Random(~SEED);
        Stats ignored = new Stats();
        for (int i = 0; i < WARM_UP; i++) check(NpyFuzzInputs.generate(warm, seeds), -1 - i, ignored, i % FILE_EVERY == 0, false);
        Stats st = new Stats();
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long deadline = start + TIME_CAP.toNanos();
        for (int i = 0; i < TARGET; i++) {
            if (System.nanoTime() > deadline) {
                st.timeCapHit = true;
                break;
            }
            byte[] input = NpyFuzzInputs.generate(rnd, seeds);
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
        double[] actual = a.dtype() == NpyDtype.INT64 || a.dtype() == NpyDtype.UINT64 ? null : a.toFloat64();
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
                case INT8 -> in[at];
                case INT16 -> d.getShort(at);
                case UINT16 -> d.getChar(at);
                case FLOAT16 -> Float.float16ToFloat(d.getShort(at));
                case UINT32 -> Integer.toUnsignedLong(d.getInt(at));
                case UINT64 -> d.getLong(at);   // compared as longs above; a negative one is refused
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

}
