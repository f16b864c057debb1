package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.io.Npy;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
import org.sylva.testsupport.MiniJson;

/**
 * What acquisition systems write, clustered as it is: int8, int16, uint16 and float16 {@code .npy}
 * (either byte order) give byte-identical outputs to the same values saved as float32; int32 and
 * int64 are fitted from their exact float64 values (as scikit-learn, which casts to float64), and
 * int64 beyond 2^53 is refused naming the value. The summary line and {@code --json} name the dtype.
 */
class RawDtypeInputTest {
    static final int N = 300;

    @TempDir
    static Path shared;
    static PointSet clips;
    static double maxAbs;

    @BeforeAll
    static void data() {
        clips = TestData.clips(N);
        for (float v : clips.coordinates()) maxAbs = Math.max(maxAbs, Math.abs(v));
    }

    static String s(Path p) {
        return p.toString();
    }

    /** The clips quantised to integers in [-limit, limit], as an ADC would. */
    static long[] quantised(double limit) {
        float[] c = clips.coordinates();
        long[] q = new long[c.length];
        for (int i = 0; i < c.length; i++) q[i] = Math.round(c[i] / maxAbs * limit);
        return q;
    }

    /** A .npy laid out by hand as NumPy does, shape (N, d), the elements already encoded. */
    static byte[] npy(String descr, byte[] data) {
        String dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + N + ", " + clips.dimensions()
                + "), }";
        int hlen = dict.length() + 1;
        int pad = 64 - ((10 + hlen) % 64);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x93);
        out.writeBytes("NUMPY".getBytes(StandardCharsets.US_ASCII));
        out.write(1);
        out.write(0);
        int total = hlen + pad;
        out.write(total & 0xff);
        out.write(total >> 8);
        out.writeBytes(dict.getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < pad; i++) out.write(' ');
        out.write('\n');
        out.writeBytes(data);
        return out.toByteArray();
    }

    static byte[] encode(long[] v, int itemSize, ByteOrder order) {
        ByteBuffer b = ByteBuffer.allocate(v.length * itemSize).order(order);
        for (long x : v) {
            switch (itemSize) {
                case 1 -> b.put((byte) x);
                case 2 -> b.putShort((short) x);
                case 4 -> b.putInt((int) x);
                default -> b.putLong(x);
            }
        }
        return b.array();
    }

    static Path write(Path dir, String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    static Path float32Twin(Path dir, long[] v) throws IOException {
        float[] f = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            f[i] = v[i];
            assertEquals(v[i], (long) f[i], "the twin must hold the same values");
        }
        Path p = dir.resolve("twin.npy");
        Npy.writeFloat32(p, f, N, clips.dimensions());
        return p;
    }

    static Cli.Result cluster(Path input, Path out, String... more) {
        String[] args = {"hdbscan", s(input), "--min-cluster-size", "10", "--out", s(out), "--json"};
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return Cli.run(all).assertOk();
    }

    /** Every output file of two runs, byte for byte. */
    static void assertSameOutputs(Path expected, Path actual, String what) throws IOException {
        for (String o : HdbscanCommandTest.OUTPUTS) {
            assertArrayEquals(Files.readAllBytes(expected.resolve(o + ".npy")), Files.readAllBytes(actual.resolve(o + ".npy")),
                    () -> what + ": " + o + ".npy differs from the float32 twin's");
        }
    }

    static Map<?, ?> json(Cli.Result r) {
        return (Map<?, ?>) MiniJson.parse(r.out().strip());
    }

    /** The input's dtype as the summary line names it: "300 points x 48 dims (int16): ...". */
    static void assertNamesDtype(Cli.Result r, String dtype) {
        String first = r.err().lines().filter(l -> l.contains(" points x ")).findFirst().orElseThrow();
        assertTrue(first.matches(N + " points x " + clips.dimensions() + " dims \\(" + dtype + "\\): \\d+ clusters, \\d+ noise"),
                first);
        assertEquals(dtype, json(r).get("dtype"), r.out());
        assertFalse(r.err().contains("warning"), () -> "no rounding, no warning:\n" + r.err());
    }

    @Test
    void int16ClustersByteIdenticallyToTheSameDataAsFloat32(@TempDir Path tmp) throws IOException {
        long[] v = quantised(32000);
        Path twinOut = tmp.resolve("twin");
        assertNamesDtype(cluster(float32Twin(tmp, v), twinOut), "float32");
        int[] labels = org.sylva.io.Npy.read(twinOut.resolve("labels.npy")).toInt32();
        assertTrue(java.util.Arrays.stream(labels).max().orElse(-1) >= 2, "the quantised data should keep its clusters");
        for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            String descr = (order == ByteOrder.LITTLE_ENDIAN ? "<" : ">") + "i2";
            Path in = write(tmp, "int16" + order + ".npy", npy(descr, encode(v, 2, order)));
            Path out = tmp.resolve("out" + order);
            assertNamesDtype(cluster(in, out), "int16");
            assertSameOutputs(twinOut, out, descr);
            // standard input too
            Path viaStdin = tmp.resolve("stdin" + order);
            Cli.runWithStdin(Files.readAllBytes(in), "hdbscan", "-", "--min-cluster-size", "10", "--out", s(viaStdin),
                    "-q").assertOk();
            assertSameOutputs(twinOut, viaStdin, descr + " from stdin");
        }
        // a file named nothing Sylva knows is read as .npy by its magic, int16 all the same
        Path unnamed = Files.copy(tmp.resolve("int16" + ByteOrder.LITTLE_ENDIAN + ".npy"), tmp.resolve("recording.bin"));
        Path out = tmp.resolve("unnamed");
        assertNamesDtype(cluster(unnamed, out), "int16");
        assertSameOutputs(twinOut, out, "recording.bin");
    }

    @Test
    void int8Uint16AndFloat16ClusterByteIdenticallyToTheirFloat32Twins(@TempDir Path tmp) throws IOException {
        long[] small = quantised(127);                       // int8 range, and exact in float16
        long[] offset = quantised(30000);
        for (int i = 0; i < offset.length; i++) offset[i] += 32768;   // uint16 range
        long[] halfBits = new long[small.length];
        for (int i = 0; i < small.length; i++) halfBits[i] = Float.floatToFloat16(small[i]);
        Object[][] cases = {
            {"|i1", 1, small, small, "int8"},
            {"<u2", 2, offset, offset, "uint16"},
            {">u2", 2, offset, offset, "uint16"},
            {"<f2", 2, halfBits, small, "float16"},
            {">f2", 2, halfBits, small, "float16"},
        };
        for (Object[] c : cases) {
            String descr = (String) c[0];
            long[] values = (long[]) c[3];
            ByteOrder order = descr.startsWith(">") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            Path dir = Files.createDirectories(tmp.resolve(descr.replace('<', 'l').replace('>', 'b').replace('|', 'n')));
            Path twinOut = dir.resolve("twin");
            cluster(float32Twin(dir, values), twinOut, "-q");
            Path out = dir.resolve("out");
            Path in = write(dir, "in.npy", npy(descr, encode((long[]) c[2], (int) c[1], order)));
            assertNamesDtype(cluster(in, out), (String) c[4]);
            assertSameOutputs(twinOut, out, descr);
        }
    }

    @Test
    void int32AndInt64AreFittedFromTheirExactValuesInFloat64(@TempDir Path tmp) throws IOException {
        // Values float32 cannot hold (beyond 2^24): rounding them would merge neighbours.
        long[] v = quantised(1_000_000_000);
        int d = clips.dimensions();
        double[] exact = new double[v.length];
        for (int i = 0; i < v.length; i++) exact[i] = v[i];
        Path f64Out = float64TwinOutputs(tmp, exact);
        for (String descr : new String[] {"<i4", ">i4", "<i8", ">i8"}) {
            ByteOrder order = descr.startsWith(">") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            int size = descr.endsWith("4") ? 4 : 8;
            Path in = write(tmp, "in" + size + order + ".npy", npy(descr, encode(v, size, order)));
            Path out = tmp.resolve("out" + size + order);
            assertNamesDtype(cluster(in, out), size == 4 ? "int32" : "int64");
            assertSameOutputs(f64Out, out, descr);
        }
    }

    /**
     * The outputs of {@code exact} (N rows) saved as a float64 .npy, checked against the library's float64
     * fit; the values must be ones float32 cannot hold (rounding them would change a core distance).
     */
    static Path float64TwinOutputs(Path tmp, double[] exact) throws IOException {
        int d = clips.dimensions();
        Hdbscan h = Hdbscan.builder().minClusterSize(10).build();
        HdbscanResult expected = h.fit(exact, N, d, ProgressListener.NONE, CancellationToken.NEVER);
        float[] rounded = new float[exact.length];
        for (int i = 0; i < exact.length; i++) rounded[i] = (float) exact[i];
        assertFalse(java.util.Arrays.equals(expected.coreDistances(), h.fit(PointSet.of(N, d, rounded)).coreDistances()),
                "test data too weak: rounding to float32 changes no core distance");
        Path f64 = tmp.resolve("f64.npy");
        Npy.writeFloat64(f64, exact, N, d);
        Path f64Out = tmp.resolve("f64out");
        cluster(f64, f64Out, "-q");
        HdbscanCommandTest.assertSameAsLibrary(f64Out, expected);
        return f64Out;
    }

    /**
     * Text is read as NumPy and scikit-learn read it, float64: a CSV of values float32 cannot hold (near
     * 1000, differing in the sixth decimal) clusters byte-identically to the same values as a float64 .npy,
     * from a file and from standard input, and the summary names float64; rounded to float32 first, the
     * core distances would differ.
     */
    @Test
    void textIsFittedFromItsFloat64Values(@TempDir Path tmp) throws IOException {
        int d = clips.dimensions();
        float[] c = clips.coordinates();
        double[] exact = new double[c.length];
        StringBuilder csv = new StringBuilder();
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < d; j++) {
                // six decimals, as numpy.savetxt("%.6f") writes them: parsed, the nearest float64
                String cell = String.format(java.util.Locale.ROOT, "%.6f", 1000 + c[i * d + j] / maxAbs * 0.05);
                exact[i * d + j] = Double.parseDouble(cell);
                csv.append(j == 0 ? "" : ",").append(cell);
            }
            csv.append('\n');
        }
        Path f64Out = float64TwinOutputs(tmp, exact);
        Path in = write(tmp, "points.csv", csv.toString().getBytes(StandardCharsets.US_ASCII));
        Path out = tmp.resolve("csvout");
        assertNamesDtype(cluster(in, out), "float64");
        assertSameOutputs(f64Out, out, "points.csv");
        Path viaStdin = tmp.resolve("stdin");
        Cli.runWithStdin(Files.readAllBytes(in), "hdbscan", "-", "--min-cluster-size", "10", "--out", s(viaStdin),
                "-q").assertOk();
        assertSameOutputs(f64Out, viaStdin, "points.csv from stdin");
    }

    /** A CSV as pandas writes unnamed columns ("0,1,...,d-1" first): read as data, with a warning saying so. */
    @Test
    void aPandasColumnNumberHeaderIsReadAsAPointWithAWarning(@TempDir Path tmp) throws IOException {
        int d = clips.dimensions();
        StringBuilder csv = new StringBuilder();
        for (int j = 0; j < d; j++) csv.append(j == 0 ? "" : ",").append(j);
        csv.append('\n');
        float[] c = clips.coordinates();
        for (int i = 0; i < N; i++) {
            for (int j = 0; j < d; j++) csv.append(j == 0 ? "" : ",").append(c[i * d + j]);
            csv.append('\n');
        }
        Path in = write(tmp, "frame.csv", csv.toString().getBytes(StandardCharsets.US_ASCII));
        Cli.Result r = Cli.run("hdbscan", s(in), "--min-cluster-size", "10", "--out", s(tmp.resolve("out"))).assertOk();
        assertTrue(r.err().contains("sylva: warning: " + in + ": line 1 reads 0, 1, ..., " + (d - 1)), r.err());
        assertTrue(r.err().contains((N + 1) + " points x " + d + " dims"), r.err());
        Cli.Result quiet = Cli.run("hdbscan", s(in), "--min-cluster-size", "10", "--out", s(tmp.resolve("q")), "-q")
                .assertOk();
        // --quiet keeps back the progress and the summary, not what the results were computed from
        assertTrue(quiet.err().contains("sylva: warning: " + in + ": line 1 reads 0, 1, ..., " + (d - 1)), quiet.err());
        assertFalse(quiet.err().contains("points x"), quiet.err());
    }

    @Test
    void int64BeyondTwoToThe53IsRefusedNamingTheValue(@TempDir Path tmp) throws IOException {
        long[] v = quantised(1000);
        v[7 * clips.dimensions() + 3] = (1L << 53) + 1;
        Path in = write(tmp, "big.npy", npy("<i8", encode(v, 8, ByteOrder.LITTLE_ENDIAN)));
        Path out = tmp.resolve("out");
        Cli.Result r = Cli.run("hdbscan", s(in), "--min-cluster-size", "10", "--out", s(out));
        r.assertError("big.npy", "int64 value 9007199254740993 at row 7, column 3",
                "not exactly representable as float64");
        Cli.assertNothingWritten(out);
    }

    @Test
    void helpListsTheAcceptedDtypes() {
        String help = Cli.run("hdbscan", "--help").assertOk().out();
        for (String t : List.of("float16", "int8", "uint8", "bool")) assertTrue(help.contains(t), () -> t + ":\n" + help);
    }
}
