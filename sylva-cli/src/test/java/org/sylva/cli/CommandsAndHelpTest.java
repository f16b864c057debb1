package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.io.Npy;
import picocli.CommandLine;

/** {@code sylva demo}, {@code sylva bench}, {@code --version} and the help of every command. */
class CommandsAndHelpTest {
    @Test
    void demoClustersAndWritesAReport(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("demo");
        Cli.Result r = Cli.run("demo", "--points", "3000", "--out", out.toString(), "--threads", "2").assertOk();
        List<String> want = new ArrayList<>();
        for (String o : HdbscanCommandTest.OUTPUTS) want.add(o + ".npy");
        want.add("report.html");
        assertEquals(Cli.withManifest(want), Cli.list(out));
        // the summary on stderr, as sylva hdbscan's; the report's path on stdout
        assertTrue(r.err().contains("3000 points x 61 dims"), r.err());
        assertTrue(r.err().contains("adjusted Rand index"), r.err());
        assertEquals("report: " + out.resolve("report.html").toAbsolutePath(), r.out().strip());
        // -q: no summary, no progress; the report's path still
        Cli.Result quiet = Cli.run("demo", "--points", "3000", "--out", out.toString(), "-q").assertOk();
        assertEquals("", quiet.err());
        assertEquals("report: " + out.resolve("report.html").toAbsolutePath(), quiet.out().strip());
        String html = Files.readString(out.resolve("report.html"));
        HdbscanCommandTest.assertSelfContainedHtml(html);
        assertTrue(html.contains("waveform-plot"), "clips get the waveform panel");
        assertEquals(3000, org.sylva.io.Npy.read(out.resolve("labels.npy")).size());
    }

    @Test
    void benchHdbscanPrintsItsTable() {
        Cli.Result r = Cli.run("bench", "hdbscan", "--generate", "2000", "--repeat", "1", "--warmup", "0", "--threads", "2")
                .assertOk();
        assertTrue(r.out().startsWith("hdbscan n=2000 d=61 threads=2"), r.out());
        assertTrue(r.out().lines().findFirst().orElseThrow().contains(" repeat=1 warmup=0 min_cluster_size=20 "
                + "min_samples=20 "), r.out());
        assertTrue(r.err().matches("(?s)sylva: bench run 1 of 1: \\d+\\.\\d{3}(\\d{3})? s\\R"), "one line per run: " + r.err());
        Cli.Result warm = Cli.run("bench", "hdbscan", "--generate", "500", "--repeat", "2", "--warmup", "1",
                "--warmup-seconds", "0", "--threads", "1").assertOk();
        assertTrue(warm.err().lines().anyMatch(l -> l.matches("sylva: bench warm-up run 1: \\d+\\.\\d{3}(\\d{3})? s"))
                && warm.err().lines().anyMatch(l -> l.matches("sylva: bench run 2 of 2: \\d+\\.\\d{3}(\\d{3})? s")), warm.err());
        assertTrue(warm.out().startsWith("hdbscan n=500"), "the table alone on stdout: " + warm.out());
        Cli.run("bench", "hdbscan", "--generate", "100", "--warmup-seconds", "-1")
                .assertError("--warmup-seconds must be between 0 and 86400", "-1");
        Cli.run("bench", "hdbscan", "--generate", "100", "--warmup-seconds", "NaN").assertError("--warmup-seconds", "NaN");
        assertTrue(r.out().lines().anyMatch(l -> l.trim().startsWith("total") && l.contains("median")), r.out());
    }

    @Test
    void benchHdbscanTimesAnotherMetric(@TempDir Path tmp) throws IOException {
        Path f = TestData.writeNpy(TestData.blob(800, 3, 5), tmp.resolve("fit.npy"));
        Cli.Result r = Cli.run("bench", "hdbscan", f.toString(), "--metric", "chebyshev", "--repeat", "1", "--warmup",
                "0", "--threads", "2").assertOk();
        assertTrue(r.out().startsWith("hdbscan n=800 d=3 threads=2 backend=cpu/kd-tree/chebyshev"), r.out());
        Cli.run("bench", "hdbscan", f.toString(), "--metric", "minkowski", "--p", "0.5").assertError("p >= 1");
        Cli.run("bench", "hdbscan", f.toString(), "--metric", "manhattan", "--backend", "simd")
                .assertError("--backend", "manhattan");
        Cli.run("bench", "hdbscan", f.toString(), "--metric", "hamming").assertError("unknown metric 'hamming'");
    }

