package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.io.ResultFolder;

/**
 * {@code kill -9} on the real command: a child JVM runs {@code sylva hdbscan} (with a report in --out) on
 * 3 000 clip-like points and is killed at {@value #KILLS} seeded random moments of its run (half of them
 * about its end, where the outputs are written). The commit itself lasts milliseconds, so random kills
 * rarely land inside it; {@code CommitFaultTest} stops at each of its steps deterministically. After each kill the folder must verify as complete
 * (an earlier or this run's files, all matching the manifest) or as incomplete (no manifest), never as a
 * mismatch; and the next run into it must succeed and leave it complete.
 */
class KillDuringRunTest {
    static final int KILLS = 10;
    static final long SEED = 24;

    @TempDir
    Path tmp;

    @Test
    void aKilledRunLeavesACompleteOrADetectablyIncompleteFolder() throws Exception {
        Path input = TestData.writeNpy(TestData.clips(3000), tmp.resolve("clips.npy"));
        Path out = tmp.resolve("out");
        List<String> cmd = InterruptTest.sylvaCommand();
        cmd.addAll(List.of("hdbscan", input.toString(), "--min-cluster-size", "20", "--threads", "2", "--out",
                out.toString(), "--report", out.resolve("report.html").toString(), "-q"));
        long whole = runToTheEnd(cmd, out);
        String previousRun = verify(out).manifest().runId();
        SplittableRandom rng = new SplittableRandom(SEED);
        List<String> states = new ArrayList<>();
        for (int k = 0; k < KILLS; k++) {
            // half anywhere (start-up, reading, the fit), half about the end (report, commit, exit), measured
            // on the run before, as the machine's load changes the run's length
            double f = k % 2 == 0 ? rng.nextDouble() : 0.75 + 0.3 * rng.nextDouble();
            long at = (long) (f * whole);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("log").toFile())
                    .start();
            Thread.sleep(at);
            p.destroyForcibly();   // SIGKILL: no shutdown hook, no cleanup
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the killed child did not end");
            ResultFolder.Verdict v = verify(out);
            String where = "killed after " + at + " ms of a " + whole + " ms run (exit " + p.exitValue() + ")";
            assertNotEquals(ResultFolder.Status.MISMATCH, v.status(), () -> where + ": " + v.message());
            states.add(at + " ms: " + (v.status() == ResultFolder.Status.INCOMPLETE ? "incomplete"
                    : v.manifest().runId().equals(previousRun) ? "previous" : "new"));
            whole = runToTheEnd(cmd, out);   // the next run repairs the folder
            previousRun = verify(out).manifest().runId();
        }
        System.out.println("kill -9 moments and what the folder held: " + states);
    }

    /** Runs the command to its end (exit 0), checks the folder is complete; returns the run's milliseconds. */
    private static long runToTheEnd(List<String> cmd, Path out) throws Exception {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the run did not end");
        assertEquals(0, p.exitValue(), text);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(ResultFolder.Status.COMPLETE, verify(out).status(), () -> verifyMessage(out));
        assertTrue(Files.notExists(out.resolve(OutputLocks.FILE_NAME)), "the lock file is gone");
        return ms;
    }

    private static ResultFolder.Verdict verify(Path out) throws IOException {
        return ResultFolder.verify(out);
    }

    private static String verifyMessage(Path out) {
        try {
            return verify(out).message();
        } catch (IOException e) {
            return e.toString();
        }
    }
}
