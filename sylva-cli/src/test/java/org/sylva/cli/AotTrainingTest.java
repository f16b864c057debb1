package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The start-up cache's training run (AotTraining) and what lets the cache hold the CLI's classes: every
 * command line of the training succeeds and writes its outputs (a renamed option would otherwise leave
 * the launcher without a cache, silently), and picocli's classes are Java 25 class files (JDK 25's
 * ahead-of-time cache skips class files older than version 50, as picocli's own jar holds).
 */
class AotTrainingTest {
    @Test
    void everyCommandLineOfTheTrainingSucceeds(@TempDir Path tmp) throws IOException {
        StringWriter err = new StringWriter();
        int code = AotTraining.train(tmp, AotTraining.Training.FULL, new PrintWriter(new StringWriter()), new PrintWriter(err, true));
        assertEquals(ExitStatus.OK, code, err::toString);
        List<String> commands = AotTraining.commandLines(tmp, AotTraining.Training.FULL).stream().map(List::getFirst).toList();
        assertEquals(List.of("hdbscan", "hdbscan", "predict", "demo", "balltree"), commands);
        for (String folder : List.of("small", "large", "predicted", "demo", "tree")) {
            assertTrue(Files.isRegularFile(tmp.resolve(folder).resolve("sylva-run.json")), folder + " has no manifest");
        }
        assertTrue(Files.size(tmp.resolve("large-report.html")) > 0, "the larger fit's report");
        assertTrue(org.sylva.hdbscan.engine.StageKernels.coldScalar(AotTraining.SMALL_CLIPS, 61),
                "the small input runs the scalar kernels under auto");
        assertTrue(!org.sylva.hdbscan.engine.StageKernels.coldScalar(AotTraining.LARGE_CLIPS, 61),
                "the larger input runs the vector kernels under auto");
    }

    /** The engine's part of the training answers its request with an ok (an error answer would train the wrong classes). */
    @org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES,
            threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    @Test
    void theEnginesFitIsAnsweredOk() throws IOException {
        StringWriter err = new StringWriter();
        assertEquals(ExitStatus.OK, AotTraining.serve(new PrintWriter(err, true)), err::toString);
    }

    @Test
    void theSmallTrainingRunsOnlyTheSmallFitWithAReportAndAModel(@TempDir Path tmp) throws IOException {
        StringWriter err = new StringWriter();
        int code = AotTraining.train(tmp, AotTraining.Training.SMALL, new PrintWriter(new StringWriter()),
                new PrintWriter(err, true));
        assertEquals(ExitStatus.OK, code, err::toString);
        List<List<String>> lines = AotTraining.commandLines(tmp, AotTraining.Training.SMALL);
        assertEquals(1, lines.size());
        List<String> smallFit = AotTraining.commandLines(tmp, AotTraining.Training.FULL).get(0);
        assertEquals(smallFit, lines.get(0).subList(0, smallFit.size()), "the full training's small fit, and more");
        assertTrue(lines.get(0).containsAll(List.of("--report", "--waveforms", "--save-model")),
                lines.get(0)::toString);
        assertTrue(Files.isRegularFile(tmp.resolve("small").resolve("sylva-run.json")));
        assertTrue(Files.size(tmp.resolve("small-report.html")) > 0, "the small fit's report");
        assertTrue(Files.isRegularFile(tmp.resolve("small-fit.model")), "the small fit's model");
        assertTrue(Files.notExists(tmp.resolve("large.npy")), "only the small input is written");
    }

    @Test
    void theSmallPredictionsTrainingFitsSavesAndPredicts(@TempDir Path tmp) throws IOException {
        StringWriter err = new StringWriter();
        int code = AotTraining.train(tmp, AotTraining.Training.SMALL_PREDICT, new PrintWriter(new StringWriter()),
                new PrintWriter(err, true));
        assertEquals(ExitStatus.OK, code, err::toString);
        assertEquals(List.of("hdbscan", "predict"), AotTraining.commandLines(tmp, AotTraining.Training.SMALL_PREDICT)
                .stream().map(List::getFirst).toList());
        assertTrue(Files.isRegularFile(tmp.resolve("small.model")));
        assertTrue(Files.isRegularFile(tmp.resolve("small-predicted").resolve("sylva-run.json")));
        assertTrue(Files.notExists(tmp.resolve("large.npy")), "only the small input is written");
        // the launchers start such a prediction (few new points, a small model) on C1 without the module
        assertTrue(org.sylva.hdbscan.engine.StageKernels.coldScalarSearch(AotTraining.SMALL_CLIPS, AotTraining.SMALL_CLIPS, 61));
    }

    @Test
    void aFailingCommandLineFailsTheTraining(@TempDir Path tmp) throws IOException {
        Files.writeString(tmp.resolve("small"), "not a folder");   // the first run's --out is taken by a file
        StringWriter err = new StringWriter();
        int code = AotTraining.train(tmp, AotTraining.Training.FULL, new PrintWriter(new StringWriter()), new PrintWriter(err, true));
        assertEquals(ExitStatus.ERROR, code);
        assertTrue(err.toString().contains("training run failed on: sylva hdbscan"), err::toString);
    }

    @Test
    void picocliIsCompiledAsJava25ClassFiles() throws IOException {
        try (InputStream in = CommandLine.class.getResourceAsStream("CommandLine.class")) {
            DataInputStream data = new DataInputStream(in);
            assertEquals(0xCAFEBABE, data.readInt());
            data.readUnsignedShort();   // minor version
            int major = data.readUnsignedShort();
            assertEquals(69, major, "picocli.CommandLine's class-file version (69 = Java 25; picocli's own jar has 49, "
                    + "which the start-up cache skips): sylva-cli must depend on sylva-picocli, not info.picocli:picocli");
        }
    }
}