    @Test
    void benchPredictPrintsItsLineAndRefusesAnotherDimension(@TempDir Path tmp) throws IOException {
        PointSet fitted = TestData.blob(600, 4, 3);
        Path f = TestData.writeNpy(fitted, tmp.resolve("fit.npy"));
        Path model = tmp.resolve("fit.model");
        Cli.run("hdbscan", f.toString(), "--min-cluster-size", "10", "--out", tmp.resolve("fit").toString(),
                "--save-model", model.toString(), "-q").assertOk();
        Path later = TestData.writeNpy(TestData.blob(300, 4, 9), tmp.resolve("later.npy"));
        String line = Cli.run("bench", "predict", model.toString(), later.toString(), "--repeat", "3", "--threads", "2",
                "--warmup-seconds", "0.5").assertOk().out().strip();
        assertTrue(line.matches("predict fitted=600 n=300 d=4 threads=2 repeat=3 warmup=[1-9]\\d* median_s=\\S+ min_s=\\S+"),
                line);
        Path wide = TestData.writeNpy(TestData.blob(50, 5, 1), tmp.resolve("wide.npy"));
        Cli.run("bench", "predict", model.toString(), wide.toString(), "--repeat", "1")
                .assertError("wide.npy", "5 coordinates", "fitted on points of 4");
    }

    @Test
    void benchBalltreePrintsItsLine(@TempDir Path tmp) throws IOException {
        PointSet cloud = TestData.blob(500, 3, 2);
        Path f = TestData.writeNpy(cloud, tmp.resolve("cloud.npy"));
        Cli.Result r = Cli.run("bench", "balltree", f.toString(), "--repeat", "3", "--threads", "1").assertOk();
        List<String> lines = r.out().lines().toList();
        assertEquals(1, lines.size(), r.out());
        // The tests run with --add-modules jdk.incubator.vector (as the sylva script does): vector by default.
        assertTrue(lines.get(0).matches("balltree n=500 d=3 batches=1 threads=1 repeat=3 median_ms=\\S+ min_ms=\\S+ kernels=vector"),
                lines.get(0));
        List<String> told = r.err().lines().toList();
        assertTrue(told.get(0).matches("sylva: bench warm-up run 1: \\d+\\.\\d{6} s"), r.err());
        assertEquals(List.of("sylva: bench run 1 of 3", "sylva: bench run 2 of 3", "sylva: bench run 3 of 3"),
                told.stream().filter(l -> l.startsWith("sylva: bench run ")).map(l -> l.substring(0, l.indexOf(':', 7)))
                        .toList(), "each timed build's line on stderr: " + r.err());
        assertTrue(told.stream().allMatch(l -> l.matches("sylva: bench (warm-up run \\d+|run \\d of 3): \\d+\\.\\d{6} s")),
                r.err());
        String scalar = Cli.run("bench", "balltree", f.toString(), "--repeat", "3", "--threads", "1", "--kernels", "scalar")
                .assertOk().out().strip();
        assertTrue(scalar.endsWith(" kernels=scalar"), scalar);
    }

    @Test
    void benchBalltreeTakesBatchIdsAndRefusesWhatTheTreeRefuses(@TempDir Path tmp) throws IOException {
        PointSet cloud = TestData.blob(500, 3, 2);
        Path f = TestData.writeNpy(cloud, tmp.resolve("cloud.npy"));
        Path ids = tmp.resolve("ids.npy");
        long[] id = new long[500];
        for (int i = 0; i < id.length; i++) id[i] = i / 125;
        Npy.writeInt64(ids, id, id.length);
        String line = Cli.run("bench", "balltree", f.toString(), "--batch", ids.toString(), "--repeat", "3", "--threads", "2")
                .assertOk().out().strip();
        assertTrue(line.startsWith("balltree n=500 d=3 batches=4 threads=2 repeat=3 median_ms="), line);

        Path nan = TestData.writeNpy(TestData.with(cloud, 7, 1, Float.NaN), tmp.resolve("nan.npy"));
        Cli.run("bench", "balltree", nan.toString(), "--repeat", "1")
                .assertError("nan.npy", "row 7, column 1", "NaN");
        id[300] = 9;
        Npy.writeInt64(ids, id, id.length);
        Cli.run("bench", "balltree", f.toString(), "--batch", ids.toString(), "--repeat", "1")
                .assertError("ids.npy", "position 300");
        Path oneD = tmp.resolve("line.npy");   // refused by sylva balltree as ambiguous: refused here alike
        Npy.writeFloat64(oneD, new double[100], 100);
        Cli.run("balltree", oneD.toString(), "--out", tmp.resolve("tree").toString())
                .assertError("line.npy", "save it as shape (n, 1)");
        Cli.run("bench", "balltree", oneD.toString(), "--repeat", "1")
                .assertError("line.npy", "save it as shape (n, 1)");
    }

