package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.NonFinitePolicy;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.io.NpyDtype;
import org.sylva.testsupport.MiniJson;

/**
 * {@code sylva hdbscan} end to end, in-process: every input format, every output file, the JSON summary,
 * quiet and progress output, the report, and every parameter compared with the library called directly.
 */
class HdbscanCommandTest {
    static final int N = 400;
    static final List<String> OUTPUTS = List.of("labels", "probabilities", "outlier_scores", "core_distances", "mst",
            "single_linkage", "condensed_tree", "persistence");

    @TempDir
    static Path shared;
    static PointSet clips;
    static Path clipsNpy;
    /** The library's answer for the defaults the tests use (min-cluster-size 10). */
    static HdbscanResult expected;

    @BeforeAll
    static void data() throws IOException {
        clips = TestData.clips(N);
        clipsNpy = TestData.writeNpy(clips, shared.resolve("clips.npy"));
        expected = Hdbscan.builder().minClusterSize(10).build().fit(clips);
        assertTrue(expected.clusterCount() >= 3, "the test data should have several clusters");
    }

    static String s(Path p) {
        return p.toString();
    }

    /** Occurrences of {@code needle} in {@code s}. */
    static int count(String s, String needle) {
        int c = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + needle.length())) c++;
        return c;
    }

    static int[] labels(Path dir) throws IOException {
        return Npy.read(dir.resolve("labels.npy")).toInt32();
    }

    static void assertAllOutputs(Path dir, String ext) throws IOException {
        List<String> want = new ArrayList<>();
        for (String o : OUTPUTS) want.add(o + ext);
        assertEquals(Cli.withManifest(want), Cli.list(dir), "exactly the output files and the manifest, no temporaries");
    }

    /** Every .npy output equals the library's result, value for value. */
    static void assertSameAsLibrary(Path dir, HdbscanResult r) throws IOException {
        int n = r.size();
        NpyArray labels = Npy.read(dir.resolve("labels.npy"));
        assertEquals(NpyDtype.INT32, labels.dtype());
        assertArrayEquals(new int[] {n}, labels.shape());
        assertArrayEquals(r.labels(), labels.toInt32(), "labels");
        assertArrayEquals(r.probabilities(), Npy.read(dir.resolve("probabilities.npy")).toFloat64(), "probabilities");
        assertArrayEquals(r.outlierScores(), Npy.read(dir.resolve("outlier_scores.npy")).toFloat64(), "outlier_scores");
        assertArrayEquals(r.coreDistances(), Npy.read(dir.resolve("core_distances.npy")).toFloat64(), "core_distances");
        assertArrayEquals(r.clusterPersistence(), Npy.read(dir.resolve("persistence.npy")).toFloat64(), "persistence");
        NpyArray mst = Npy.read(dir.resolve("mst.npy"));
        assertArrayEquals(new int[] {r.spanningTree().edges(), 3}, mst.shape());
        double[] m = mst.toFloat64();
        for (int i = 0; i < r.spanningTree().edges(); i++) {
            assertEquals(r.spanningTree().from(i), (int) m[3 * i], "mst from, edge " + i);
            assertEquals(r.spanningTree().to(i), (int) m[3 * i + 1], "mst to, edge " + i);
            assertEquals(r.spanningTree().weight(i), m[3 * i + 2], "mst weight, edge " + i);
        }
        NpyArray slt = Npy.read(dir.resolve("single_linkage.npy"));
        assertArrayEquals(new int[] {r.singleLinkageTree().merges(), 4}, slt.shape());
        assertArrayEquals(r.singleLinkageTree().toMatrix(), slt.toFloat64(), "single_linkage");
        NpyArray ct = Npy.read(dir.resolve("condensed_tree.npy"));
        assertArrayEquals(new int[] {r.condensedTree().rows(), 4}, ct.shape());
        assertArrayEquals(r.condensedTree().toMatrix(), ct.toFloat64(), "condensed_tree");
    }

    @Test
    void npyInputWritesEveryOutputEqualToTheLibrary(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Cli.Result r = Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", "10", "--out", s(out)).assertOk();
        assertAllOutputs(out, ".npy");
        assertSameAsLibrary(out, expected);
        // the summary on stderr: cluster count and where the files went; progress names the stages
        assertTrue(r.err().contains(expected.clusterCount() + " clusters"), r.err());
        assertTrue(r.err().contains("core distances") && r.err().contains("spanning tree"),
                () -> "progress lines name the stages:\n" + r.err());
        assertTrue(r.err().contains("wrote 8 files"), r.err());
        assertEquals("", r.out(), "nothing on stdout without --json");
    }

    /**
     * Too few points for any cluster (fewer than twice min_cluster_size, no allow_single_cluster): the fit runs as
     * scikit-learn's does, every point noise, with a warning saying why (also under -q); reselect says the same.
     */
    @Test
    void aMinClusterSizeThatLeavesNoClusterPossibleIsWarnedAbout(@TempDir Path tmp) {
        String n = String.valueOf(N);
        String half = String.valueOf(N / 2 + 1);
        String expected = "sylva: warning: no cluster can form: a cluster needs --min-cluster-size (" + half
                + ") points on each side of a split, and the fit has " + n + " points, so every point is noise "
                + "(--allow-single-cluster makes them one cluster)";
        Path model = tmp.resolve("m.model");
        Cli.Result r = Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", half, "--out", s(tmp.resolve("a")), "-q",
                "--save-model", s(model)).assertOk();
        assertEquals(expected, r.err().strip());
        Cli.Result single = Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", half, "--allow-single-cluster",
                "--out", s(tmp.resolve("b")), "-q").assertOk();
        assertEquals("", single.err());
        Cli.Result fine = Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", "10", "--out", s(tmp.resolve("c")),
                "-q").assertOk();
        assertEquals("", fine.err());
        Cli.Result re = Cli.run("reselect", s(model), "--out", s(tmp.resolve("d")), "-q").assertOk();
        assertEquals(expected, re.err().strip());
        assertEquals("", Cli.run("reselect", s(model), "--min-cluster-size", "10", "--out", s(tmp.resolve("e")), "-q")
                .assertOk().err());
    }

    @Test
    void csvTsvRawAndStdinInputsGiveTheSameLabels(@TempDir Path tmp) throws IOException {
        Path csv = TestData.writeCsv(clips, tmp.resolve("clips.csv"), ',', true);
        Path tsv = TestData.writeCsv(clips, tmp.resolve("clips.tsv"), '\t', false);
        Path raw = TestData.writeRaw(clips, tmp.resolve("clips.f32"));
        String shape = N + "," + clips.dimensions();
        List<String[]> runs = List.of(
                new String[] {"hdbscan", s(csv), "--out", s(tmp.resolve("csv"))},
                new String[] {"hdbscan", s(tsv), "--out", s(tmp.resolve("tsv"))},
                new String[] {"hdbscan", s(raw), "--shape", shape, "--out", s(tmp.resolve("raw"))});
        for (String[] a : runs) {
            String[] args = Arrays.copyOf(a, a.length + 3);
            args[a.length] = "--min-cluster-size";
            args[a.length + 1] = "10";
            args[a.length + 2] = "-q";
            Cli.run(args).assertOk();
            Path out = Path.of(args[Arrays.asList(args).indexOf("--out") + 1]);
            assertAllOutputs(out, ".npy");
            assertArrayEquals(expected.labels(), labels(out), () -> "labels from " + a[1]);
        }
        // '-' reads standard input: raw float32 with --shape, .npy by its magic, text otherwise
        Cli.runWithStdin(TestData.rawFloat32(clips), "hdbscan", "-", "--shape", shape, "--min-cluster-size", "10",
                "--out", s(tmp.resolve("stdin-raw")), "-q").assertOk();
        assertArrayEquals(expected.labels(), labels(tmp.resolve("stdin-raw")));
        Cli.runWithStdin(Files.readAllBytes(clipsNpy), "hdbscan", "-", "--min-cluster-size", "10",
                "--out", s(tmp.resolve("stdin-npy")), "-q").assertOk();
        assertArrayEquals(expected.labels(), labels(tmp.resolve("stdin-npy")));
        Cli.runWithStdin(Files.readAllBytes(csv), "hdbscan", "-", "--min-cluster-size", "10",
                "--out", s(tmp.resolve("stdin-csv")), "-q").assertOk();
        assertArrayEquals(expected.labels(), labels(tmp.resolve("stdin-csv")));
    }

    @Test
    void float64NpyIsFittedInFloat64LikeScikitLearn(@TempDir Path tmp) throws IOException {
        // clip-like data with digits float32 cannot hold
        double[] x = new double[N * clips.dimensions()];
        java.util.SplittableRandom rng = new java.util.SplittableRandom(4);
        for (int i = 0; i < x.length; i++) x[i] = clips.coordinates()[i] + 1e-3 * rng.nextDouble();
        Path f64 = tmp.resolve("clips64.npy");
        Npy.writeFloat64(f64, x, N, clips.dimensions());
        Hdbscan h = Hdbscan.builder().minClusterSize(10).build();
        HdbscanResult exact = h.fit(x, N, clips.dimensions(), org.sylva.progress.ProgressListener.NONE,
                org.sylva.progress.CancellationToken.NEVER);
        float[] rounded = new float[x.length];
        for (int i = 0; i < x.length; i++) rounded[i] = (float) x[i];
        HdbscanResult viaFloat32 = h.fit(PointSet.of(N, clips.dimensions(), rounded));
        assertFalse(Arrays.equals(exact.coreDistances(), viaFloat32.coreDistances()),
                "test data too weak: rounding to float32 changes no core distance");
        Path out = tmp.resolve("out");
        Cli.Result r = Cli.run("hdbscan", s(f64), "--min-cluster-size", "10", "--out", s(out)).assertOk();
        assertSameAsLibrary(out, exact);
        assertFalse(r.err().contains("warning"), () -> "no rounding warning: the fit uses the float64 values\n" + r.err());
        Path viaStdin = tmp.resolve("stdin");
        Cli.runWithStdin(Files.readAllBytes(f64), "hdbscan", "-", "--min-cluster-size", "10", "--out", s(viaStdin), "-q")
                .assertOk();
        assertSameAsLibrary(viaStdin, exact);
    }

    @Test
    void formatCsvWritesEveryOutputAsText(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", "10", "--format", "csv", "--out", s(out), "-q").assertOk();
        assertAllOutputs(out, ".csv");
        List<String> lines = Files.readAllLines(out.resolve("labels.csv"));
        assertEquals(N, lines.size());
        int[] got = new int[N];
        for (int i = 0; i < N; i++) got[i] = Integer.parseInt(lines.get(i)); // "407", never "407.0"
        assertArrayEquals(expected.labels(), got);
        List<String> mst = Files.readAllLines(out.resolve("mst.csv"));
        assertEquals(N - 1, mst.size());
        for (int i = 0; i < mst.size(); i++) {
            String[] f = mst.get(i).split(",");
            assertEquals(3, f.length, "mst row " + i);
            assertEquals(expected.spanningTree().from(i), Integer.parseInt(f[0]), "mst from " + i);
            assertEquals(expected.spanningTree().to(i), Integer.parseInt(f[1]), "mst to " + i);
            assertEquals(expected.spanningTree().weight(i), Double.parseDouble(f[2]), "mst weight " + i);
        }
        // ids and sizes of the trees as integers, distances and lambdas as floats, every value as in the .npy
        for (String tree : List.of("single_linkage", "condensed_tree")) {
            double[] m = tree.equals("single_linkage") ? expected.singleLinkageTree().toMatrix()
                    : expected.condensedTree().toMatrix();
            List<String> rows = Files.readAllLines(out.resolve(tree + ".csv"));
            assertEquals(m.length / 4, rows.size(), tree);
            for (int i = 0; i < rows.size(); i++) {
                String[] f = rows.get(i).split(",");
                assertEquals(4, f.length, tree + " row " + i);
                for (int c : new int[] {0, 1, 3}) {
                    assertEquals((long) m[4 * i + c], Long.parseLong(f[c]), tree + " row " + i + " column " + c);
                }
                double v = f[2].equals("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(f[2]);
                assertEquals(m[4 * i + 2], v, tree + " row " + i + " column 2");
            }
        }
        List<String> probs = Files.readAllLines(out.resolve("probabilities.csv"));
        for (int i = 0; i < N; i++) {
            assertEquals(expected.probabilities()[i], Double.parseDouble(probs.get(i)), "probability " + i);
        }
    }

    @Test
    void jsonSummaryParsesAndAgreesWithTheFiles(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Cli.Result r = Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", "10", "--out", s(out), "--json", "-q",
                "--threads", "1", "--backend", "scalar").assertOk();
        assertEquals("", r.err(), "--quiet: nothing on stderr");
        List<String> lines = r.out().lines().toList();
        assertEquals(1, lines.size(), "one JSON line on stdout");
        Map<?, ?> m = (Map<?, ?>) MiniJson.parse(lines.get(0));
        for (String key : List.of("sylva_version", "input", "n_points", "n_dims", "parameters", "threads", "backend",
                "n_clusters", "n_noise", "cluster_sizes", "cluster_persistence", "seconds", "files")) {
            assertTrue(m.containsKey(key), () -> "JSON lacks " + key + ": " + lines.get(0));
        }
        assertEquals((double) N, m.get("n_points"));
        assertEquals((double) clips.dimensions(), m.get("n_dims"));
        assertEquals((double) expected.clusterCount(), m.get("n_clusters"));
        assertEquals((double) expected.noiseCount(), m.get("n_noise"));
        assertEquals(1.0, m.get("threads"));
        assertEquals("scalar", m.get("backend"));
        List<?> sizes = (List<?>) m.get("cluster_sizes");
        int[] lab = labels(out);
        for (int c = 0; c < sizes.size(); c++) {
            final int cc = c;
            assertEquals((double) Arrays.stream(lab).filter(l -> l == cc).count(), sizes.get(c), "size of cluster " + c);
        }
        Map<?, ?> params = (Map<?, ?>) m.get("parameters");
        // typed as scikit-learn's values are: numbers, null for None, true/false, strings only for strings
        assertEquals(10.0, params.get("min_cluster_size"));
        assertEquals(10.0, params.get("min_samples"));
        assertEquals(0.0, params.get("cluster_selection_epsilon"));
        assertTrue(params.containsKey("max_cluster_size") && params.get("max_cluster_size") == null,
                () -> "max_cluster_size None is null: " + lines.get(0));
        assertEquals(1.0, params.get("alpha"));
        assertEquals("eom", params.get("cluster_selection_method"));
        assertEquals(Boolean.FALSE, params.get("allow_single_cluster"));
        assertTrue(lines.get(0).contains("\"min_cluster_size\": 10,"), () -> "an integer is written as one: " + lines.get(0));
        List<?> files = (List<?>) m.get("files");
        assertEquals(OUTPUTS.size(), files.size());
        for (Object f : files) assertTrue(Files.isRegularFile(Path.of((String) f)), () -> "listed file missing: " + f);
        assertTrue(((Map<?, ?>) m.get("seconds")).containsKey("core distances"));
    }

    @Test
    void jsonParametersKeepTheirTypesAndAnInfiniteEpsilonIsTheStringInf(@TempDir Path tmp) {
        Cli.Result r = Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", "10", "--min-samples", "4",
                "--cluster-selection-epsilon", "Infinity", "--max-cluster-size", "300", "--alpha", "0.5",
                "--method", "leaf", "--allow-single-cluster", "--out", s(tmp.resolve("out")), "--json", "-q").assertOk();
        String line = r.out().strip();
        Map<?, ?> params = (Map<?, ?>) ((Map<?, ?>) MiniJson.parse(line)).get("parameters");
        assertEquals(10.0, params.get("min_cluster_size"));
        assertEquals(4.0, params.get("min_samples"));
        assertEquals("inf", params.get("cluster_selection_epsilon"), "JSON has no Infinity: the string \"inf\"");
        assertEquals(300.0, params.get("max_cluster_size"));
        assertEquals(0.5, params.get("alpha"));
        assertEquals("leaf", params.get("cluster_selection_method"));
        assertEquals(Boolean.TRUE, params.get("allow_single_cluster"));
        assertTrue(line.contains("\"max_cluster_size\": 300,") && line.contains("\"alpha\": 0.5,"), line);
    }

    @Test
    void quietPrintsNothingOnStderrAndProgressNamesTheStagesOtherwise(@TempDir Path tmp) {
        Cli.Result quiet = Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", "10", "--out", s(tmp.resolve("q")),
                "--quiet").assertOk();
        assertEquals("", quiet.err());
        assertEquals("", quiet.out());
        Cli.Result loud = Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", "10", "--out", s(tmp.resolve("l")))
                .assertOk();
        // stderr is not a terminal here: plain lines, no carriage-return repaints
        assertFalse(loud.err().contains("\r"), "no terminal repaint codes when stderr is not a terminal");
        List<String> progress = loud.err().lines().filter(l -> l.matches("^\\S.*\\s\\d+\\.\\d%\\s.*ETA.*")).toList();
        assertTrue(progress.stream().anyMatch(l -> l.startsWith("core distances")), loud.err());
        assertTrue(progress.stream().anyMatch(l -> l.startsWith("spanning tree")), loud.err());
        assertTrue(progress.stream().anyMatch(l -> l.contains("100.0%")), "each stage reports its end:\n" + loud.err());
    }

    /** A parameter reaches the library: the CLI's labels equal the library's with it, which differ without it. */
    void assertParameterReachesLibrary(Path tmp, PointSet pts, Path input, List<String> cliArgs,
            UnaryOperator<Hdbscan.Builder> param) throws IOException {
        Hdbscan.Builder base = Hdbscan.builder().minClusterSize(10);
        HdbscanResult without = base.build().fit(pts);
        HdbscanResult with = param.apply(Hdbscan.builder().minClusterSize(10)).build().fit(pts);
        boolean differs = !Arrays.equals(without.labels(), with.labels())
                || !Arrays.equals(without.probabilities(), with.probabilities())
                || !Arrays.equals(without.coreDistances(), with.coreDistances());
        assertTrue(differs, () -> "test data too weak: " + cliArgs + " changes nothing in the library's result");
        Path out = tmp.resolve("out-" + String.join("_", cliArgs).replaceAll("[^A-Za-z0-9_.-]", ""));
        List<String> args = new ArrayList<>(List.of("hdbscan", s(input), "--out", s(out), "-q"));
        if (!cliArgs.contains("--min-cluster-size")) args.addAll(List.of("--min-cluster-size", "10"));
        args.addAll(cliArgs);
        Cli.run(args.toArray(String[]::new)).assertOk();
        assertSameAsLibrary(out, with);
    }

    @Test
    void everyHdbscanParameterReachesTheLibrary(@TempDir Path tmp) throws IOException {
        assertParameterReachesLibrary(tmp, clips, clipsNpy, List.of("--min-cluster-size", "25"), b -> b.minClusterSize(25));
        assertParameterReachesLibrary(tmp, clips, clipsNpy, List.of("--min-samples", "3"), b -> b.minSamples(3));
        double eps = medianCoreDistance() * 1.5;
        assertParameterReachesLibrary(tmp, clips, clipsNpy, List.of("--cluster-selection-epsilon", Double.toString(eps)),
                b -> b.clusterSelectionEpsilon(eps));
        int largest = Arrays.stream(clusterSizes(expected)).max().orElseThrow();
        assertParameterReachesLibrary(tmp, clips, clipsNpy, List.of("--max-cluster-size", Integer.toString(largest - 1)),
                b -> b.maxClusterSize(largest - 1));
        assertParameterReachesLibrary(tmp, clips, clipsNpy, List.of("--alpha", "0.5"), b -> b.alpha(0.5));
        assertParameterReachesLibrary(tmp, clips, clipsNpy, List.of("--method", "leaf"),
                b -> b.clusterSelectionMethod(SelectionMethod.LEAF));
        // one round blob: EOM splits it or calls it noise; allow-single-cluster lets it be one cluster
        PointSet blob = TestData.blob(300, 2, 5);
        Path blobNpy = TestData.writeNpy(blob, tmp.resolve("blob.npy"));
        assertParameterReachesLibrary(tmp, blob, blobNpy, List.of("--allow-single-cluster"), b -> b.allowSingleCluster(true));
    }

    static double medianCoreDistance() {
        double[] c = expected.coreDistances().clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }

    static int[] clusterSizes(HdbscanResult r) {
        int[] sizes = new int[r.clusterCount()];
        for (int l : r.labels()) if (l >= 0) sizes[l]++;
        return sizes;
    }

    @Test
    void threadsAndBackendReachTheLibraryAndChangeNoByte(@TempDir Path tmp) throws IOException {
        Path ref = tmp.resolve("ref");
        Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", "10", "--out", s(ref), "-q").assertOk();
        for (String[] opt : List.of(new String[] {"--threads", "1", "--backend", "scalar"},
                new String[] {"--threads", "2", "--backend", "simd"}, new String[] {"--threads", "3", "--backend", "auto"})) {
            Path out = tmp.resolve("t" + opt[1] + opt[3]);
            Cli.Result r = Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", "10", "--out", s(out), "-q", "--json",
                    opt[0], opt[1], opt[2], opt[3]).assertOk();
            Map<?, ?> m = (Map<?, ?>) MiniJson.parse(r.out().strip());
            assertEquals(Double.parseDouble(opt[1]), m.get("threads"), "--threads reached the library");
            assertEquals(opt[3], m.get("backend"), "--backend reached the library");
            for (String o : OUTPUTS) {
                assertArrayEquals(Files.readAllBytes(ref.resolve(o + ".npy")), Files.readAllBytes(out.resolve(o + ".npy")),
                        () -> o + ".npy differs with " + String.join(" ", opt));
            }
        }
    }

    @Test
    void nonFiniteSklearnLabelsNanRowsMinus3AndInfRowsMinus2(@TempDir Path tmp) throws IOException {
        PointSet bad = TestData.with(TestData.with(clips, 17, 2, Float.NaN), 30, 0, Float.POSITIVE_INFINITY);
        Path in = TestData.writeNpy(bad, tmp.resolve("bad.npy"));
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", s(in), "--min-cluster-size", "10", "--non-finite", "sklearn", "--out", s(out), "-q").assertOk();
        int[] lab = labels(out);
        assertEquals(-3, lab[17]);
        assertEquals(-2, lab[30]);
        HdbscanResult lib = Hdbscan.builder().minClusterSize(10).nonFinite(NonFinitePolicy.SKLEARN).build().fit(bad);
        assertArrayEquals(lib.labels(), lab);
        // the trees number the finite rows: fitted_rows maps each tree index back to its input row
        int[] rows = org.sylva.io.Npy.read(out.resolve("fitted_rows.npy")).toInt32();
        assertEquals(bad.size() - 2, rows.length);
        assertEquals(16, rows[16]);
        assertEquals(18, rows[17]);
        assertEquals(bad.size() - 1, rows[rows.length - 1]);
        assertArrayEquals(lib.fittedRows(), rows);
        Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", "10", "--non-finite", "sklearn", "--out", s(out), "-q")
                .assertOk();
        assertTrue(!Files.exists(out.resolve("fitted_rows.npy")), "every row fitted: the trees number the rows");
        // the default refuses the same file, naming file, row and column (see CliErrorsTest)
        Cli.run("hdbscan", s(in), "--out", s(tmp.resolve("refused"))).assertError("bad.npy", "row 17", "column 2", "NaN");
        Cli.assertNothingWritten(tmp.resolve("refused"));
    }

    @Test
    void reportIsOneSelfContainedHtmlFile(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Path report = tmp.resolve("pages").resolve("report.html");
        Cli.Result r = Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", "10", "--out", s(out), "--report", s(report),
                "--waveforms", "--json", "-q").assertOk();
        assertAllOutputs(out, ".npy");
        assertEquals(List.of("report.html"), Cli.list(report.getParent()), "only the report, no temporaries");
        String html = Files.readString(report, StandardCharsets.UTF_8);
        assertSelfContainedHtml(html);
        assertTrue(html.contains("condensed-tree-plot") && html.contains("projection-plot") && html.contains("waveform-plot"),
                "icicle plot, projection and waveforms (61-sample clips, --waveforms)");
        assertTrue(html.contains("cluster-table") && html.contains("parameters-table") && html.contains("timings-table"));
        assertTrue(html.contains(SylvaCommand.version()), "the report names the Sylva version");
        assertTrue(((List<?>) ((Map<?, ?>) MiniJson.parse(r.out().strip())).get("files")).contains(report.toString()));
    }

    static void assertSelfContainedHtml(String html) {
        assertTrue(html.startsWith("<!DOCTYPE html>") || html.startsWith("<!doctype html>"), "an HTML document");
        assertTrue(html.contains("<svg"), "inline SVG");
        assertTrue(html.strip().endsWith("</html>"), "complete document");
        for (String external : List.of("<script src", "<link", "@import", "src=\"http", "href=\"http", "url(http",
                "src='http", "href='http")) {
            assertFalse(html.contains(external), () -> "the report loads something from outside: " + external);
        }
    }

    @Test
    void methodValueIsCaseInsensitive(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", s(clipsNpy), "--min-cluster-size", "10", "--method", "LEAF", "--out", s(out), "-q").assertOk();
        HdbscanResult leaf = Hdbscan.builder().minClusterSize(10).clusterSelectionMethod(SelectionMethod.LEAF).build()
                .fit(clips);
        assertArrayEquals(leaf.labels(), labels(out));
        assertNotEquals(Arrays.toString(expected.labels()), Arrays.toString(leaf.labels()));
    }
}
