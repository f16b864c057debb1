package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.progress.CancelledException;
import org.sylva.testsupport.MiniJson;
import picocli.CommandLine;

/**
 * {@code sylva hdbscan A B C --out DIR}: several inputs fitted in one process, each into {@code DIR/NAME}
 * exactly as a separate run of it writes; what is refused before anything is read; and what an error or an
 * interruption in a later input says about the folders already complete.
 */
class ManyInputsTest {
    @TempDir
    static Path shared;
    static Path a;
    static Path b;
    static Path c;

    @BeforeAll
    static void data() throws IOException {
        a = TestData.writeNpy(TestData.clips(300), shared.resolve("a.npy"));
        b = TestData.writeNpy(TestData.blob(250, 4, 5), shared.resolve("b.npy"));
        c = TestData.writeNpy(TestData.blob(200, 3, 9), shared.resolve("c.npy"));
    }

    static String s(Path p) {
        return p.toString();
    }

    /** The run's files in {@code dir} but the manifest and the report, which name their run. */
    static List<String> outputs(Path dir) throws IOException {
        List<String> l = new ArrayList<>(Cli.list(dir));
        l.removeIf(n -> n.equals("sylva-run.json") || n.endsWith(".html"));
        return l;
    }

    static void assertSameFiles(Path expected, Path actual) throws IOException {
        assertEquals(outputs(expected), outputs(actual), "the same files in " + actual);
        for (String name : outputs(expected)) {
            assertArrayEquals(Files.readAllBytes(expected.resolve(name)), Files.readAllBytes(actual.resolve(name)),
                    actual.resolve(name) + " byte for byte");
        }
    }

    @Test
    void eachInputGetsTheFolderASeparateRunWouldWrite(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("res");
        Cli.Result r = Cli.run("hdbscan", s(a), s(b), s(c), "--min-cluster-size", "8", "--min-samples", "4",
                "--out", s(out), "--save-model", "fit.model", "--report", "report.html", "--json").assertOk();
        assertEquals(List.of("a", "b", "c"), Cli.list(out), "one folder per input, named after it");
        for (Path in : List.of(a, b, c)) {
            String name = InputBatch.folderName(in);
            Path single = tmp.resolve("single-" + name);
            Cli.run("hdbscan", s(in), "--min-cluster-size", "8", "--min-samples", "4", "--out", s(single),
                    "--save-model", s(single.resolve("fit.model")), "--report", s(single.resolve("report.html")))
                    .assertOk();
            assertSameFiles(single, out.resolve(name));
            assertTrue(Files.isRegularFile(out.resolve(name).resolve("report.html")), "the report in each folder");
            Cli.run("verify", s(out.resolve(name))).assertOk();
            assertTrue(r.err().contains(" of 3: " + in + " into " + out.resolve(name)), r.err());
        }
        // --json: one line per input, in the order given
        List<String> lines = r.out().lines().toList();
        assertEquals(3, lines.size(), r.out());
        for (int i = 0; i < 3; i++) {
            assertEquals(List.of(a, b, c).get(i).toString(), ((java.util.Map<?, ?>) MiniJson.parse(lines.get(i))).get("input"), lines.get(i));
        }
    }

    @Test
    void twoInputsOfOneNameAreRefusedBeforeAnythingIsWritten(@TempDir Path tmp) throws IOException {
        Path other = Files.createDirectories(tmp.resolve("other"));
        Path sameName = Files.copy(b, other.resolve("a.npy"));
        Path out = tmp.resolve("res");
        Cli.run("hdbscan", s(a), s(c), s(sameName), "--out", s(out))
                .assertError("inputs " + a + " and " + sameName + " would both write into " + out.resolve("a"));
        assertFalse(Files.exists(out), "nothing created");
        Cli.run("hdbscan", s(a), s(a), "--out", s(out)).assertError("would both write into");
    }

    @Test
    void whatNamesOneFileForOneInputIsRefusedWithSeveral(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("res");
        Cli.run("hdbscan", s(a), "-", "--out", s(out)).assertError("standard input ('-') can only be the one input");
        Cli.run("hdbscan", s(a), s(b), "--sample-weight", s(c), "--out", s(out))
                .assertError("--sample-weight names a file for one input; with 2 inputs");
        Cli.run("hdbscan", s(a), s(b), "--waveforms-from", s(c), "--out", s(out))
                .assertError("--waveforms-from names a file for one input");
        Cli.run("hdbscan", s(a), s(b), "--report", s(tmp.resolve("r.html")), "--out", s(out))
                .assertError("with several inputs, --report is a file name written into each input's result folder");
        Cli.run("hdbscan", s(a), s(b), "--save-model", "m/fit.model", "--out", s(out))
                .assertError("--save-model m/fit.model: with several inputs");
        Cli.run("hdbscan", s(a), s(tmp.resolve("missing.npy")), "--out", s(out))
                .assertError("no such file: " + tmp.resolve("missing.npy"));
        assertFalse(Files.exists(out), "nothing created by a refused run");
    }

    /** An input that fails after others are done: their folders stay complete, the line says so, nothing else. */
    @Test
    void anErrorInALaterInputKeepsTheFoldersDoneAndSaysWhichAreKept(@TempDir Path tmp) throws IOException {
        float[] v = new float[100 * 3];
        v[7 * 3 + 1] = Float.NaN;
        Path bad = TestData.writeNpy(PointSet.unchecked(100, 3, v), tmp.resolve("bad.npy"));
        Path out = tmp.resolve("res");
        String line = Cli.run("hdbscan", s(a), s(bad), s(c), "--out", s(out), "-q")
                .assertError(bad + ": row 7, column 1 (counting from 0) is NaN",
                        "1 of 3 inputs is done, its folder in " + out + " complete, later inputs not run");
        assertTrue(line.endsWith("later inputs not run"), line);
        assertEquals(List.of("a"), Cli.list(out), "the failed input and the ones after it have no folder");
        Cli.run("verify", s(out.resolve("a"))).assertOk();
        // the first input failing: the line is a single run's
        Cli.run("hdbscan", s(bad), s(a), "--out", s(tmp.resolve("res2")), "-q").assertError("is NaN");
        assertFalse(Cli.run("hdbscan", s(bad), s(a), "--out", s(tmp.resolve("res2")), "-q").err().contains("done"));
    }

    @Test
    void anInterruptionAfterSomeInputsSaysTheirFoldersAreKept() {
        CompletedInputs completed = new CompletedInputs();
        completed.plan(3, Path.of("res"));
        assertEquals("sylva: interrupted; no output was written", ErrorHandler.interruptedLine(completed.note()));
        completed.done();
        completed.done();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(CommandLine.Model.CommandSpec.create());
        cl.setErr(new PrintWriter(err, true));
        int code = new ErrorHandler(completed).handleExecutionException(new CancelledException(), cl, null);
        assertEquals(ExitStatus.INTERRUPTED, code);
        assertEquals("sylva: interrupted; 2 of 3 inputs are done, their folders in res complete; nothing was written "
                + "for the others", err.toString().strip());
        // a run of one input keeps its line
        CompletedInputs one = new CompletedInputs();
        one.plan(1, Path.of("res"));
        one.done();
        assertEquals("", one.note());
    }
}
