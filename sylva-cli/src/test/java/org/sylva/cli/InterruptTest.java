package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.demo.ClipLikeData;
import org.sylva.io.Npy;

/**
 * Ctrl-C on the real command: a child JVM runs {@code sylva hdbscan} on 60 000 clip-like points (many
 * seconds of work), the test waits for its first progress line, sends SIGINT (or SIGTERM) with
 * {@code kill}, and checks that it exits promptly with 130 (143 for SIGTERM), says it was interrupted,
 * and leaves no output and no temporary file. The child runs the shaded {@code target/sylva.jar} when it
 * is at least as new as the compiled classes (after {@code mvn package}), otherwise the same classes
 * from the test class path (during {@code mvn test}, before the jar exists). A last test runs the command
 * on a pseudo-terminal ({@code script}, from util-linux) and checks that the progress line is repainted
 * in place and moves at least every half second (with slack for a loaded machine).
 */
class InterruptTest {
    /** The issue asks for "within a second" of cancellation plus clean-up; allow for a loaded 2-core machine. */
    static final long EXIT_LIMIT_MILLIS = 2_500;
    static final int SIGINT = 2;
    static final int SIGTERM = 15;

    @TempDir
    static Path dir;
    static Path big;

    @BeforeAll
    static void bigInput() throws IOException {
        ClipLikeData d = ClipLikeData.generate(60_000, 9);
        big = dir.resolve("big.npy");
        Npy.writeFloat32(big, d.points().coordinates(), d.points().size(), ClipLikeData.SAMPLES);
    }

