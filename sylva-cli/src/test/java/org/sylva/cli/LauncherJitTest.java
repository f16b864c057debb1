package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.engine.StageKernels;
import org.sylva.kernels.KernelProvider;

/**
 * The launchers' JIT choice (bin/sylva-java.sh, sylva_jit_opts): C1 only for a small .npy under
 * `sylva hdbscan` with the auto or scalar backend, its bound the library's; every other run C2 with the
 * vector kernels compiled sooner (SYLVA_VECTOR_JIT), options this JVM accepts without a word on stdout.
 * The small runs also start without the Vector API module (sylva_java_args ... no-vector-module). A
 * `sylva predict` of a .npy of new points against a model file gets C1 only by the library's rule for the search
 * (StageKernels.coldScalarSearch).
 */
class LauncherJitTest {
    private static final Path SCRIPT = Path.of("..", "bin", "sylva-java.sh");

    @Test
    void theBoundsAreTheLibrarysScalarBounds() throws IOException {
        String script = Files.readString(SCRIPT);
        assertEquals(StageKernels.VECTOR_MIN_VALUES, bound(script, "SYLVA_SMALL_VALUES"));
        assertEquals(StageKernels.SCALAR_MAX_POINTS, bound(script, "SYLVA_SMALL_POINTS"));
        assertEquals(StageKernels.SCALAR_MAX_VALUES, bound(script, "SYLVA_SMALL_POINTS_VALUES"));
        // the launcher stops multiplying at the larger bound: it must be the larger
        assertTrue(StageKernels.SCALAR_MAX_VALUES >= StageKernels.VECTOR_MIN_VALUES);
    }