    /**
     * A bench of no points is refused naming the file: it would time an empty loop (for the warm-up's seconds) and
     * print figures of nothing. The commands themselves take such a file ({@code sylva balltree} builds the empty
     * tree; {@code sylva predict} answers no points); a fit of it is refused as {@code sylva hdbscan} refuses it.
     */
    @Test
    void benchOfNoPointsIsRefusedNamingTheFile(@TempDir Path tmp) throws IOException {
        Path empty = TestData.writeNpy(PointSet.of(0, 3, new float[0]), tmp.resolve("empty.npy"));
        Cli.run("bench", "balltree", empty.toString(), "--repeat", "2", "--threads", "1")
                .assertError("empty.npy: no points", "ball trees");
        Cli.run("bench", "hdbscan", empty.toString(), "--repeat", "1", "--warmup", "0")
                .assertError("empty.npy: ", "at least two points");
        Path model = tmp.resolve("m.model");
        Path fit = TestData.writeNpy(TestData.blob(60, 3, 5), tmp.resolve("fit.npy"));
        Cli.run("hdbscan", fit.toString(), "--out", tmp.resolve("o").toString(), "--save-model", model.toString(),
                "-q").assertOk();
        Cli.run("bench", "predict", model.toString(), empty.toString(), "--repeat", "1", "--warmup", "0")
                .assertError("empty.npy: no points", "predictions");
        Cli.run("balltree", empty.toString(), "--out", tmp.resolve("t").toString(), "-q").assertOk();
    }

    @Test
    void versionOnTheTopCommandAndEverySubcommand() {
        String v = Cli.run("--version").assertOk().out().strip();
        String[] lines = v.split("\\R");
        assertTrue(lines[0].matches("sylva \\d+\\.\\d+\\.\\d+\\S* \\(Java \\S+\\)"), v);
        assertTrue(lines[1].startsWith("kernels: -Dsylva.kernels=auto, vector kernels loaded on first use"), v);
        assertEquals(v, Cli.run("hdbscan", "--version").assertOk().out().strip());
        assertEquals(v, Cli.run("bench", "balltree", "-V").assertOk().out().strip());
    }