    /** The child's command line up to (excluding) the sylva arguments. */
    static List<String> sylvaCommand() throws IOException {
        List<String> cmd = new ArrayList<>();
        if (signalIgnored(SIGINT) || signalIgnored(SIGTERM)) {
            // A signal ignored here stays ignored in the child (exec keeps SIG_IGN) and the JVM then never
            // installs its handler; perl (essential on Debian) puts the default disposition back.
            Path perl = Path.of("/usr/bin/perl");
            Assumptions.assumeTrue(Files.isExecutable(perl), "SIGINT/SIGTERM are ignored in this test JVM (started in "
                    + "the background?) and /usr/bin/perl is missing to restore them for the child");
            cmd.addAll(List.of(perl.toString(), "-e", "$SIG{INT}='DEFAULT'; $SIG{TERM}='DEFAULT'; exec @ARGV or die $!"));
        }
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("--add-modules", "jdk.incubator.vector", "-Xss8m", "-Xmx2g"));
        Path jar = Path.of("target", "sylva.jar").toAbsolutePath();
        if (Files.isRegularFile(jar) && !classesNewerThan(jar)) {
            cmd.addAll(List.of("-jar", jar.toString()));
        } else {
            String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            cmd.addAll(List.of("-cp", cp, Main.class.getName()));
        }
        return cmd;
    }

    static boolean classesNewerThan(Path jar) throws IOException {
        Path classes = Path.of("target", "classes");
        if (!Files.isDirectory(classes)) return false;
        long jarTime = Files.getLastModifiedTime(jar).toMillis();
        try (Stream<Path> s = Files.walk(classes)) {
            return s.filter(Files::isRegularFile).anyMatch(p -> {
                try {
                    return Files.getLastModifiedTime(p).toMillis() > jarTime;
                } catch (IOException e) {
                    return true;
                }
            });
        }
    }

    /** Whether this JVM has {@code sig} ignored (Linux: the SigIgn mask in /proc/self/status). */
    static boolean signalIgnored(int sig) throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) return false;
        for (String l : Files.readAllLines(status)) {
            if (l.startsWith("SigIgn:")) return (Long.parseUnsignedLong(l.substring(7).trim(), 16) >>> (sig - 1) & 1) == 1;
        }
        return false;
    }

    /** A running child with its stderr collected line by line. */
    static final class Child {
        final Process process;
        final StringBuffer err = new StringBuffer();
        final CountDownLatch progress = new CountDownLatch(1);
        final Thread reader;

        Child(List<String> command, Path stdout) throws IOException {
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(stdout.toFile());
            process = pb.start();
            reader = Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                        StandardCharsets.UTF_8))) {
                    for (String l = r.readLine(); l != null; l = r.readLine()) {
                        err.append(l).append('\n');
                        if (l.startsWith("core distances")) progress.countDown();
                    }
                } catch (IOException ignored) {
                    // the child is gone
                }
            });
        }

        void signal(int sig) throws IOException, InterruptedException {
            assertTrue(process.isAlive(), () -> "the child ended before the signal:\n" + err);
            Process kill = new ProcessBuilder("/bin/sh", "-c", "kill -" + sig + " " + process.pid())
                    .redirectErrorStream(true).start();
            assertEquals(0, kill.waitFor(), "kill -" + sig + " failed");
        }

        /** Waits for the child and returns milliseconds from {@code since} to its exit. */
        long awaitExit(long since) throws InterruptedException {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("the child did not exit within 30 s of the signal; stderr:\n" + err);
            }
            long ms = (System.nanoTime() - since) / 1_000_000;
            reader.join(5_000);
            return ms;
        }
    }

    void interruptDuringTheFit(int sig, int expectedCode, Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        List<String> cmd = sylvaCommand();
        cmd.addAll(List.of("hdbscan", big.toString(), "--min-cluster-size", "20", "--out", out.toString(),
                "--threads", "2", "--report", out.resolve("report.html").toString()));
        Child c = new Child(cmd, tmp.resolve("stdout.txt"));
        try {
            assertTrue(c.progress.await(120, TimeUnit.SECONDS), () -> "no progress line within 120 s; stderr:\n" + c.err);
            Thread.sleep(300); // well inside the stage, workers busy
            long t0 = System.nanoTime();
            c.signal(sig);
            long ms = c.awaitExit(t0);
            String err = c.err.toString();
            assertEquals(expectedCode, c.process.exitValue(), () -> "exit status; stderr:\n" + err);
            assertTrue(ms <= EXIT_LIMIT_MILLIS, () -> "exited " + ms + " ms after the signal; stderr:\n" + err);
            assertTrue(err.contains("sylva: interrupted"), () -> "stderr says it was interrupted:\n" + err);
            assertTrue(!err.contains("Exception") && !err.contains("\tat "), () -> "no stack trace:\n" + err);
            // nothing left: the directory the run created is gone or empty (no outputs, no .part, no probe)
            Cli.assertNothingWritten(out);
            assertEquals(List.of("stdout.txt"), Cli.list(tmp).stream().filter(n -> !n.equals("out")).toList());
            System.out.printf("InterruptTest: signal %d -> exit %d after %d ms (%s)%n", sig, c.process.exitValue(), ms,
                    cmd.contains("-jar") ? "sylva.jar" : "test class path");
        } finally {
            c.process.destroyForcibly();
        }
    }

    /** The shutdown hook runs on every exit (System.exit too): a run that no signal reached says nothing of one. */
    @Test
    void aRunNoSignalReachedExitsZeroAndQuiet(@TempDir Path tmp) throws Exception {
        Path small = tmp.resolve("small.npy");
        ClipLikeData d = ClipLikeData.generate(300, 5);
        Npy.writeFloat32(small, d.points().coordinates(), d.points().size(), ClipLikeData.SAMPLES);
        List<String> cmd = sylvaCommand();
        cmd.addAll(List.of("hdbscan", small.toString(), "--out", tmp.resolve("out").toString(), "-q"));
        Child c = new Child(cmd, tmp.resolve("stdout.txt"));
        try {
            c.awaitExit(System.nanoTime());
            assertEquals(0, c.process.exitValue(), () -> "exit status; stderr:\n" + c.err);
            // the JVM's own notice of the incubator module aside (the launcher silences it; this child is plain java)
            assertEquals(List.of(), c.err.toString().lines()
                    .filter(l -> !l.equals("WARNING: Using incubator modules: jdk.incubator.vector")).toList());
        } finally {
            c.process.destroyForcibly();
        }
    }

    @Test
    void ctrlCStopsTheFitPromptlyWithStatus130AndLeavesNothing(@TempDir Path tmp) throws Exception {
        interruptDuringTheFit(SIGINT, 130, tmp);
    }

    @Test
    void sigtermDoesTheSameWithStatus143(@TempDir Path tmp) throws Exception {
        interruptDuringTheFit(SIGTERM, 143, tmp);
    }

    /**
     * SIGTERM to {@code sylva serve} ends its requests as their end does (each one read is answered): the engine's
     * own way out, not the command-line runs' "interrupted; no output was written" after the hook's whole wait.
     */
    @Test
    void sigtermToTheEngineEndsItsRequestsWithoutTheRunsMessage(@TempDir Path tmp) throws Exception {
        List<String> cmd = sylvaCommand();
        cmd.add("serve");
        Path stdout = tmp.resolve("frames.bin");
        Child c = new Child(cmd, stdout);
        try {
            for (int i = 0; i < 600 && Files.size(stdout) == 0; i++) Thread.sleep(50);   // its hello: it serves
            assertTrue(Files.size(stdout) > 0, () -> "no hello within 30 s; stderr:\n" + c.err);
            c.signal(SIGTERM);
            c.awaitExit(System.nanoTime());
            assertEquals(143, c.process.exitValue(), () -> "exit status; stderr:\n" + c.err);
            assertFalse(c.err.toString().contains("sylva: interrupted"), c.err::toString);
            assertFalse(c.err.toString().contains("cannot read the requests"), c.err::toString);
        } finally {
            c.process.destroyForcibly();
        }
    }

    /** Single-quotes {@code s} for /bin/sh. */
    static String shellQuote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    @Test
    void onATerminalTheProgressLineIsRepaintedInPlaceAtLeastTwiceASecond(@TempDir Path tmp) throws Exception {
        Path script = Path.of("/usr/bin/script");
        Assumptions.assumeTrue(Files.isExecutable(script), "no /usr/bin/script (util-linux) to make a pseudo-terminal");
        Path out = tmp.resolve("out");
        // Larger than the other tests' input: its core distances must outlast the 3 s watched below even
        // on a fast, idle machine (60 000 clips take about 2 s in all there).
        ClipLikeData d = ClipLikeData.generate(200_000, 9);
        Path larger = tmp.resolve("larger.npy");
        Npy.writeFloat32(larger, d.points().coordinates(), d.points().size(), ClipLikeData.SAMPLES);
        List<String> sylva = sylvaCommand();
        sylva.addAll(List.of("hdbscan", larger.toString(), "--min-cluster-size", "20", "--out", out.toString(),
                "--threads", "2"));
        StringBuilder line = new StringBuilder();
        for (String a : sylva) line.append(line.isEmpty() ? "" : " ").append(shellQuote(a));
        ProcessBuilder pb = new ProcessBuilder(script.toString(), "-qfec", line.toString(), "/dev/null")
                .redirectErrorStream(true);
        pb.environment().put("TERM", "xterm");
        Process p = pb.start();
        try {
            // Read the terminal's bytes as they come; note when each repaint of the first stage arrives.
            List<Long> repaints = new ArrayList<>();
            StringBuilder seen = new StringBuilder();
            var in = p.getInputStream();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            long watchUntil = Long.MAX_VALUE;
            boolean afterCr = false;
            // watched 3 s from the first repaint, and on until a line with a percentage and an ETA shows: on a
            // loaded machine the stage's preparation (the index build) alone can outlast the 3 s
            boolean eta = false;
            for (int b = in.read(); b >= 0 && System.nanoTime() < deadline && (System.nanoTime() < watchUntil || !eta);
                 b = in.read()) {
                seen.append((char) b);
                eta |= b == 'A' && seen.length() >= 3 && seen.substring(seen.length() - 3).equals("ETA")
                        && seen.indexOf("%") >= 0;
                if (afterCr && b == 'c') {  // "\rcore distances ...": a repaint, not the "\r\n" of a newline
                    repaints.add(System.nanoTime());
                    if (repaints.size() == 1) watchUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3_000);
                }
                afterCr = b == '\r';
            }
            assertTrue(repaints.size() >= 3, () -> "no repainted progress line on the terminal; saw:\n" + seen);
            long[] gaps = new long[repaints.size() - 1];
            for (int i = 1; i < repaints.size(); i++) gaps[i - 1] = (repaints.get(i) - repaints.get(i - 1)) / 1_000_000;
            Arrays.sort(gaps);
            long medianMs = gaps[gaps.length / 2];
            long gapMs = gaps[gaps.length - 1];
            // The ticker repaints every 400 ms: the median gap shows that cadence. A 2-core machine busy with
            // other processes as well as the fit's two threads can hold one repaint back (1.15 s seen once in
            // CI, 1.29 and 1.41 s with other builds running, no GC pause over 15 ms in the child), so the
            // longest gap is only checked for a line that stood still.
            assertTrue(medianMs <= 600, () -> "the progress line was repainted every " + medianMs + " ms (median)");
            assertTrue(gapMs <= 3_000, () -> "the progress line stood still for " + gapMs + " ms");
            String text = seen.toString();
            assertTrue(text.contains("core distances") && text.contains("%") && text.contains("ETA"), text);
            System.out.printf("InterruptTest: %d repaints in 3 s or more on a terminal, median gap %d ms, longest %d ms%n",
                    repaints.size(), medianMs, gapMs);
            ProcessHandle java = p.descendants().filter(h -> h.info().command().orElse("").endsWith("java"))
                    .findFirst().orElseThrow(() -> new AssertionError("no java process under script"));
            Process kill = new ProcessBuilder("/bin/sh", "-c", "kill -INT " + java.pid()).start();
            assertEquals(0, kill.waitFor());
            String rest = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(130, p.exitValue(), () -> "script -e passes on the exit status; output:\n" + rest);
            // the interrupted message starts a fresh line: the progress line was ended first
            assertTrue(rest.contains("\nsylva: interrupted"), () -> "after the signal:\n" + rest);
            Cli.assertNothingWritten(out);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /**
     * The command blocked where no token is checked (reading a pipe that never ends): the shutdown hook
     * gives up waiting after {@link Main#HOOK_WAIT_MILLIS}, says so itself and removes the directory the
     * run had created.
     */
    @Test
    void ctrlCWhileBlockedReadingStdinStillExits130(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        List<String> cmd = sylvaCommand();
        cmd.addAll(List.of("hdbscan", "-", "--shape", "1000,61", "--out", out.toString()));
        Child c = new Child(cmd, tmp.resolve("stdout.txt"));
        try (OutputStream stdin = c.process.getOutputStream()) {
            stdin.write(new byte[4 * 61 * 10]); // ten rows of the thousand promised; the rest never comes
            stdin.flush();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            // The output directory is created before the input is read, after the hook is installed.
            while (!Files.isDirectory(out) && System.nanoTime() < deadline && c.process.isAlive()) Thread.sleep(20);
            assertTrue(Files.isDirectory(out), () -> "the child never got to reading its input; stderr:\n" + c.err);
            Thread.sleep(200);
            long t0 = System.nanoTime();
            c.signal(SIGINT);
            long ms = c.awaitExit(t0);
            String err = c.err.toString();
            assertEquals(130, c.process.exitValue(), () -> "exit status; stderr:\n" + err);
            assertTrue(ms <= Main.HOOK_WAIT_MILLIS + EXIT_LIMIT_MILLIS, () -> "exited after " + ms + " ms");
            assertTrue(err.contains("sylva: interrupted"), () -> "stderr says it was interrupted:\n" + err);
            assertTrue(!Files.exists(out), "the output directory the run created is removed again");
        } finally {
            c.process.destroyForcibly();
        }
    }
}
