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
import org.sylva.progress.CancellationToken;
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
        // a folder that is another input's under a second name
        Path linked = tmp.resolve("linked");
        Files.createDirectories(linked.resolve("a"));
        Files.createSymbolicLink(linked.resolve("c"), linked.resolve("a"));
        Cli.run("hdbscan", s(a), s(c), "--out", s(linked)).assertError(linked.resolve("c") + " is already this run's");
        assertEquals(List.of("a", "c"), Cli.list(linked), "nothing written");
        assertEquals(List.of(), Cli.list(linked.resolve("a")));
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
                .assertError(tmp.resolve("missing.npy") + ": no such file");
        // what a reader would refuse only after the inputs before it were fitted
        Path folder = Files.createDirectories(tmp.resolve("folder.npy"));
        Cli.run("hdbscan", s(a), s(folder), "--out", s(out)).assertError(folder + ": is a directory");
        Path unknown = Files.writeString(tmp.resolve("points.xyz"), "1 2\n");
        Cli.run("hdbscan", s(a), s(unknown), "--out", s(out)).assertError(unknown + ": cannot tell the format");
        Cli.run("hdbscan", s(a), s(b), "--out", "").assertError("--out is empty");
        Cli.run("hdbscan", s(tmp.resolve("x.f32")), s(a), "--shape", "10,3", "--out", s(out))
                .assertError(tmp.resolve("x.f32") + ": no such file");
        Path raw = Files.write(tmp.resolve("x.f32"), new byte[10 * 3 * 4]);
        Cli.run("hdbscan", s(raw), s(a), "--shape", "10,3", "--out", s(out))
                .assertError(a + ": a shape is only for raw float32 input");
        Cli.run("hdbscan", s(a), s(b), "--out", s(out), "--report", "").assertError("--report is empty");
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
                .assertError(bad + ": row 7, column 1 (counting from 0) is NaN");
        assertTrue(line.endsWith("; input 2 of 3; the input before it is done, its folder in " + out + " complete; the "
                + "input after it was not run"), line);
        assertEquals(List.of("a"), Cli.list(out), "the failed input and the ones after it have no folder");
        Cli.run("verify", s(out.resolve("a"))).assertOk();
        // the first or the last input failing
        assertTrue(Cli.run("hdbscan", s(bad), s(a), s(c), "--out", s(tmp.resolve("res2")), "-q").assertError("is NaN")
                .endsWith("is NaN; use --non-finite sklearn to leave such rows out (labels -3 for NaN, -2 for inf); "
                        + "input 1 of 3; the 2 inputs after it were not run"));
        assertTrue(Cli.run("hdbscan", s(a), s(c), s(bad), "--out", s(tmp.resolve("res3")), "-q").assertError("is NaN")
                .endsWith("; input 3 of 3; the 2 inputs before it are done, their folders in " + tmp.resolve("res3")
                        + " complete"));
        // a message longer than an error line keeps the note whole
        Path deep = tmp;
        for (int i = 0; i < 12; i++) deep = deep.resolve("a-rather-long-folder-name-" + i);
        Path longBad = Files.createDirectories(deep).resolve("bad.npy");
        Files.copy(bad, longBad);
        line = Cli.run("hdbscan", s(a), s(longBad), "--out", s(out), "-q").assertError("\u2026");
        assertTrue(line.length() <= ErrorHandler.MAX_LINE + 200, line);
        assertTrue(line.endsWith("; input 2 of 2; the input before it is done, its folder in " + out + " complete"),
                line);
        // and however long the folder's name: the note is what says which folders to use
        Path longOut = deep.resolve("out");
        line = Cli.run("hdbscan", s(a), s(longBad), "--out", s(longOut), "-q").assertError("input 2 of 2");
        assertTrue(line.endsWith("its folder in " + longOut + " complete"), line);
    }

    @Test
    void anInterruptionAfterSomeInputsSaysTheirFoldersAreKept() {
        CompletedInputs completed = new CompletedInputs();
        completed.plan(4, Path.of("res"));
        assertEquals("sylva: interrupted; no output was written",
                ErrorHandler.interruptedLine(completed.interruptedNote()));
        completed.done();
        completed.done();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(CommandLine.Model.CommandSpec.create());
        cl.setErr(new PrintWriter(err, true));
        int code = new ErrorHandler(completed, CancellationToken.NEVER)
                .handleExecutionException(new CancelledException(), cl, null);
        assertEquals(ExitStatus.INTERRUPTED, code);
        assertEquals("sylva: interrupted in input 3 of 4; the 2 inputs before it are done, their folders in res "
                + "complete; nothing was written for it and the others", err.toString().strip());
        completed.done();
        assertEquals("in input 4 of 4; the 3 inputs before it are done, their folders in res complete; nothing was "
                + "written for it", completed.interruptedNote());
        // a run of one input keeps its lines
        CompletedInputs one = new CompletedInputs();
        one.plan(1, Path.of("res"));
        assertEquals("", one.errorNote());
        one.done();
        assertEquals("", one.interruptedNote());
    }

    @Test
    void aFailureAfterASignalIsReportedAsTheInterruption() {
        // a signal can break work under way (an OpenCL driver's compile loses its temporary files): once the run's
        // token is cancelled, the failure it caused is the interruption, not an error to report
        Exception broken = new IllegalStateException("clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11)");
        CompletedInputs completed = new CompletedInputs();
        completed.plan(1, Path.of("res"));
        CancellationToken token = new CancellationToken();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(CommandLine.Model.CommandSpec.create());
        cl.setErr(new PrintWriter(err, true));
        CommandLine.ParseResult parsed = cl.parseArgs();
        assertEquals(ExitStatus.ERROR, new ErrorHandler(completed, token).handleExecutionException(broken, cl, parsed));
        assertTrue(err.toString().startsWith("sylva: error:") && err.toString().contains("clBuildProgram"), err.toString());
        err.getBuffer().setLength(0);
        token.cancel();
        assertEquals(ExitStatus.INTERRUPTED,
                new ErrorHandler(completed, token).handleExecutionException(broken, cl, parsed));
        assertEquals("sylva: interrupted; no output was written", err.toString().strip());
    }

    /** More inputs than the open-file limit lets the run lock are refused before the first fit, naming the limit. */
    @Test
    void moreInputsThanTheOpenFileLimitAllowsAreRefusedUpFront(@TempDir Path tmp) throws IOException {
        Path fds = Files.createDirectories(tmp.resolve("fd"));
        for (int i = 0; i < 10; i++) Files.createFile(fds.resolve(String.valueOf(i)));
        Path limits = Files.writeString(tmp.resolve("limits"), "Limit                     Soft Limit           Hard Limit"
                + "           Units     \nMax open files            200                  4096                 files     \n");
        InputBatch.refuseBeyondOpenFileLimit(166, limits, fds);   // 10 + 166 + 24 = 200: fits
        var e = org.junit.jupiter.api.Assertions.assertThrows(org.sylva.data.InvalidInputException.class,
                () -> InputBatch.refuseBeyondOpenFileLimit(167, limits, fds));
        assertEquals("167 inputs: the run keeps each one's folder locked, a file open, until it ends, and the limit on "
                + "open files (ulimit -n) is 200, 10 of them open; raise it (ulimit -n 201 or more) or give the inputs to "
                + "several commands", e.getMessage());
        Path unlimited = Files.writeString(tmp.resolve("unlimited"), "Max open files            unlimited            "
                + "unlimited            files     \n");
        InputBatch.refuseBeyondOpenFileLimit(1_000_000, unlimited, fds);
        InputBatch.refuseBeyondOpenFileLimit(1_000_000, tmp.resolve("no-such-file"), fds);
    }
}
