package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.progress.CancellationToken;

/**
 * A report that fails never costs the fit's outputs: they are written, the report is left out, an
 * earlier report at its path (which would describe another run) is removed, and the command ends with
 * one error line and exit status 3 ({@link ExitStatus#REPORT_FAILED}).
 */
class ReportFailureTest {
    @TempDir
    static Path shared;
    static PointSet points;
    static String clips;

    @BeforeAll
    static void data() throws IOException {
        points = TestData.clips(200);
        clips = TestData.writeNpy(points, shared.resolve("clips.npy")).toString();
    }

    static List<String> outputs() {
        List<String> l = new ArrayList<>(HdbscanOutputs.names(OutputFormat.NPY));
        l.sort(null);
        return l;
    }

    @Test
    void aReportThatFailsToRenderLeavesTheOutputsWrittenAndTheOldReportRemoved(@TempDir Path tmp) throws IOException {
        Hdbscan h = Hdbscan.builder().minClusterSize(10).build();
        HdbscanResult r = h.fit(points);
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(out.resolve("report.html"), "an earlier run's report");
        Path elsewhere = Files.writeString(tmp.resolve("mine.html"), "an earlier run's report too");
        for (Path report : List.of(out.resolve("report.html"), elsewhere)) {
            for (Throwable failure : List.of(new IllegalStateException("drawing failed"), new OutOfMemoryError("heap"))) {
                HdbscanOutputs.Written w = HdbscanOutputs.write(h, r, out, OutputFormat.NPY, report, points, null, null,
                        "clips.npy", null, null, null, java.util.Map.of(), CancellationToken.NEVER, data -> {
                            if (failure instanceof Error e) throw e;
                            throw (RuntimeException) failure;
                        });
                assertEquals(failure, w.reportFailure());
                assertEquals(8, w.files().size(), "the outputs, not the report");
                assertEquals(Cli.withManifest(outputs()), Cli.list(out));
                assertFalse(Files.exists(report), "no earlier report stands beside the new outputs");
                // again for the next failure; not in --out after its last one: a report.html there that no run
                // recorded would stay beside the next run's outputs (StaleOutputsTest)
                if (report.equals(elsewhere) || failure instanceof IllegalStateException) {
                    Files.writeString(report, "an earlier run's report");
                }
            }
        }
    }

    /**
     * End to end: the report's path turns into a FIFO while the run is under way (after its up-front
     * checks), so writing the report fails at the end; the outputs are there and the status is 3.
     */
    @Test
    void theCommandWritesTheOutputsAndExitsWith3WhenTheReportFails(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        Path report = tmp.resolve("report.html");
        GatedInput stdin = new GatedInput(TestData.rawFloat32(points));
        StringWriter err = new StringWriter();
        StringWriter json = new StringWriter();
        int[] code = new int[1];
        Thread run = Thread.ofPlatform().start(() -> {
            try (PrintWriter o = new PrintWriter(json); PrintWriter e = new PrintWriter(err)) {
                code[0] = Main.run(new String[] {"hdbscan", "-", "--shape", points.size() + "," + points.dimensions(),
                    "--min-cluster-size", "10", "--out", out.toString(), "--report", report.toString(), "--json", "-q"},
                        o, e, stdin);
            }
        });
        try {
            assertTrue(stdin.reading.await(60, TimeUnit.SECONDS));
            OutputTargetsTest.fifo(report);
        } finally {
            stdin.open.countDown();
            run.join(60_000);
        }
        assertEquals(ExitStatus.REPORT_FAILED, code[0], err::toString);
        List<String> lines = err.toString().lines().toList();
        assertEquals(1, lines.size(), err::toString);
        assertTrue(lines.get(0).startsWith("sylva: error: the outputs were written to " + out + ", but the report "
                + report + " could not be made: "), lines.get(0));
        assertTrue(lines.get(0).contains("named pipe (FIFO)"), lines.get(0));
        assertEquals(Cli.withManifest(outputs()), Cli.list(out), "every output, and no lock file");
        assertTrue(OutputTargetsTest.isFifo(report), "the FIFO is left as it is");
        assertTrue(json.toString().contains("\"files\": [") && !json.toString().contains("report.html"), json::toString);
    }

    /**
     * A report or model name longer than a file name may be is refused before the fit, and an earlier complete
     * run in --out stays as it was (the name once passed the checks and failed only at the rename that publishes
     * it, after the earlier run's manifest was gone).
     */
    @Test
    void aReportOrModelNameTooLongIsRefusedBeforeTheFitAndTheEarlierRunStays(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", clips, "--min-cluster-size", "10", "--out", out.toString(), "-q").assertOk();
        List<String> earlier = Cli.list(out);
        byte[] manifest = Files.readAllBytes(out.resolve("sylva-run.json"));
        String longName = "r".repeat(251) + ".html";
        for (String[] option : List.of(new String[] {"--report", out.resolve(longName).toString()},
                new String[] {"--report", tmp.resolve(longName).toString()},
                new String[] {"--save-model", tmp.resolve("m".repeat(256)).toString()})) {
            Cli.run("hdbscan", clips, "--min-cluster-size", "10", "--out", out.toString(), option[0], option[1], "-q")
                    .assertError("bytes long, more than the 255 a file name may have");
            assertEquals(earlier, Cli.list(out));
            assertTrue(java.util.Arrays.equals(manifest, Files.readAllBytes(out.resolve("sylva-run.json"))));
        }
    }

    @Test
    void reportNotWrittenIsOneLineWithStatus3() {
        StringWriter err = new StringWriter();
        var cl = Main.commandLine(new PrintWriter(Writer.nullWriter()), new PrintWriter(err),
                CliContext.inProcess(System.in));
        var pr = cl.parseArgs("demo");
        int code = new ErrorHandler().handleExecutionException(new ReportNotWritten(Path.of("r.html"), Path.of("o"),
                new IllegalStateException("x" + "\n" + "y")), cl, pr);
        assertEquals(ExitStatus.REPORT_FAILED, code);
        assertEquals("sylva: error: the outputs were written to o, but the report r.html could not be made: IllegalStateException: x; y",
                err.toString().strip());
        assertInstanceOf(RuntimeException.class, new ReportNotWritten(Path.of("a"), Path.of("b"), new Error()));
    }
}