    @Test
    void versionFastPathAnswersOnlyAVersionRequest() {
        var out = new java.io.ByteArrayOutputStream();
        var ps = new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8);
        assertFalse(VersionText.answer(new String[] {"hdbscan", "--version"}, ps));
        assertFalse(VersionText.answer(new String[] {"--verbose"}, ps));
        assertFalse(VersionText.answer(new String[0], ps));
        assertEquals("", out.toString(java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(VersionText.answer(new String[] {"--version"}, ps));
        assertEquals(VersionText.shortText(), out.toString(java.nio.charset.StandardCharsets.UTF_8).strip());
        out.reset();
        // A --version JVM the launcher starts without the module says what computing commands get.
        System.setProperty(VersionText.LAUNCHER_PROPERTY, "adds-vector-module");
        try {
            assertTrue(VersionText.shortText().contains("vector kernels in the computing commands"),
                    VersionText.shortText());
        } finally {
            System.clearProperty(VersionText.LAUNCHER_PROPERTY);
        }
        // --verbose loads every kernel and says which implementation runs (the tests run with the module)
        assertTrue(VersionText.answer(new String[] {"-V", "--verbose"}, ps));
        String[] lines = out.toString(java.nio.charset.StandardCharsets.UTF_8).strip().split("\\R");
        assertEquals("kernels (-Dsylva.kernels=auto):", lines[1], lines[0]);
        assertTrue(lines[2].matches(" +distance: +vector \\(VectorDistanceKernel\\)"), lines[2]);
        assertTrue(lines[3].matches(" +partition: +vector \\(VectorPartitionKernel\\)"), lines[3]);
        assertTrue(lines[4].matches(" +lane subtrees: +vector \\(VectorLaneSubtrees\\)"), lines[4]);
    }

    /** Qualified names of every command, e.g. "sylva bench hdbscan", found by walking picocli's model. */
    static List<List<String>> allCommands() {
        CommandLine root = Main.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()),
                CliContext.inProcess(System.in));
        List<List<String>> all = new ArrayList<>();
        walk(root, new ArrayList<>(), all);
        return all;
    }

    private static void walk(CommandLine cl, List<String> path, List<List<String>> all) {
        all.add(List.copyOf(path));
        for (var e : cl.getSubcommands().entrySet()) {
            List<String> p = new ArrayList<>(path);
            p.add(e.getKey());
            walk(e.getValue(), p, all);
        }
    }

    @Test
    void everyCommandsHelpEndsWithExamplesThatDoNotWrap() {
        List<List<String>> commands = allCommands();
        assertTrue(commands.size() >= 8, "sylva, hdbscan, balltree, demo, bench (+2), help: " + commands);
        for (List<String> c : commands) {
            List<String> args = new ArrayList<>(c);
            args.add("--help");
            Cli.Result r = Cli.run(args.toArray(String[]::new)).assertOk();
            String help = r.out();
            String name = String.join(" ", c);
            assertTrue(help.startsWith("Usage: sylva") || help.contains("\nUsage: sylva"), () -> name + ":\n" + help);
            List<String> lines = help.lines().toList();
            int ex = lines.indexOf("Examples:");
            assertTrue(ex > 0, () -> "'sylva " + name + " --help' has no Examples section:\n" + help);
            int examples = 0;
            for (int i = ex + 1; i < lines.size() && !lines.get(i).isBlank(); i++) {
                String l = lines.get(i);
                // an example line, or the indented continuation of one ending in a backslash
                boolean continuation = lines.get(i - 1).endsWith("\\") && l.startsWith("      ");
                assertTrue(continuation || l.startsWith("  sylva ") || l.startsWith("  cat "),
                        () -> "'sylva " + name + " --help': example line wrapped or malformed: '" + l + "'");
                if (!continuation) examples++;
            }
            assertTrue(examples >= 1, name);
            if (!c.isEmpty() && !c.get(0).equals("help")) {
                String cmd = "  sylva " + String.join(" ", c) + " ";
                assertTrue(lines.stream().anyMatch(l -> l.startsWith(cmd)),
                        () -> "'sylva " + name + " --help' has no example of itself:\n" + help);
            }
            assertEquals("", r.err());
        }
    }

    /**
     * Every synopsis fits 80 columns and breaks only at spaces: each option token whole ({@code [--shape=N,D]},
     * {@code [--[no-]waveforms]}), each line starting at a bracket, an option or a parameter.
     */
    @Test
    void everySynopsisFitsEightyColumnsAndKeepsEachOptionWhole() {
        for (List<String> c : allCommands()) {
            List<String> args = new ArrayList<>(c);
            args.add("--help");
            String help = Cli.run(args.toArray(String[]::new)).assertOk().out();
            String name = String.join(" ", c);
            List<String> lines = help.lines().toList();
            for (String l : lines) assertTrue(l.length() <= 80, () -> "'sylva " + name + " --help': " + l.length() + " columns: " + l);
            int at = 0;
            while (at < lines.size() && !lines.get(at).startsWith("Usage: ")) at++;
            assertTrue(at < lines.size(), name);
            for (int i = at; i < lines.size() && (i == at || lines.get(i).startsWith(" ")); i++) {
                String l = lines.get(i).strip();
                String tail = l.substring(l.lastIndexOf(' ') + 1);
                long open = tail.chars().filter(ch -> ch == '[').count(), close = tail.chars().filter(ch -> ch == ']').count();
                assertTrue(open <= close, () -> "'sylva " + name + " --help': synopsis line ends inside an option: " + l);
                if (i > at) {
                    char first = l.charAt(0);
                    assertTrue(first == '[' || first == '-' || Character.isUpperCase(first),
                            () -> "'sylva " + name + " --help': synopsis line starts inside an option: " + l);
                }
            }
        }
    }

    @Test
    void hdbscanHelpShowsTheWayFromClipsToLabelsAndAReport() {
        String help = Cli.run("hdbscan", "--help").assertOk().out();
        for (String s : List.of("--min-cluster-size", "--min-samples", "--cluster-selection-epsilon", "--max-cluster-size",
                "--alpha", "--method", "--allow-single-cluster", "--threads", "--backend", "--report", "--json", "--quiet",
                "--format", "--shape", "--non-finite", "sylva hdbscan clips.npy")) {
            assertTrue(help.contains(s), () -> "hdbscan --help lacks " + s + ":\n" + help);
        }
        String top = Cli.run("--help").assertOk().out();
        assertTrue(top.contains("sylva hdbscan clips.npy") && top.contains("--report"), top);
        for (String c : List.of("hdbscan", "balltree", "demo", "bench", "help")) {
            assertTrue(top.contains("  " + c + " "), () -> "top-level help lists " + c + ":\n" + top);
        }
        // every exit status a script may see, each from ExitStatus
        String flat = top.replaceAll("\\s+", " ");
        for (int status : new int[] {ExitStatus.OK, ExitStatus.ERROR, ExitStatus.REPORT_FAILED, ExitStatus.INTERRUPTED,
                143, ExitStatus.INCOMPLETE, ExitStatus.MISMATCH}) {
            assertTrue(flat.matches("(?s).*[ :]" + status + " [a-z].*"), () -> "help names exit status " + status + ":\n" + top);
        }
    }

    @Test
    void helpCommandShowsTheSameAsDashDashHelp() {
        Cli.Result viaHelp = Cli.run("help", "balltree").assertOk();
        assertEquals(Cli.run("balltree", "--help").assertOk().out(), viaHelp.out());
        assertTrue(viaHelp.out().contains("--partition-level") && viaHelp.out().contains("--batch"));
    }

    @Test
    void helpOfANestedCommandIsThatCommandsHelp() {
        for (String sub : new String[] {"hdbscan", "predict", "balltree"}) {
            Cli.Result viaHelp = Cli.run("help", "bench", sub).assertOk();
            assertEquals(Cli.run("bench", sub, "--help").assertOk().out(), viaHelp.out());
            assertTrue(viaHelp.out().startsWith("Usage: sylva bench " + sub), viaHelp.out());
        }
        Cli.Result unknown = Cli.run("help", "bench", "nosuch");
        assertEquals(ExitStatus.ERROR, unknown.code());
        assertEquals(unknown.err(), Cli.run("bench", "nosuch").err());
        assertTrue(unknown.err().startsWith("sylva: error: unknown command 'nosuch'; sylva bench's commands: hdbscan, "), unknown.err());
        Cli.Result top = Cli.run("help", "hdbscn");
        assertEquals(ExitStatus.ERROR, top.code());
        assertEquals(Cli.run("hdbscn").err(), top.err());
        assertTrue(top.err().startsWith("sylva: error: unknown command 'hdbscn'; commands: ") && top.err().contains("did you mean 'hdbscan'?"),
                top.err());
        assertEquals(Cli.run("help", "hdbscan").assertOk().out(), Cli.run("help", "hdbscan", "clips.npy").assertOk().out());
    }

    @Test
    void noArgumentsIsAUsageErrorWithTheUsageOnStderr() {
        Cli.Result r = Cli.run();
        assertEquals(ExitStatus.ERROR, r.code());
        assertEquals("", r.out(), "stdout stays empty: nothing was asked for");
        assertTrue(r.err().startsWith("sylva: a command is required"), r.err());
        assertTrue(r.err().contains("Usage: sylva") && r.err().contains("predict"), r.err());
        // asked for, the same text goes to stdout with success
        Cli.Result help = Cli.run("--help");
        assertEquals(0, help.code());
        assertTrue(help.out().startsWith("Usage: sylva"), help.out());
        assertTrue(r.err().endsWith(help.out()), "the same usage text");
    }
}
