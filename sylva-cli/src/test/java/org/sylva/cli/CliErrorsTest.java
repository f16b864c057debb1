package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.io.Npy;

/**
 * Every bad input and bad parameter: exit status 2, exactly one line on stderr starting
 * {@code sylva: error:} that names the problem (file, line and column, row, position, option), no stack
 * trace unless {@code --verbose}, and nothing left in the output directory, not even a temporary.
 */
class CliErrorsTest {
    @TempDir
    static Path in;
    static String good;
    static final int N = 60;
    static final int D = 4;

    @BeforeAll
    static void inputs() throws IOException {
        PointSet p = TestData.blob(N, D, 3);
        good = TestData.writeNpy(p, in.resolve("good.npy")).toString();
        byte[] npy = Files.readAllBytes(in.resolve("good.npy"));
        Files.write(in.resolve("trunc.npy"), Arrays.copyOf(npy, npy.length - 7));
        Files.write(in.resolve("more-rows.npy"), npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (90, 4), }",
                TestData.rawFloat32(p)));
        Files.write(in.resolve("fewer-rows.npy"), npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (30, 4), }",
                TestData.rawFloat32(p)));
        Files.write(in.resolve("huge.npy"), npyBytes(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000, 4), }", TestData.rawFloat32(p)));
        Files.write(in.resolve("object.npy"), npyBytes("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }",
                new byte[] {(byte) 0x80, 2, 'N', '.'}));
        Files.write(in.resolve("string.npy"), npyBytes("{'descr': '<U2', 'fortran_order': False, 'shape': (2,), }",
                new byte[16]));
        Files.writeString(in.resolve("nonnumeric.csv"), "a,b,c\n1,2,3\n4,x5,6\n7,8,9\n");
        Files.writeString(in.resolve("ragged.csv"), "1,2,3\n4,5,6\n7,8\n");
        Files.writeString(in.resolve("empty.csv"), "");
        Files.write(in.resolve("empty.npy"), new byte[0]);
        TestData.writeRaw(p, in.resolve("cloud.f32"));
        TestData.writeNpy(TestData.blob(40_000, 1, 4), in.resolve("line40k.npy"));
        TestData.writeNpy(TestData.with(p, 17, 2, Float.NaN), in.resolve("nan.npy"));
        TestData.writeNpy(TestData.with(p, 5, 1, Float.NEGATIVE_INFINITY), in.resolve("inf.npy"));
        Files.writeString(in.resolve("nan.csv"), "x,y\n1,2\n3,nan\n5,6\n");
        TestData.writeNpy(PointSet.of(1, D, new float[D]), in.resolve("one.npy"));
        org.sylva.io.Npy.writeFloat32(in.resolve("rank4.npy"), new float[2 * 3 * 4 * 5], 2, 3, 4, 5);
        org.sylva.io.Npy.writeFloat32(in.resolve("emptyclips.npy"), new float[0], 300, 0, 20);
        double[] x64 = new double[N * D];
        for (int i = 0; i < x64.length; i++) x64[i] = p.coordinates()[i] + 1e-9 * i;
        Npy.writeFloat64(in.resolve("good64.npy"), x64, N, D);   // rounded to float32 by balltree, with a warning
        double[] nan64 = x64.clone();
        nan64[9 * D + 3] = Double.NaN;
        Npy.writeFloat64(in.resolve("nan64.npy"), nan64, N, D);
        double[] huge64 = x64.clone();
        huge64[11 * D + 1] = 3e200;
        Npy.writeFloat64(in.resolve("huge64.npy"), huge64, N, D);
        double[] tiny64 = x64.clone();
        for (int i = 0; i < tiny64.length; i++) tiny64[i] *= 0x1p-1030;   // subnormal: squares underflow to 0
        Npy.writeFloat64(in.resolve("tiny64.npy"), tiny64, N, D);
        Files.copy(in.resolve("good.npy"), in.resolve("npy-named.csv"));
        double[] inf64 = x64.clone();
        inf64[13 * D + 2] = Double.NEGATIVE_INFINITY;
        Npy.writeFloat64(in.resolve("inf64.npy"), inf64, N, D);
        Files.createDirectories(in.resolve("adir"));
        Files.createDirectories(in.resolve("dir.npy"));
        Files.writeString(in.resolve("afile"), "not a directory");
        long[] unsorted = new long[N];
        long[] gap = new long[N];
        for (int i = 0; i < N; i++) {
            unsorted[i] = i < 20 ? 0 : i < 40 ? 1 : 0;
            gap[i] = i < 30 ? 0 : 2;
        }
        Npy.writeInt64(in.resolve("unsorted.npy"), unsorted, N);
        Npy.writeInt64(in.resolve("gap.npy"), gap, N);
        Npy.writeInt64(in.resolve("short.npy"), new long[10], 10);
        Npy.writeInt64(in.resolve("ids2d.npy"), new long[N], N / 2, 2);
        Npy.writeFloat32(in.resolve("fractional.npy"), new float[] {0, 0.5f}, 2);
        Npy.writeFloat64(in.resolve("wholefloat.npy"), new double[N], N);
        Npy.writeBool(in.resolve("boolids.npy"), new boolean[N], N);
        Cli.run("hdbscan", good, "--min-cluster-size", "5", "--out", in.resolve("fit").toString(), "--save-model",
                f("fit.model"), "-q").assertOk();
    }

    /** A version 1.0 .npy file with the given header text (padded as numpy pads it) and data bytes. */
    static byte[] npyBytes(String header, byte[] data) {
        int unpadded = 10 + header.length() + 1;
        int total = (unpadded + 63) / 64 * 64;
        String h = header + " ".repeat(total - unpadded) + "\n";
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
        b.write(h.length() & 0xff);
        b.write(h.length() >> 8);
        b.writeBytes(h.getBytes(StandardCharsets.ISO_8859_1));
        b.writeBytes(data);
        return b.toByteArray();
    }

    static String f(String name) {
        return in.resolve(name).toString();
    }

    static Arguments c(String name, List<String> args, String... expected) {
        return Arguments.of(name, args, List.of(expected));
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                c("missing input file", List.of("hdbscan", f("nope.npy")), "nope.npy", "no such file"),
                c("directory as input", List.of("hdbscan", f("adir")), "adir", "directory"),
                c("directory named .npy as input", List.of("hdbscan", f("dir.npy")), "dir.npy", "directory"),
                c("truncated .npy", List.of("hdbscan", f("trunc.npy")), "trunc.npy", "truncated"),
                c(".npy header claims more rows than the data", List.of("hdbscan", f("more-rows.npy")), "more-rows.npy",
                        "(90, 4)"),
                c(".npy header claims fewer rows than the data", List.of("hdbscan", f("fewer-rows.npy")),
                        "fewer-rows.npy", "(30, 4)"),
                c(".npy header claims 10^12 rows", List.of("hdbscan", f("huge.npy")), "huge.npy", "1000000000000"),
                c("object dtype .npy", List.of("hdbscan", f("object.npy")), "object.npy", "object"),
                c("string dtype .npy", List.of("hdbscan", f("string.npy")), "string.npy", "<U2"),
                c("non-numeric CSV cell", List.of("hdbscan", f("nonnumeric.csv")), "nonnumeric.csv", "line 3",
                        "column 2", "x5"),
                c("ragged CSV", List.of("hdbscan", f("ragged.csv")), "ragged.csv", "line 3"),
                c("empty CSV", List.of("hdbscan", f("empty.csv")), "empty.csv", "empty"),
                c("empty .npy", List.of("hdbscan", f("empty.npy")), "empty.npy", "empty"),
                c("raw without --shape", List.of("hdbscan", f("cloud.f32")), "cloud.f32", "shape N,D", "--shape"),
                c("raw with a wrong --shape", List.of("hdbscan", f("cloud.f32"), "--shape", "61,4"), "cloud.f32",
                        "61,4", "bytes"),
                c("raw with an unreadable --shape", List.of("hdbscan", f("cloud.f32"), "--shape", "sixty"), "sixty"),
                c("--shape on a .npy", List.of("hdbscan", good, "--shape", "60,4"), "good.npy", "shape"),
                c("NaN in a .npy", List.of("hdbscan", f("nan.npy")), "nan.npy", "row 17", "column 2", "NaN",
                        "--non-finite sklearn"),
                c("-inf in a .npy", List.of("hdbscan", f("inf.npy")), "inf.npy", "row 5", "column 1", "-inf"),
                c("NaN in a float64 .npy", List.of("hdbscan", f("nan64.npy")), "nan64.npy", "row 9", "column 3", "NaN"),
                c("float64 values whose squares overflow", List.of("hdbscan", f("huge64.npy")), "huge64.npy",
                        "huge64.npy: row 11, column 1 (counting from 0) is 3.0E200", "rescale"),
                c("float64 values beyond the limit under manhattan", List.of("hdbscan", f("huge64.npy"), "--metric",
                        "manhattan"), "huge64.npy: row 11, column 1 (counting from 0) is 3.0E200",
                        "within +-1e150 with every metric"),
                c("float64 values whose squares underflow", List.of("hdbscan", f("tiny64.npy")),
                        "tiny64.npy: every coordinate is within +-7.5e-155", "subnormal", "rescale"),
                c("a .npy file named .csv", List.of("hdbscan", f("npy-named.csv")),
                        "npy-named.csv is a .npy file (it starts with NumPy's magic bytes)", "name it .npy"),
                c("raw shape beyond a long", List.of("hdbscan", f("cloud.f32"), "--shape", "9223372036854775807,3"),
                        "beyond a Java array's limit"),
                c("cut: negative distance", List.of("cut", f("fit.model"), "--distance", "-1"),
                        "--distance -1.0 is negative"),
                c("NaN in a CSV", List.of("hdbscan", f("nan.csv")), "nan.csv", "row 1", "column 1", "line 3 of the file", "NaN"),
                c("NaN in a CSV for a ball tree", List.of("balltree", f("nan.csv")), "nan.csv", "row 1, column 1 (counting "
                        + "from 0; line 3 of the file) is NaN"),
                c("a 4-D .npy", List.of("hdbscan", f("rank4.npy")), "rank4.npy",
                        "a 2-D array (n, d) or 3-D clips (n, channels, samples)", "(2, 3, 4, 5)"),
                c("clips without values", List.of("hdbscan", f("emptyclips.npy")), "emptyclips.npy",
                        "an array of shape (300, 0, 20), whose clips of shape (0, 20) hold no values"),
                c("one point", List.of("hdbscan", f("one.npy")), "one.npy", "samples in X (1)", "at least two points"),
                c("min-samples larger than n", List.of("hdbscan", good, "--min-samples", "61"), "good.npy",
                        "min_samples (61) must be at most the number of samples in X (60)", "(option --min-samples)"),
                c("min-cluster-size larger than n (min_samples defaults to it)",
                        List.of("hdbscan", good, "--min-cluster-size", "61"),
                        "min_samples (61) must be at most the number of samples in X (60)",
                        "(option --min-cluster-size: min_samples defaults to it)"),
                c("a fit the heap cannot hold (min_samples 40 000 of 40 000 points: ~30 GiB of neighbour lists)",
                        List.of("hdbscan", f("line40k.npy"), "--min-samples", "40000"),
                        "40000 points x 1 dimensions at min_samples 40000 needs about", "GiB of heap beyond the input",
                        "is available", "-Xmx"),
                c("min-cluster-size 1", List.of("hdbscan", good, "--min-cluster-size", "1"), "got 1",
                        "(option --min-cluster-size)"),
                c("min-samples 0", List.of("hdbscan", good, "--min-samples", "0"), "got 0", "(option --min-samples)"),
                c("alpha 0", List.of("hdbscan", good, "--alpha", "0"), "got 0.0", "(option --alpha)"),
                c("alpha NaN", List.of("hdbscan", good, "--alpha", "NaN"), "got NaN", "(option --alpha)"),
                c("cluster-selection-epsilon -1", List.of("hdbscan", good, "--cluster-selection-epsilon", "-1"),
                        "got -1.0", "(option --cluster-selection-epsilon)"),
                c("max-cluster-size -1", List.of("hdbscan", good, "--max-cluster-size", "-1"), "got -1",
                        "(option --max-cluster-size)"),
                c("method foo", List.of("hdbscan", good, "--method", "foo"), "--method", "foo"),
                c("non-finite foo", List.of("hdbscan", good, "--non-finite", "foo"), "--non-finite", "foo"),
                c("threads 0", List.of("hdbscan", good, "--threads", "0"), "got 0", "(option --threads)"),
                c("backend gpu", List.of("hdbscan", good, "--backend", "gpu"), "got gpu", "option '--backend'"),
                c("format xml", List.of("hdbscan", good, "--format", "xml"), "--format", "xml"),
                c("not a number", List.of("hdbscan", good, "--min-cluster-size", "ten"), "--min-cluster-size", "ten"),
                c("unknown option", List.of("hdbscan", good, "--min-cluster-sise", "5"), "unknown option '--min-cluster-sise'",
                        "did you mean '--min-cluster-size'"),
                c("unknown command", List.of("cluster", good), "unknown command 'cluster'", "hdbscan"),
                c("extra argument", List.of("balltree", good, good), "unexpected argument", "good.npy"),
                c("a switch and its negation", List.of("hdbscan", good, "--waveforms", "--no-waveforms"),
                        "--waveforms and --no-waveforms are one switch: give one of them, once"),
                c("one input twice", List.of("hdbscan", good, good), "would both write into", "good.npy"),
                c("balltree: unsorted batch ids", List.of("balltree", good, "--batch", f("unsorted.npy")), "unsorted.npy",
                        "position 40", "decrease"),
                c("balltree: batch ids with a gap", List.of("balltree", good, "--batch", f("gap.npy")), "gap.npy",
                        "position 30", "skip"),
                c("balltree: wrong number of batch ids", List.of("balltree", good, "--batch", f("short.npy")),
                        "short.npy", "10 batch ids", "60 points"),
                c("balltree: 2-D batch ids", List.of("balltree", good, "--batch", f("ids2d.npy")), "ids2d.npy", "1-D"),
                c("balltree: fractional batch ids", List.of("balltree", good, "--batch", f("fractional.npy")),
                        "fractional.npy", "batch ids must have an integer dtype (e.g. int64); got float32"),
                c("balltree: whole-number float batch ids", List.of("balltree", good, "--batch", f("wholefloat.npy")),
                        "wholefloat.npy", "got float64 (whole numbers? save them with .astype(np.int64))"),
                c("balltree: bool batch ids", List.of("balltree", good, "--batch", f("boolids.npy")),
                        "boolids.npy", "batch ids must have an integer dtype (e.g. int64); got bool"),
                c("balltree: missing batch file", List.of("balltree", good, "--batch", f("nobatch.npy")), "nobatch.npy"),
                c("balltree: negative partition level", List.of("balltree", good, "--partition-level", "-1"),
                        "--partition-level", "-1"),
                c("balltree: partition level not an integer", List.of("balltree", good, "--partition-level", "1.5"),
                        "Invalid value for option '--partition-level': '1.5' is not an integer"),
                c("balltree: negative report level", List.of("balltree", good, "--report-level", "-1"),
                        "--report-level", "-1"),
                c("balltree: report level without a report", List.of("balltree", good, "--report-level", "2"),
                        "--report-level", "give --report too"),
                c("balltree: batch ids from standard input", List.of("balltree", good, "--batch", "-"),
                        "--batch cannot come from standard input"),
                c("balltree: report with a partition", List.of("balltree", good, "--partition-level", "2", "--report",
                        in.resolve("never.html").toString()), "--report", "--partition-level"),
                c("balltree: NaN", List.of("balltree", f("nan.npy")), "nan.npy", "row 17", "column 2"),
                // the float64 values' rounding warning waits for the checks: a refusal is its one line alone
                c("balltree: float64 NaN", List.of("balltree", f("nan64.npy")), "nan64.npy", "row 9", "column 3"),
                c("balltree: float64 points, bad batch ids", List.of("balltree", f("good64.npy"), "--batch",
                        f("unsorted.npy")), "unsorted.npy", "position 40", "decrease"),
                c("balltree: threads 0", List.of("balltree", good, "--threads", "0"), "got 0", "(option --threads)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void badInputIsOneErrorLineAndLeavesNothingBehind(String name, List<String> args, List<String> expected,
            @TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        List<String> a = new ArrayList<>(args);
        a.addAll(List.of("--out", out.toString()));
        Cli.Result r = Cli.run(a.toArray(String[]::new));
        String line = r.assertError(expected.toArray(String[]::new));
        assertFalse(line.contains("serve"), "a hidden command is not offered: " + line);
        if (Boolean.getBoolean("sylva.test.show")) System.out.println("[" + name + "] " + line);
        Cli.assertNothingWritten(out);
        assertEquals(List.of(), Cli.list(tmp).stream().filter(x -> !x.equals("out")).toList(),
                "nothing written next to the output directory");
    }

    /** An empty file name (an unset shell variable) is named as empty, not taken for the current folder. */
    @Test
    void anEmptyFileNameIsCalledEmpty() throws IOException {
        String out = in.resolve("empty-name-out").toString();
        Cli.run("hdbscan", "", "--out", out).assertError("the input's name is empty; name a file of points");
        Cli.run("hdbscan", good, "", "--out", out).assertError("an input's name is empty; name a file of points");
        Cli.run("hdbscan", good, "--sample-weight=", "--out", out).assertError("--sample-weight is empty");
        Cli.run("hdbscan", good, "--waveforms-from=", "--report", in.resolve("r.html").toString(), "--out", out)
                .assertError("--waveforms-from is empty");
        Cli.run("balltree", good, "--batch=", "--out", out).assertError("--batch is empty");
        Cli.run("bench", "balltree", good, "--batch=").assertError("--batch is empty");
        Cli.run("predict", "", good, "--out", out).assertError("the model's name is empty; name a model file");
        Path model = in.resolve("empty-name.model");
        Cli.run("hdbscan", good, "--out", in.resolve("empty-name-fit").toString(), "--save-model", model.toString(), "-q")
                .assertOk();
        Cli.run("predict", model.toString(), "", "--out", out).assertError("the input's name is empty");
        assertFalse(Files.exists(Path.of(out)));
    }

    @Test
    void serveRefusesARequestBoundOutOfRangeNamingTheRange() {
        for (String v : new String[] {"0", "99999999999999999"}) {
            Cli.run("serve", "--max-request-mib", v).assertError("--max-request-mib must be from 1 to 8796093022207; got " + v);
        }
    }

    /**
     * A thread the system refuses is an OutOfMemoryError to Java: its message names the limits, not the heap; an
     * open-file limit is named as such.
     */
    @Test
    void systemLimitsAreNamedNotTakenForTheHeap() {
        assertEquals("could not start a thread: the limit on processes and threads (ulimit -u) or on address space "
                + "(ulimit -v) is reached; give fewer --threads, or raise the limit", ErrorHandler.message(
                new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource "
                        + "limits reached")));
        assertEquals("out of memory (raise the heap, e.g. SYLVA_JAVA_OPTS=-Xmx16g)",
                ErrorHandler.message(new OutOfMemoryError("Java heap space")));
        assertEquals("I/O error: out/f922: Too many open files (the limit on open files, ulimit -n, is reached: raise "
                + "it, or give fewer inputs to one command)", ErrorHandler.message(
                new java.nio.file.FileSystemException("out/f922: Too many open files")));
    }

    /** A pool worker that cannot start another prints nothing (the command says it once); any other death as Java. */
    @Test
    void aThreadTheSystemRefusedIsNotPrintedByEachWorker() {
        java.io.PrintStream saved = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Thread worker = new Thread(() -> { }, "ForkJoinPool-2-worker-72");
            Main.QuietThreadLimit h = new Main.QuietThreadLimit();
            h.uncaughtException(worker, new OutOfMemoryError("unable to create native thread: possibly out of memory"));
            assertEquals("", captured.toString(StandardCharsets.UTF_8));
            h.uncaughtException(worker, new IllegalStateException("boom"));
        } finally {
            System.setErr(saved);
        }
        assertTrue(captured.toString(StandardCharsets.UTF_8).startsWith("Exception in thread \"ForkJoinPool-2-worker-72\" "
                + "java.lang.IllegalStateException: boom"), captured.toString(StandardCharsets.UTF_8));
    }

    @Test
    void missingOutIsNamed() {
        Cli.run("hdbscan", good).assertError("--out");
        Cli.run("balltree", good).assertError("--out");
    }

    @Test
    void outPointingToAFileIsRefusedAndTheFileIsUntouched(@TempDir Path tmp) throws IOException {
        Path file = tmp.resolve("result");
        Files.writeString(file, "keep me");
        Cli.run("hdbscan", good, "--out", file.toString()).assertError("result", "not a directory");
        Cli.run("balltree", good, "--out", file.toString()).assertError("result", "not a directory");
        assertEquals("keep me", Files.readString(file));
        assertEquals(List.of("result"), Cli.list(tmp));
    }

    @Test
    void outUnderAFileCannotBeCreated(@TempDir Path tmp) throws IOException {
        Path file = tmp.resolve("plain-file");
        Files.writeString(file, "x");
        Cli.run("hdbscan", good, "--out", file.resolve("sub").toString()).assertError("plain-file", "cannot create");
        Cli.run("hdbscan", good, "--out", tmp.resolve("ok").toString(), "--report",
                file.resolve("r.html").toString()).assertError("plain-file");
        assertEquals(List.of("plain-file"), Cli.list(tmp), "no output directory created for a run that failed");
    }

    /**
     * A run never writes one file twice nor over a file it reads: --report and --save-model naming one file,
     * either of them naming the input, the model or a --sample-weight file, and an --out holding the input
     * under an output's name are refused before anything is read, with every file as it was.
     */
    @Test
    void outputsThatClashWithEachOtherOrWithAnInputAreRefused(@TempDir Path tmp) throws IOException {
        Path input = tmp.resolve("pts.npy");
        Files.copy(Path.of(good), input);
        byte[] bytes = Files.readAllBytes(input);
        Path weights = tmp.resolve("w.npy");
        double[] ones = new double[N];
        Arrays.fill(ones, 1.0);
        Npy.writeFloat64(weights, ones, N);
        String out = tmp.resolve("out").toString();
        Cli.run("hdbscan", input.toString(), "--out", out, "--report", tmp.resolve("same.x").toString(),
                "--save-model", tmp.resolve("same.x").toString()).assertError("--report", "--save-model", "same file");
        Cli.run("hdbscan", input.toString(), "--out", out, "--report", input.toString())
                .assertError("--report", "the input file", "pts.npy");
        Cli.run("hdbscan", input.toString(), "--out", out, "--save-model", input.toString())
                .assertError("--save-model", "the input file");
        Cli.run("hdbscan", input.toString(), "--out", out, "--sample-weight", weights.toString(),
                "--report", weights.toString()).assertError("--report", "--sample-weight");
        Path inOut = tmp.resolve("inside");
        Files.createDirectories(inOut);
        Files.copy(input, inOut.resolve("labels.npy"));
        Cli.run("hdbscan", inOut.resolve("labels.npy").toString(), "--out", inOut.toString())
                .assertError("--out", "labels.npy", "the input file");
        assertArrayEquals(bytes, Files.readAllBytes(input));
        assertArrayEquals(bytes, Files.readAllBytes(inOut.resolve("labels.npy")));
        assertEquals(List.of("inside", "pts.npy", "w.npy"), Cli.list(tmp), "nothing written by the refused runs");
        // an earlier run's output named by the folder's manifest, which this run would remove as stale
        Path tree = tmp.resolve("tree");
        Cli.run("balltree", input.toString(), "--out", tree.toString(), "-q").assertOk();
        byte[] treeIdx = Files.readAllBytes(tree.resolve("tree_idx.npy"));
        Cli.run("hdbscan", tree.resolve("tree_idx.npy").toString(), "--out", tree.toString())
                .assertError("--out", "tree_idx.npy", "the input file");
        assertArrayEquals(treeIdx, Files.readAllBytes(tree.resolve("tree_idx.npy")));
        // a model is an input of reselect and predict
        Path model = tmp.resolve("m.model");
        Cli.run("hdbscan", input.toString(), "--out", out, "--save-model", model.toString(), "-q").assertOk();
        byte[] modelBytes = Files.readAllBytes(model);
        Cli.run("reselect", model.toString(), "--out", tmp.resolve("rr").toString(), "--save-model", model.toString())
                .assertError("--save-model", "the model file");
        assertArrayEquals(modelBytes, Files.readAllBytes(model));
    }

    @Test
    void anEmptyPathIsRefusedAndAnUnusableFolderNamesItsOption(@TempDir Path tmp) {
        Cli.run("hdbscan", good, "--out", "").assertError("--out is empty");
        Cli.run("hdbscan", good, "--out", tmp.resolve("o").toString(), "--report", "").assertError("--report is empty");
        // '-' is standard input or output on this command line, never a folder or file of that name
        Cli.run("hdbscan", good, "--out", "-").assertError("--out -: the results are a folder of files, not written to "
                + "standard output; name a folder (./- for one named '-'); --json prints a summary on standard output");
        Cli.run("balltree", good, "--out", "-").assertError("--out -: the results are a folder of files");
        Cli.run("hdbscan", good, "--out", tmp.resolve("o").toString(), "--report", "-")
                .assertError("--report -: this is a file, not written to standard output; name a file (./- for one");
        Cli.run("hdbscan", good, "--out", tmp.resolve("o").toString(), "--save-model", "-").assertError("--save-model -:");
        assertFalse(Files.exists(Path.of("-")), "no folder named '-'");
        Cli.run("hdbscan", good, "--out", tmp.resolve("o").toString(), "--report", "/proc/r.html")
                .assertError("--report", "/proc", "not writable");
        Cli.run("hdbscan", good, "--out", tmp.resolve("o").toString(), "--save-model", "/proc/m.model")
                .assertError("--save-model", "/proc", "not writable");
    }

    @Test
    void unwritableOutputDirectoryIsReportedBeforeReading(@TempDir Path tmp) throws IOException {
        Path ro = tmp.resolve("read-only");
        Files.createDirectories(ro);
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            Assumptions.assumeFalse(Files.isWritable(ro), "running as root: chmod 555 does not stop writing, so "
                    + "this case cannot be made here (the --out under a file case covers an uncreatable directory)");
            Cli.run("hdbscan", good, "--out", ro.toString()).assertError("read-only", "not writable");
            Cli.run("hdbscan", good, "--out", ro.resolve("sub").toString()).assertError("sub", "cannot create");
            assertEquals(List.of(), Cli.list(ro));
        } finally {
            Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void failedRunKeepsAnExistingOutputDirectoryAndItsFiles(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Files.createDirectories(out);
        Files.writeString(out.resolve("labels.npy"), "an older result");
        Cli.run("hdbscan", f("nan.npy"), "--out", out.toString()).assertError("nan.npy");
        assertEquals(List.of("labels.npy"), Cli.list(out));
        assertEquals("an older result", Files.readString(out.resolve("labels.npy")));
    }

    @Test
    void verbosePrintsTheStackTraceAfterTheSameLine(@TempDir Path tmp) {
        Cli.Result r = Cli.run("hdbscan", f("nan.npy"), "--out", tmp.resolve("o").toString(), "--verbose");
        assertEquals(ExitStatus.ERROR, r.code());
        List<String> lines = r.err().lines().toList();
        assertTrue(lines.get(0).startsWith("sylva: error: ") && lines.get(0).contains("row 17"), r.err());
        assertTrue(lines.size() > 3 && r.err().contains("\tat org.sylva."), () -> "a stack trace:\n" + r.err());
        Cli.Result quiet = Cli.run("hdbscan", f("nan.npy"), "--out", tmp.resolve("o").toString());
        assertEquals(lines.get(0), quiet.err().strip(), "the same line, without the trace");
    }

    @Test
    void nonFiniteSklearnAcceptsWhatTheDefaultRefuses(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("o");
        Cli.Result said = Cli.run("hdbscan", f("nan.npy"), "--non-finite", "sklearn", "--out", out.toString(), "--json")
                .assertOk();
        int[] labels = Npy.read(out.resolve("labels.npy")).toInt32();
        assertEquals(-3, labels[17]);
        // the summary and the JSON say how many rows were left out
        assertTrue(said.err().contains("1 row left out (1 with NaN: label -3, 0 with an infinity: label -2)"),
                said.err());
        assertTrue(said.out().contains("\"n_non_finite\": 1"), said.out());
        Cli.run("hdbscan", f("inf.npy"), "--non-finite", "sklearn", "--out", out.toString(), "-q").assertOk();
        assertEquals(-2, Npy.read(out.resolve("labels.npy")).toInt32()[5]);
        // float64 input is fitted from its float64 values: an infinity there is left out too, not taken
        // for a coordinate too large to square
        Cli.run("hdbscan", f("inf64.npy"), "--non-finite", "sklearn", "--out", out.toString(), "-q").assertOk();
        assertEquals(-2, Npy.read(out.resolve("labels.npy")).toInt32()[13]);
        // text's decimals beyond float64's range are infinities there, as numpy.loadtxt reads them; the default still
        // names the cell, and so does balltree, which takes no infinity
        StringBuilder csv = new StringBuilder();
        for (int i = 0; i < 30; i++) csv.append(i == 4 ? "-1e400" : i == 9 ? "1E999" : Integer.toString(i % 7)).append(',').append(i / 3).append('\n');
        Path text = Files.writeString(tmp.resolve("overflow.csv"), csv);
        Cli.run("hdbscan", text.toString(), "--non-finite", "sklearn", "--min-cluster-size", "3", "--out", out.toString(),
                "-q").assertOk();
        int[] fromText = Npy.read(out.resolve("labels.npy")).toInt32();
        assertEquals(-2, fromText[4]);
        assertEquals(-2, fromText[9]);
        assertEquals(2, java.util.Arrays.stream(fromText).filter(l -> l == -2).count());
        Cli.run("hdbscan", text.toString(), "--out", tmp.resolve("o2").toString())
                .assertError("line 5", "'-1e400' is beyond the float64 range");
        Cli.run("balltree", text.toString(), "--out", tmp.resolve("o3").toString())
                .assertError("'-1e400' is beyond the float64 range");
    }

    /** The option named after a library message is the command's own, and only one it has. */
    @Test
    void theOptionOfABadParameterIsTheCommandsOwn() {
        var root = Main.commandLine(new java.io.PrintWriter(java.io.Writer.nullWriter()),
                new java.io.PrintWriter(java.io.Writer.nullWriter()), CliContext.inProcess(System.in));
        var hdbscan = root.getSubcommands().get("hdbscan").getCommandSpec();
        var demo = root.getSubcommands().get("demo").getCommandSpec();
        var bench = root.getSubcommands().get("bench").getSubcommands().get("hdbscan").getCommandSpec();
        var method = InvalidInputException.forParameter("cluster_selection_method", "bad method");
        assertEquals(" (option --method)", ErrorHandler.optionOf(method, hdbscan));
        assertEquals(" (option --method)", ErrorHandler.optionOf(method, bench));
        assertEquals("", ErrorHandler.optionOf(method, demo), "demo has no --method");
        var minSamples = InvalidInputException.forParameter("min_samples", "too large");
        assertEquals(" (option --min-samples)", ErrorHandler.optionOf(minSamples.withContext("x.npy"), hdbscan));
        assertEquals("", ErrorHandler.optionOf(minSamples, demo), "demo has no --min-samples");
        assertEquals("", ErrorHandler.optionOf(new InvalidInputException("no parameter"), hdbscan));
        for (String p : List.of("min_cluster_size", "min_samples", "cluster_selection_epsilon", "max_cluster_size",
                "alpha", "cluster_selection_method", "allow_single_cluster", "threads", "backend")) {
            assertTrue(!ErrorHandler.optionOf(InvalidInputException.forParameter(p, p), hdbscan).isEmpty(),
                    () -> "sylva hdbscan has no option for " + p);
        }
    }

    /** Weights with --pca, weights from '-': refused, saying why; scikit-learn's long option names are taken too. */
    @Test
    void weightsWithPcaOrFromADashAreRefusedAndScikitLearnsLongNamesWork(@TempDir Path tmp) throws IOException {
        Path w = tmp.resolve("w.txt");
        Files.writeString(w, "1\n".repeat(N));
        Path out = tmp.resolve("o");
        Cli.run("hdbscan", good, "--pca", "2", "--sample-weight", w.toString(), "--out", out.toString())
                .assertError("--pca fits its components on the rows as they are, without their weights");
        Cli.run("hdbscan", good, "--sample-weight", "-", "--out", out.toString())
                .assertError("--sample-weight reads a file, and '-' names none");
        Path npz = Files.write(tmp.resolve("p.npz"), new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0});
        for (String command : List.of("hdbscan", "balltree")) {
            Cli.run(command, npz.toString(), "--shape", "2,1", "--out", out.toString())
                    .assertError("a shape is only for raw float32 input; this .npz states its own");
        }
        Cli.run("bench", "hdbscan", npz.toString(), "--shape", "2,1").assertError("this .npz states its own");
        // ... among several inputs too, before the first is fitted (a raw file first, which the shape fits)
        Path raw = Files.write(tmp.resolve("raw.f32"), new byte[8]);
        Cli.run("hdbscan", raw.toString(), npz.toString(), "--shape", "2,1", "--out", out.toString())
                .assertError("this .npz states its own");
        Cli.assertNothingWritten(out);
        // a .npy on standard input with a shape: its header would be read as coordinates
        Cli.runWithStdin(Files.readAllBytes(Path.of(good)), "hdbscan", "-", "--shape", N + "," + D, "--out",
                out.toString()).assertError("standard input holds a .npy (NumPy's magic), which states its own shape");
        // an option and its scikit-learn alias together: which would win is not for their order to decide
        Cli.run("hdbscan", good, "--method", "eom", "--cluster-selection-method", "leaf", "--out", out.toString())
                .assertError("--method and --cluster-selection-method are one option: give one of them");
        Cli.run("hdbscan", good, "--centers", "medoid", "--store-centers", "medoid", "--out", out.toString())
                .assertError("--centers and --store-centers are one option: give one of them");
        Cli.run("hdbscan", good, "--metric", "precomputed", "--store-centers", "medoid", "--out", out.toString())
                .assertError("--store-centers needs coordinates");
        // a .npy under another name, given a shape: its header would be read as coordinates
        Path disguised = Files.copy(Path.of(good), tmp.resolve("points.bin"));
        Cli.run("hdbscan", disguised.toString(), "--shape", N + "," + D, "--out", out.toString())
                .assertError("points.bin holds a .npy (NumPy's magic), which states its own shape");
        Cli.run("hdbscan", raw.toString(), disguised.toString(), "--shape", "2,1", "--out", out.toString())
                .assertError("points.bin: a shape is only for raw float32 input; this .npy file states its shape");
        Cli.assertNothingWritten(out);
        // ... and a .npz so (the sizes would not match), named or on standard input
        Path zipped = Files.copy(npz, tmp.resolve("points.zbin"));
        Cli.run("hdbscan", zipped.toString(), "--shape", "2,1", "--out", out.toString())
                .assertError("points.zbin holds a zip archive (a .npz?), whose arrays state their own shapes");
        Cli.runWithStdin(Files.readAllBytes(npz), "hdbscan", "-", "--shape", "2,1", "--out", out.toString())
                .assertError("standard input holds a zip archive (a .npz?), whose arrays state their own shapes");
        Cli.run("hdbscan", raw.toString(), zipped.toString(), "--shape", "2,1", "--out", out.toString())
                .assertError("points.zbin: a shape is only for raw float32 input; this .npz states its own");
        Cli.assertNothingWritten(out);
        // weights with another metric: refused before the reading, as the fit would refuse them after it
        for (String metric : List.of("manhattan", "precomputed")) {
            Cli.run("hdbscan", good, "--metric", metric, "--sample-weight", "-", "--out", out.toString())
                    .assertError("sample weights are supported with the euclidean metric only", "(option --sample-weight)");
        }
        Cli.assertNothingWritten(out);
        // an enum's choices as the help spells them
        Cli.run("hdbscan", good, "--method", "foo", "--out", out.toString()).assertError("expected one of [eom, leaf]");
        // an input whose folder would take the manifest's or the lock's name
        Path reserved = Files.copy(Path.of(good), tmp.resolve("sylva-run.json.npy"));
        Cli.run("hdbscan", good, reserved.toString(), "--out", out.toString())
                .assertError("would name its result folder sylva-run.json, a name Sylva keeps for its own files");
        Cli.assertNothingWritten(out);
        Cli.run("hdbscan", good, "--cluster-selection-method", "leaf", "--store-centers", "centroid", "--out",
                out.toString(), "-q").assertOk();
        assertTrue(Files.readString(out.resolve("sylva-run.json")).contains("\"cluster_selection_method\": \"leaf\""),
                "the alias's value is the fit's");
        Cli.run("hdbscan", good, "--store-centers", "bogus", "--out", tmp.resolve("b").toString())
                .assertError("(option --store-centers)");
        Path same = tmp.resolve("same");
        Cli.run("hdbscan", good, "--method", "leaf", "--centers", "centroid", "--out", same.toString(), "-q").assertOk();
        for (String name : List.of("labels.npy", "centroids.npy")) {
            assertArrayEquals(Files.readAllBytes(same.resolve(name)), Files.readAllBytes(out.resolve(name)), name);
        }
    }

    @Test
    void benchAndDemoErrorsAreOneLineToo(@TempDir Path tmp) throws IOException {
        Cli.run("bench", "hdbscan").assertError("FILE", "--generate");
        Cli.run("bench", "hdbscan", "--generate", "50", "--repeat", "0").assertError("--repeat");
        Cli.run("bench", "balltree", f("nope.npy")).assertError("nope.npy");
        Cli.run("bench", "balltree", good, "--threads", "0").assertError("--threads");
        Cli.run("bench", "hdbscan", "--generate", "50", "--min-cluster-size", "1")
                .assertError("got 1", "(option --min-cluster-size)");
        // the options are checked before the input is read (a missing file would be named otherwise)
        Cli.run("bench", "hdbscan", f("nope.npy"), "--repeat", "0").assertError("--repeat must be >= 1");
        Cli.run("bench", "hdbscan", f("nope.npy"), "--threads", "0").assertError("(option --threads)");
        Cli.run("bench", "hdbscan", f("nope.npy"), "--min-cluster-size", "1").assertError("(option --min-cluster-size)");
        Cli.run("bench", "balltree", f("nope.npy"), "--repeat", "0").assertError("--repeat must be >= 1");
        Cli.run("bench", "balltree", f("nope.npy"), "--threads", "0").assertError("--threads");
        Cli.run("bench", "hdbscan", "--generate", "50", "--shape", "50,3").assertError("--shape", "--generate");
        // no subcommand: a usage error, as sylva alone is
        Cli.Result bare = Cli.run("bench");
        assertEquals(ExitStatus.ERROR, bare.code());
        assertTrue(bare.err().startsWith("sylva: bench needs a subcommand: hdbscan, balltree or predict"), bare.err());
        assertEquals("", bare.out());
        Path demo = tmp.resolve("demo");
        Cli.run("demo", "--points", "100", "--threads", "0", "--out", demo.toString())
                .assertError("got 0", "(option --threads)");
        Cli.run("demo", "--points", "100", "--min-cluster-size", "1", "--out", demo.toString())
                .assertError("got 1", "(option --min-cluster-size)");
        Cli.assertNothingWritten(demo);
    }

    @Test
    void anArgumentWithUndecodableBytesIsRefusedBeforeAnythingRuns(@TempDir Path tmp) {
        Path out = tmp.resolve("bad\uFFFDname");
        var r = Cli.run("hdbscan", "x.npy", "--out", out.toString());
        assertEquals(ExitStatus.ERROR, r.code());
        assertTrue(r.err().contains("argument 4") && r.err().contains("not valid"), r.err());
        assertFalse(Files.exists(out), "nothing created");
    }

    /** The audit of a new user's first hour: each of these once gave a raw exception or a misleading line. */
    @Test
    void generatedSizesBeyondOneArrayAreRefusedNamingTheOption(@TempDir Path tmp) throws IOException {
        Path demo = tmp.resolve("demo");
        Cli.run("demo", "--points", "50000000", "--out", demo.toString())
                .assertError("--points must be at most " + org.sylva.demo.ClipLikeData.MAX_POINTS, "got 50000000");
        Cli.run("bench", "hdbscan", "--generate", "50000000").assertError("--generate must be at most");
        Cli.run("bench", "hdbscan", "--generate", "-5").assertError("--generate must be at least 2; got -5");
        Cli.run("bench", "hdbscan", "--generate", "0").assertError("--generate must be at least 2; got 0");
        Cli.run("demo", "--points", "2000", "--min-cluster-size", "5000", "--out", demo.toString())
                .assertError("--min-cluster-size (5000) must be at most --points (2000)");
        Cli.assertNothingWritten(demo);
    }

    @Test
    void benchRefusesAFileTogetherWithGenerateAndNamesTheFileOfABadValue() {
        Cli.run("bench", "hdbscan", good, "--generate", "100").assertError("give a FILE or --generate N, not both");
        Cli.run("bench", "hdbscan", f("nan.npy")).assertError("nan.npy: row", "is NaN");
    }

    @Test
    void theThreadsOfPredictAreCheckedFirstAndCutAndReselectHaveNone(@TempDir Path tmp) throws IOException {
        Path model = tmp.resolve("m.model");
        Cli.run("hdbscan", good, "--min-cluster-size", "5", "--out", tmp.resolve("fit").toString(),
                "--save-model", model.toString(), "-q").assertOk();
        Path out = tmp.resolve("p");
        String line = Cli.run("predict", model.toString(), good, "--threads", "0", "--out", out.toString())
                .assertError("threads must be at least 1; got 0 (option --threads)");
        assertFalse(line.contains("good.npy"), line);
        Cli.run("predict", model.toString(), good, "--threads", "100000", "--out", out.toString())
                .assertError("at most 32767", "(option --threads)");
        Cli.assertNothingWritten(out);
        // sylva cut and sylva reselect run on one thread: no --threads to accept and ignore
        Cli.run("cut", model.toString(), "--distance", "1", "--threads", "2", "--out", out.toString())
                .assertError("unknown option '--threads'");
        Cli.run("reselect", model.toString(), "--threads", "2", "--out", out.toString())
                .assertError("unknown option '--threads'");
    }

    @Test
    void rawBytesOnStandardInputAreNotTakenForText(@TempDir Path tmp) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 * 61 * 50).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        java.util.SplittableRandom rng = new java.util.SplittableRandom(3);
        for (int i = 0; i < 61 * 50; i++) b.putFloat((float) (rng.nextGaussian() * 40));
        Path out = tmp.resolve("o");
        Cli.runWithStdin(b.array(), "hdbscan", "-", "--out", out.toString())
                .assertError("standard input does not look like delimited text", "--shape N,D");
        Cli.assertNothingWritten(out);
    }

    @Test
    void anOptionTypedAsACommandPointsToTheOption() {
        String line = Cli.run("version").assertError("unknown command 'version'", "did you mean 'sylva --version'?");
        assertFalse(line.contains("did you mean 'verify'"), line);
    }
}