    private static long bound(String script, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + "=(\\d+)$").matcher(script);
        assertTrue(m.find(), name + " in " + SCRIPT);
        return Long.parseLong(m.group(1));
    }

    /** Around each bound the launcher's choice is the library's (StageKernels.coldScalar). */
    @Test
    void theLauncherDecidesAsTheLibraryAroundEachBound(@TempDir Path tmp) throws Exception {
        String c1 = "-XX:TieredStopAtLevel=1";
        String c2 = vectorJit();
        int[][] shapes = {{4_918, 61}, {4_919, 61}, {11_475, 61}, {11_476, 61}, {11_999, 58}, {12_000, 58},
            {18_749, 16}, {18_750, 16}, {20_000, 12}, {3_825, 183}, {5_000, 183}};
        for (int[] shape : shapes) {
            int n = shape[0], d = shape[1];
            Path f = TestData.writeNpy(PointSet.of(n, d, new float[n * d]), tmp.resolve(n + "x" + d + ".npy"));
            String expected = StageKernels.coldScalar(n, d) ? c1 : c2;
            assertEquals(expected, jit("hdbscan", f.toString()), n + " x " + d);
        }
        // the rule's corners as measured (BENCHMARKS.md, "Cold runs: which inputs the scalar kernel wins")
        assertTrue(StageKernels.coldScalar(5_000, 61) && StageKernels.coldScalar(11_000, 61));
        assertTrue(!StageKernels.coldScalar(14_000, 61) && !StageKernels.coldScalar(20_000, 16));
        assertTrue(StageKernels.coldScalar(20_000, 12) && !StageKernels.coldScalar(5_000, 183));
    }

    @Test
    void smallNpyInputsRunOnC1OnlyAndEveryOtherRunOnC2WithTheVectorOptions(@TempDir Path tmp) throws Exception {
        Path small = TestData.writeNpy(PointSet.of(1000, 3, new float[3000]), tmp.resolve("small.npy"));
        Path large = TestData.writeNpy(PointSet.of(100_000, 3, new float[300_000]), tmp.resolve("large.npy"));
        String c1 = "-XX:TieredStopAtLevel=1";
        String c2 = vectorJit();
        assertEquals(c1, jit("hdbscan", small.toString(), "--out", "x"));
        assertEquals(c1, jit("hdbscan", "--backend", "scalar", small.toString()));
        assertEquals(c1, jit("hdbscan", small.toString(), "--backend=auto"));
        assertEquals(c2, jit("hdbscan", large.toString(), "--out", "x"), "300 000 coordinates: the vector kernels");
        assertEquals(c2, jit("hdbscan", small.toString(), "--backend", "simd"));
        assertEquals(c2, jit("hdbscan", small.toString(), "--backend=opencl"));
        assertEquals(c1, jit("balltree", small.toString()));
        assertEquals(c2, jit("balltree", large.toString()));
        assertEquals(c2, jit("demo"));
        assertEquals(c1, jit("hdbscan", small.toString(), "--metric", "euclidean"));
        assertEquals(c2, jit("hdbscan", small.toString(), "--metric", "manhattan"), "brute force: C2 pays off");
        assertEquals(c2, jit("hdbscan", small.toString(), "--metric=cosine"));
        assertEquals(c2, jit("hdbscan", tmp.resolve("missing.npy").toString()));
        // an option's .npy value is not the input
        assertEquals(c2, jit("hdbscan", "--sample-weight", small.toString(), large.toString()));
        assertEquals(c2, jit("hdbscan", "--waveforms-from=" + small, large.toString()));
        assertEquals(c1, jit("hdbscan", "--waveforms-from", large.toString(), small.toString()));
        // several inputs are one run of their sizes together: each of these alone is small (200 000 coordinates),
        // the two are 400 000; a missing file counts for nothing
        Path half = TestData.writeNpy(PointSet.of(10_000, 20, new float[200_000]), tmp.resolve("half.npy"));
        Path half2 = Files.copy(half, tmp.resolve("half2.npy"));
        assertEquals(c1, jit("hdbscan", half.toString(), "--out", "x"));
        assertEquals(c2, jit("hdbscan", half.toString(), half2.toString(), "--out", "x"));
        assertEquals(c1, jit("hdbscan", small.toString(), small.toString(), "--out", "x"));
        assertEquals(c1, jit("hdbscan", half.toString(), tmp.resolve("missing.npy").toString()));
        Path text = Files.writeString(tmp.resolve("more.csv"), "1,2\n3,4\n");
        // an option's value that names an existing file is still no input (the launcher runs where the user is)
        Files.writeString(tmp.resolve("leaf"), "");
        assertEquals(c1, bash("cd '" + tmp + "' && . '" + SCRIPT.toAbsolutePath() + "'; sylva_jit_opts hdbscan '" + small
                + "' --method leaf --out x"));
        assertEquals(c1, jit("hdbscan", small.toString(), text.toString()), "a text input's size is estimated");
        assertEquals(c1, jit("hdbscan", small.toString(), tmp.resolve("points.npz").toString()), "missing: no input");
        Files.write(tmp.resolve("points.npz"), new byte[] {1});
        assertEquals(c2, jit("hdbscan", small.toString(), tmp.resolve("points.npz").toString()), "an .npz is not read");
        assertEquals(c1, jit("hdbscan", small.toString(), "--min-cluster-size", "20", "--report", text.toString()),
                "an option's value is not an input");
        // by bash alone: with no external command to be found, the choice is the same (every process the
        // launcher starts counts in every cold run)
        assertEquals(c1, bash(". '" + SCRIPT + "'; PATH=/nonexistent; sylva_jit_opts hdbscan '" + small + "'"));
        assertEquals(c2, bash(". '" + SCRIPT + "'; PATH=/nonexistent; sylva_jit_opts hdbscan '" + large + "'"));
    }

    /**
     * The other small runs: a text table (its rows estimated from its size and second line), a ball tree of a small
     * .npy on the scalar code, cut and reselect of a small fit's model, and the runs that compute nothing (help,
     * devices); serve and bench keep C2 and the vector kernels.
     */
    @Test
    void textTablesBallTreesModelsAndHelpAreSmallByTheSameRule(@TempDir Path tmp) throws Exception {
        String c1 = "-XX:TieredStopAtLevel=1";
        String c2 = vectorJit();
        // 1 000 x 61 (61 000 values) is small; 13 000 x 61 (793 000) is not; a header line is not the one measured
        StringBuilder row = new StringBuilder("-1.234567890123456789e+00");
        for (int j = 1; j < 61; j++) row.append(",-1.234567890123456789e+00");
        Path smallCsv = tmp.resolve("small.csv");
        Path largeCsv = tmp.resolve("large.tsv");
        try (var w = Files.newBufferedWriter(smallCsv)) {
            w.write("a,b\n");
            for (int i = 0; i < 1000; i++) w.write(row + "\n");
        }
        try (var w = Files.newBufferedWriter(largeCsv)) {
            String ones = "1\t".repeat(60) + "1\n";
            for (int i = 0; i < 13_000; i++) w.write(ones);
        }
        assertEquals("1001 61", bash(". '" + SCRIPT + "'; sylva_text_shape '" + smallCsv
                + "' && echo \"$SYLVA_NPY_POINTS $SYLVA_NPY_DIMS\"").strip());
        assertEquals(c1, jit("hdbscan", smallCsv.toString(), "--out", "x"));
        assertEquals(c2, jit("hdbscan", largeCsv.toString(), "--out", "x"));
        assertEquals(c2, jit("hdbscan", smallCsv.toString(), "--metric", "manhattan"));
        Path empty = Files.writeString(tmp.resolve("empty.csv"), "");
        assertEquals(c2, jit("hdbscan", empty.toString()), "nothing to estimate: the JVM says what is wrong");
        // comment and blank lines are not the line measured: two long comments before 13 000 short rows
        Path commented = tmp.resolve("commented.TXT");
        try (var w = Files.newBufferedWriter(commented)) {
            w.write("# generated\n\n# " + "x".repeat(300) + "\n");
            String ones = "1 ".repeat(60) + "1\n";
            for (int i = 0; i < 13_000; i++) w.write(ones);
        }
        assertEquals(c2, jit("hdbscan", commented.toString()), "13 000 x 61, the extension in capitals");
        Files.copy(smallCsv, tmp.resolve("SMALL.CSV"));
        assertEquals(c1, jit("hdbscan", tmp.resolve("SMALL.CSV").toString()));
        assertEquals(c1, jit("hdbscan", "--cluster-selection-method", "leaf", smallCsv.toString(), "--store-centers",
                "medoid"), "the long spellings' values are no inputs");
        // ball trees: the scalar code (the default) on a small .npy
        Path cloud = TestData.writeNpy(PointSet.of(1000, 3, new float[3000]), tmp.resolve("cloud.npy"));
        assertEquals(c1, jit("balltree", cloud.toString(), "--out", "t", "--batch", largeCsv.toString()));
        assertEquals(c1, jit("balltree", cloud.toString(), "--backend", "scalar"));
        assertEquals(c2, jit("balltree", cloud.toString(), "--kernels", "vector"));
        assertEquals(c2, jit("balltree", cloud.toString(), "--backend=simd"));
        assertEquals(c2, jit("balltree", cloud.toString(), "--backend", "opencl"));
        assertEquals(c2, jit("balltree", "-", "--shape", "1000,3"));
        // cut and reselect: by the model's n and d, any metric
        Path points = TestData.writeNpy(TestData.clips(300), tmp.resolve("clips.npy"));
        Path model = tmp.resolve("clips.model");
        Cli.run("hdbscan", points.toString(), "--out", tmp.resolve("fit").toString(), "--save-model", model.toString(),
                "-q").assertOk();
        assertEquals(c1, jit("cut", model.toString(), "--distance", "2", "--out", "c"));
        assertEquals(c1, jit("reselect", "--out", "r", model.toString(), "--method", "leaf"));
        assertEquals(c2, jit("cut", points.toString(), "--distance", "2"), "not a model's header");
        assertEquals(c2, jit("reselect", tmp.resolve("missing.model").toString()));
        // nothing computed
        assertEquals(c1, jit("devices"));
        assertEquals(c1, jit("help"));
        assertEquals(c1, jit("hdbscan", "--help"));
        assertEquals(c1, jit("balltree", largeCsv.toString(), "-h"));
        assertEquals(c2, jit("hdbscan", largeCsv.toString(), "--", "-h"), "after --, -h is an input's name");
        // --version names the kernels a computing run of the command gets: it starts as one does
        assertEquals(c2, jit("devices", "-V"));
        assertEquals(c2, jit("hdbscan", smallCsv.toString(), "--version"));
        assertEquals(c2, jit("serve"));
        assertEquals(c2, jit("bench", "hdbscan", cloud.toString()));
    }

    /**
     * `sylva predict MODEL NEW.npy`: C1 only where the library searches the new points on the scalar kernel in
     * a fresh JVM (StageKernels.coldScalarSearch), around each bound and at perfect squares; the model's n and
     * d come from its header, the new points' count from the .npy's.
     */
    @Test
    void thePredictionsChoiceIsTheLibrarys(@TempDir Path tmp) throws Exception {
        String c1 = "-XX:TieredStopAtLevel=1";
        String c2 = vectorJit();
        long[][] models = {{20_000, 61}, {200_000, 61}, {20_000, 12}, {4_918, 61}, {3, 700_000}, {1, 1}};
        int checked = 0;
        for (long[] nd : models) {
            long n = nd[0], d = nd[1];
            Path model = modelHeader(tmp.resolve(n + "x" + d + ".model"), 2, n, d);
            // the last count of new points still searched on the scalar kernel, by bisection (monotone in m)
            long lo = 0, hi = 1L << 31;
            while (hi - lo > 1) {
                long mid = (lo + hi) >>> 1;
                if (StageKernels.coldScalarSearch(mid, n, d)) lo = mid; else hi = mid;
            }
            for (long m : new long[] {1, lo - 1, lo, lo + 1, n, n + 1}) {
                if (m < 1 || m >= 1L << 31) continue;
                Path points = npyHeader(tmp.resolve("new-" + m + "x" + d + ".npy"), m, d);
                String expected = StageKernels.coldScalarSearch(m, n, d) ? c1 : c2;
                assertEquals(expected, jit("predict", model.toString(), points.toString(), "--out", "x"),
                        m + " new points against " + n + " x " + d);
                checked++;
            }
        }
        assertTrue(checked >= 30, "cases: " + checked);
        // the rule's corners as measured (BENCHMARKS.md, "Cold predictions on C1")
        assertTrue(StageKernels.coldScalarSearch(3_000, 20_000, 61) && StageKernels.coldScalarSearch(100, 200_000, 61));
        assertFalse(StageKernels.coldScalarSearch(30_000, 20_000, 61) || StageKernels.coldScalarSearch(10_000, 200_000, 61));
    }

    @Test
    void aPredictionIsSmallOnlyWithAModelHeaderAndANpyOfNewPoints(@TempDir Path tmp) throws Exception {
        String c1 = "-XX:TieredStopAtLevel=1";
        String c2 = vectorJit();
        Path model = modelHeader(tmp.resolve("m.model"), 2, 20_000, 61);
        Path few = npyHeader(tmp.resolve("few.npy"), 1_000, 61);
        assertEquals(c1, jit("predict", model.toString(), few.toString()));
        assertEquals(c1, jit("predict", "--out", "x.npy", "--threads", "2", model.toString(), few.toString(), "-q"));
        assertEquals(c1, jit("predict", "--out=x", model.toString(), few.toString(), "--format", "csv"));
        assertEquals(c1, jit("predict", modelHeader(tmp.resolve("v1.model"), 1, 20_000, 61).toString(), few.toString()));
        assertEquals(c1, jit("predict", modelHeader(tmp.resolve("v3.model"), 3, 20_000, 61).toString(), few.toString()));
        assertEquals(c1, jit("predict", modelHeader(tmp.resolve("v4.model"), 4, 20_000, 61).toString(), few.toString()));
        // versions 5 to 7 (6: float32 points; 7: the index's partition): Euclidean and unweighted only, by the metric
        // and weighted bytes
        assertEquals(c1, jit("predict", modelHeader(tmp.resolve("v5.model"), 5, 20_000, 61, 0, 0).toString(), few.toString()));
        assertEquals(c1, jit("predict", modelHeader(tmp.resolve("v6.model"), 6, 20_000, 61, 0, 0).toString(), few.toString()));
        assertEquals(c1, jit("predict", modelHeader(tmp.resolve("v7.model"), 7, 20_000, 61, 0, 0).toString(), few.toString()));
        assertEquals(c2, jit("predict", modelHeader(tmp.resolve("v7w.model"), 7, 20_000, 61, 0, 1).toString(),
                few.toString()), "weighted, version 7");
        assertEquals(c2, jit("predict", modelHeader(tmp.resolve("v6m.model"), 6, 20_000, 61, 1, 0).toString(),
                few.toString()), "manhattan");
        assertEquals(c2, jit("predict", modelHeader(tmp.resolve("v5w.model"), 5, 20_000, 61, 0, 1).toString(),
                few.toString()), "weighted");
        // several files of new points: their points together (1 000 are small against 20 000 x 61, 30 000 are not)
        Path more = npyHeader(tmp.resolve("more.npy"), 29_000, 61);
        assertEquals(c1, jit("predict", model.toString(), few.toString(), few.toString()));
        assertEquals(c2, jit("predict", model.toString(), few.toString(), more.toString()));
        assertEquals(c2, jit("predict", model.toString(), few.toString(), few.toString().replace(".npy", ".csv")));
        // every other case: the JVM decides (and says what is wrong with a file)
        assertEquals(c2, jit("predict", modelHeader(tmp.resolve("v8.model"), 8, 20_000, 61, 0, 0).toString(), few.toString()));
        assertEquals(c2, jit("predict", few.toString(), few.toString()), "not a model");
        assertEquals(c2, jit("predict", tmp.resolve("missing.model").toString(), few.toString()));
        assertEquals(c2, jit("predict", model.toString(), tmp.resolve("missing.npy").toString()));
        assertEquals(c2, jit("predict", model.toString(), few.toString().replace(".npy", ".csv")));
        assertEquals(c2, jit("predict", model.toString(), few.toString(), "--shape", "1000,61"), "raw input");
        assertEquals(c2, jit("predict", model.toString(), "-"), "stdin");
        assertEquals(c2, jit("predict", model.toString()));
        byte[] header = Files.readAllBytes(model);
        Files.write(tmp.resolve("short.model"), java.util.Arrays.copyOf(header, 66));
        assertEquals(c2, jit("predict", tmp.resolve("short.model").toString(), few.toString()), "a truncated header");
        assertEquals(c2, jit("predict", modelHeader(tmp.resolve("neg.model"), 2, -5, 61).toString(), few.toString()));
        // an option's value is not a positional argument; NUL, newline and high bytes in the header are read as bytes
        assertEquals(c1, jit("predict", "--out", few.toString(), model.toString(), few.toString()));
        assertEquals(c1, jit("predict", modelHeader(tmp.resolve("bytes.model"), 2, 0x0a_00_0a, 1).toString(),
                npyHeader(tmp.resolve("one.npy"), 1, 1).toString()));
        assertFalse(StageKernels.coldScalarSearch(1_000, 0x00_80_ff_0a, 61));
        assertEquals(c2, jit("predict", modelHeader(tmp.resolve("big.model"), 2, 0x00_80_ff_0a, 61).toString(), few.toString()));
        assertTrue(StageKernels.coldScalarSearch(1, 0x00_80_ff_0a, 1));
        assertEquals(c1, jit("predict", modelHeader(tmp.resolve("big1.model"), 2, 0x00_80_ff_0a, 1).toString(),
                tmp.resolve("one.npy").toString()));
        // by bash alone, as for `sylva hdbscan`
        assertEquals(c1, bash(". '" + SCRIPT + "'; PATH=/nonexistent; sylva_jit_opts predict '" + model + "' '" + few + "'"));
    }

    /** The first 70 bytes of a model file (docs/model-file.md) with n fitted points of d coordinates; then junk. */
    private static Path modelHeader(Path file, int version, long n, long d) throws IOException {
        return modelHeader(file, version, n, d, 0x7f, 0x7f);
    }

    /** As above, with version 5's metric byte (70) and weighted byte (79) as given. */
    private static Path modelHeader(Path file, int version, long n, long d, int metric, int weighted) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(90).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x89, 'S', 'Y', 'L', 'V', 'A', '\r', '\n', 'H', 'D', 'B', 'M'});
        b.putInt(version);
        b.putLong(1_000).putInt(0);    // payload length, header CRC (not read by the launcher)
        b.putInt(20).putInt(10).putDouble(0).putInt(0).putDouble(1).put((byte) 0).put((byte) 0);
        b.putInt((int) n).putInt((int) n).putInt((int) d);
        while (b.hasRemaining()) b.put((byte) 0x7f);
        b.put(70, (byte) metric).put(79, (byte) weighted);
        return Files.write(file, b.array());
    }

    /** A .npy header of shape (m, d) and no data: all the launcher reads. */
    private static Path npyHeader(Path file, long m, long d) throws IOException {
        String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + m + ", " + d + "), }";
        StringBuilder h = new StringBuilder(dict);
        while ((10 + h.length() + 1) % 64 != 0) h.append(' ');
        h.append('\n');
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(10 + h.length()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short) h.length());
        b.put(h.toString().getBytes(StandardCharsets.ISO_8859_1));
        return Files.write(file, b.array());
    }

    @Test
    void theVectorKernelOptionsNameTheKernelsAndTheJvmTakesThemSilently() throws Exception {
        List<String> opts = vectorJit().lines().toList();
        assertEquals("-XX:CompileCommand=quiet", opts.get(0), "quiet first, or the JVM echoes each command on stdout");
        assertTrue(opts.stream().anyMatch(o -> o.contains("CompileThresholdScaling,org/sylva/kernels/Vector*.*,")), opts::toString);
        assertTrue(opts.stream().anyMatch(o -> o.equals("-XX:CompileCommand=BackgroundCompilation,org/sylva/kernels/Vector*.*,false")),
                opts::toString);
        // the pattern still names the vector kernels (a renamed package would silently drop the options)
        for (String kernel : List.of("VectorDistanceKernel", "VectorPartitionKernel", "VectorLaneSubtrees")) {
            assertTrue(KernelProvider.class.getResource(kernel + ".class") != null, kernel + " in org/sylva/kernels");
        }
        assertEquals("org.sylva.kernels", KernelProvider.class.getPackageName());
        // this JVM (Java 25) starts with them, exits 0, and prints nothing on stdout
        String stderr = javaVersionWith(opts);
        assertFalse(stderr.contains("CompileCommand"), stderr);
    }

    /** Runs this JVM's {@code java OPTS -version}, checks that it exits 0 with nothing on stdout; its stderr. */
    private static String javaVersionWith(List<String> opts) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(opts);
        cmd.add("-version");
        Process p = new ProcessBuilder(cmd).start();
        String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), stderr);
        assertEquals("", stdout, "stdout is the user's: " + stdout);
        return stderr;
    }

    @Test
    void smallInputsStartWithoutTheVectorModuleAndEveryOtherRunWithIt() throws Exception {
        List<String> all = bash(". '" + SCRIPT + "'; sylva_java_args /x/sylva.jar /nonexistent").lines().toList();
        List<String> small = bash(". '" + SCRIPT + "'; sylva_java_args /x/sylva.jar /nonexistent no-vector-module")
                .lines().toList();
        assertEquals(List.of("--add-modules", "jdk.incubator.vector"), all.subList(0, 2));
        assertEquals(all.subList(2, all.size()), small, "the same options less the module");
        // the small branch of sylva_exec passes no-vector-module and the -small cache; the others neither
        String exec = Files.readString(SCRIPT);
        assertTrue(exec.contains("sylva_add_java_args \"$jar\" \"${aot%.aot}-$cache.aot\" no-vector-module"), "sylva_exec");
        assertTrue(exec.contains("local cache=small\n")
                && exec.contains("case \"${1:-}\" in predict|cut|reselect) cache=small-predict ;; esac"), "sylva_exec");
    }

    /**
     * Transparent huge pages: asked for exactly where the kernel's setting is "[madvise]" (elsewhere the JVM
     * would warn on stdout, or every page is huge already), in the options of every computing run; and this
     * JVM starts with the launcher's options without a word on stdout.
     */
    @Test
    void hugePagesAreAskedForWhereTheKernelGivesThemOnRequest(@TempDir Path tmp) throws Exception {
        String flag = "-XX:+UseTransparentHugePages";
        String[][] settings = {{"always [madvise] never", "yes"}, {"always madvise [never]", "no"},
            {"[always] madvise never", "no"}, {"", "no"}};
        for (String[] s : settings) {
            Path f = Files.writeString(tmp.resolve("thp-" + s[1] + s[0].length()), s[0] + "\n");
            List<String> opts = bash(". '" + SCRIPT + "'; SYLVA_THP_SETTING='" + f + "'; sylva_java_args /x/sylva.jar /nonexistent")
                    .lines().toList();
            assertEquals(s[1].equals("yes"), opts.contains(flag), s[0] + ": " + opts);
            List<String> small = bash(". '" + SCRIPT + "'; SYLVA_THP_SETTING='" + f + "'; "
                    + "sylva_java_args /x/sylva.jar /nonexistent no-vector-module").lines().toList();
            assertEquals(s[1].equals("yes"), small.contains(flag), "small runs too: " + s[0]);
        }
        assertFalse(bash(". '" + SCRIPT + "'; SYLVA_THP_SETTING=/nonexistent; sylva_java_args /x/sylva.jar /nonexistent")
                .contains(flag), "no setting to read");
        // this machine's own setting: the JVM takes the options it gets here silently
        String stderr = javaVersionWith(bash(". '" + SCRIPT + "'; sylva_java_args /x/sylva.jar /nonexistent").lines().toList());
        assertFalse(stderr.contains("warning"), stderr);
    }

    /**
     * The JVM's log warnings go to stdout by default, where `sylva serve`'s frames and `--json` lines go (under
     * `ulimit -u` each thread that cannot start is one): with the launcher's options they are on stderr. Explicit
     * large pages asked for where none are configured is a warning a JVM here gives.
     */
    @Test
    void theJvmsLogWarningsGoToStderr() throws Exception {
        List<String> opts = new ArrayList<>(bash(". '" + SCRIPT + "'; sylva_java_args /x/sylva.jar /nonexistent")
                .lines().toList());
        opts.addAll(List.of("-XX:-UseTransparentHugePages", "-XX:+UseLargePages"));   // explicit large pages
        String stderr = javaVersionWith(opts);   // nothing on stdout
        org.junit.jupiter.api.Assumptions.assumeTrue(stderr.contains("[warning]"),
                "this machine has large pages: no warning to see");
        assertTrue(stderr.contains("UseLargePages"), stderr);
    }

    /**
     * Under a `ulimit -v` below 8 GiB the JVM's default reservations do not fit (below about 3 GB it did not start):
     * the launcher then asks for 64 MiB of class space, a heap of half the limit less 512 MiB (at least 256 MiB) and
     * two malloc arenas; unlimited or larger, nothing. A fit runs with them under a 2.5 GB limit.
     */
    @Test
    void aLimitOnAddressSpaceShrinksTheJvmsReservations(@TempDir Path tmp) throws Exception {
        Path limited = Files.writeString(tmp.resolve("limited"), "Limit                     Soft Limit           Hard "
                + "Limit           Units     \nMax address space         2048000000           unlimited            bytes"
                + "     \n");
        Path small = Files.writeString(tmp.resolve("small"), "Max address space         700000000            unlimited"
                + "            bytes     \n");
        Path large = Files.writeString(tmp.resolve("large"), "Max address space         9663676416           unlimited"
                + "            bytes     \n");
        Path unlimited = Files.writeString(tmp.resolve("unlimited"), "Max address space         unlimited            "
                + "unlimited            bytes     \n");
        String opts = ". '" + SCRIPT + "'; SYLVA_LIMITS='%s'; unset MALLOC_ARENA_MAX; SYLVA_OPTS=(); "
                + "sylva_address_space_opts; printf '%%s\\n' \"${SYLVA_OPTS[@]}\" \"arenas=${MALLOC_ARENA_MAX:-}\"";
        List<String> two = bash(String.format(opts, limited)).lines().toList();
        assertEquals(List.of("-XX:CompressedClassSpaceSize=64m", "-Xmx464m", "arenas=2"), two);
        assertEquals(List.of("-XX:CompressedClassSpaceSize=64m", "-Xmx256m", "arenas=2"),
                bash(String.format(opts, small)).lines().toList());
        for (Path none : List.of(large, unlimited, tmp.resolve("missing"))) {
            assertEquals(List.of("arenas="), bash(String.format(opts, none)).lines().toList(), none.toString());
        }
        assertTrue(bash(". '" + SCRIPT + "'; SYLVA_LIMITS='" + limited + "'; sylva_java_args /x/sylva.jar /nonexistent")
                .lines().toList().contains("-Xmx464m"), "in the options of every run");
        // a fit, in a JVM with the launcher's options, under a limit where the JVM's defaults do not start
        Path points = TestData.writeNpy(TestData.clips(300), tmp.resolve("clips.npy"));
        Path out = tmp.resolve("out");
        Process p = new ProcessBuilder("bash", "-c", "ulimit -v 2500000 && . '" + SCRIPT + "' && SYLVA_OPTS=() && "
                + "sylva_add_java_args /x/sylva.jar /nonexistent && exec \"$0\" \"${SYLVA_OPTS[@]}\" -cp \"$1\" "
                + Main.class.getName() + " hdbscan \"$2\" --out \"$3\" -q",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), System.getProperty("java.class.path"),
                points.toString(), out.toString()).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), said);
        assertTrue(Files.exists(out.resolve("labels.npy")), said);
    }

    private static String vectorJit() throws Exception {
        return bash(". '" + SCRIPT + "'; printf '%s\\n' \"${SYLVA_VECTOR_JIT[@]}\"");
    }

    /** Options in a file (picocli's {@code @FILE}) are not read by the launcher: such a run takes the full start. */
    @Test
    void optionsInAFileTakeTheFullStart(@TempDir Path tmp) throws Exception {
        Path small = TestData.writeNpy(PointSet.of(1000, 3, new float[3000]), tmp.resolve("small.npy"));
        Path opts = Files.writeString(tmp.resolve("simd.args"), "--backend simd\n");
        assertEquals("-XX:TieredStopAtLevel=1", jit("hdbscan", small.toString()));
        assertEquals(vectorJit(), jit("hdbscan", small.toString(), "@" + opts), "--backend simd may be in the file");
        assertEquals("other", bash(". '" + SCRIPT + "'; sylva_small_run predict m.model '" + small + "' '@" + opts
                + "' 2>/dev/null && echo small || echo other"));
    }

    /**
     * Under the C or POSIX locale (or none) the JVM gets C.UTF-8 file names: a non-ASCII install or working folder
     * otherwise stopped it or misdirected its outputs. A locale with a charset of its own is left alone.
     */
    @Test
    void theCLocaleGivesTheJvmUtf8FileNamesAndOtherLocalesAreLeftAlone() throws Exception {
        String show = ". '" + SCRIPT + "'; sylva_utf8_names; echo \"${LC_ALL:-unset} ${LC_CTYPE:-unset}\"";
        assertEquals("unset C.UTF-8", bash("unset LC_ALL LC_CTYPE LANG; " + show));
        assertEquals("unset C.UTF-8", bash("unset LC_ALL LC_CTYPE; export LANG=C; " + show));
        assertEquals("C.UTF-8 unset", bash("unset LC_CTYPE; export LC_ALL=POSIX; " + show));
        assertEquals("unset en_US.UTF-8", bash("unset LC_ALL; { export LC_CTYPE=en_US.UTF-8 LANG=C; } 2>/dev/null; " + show));
        assertEquals("unset de_DE.ISO-8859-1", bash("unset LC_ALL; { export LC_CTYPE=de_DE.ISO-8859-1; } 2>/dev/null; " + show + " 2>/dev/null"));
    }

    /**
     * The filter removes the JVM's incubator warning only, finding it behind the "Picked up ..." notes the JVM prints
     * first for each of JAVA_TOOL_OPTIONS, _JAVA_OPTIONS and JDK_JAVA_OPTIONS; every other line passes as it came.
     */
    @Test
    void theIncubatorWarningIsFoundBehindTheJvmsPickedUpNotes() throws Exception {
        String lines = "Picked up JAVA_TOOL_OPTIONS: -Da=1\\nPicked up _JAVA_OPTIONS: -Db=2\\n"
                + "NOTE: Picked up JDK_JAVA_OPTIONS: -Dc=3\\nWARNING: Using incubator modules: jdk.incubator.vector\\n"
                + "progress\\n";
        assertEquals("Picked up JAVA_TOOL_OPTIONS: -Da=1\nPicked up _JAVA_OPTIONS: -Db=2\n"
                + "NOTE: Picked up JDK_JAVA_OPTIONS: -Dc=3\nprogress",
                bash(". '" + SCRIPT + "'; printf '" + lines + "' | sylva_drop_incubator_warning"));
        assertEquals("one\ntwo\nthree\nWARNING: Using incubator modules: jdk.incubator.vector",
                bash(". '" + SCRIPT + "'; printf 'one\\ntwo\\nthree\\nWARNING: Using incubator modules: "
                        + "jdk.incubator.vector\\n' | sylva_drop_incubator_warning"),
                "three other lines first: the warning is no longer looked for");
    }

    private static String jit(String... args) throws Exception {
        StringBuilder cmd = new StringBuilder(". '" + SCRIPT + "'; sylva_jit_opts");
        for (String a : args) cmd.append(" '").append(a).append('\'');
        return bash(cmd.toString());
    }

    private static String bash(String cmd) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, p.waitFor(), out);
        return out;
    }
}
