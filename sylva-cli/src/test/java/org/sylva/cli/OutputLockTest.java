package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;

/**
 * One run at a time per output folder: a second {@code sylva} run into an {@code --out} that another
 * run holds is refused at once, naming the folder, and changes nothing there; a lock file that a killed
 * run left (nobody holds its lock) does not block; the temporaries a killed run left in {@code --out}
 * are removed by the next run (Sylva's own names only); the lock file is gone after every run.
 */
class OutputLockTest {
    @TempDir
    static Path shared;
    static String clips;
    static PointSet points;

    @BeforeAll
    static void data() throws IOException {
        points = TestData.clips(200);
        clips = TestData.writeNpy(points, shared.resolve("clips.npy")).toString();
    }

    /** Holds the lock of {@code out} as another run (process 4242) would: an OS lock on out/.sylva.lock. */
    static FileLock hold(Path out) throws IOException {
        Files.createDirectories(out);
        FileChannel ch = FileChannel.open(out.resolve(OutputLocks.FILE_NAME), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock lock = ch.tryLock();
        assertTrue(lock != null);
        ch.write(java.nio.ByteBuffer.wrap("pid 4242\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)), 0);
        return lock;
    }

    @Test
    void aRunIntoAFolderAnotherRunHoldsIsRefusedAtOnceAndChangesNothing(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        FileLock lock = hold(out);
        try {
            Files.writeString(out.resolve("labels.npy"), "the other run's");
            long t0 = System.nanoTime();
            Cli.run("hdbscan", clips, "--out", out.toString()).assertError("output directory " + out, "in use",
                    "another sylva run (process 4242)", "choose another --out");
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "refused at once, not after the fit");
            Cli.run("balltree", clips, "--out", out.toString()).assertError(out.toString(), "in use");
            Cli.run("demo", "--points", "100", "--out", out.toString()).assertError(out.toString(), "in use");
            assertEquals(List.of(".sylva.lock", "labels.npy"), Cli.list(out), "nothing written, nothing removed");
            assertEquals("the other run's", Files.readString(out.resolve("labels.npy")));
        } finally {
            lock.channel().close();
        }
        Cli.run("hdbscan", clips, "--min-cluster-size", "10", "--out", out.toString(), "-q").assertOk();
        assertFalse(Files.exists(out.resolve(OutputLocks.FILE_NAME)), "the run removed the lock file");
    }

    @Test
    void twoRunsIntoOneFolderTheSecondIsRefusedWhileTheFirstRuns(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");   // created by the first run
        StringWriter firstErr = new StringWriter();
        int firstCode = whileARunReads(out, firstErr, () -> {
            // the first run holds --out now (it locks before reading)
            Cli.run("hdbscan", clips, "--out", out.toString()).assertError(out.toString(), "in use");
            assertTrue(Files.isDirectory(out), "the refused run did not remove the folder the first run made");
        });
        assertEquals(0, firstCode, firstErr::toString);
        List<String> want = new ArrayList<>(HdbscanOutputs.names(OutputFormat.NPY));
        want.sort(null);
        assertEquals(Cli.withManifest(want), Cli.list(out), "the first run's outputs, and no lock file");
    }

    /** A folder removed and made again while a run writes into it is not published into: another run may hold it. */
    @Test
    void aFolderReplacedWhileARunWritesIsNotPublishedInto(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        StringWriter firstErr = new StringWriter();
        int firstCode = whileARunReads(out, firstErr, () -> {
            try (java.util.stream.Stream<Path> files = Files.list(out)) {
                for (Path f : files.toList()) Files.delete(f);
            }
            Files.delete(out);
            Files.createDirectories(out);
            // another run takes the new folder, and completes there
            Cli.run("hdbscan", clips, "--min-cluster-size", "10", "--out", out.toString(), "-q").assertOk();
        });
        assertEquals(ExitStatus.ERROR, firstCode, firstErr::toString);
        assertTrue(firstErr.toString().contains("output directory " + out + " was removed or replaced while this run "
                + "wrote into it"), firstErr.toString());
        assertEquals(org.sylva.io.ResultFolder.Status.COMPLETE, org.sylva.io.ResultFolder.verify(out).status(),
                "the second run's folder is whole");
    }

    /** A lock released on another thread (the shutdown hook's) leaves no check behind on the run's thread. */
    @Test
    void aLockReleasedOnAnotherThreadChecksNothingAfter(@TempDir Path tmp) throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        OutputLocks locks = new OutputLocks();
        locks.acquire(out);
        Thread hook = Thread.ofPlatform().start(locks::releaseAll);
        hook.join(10_000);
        try (org.sylva.io.AtomicOutput.Group g = org.sylva.io.AtomicOutput.group()) {
            g.write(out.resolve("labels.npy"), o -> o.write(1));
            g.commitFolder(out, "test", () -> { });   // the lock file is gone, and so is this run's claim on it
        } finally {
            org.sylva.io.AtomicOutput.noCheckBeforePublishing(out);
        }
        assertEquals(org.sylva.io.ResultFolder.Status.COMPLETE, org.sylva.io.ResultFolder.verify(out).status());
    }

    /** What a test does while another run holds its folder. */
    @FunctionalInterface
    private interface Meanwhile {
        void run() throws Exception;
    }

    /**
     * Runs {@code meanwhile} while a run of {@code points} into {@code out} (on a thread of its own, its stderr into
     * {@code err}) has locked the folder and waits at its input; returns that run's status once it ends.
     */
    private static int whileARunReads(Path out, StringWriter err, Meanwhile meanwhile) throws Exception {
        GatedInput stdin = new GatedInput(TestData.rawFloat32(points));
        int[] code = {-1};   // a run still going after the join fails the caller's check of its status
        Thread first = Thread.ofPlatform().start(() -> {
            try (PrintWriter o = new PrintWriter(Writer.nullWriter()); PrintWriter e = new PrintWriter(err)) {
                code[0] = Main.run(new String[] {"hdbscan", "-", "--shape", points.size() + "," + points.dimensions(),
                    "--min-cluster-size", "10", "--out", out.toString(), "-q"}, o, e, stdin);
            }
        });
        try {
            assertTrue(stdin.reading.await(60, TimeUnit.SECONDS), "the first run reached its input");
            meanwhile.run();
        } finally {
            stdin.open.countDown();
            first.join(60_000);
        }
        return code[0];
    }

    @Test
    void aLockFileLeftByAKilledRunDoesNotBlock(@TempDir Path tmp) throws IOException {
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(out.resolve(OutputLocks.FILE_NAME), "pid 999999 run 1234\n");   // nobody holds it
        Cli.run("hdbscan", clips, "--min-cluster-size", "10", "--out", out.toString(), "-q").assertOk();
        assertFalse(Files.exists(out.resolve(OutputLocks.FILE_NAME)));
    }

    /**
     * A run killed after marking its lock file released and before deleting it leaves the mark at the path: the next
     * run takes that file (before, it retired it again and again and refused the folder), and a third run while it
     * holds it is refused.
     */
    @Test
    void aLockFileMarkedReleasedByAKilledRunDoesNotBlock(@TempDir Path tmp) throws IOException {
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(out.resolve(OutputLocks.FILE_NAME), "released\n");
        Cli.run("hdbscan", clips, "--min-cluster-size", "10", "--out", out.toString(), "-q").assertOk();
        assertFalse(Files.exists(out.resolve(OutputLocks.FILE_NAME)));

        Files.writeString(out.resolve(OutputLocks.FILE_NAME), "released\n");
        OutputLocks held = new OutputLocks();
        held.acquire(out);
        try {
            assertTrue(Files.readString(out.resolve(OutputLocks.FILE_NAME)).startsWith("pid "), "the file is this run's");
            Cli.run("hdbscan", clips, "--min-cluster-size", "10", "--out", out.toString(), "-q")
                    .assertError(out.toString(), "in use");
        } finally {
            held.releaseAll();
        }
        assertFalse(Files.exists(out.resolve(OutputLocks.FILE_NAME)));
    }

    @Test
    void temporariesAKilledRunLeftAreRemovedAndNothingElse(@TempDir Path tmp) throws IOException {
        Path out = Files.createDirectories(tmp.resolve("out"));
        List<String> orphans = List.of(".labels.npy.sylva-3f2a91c0d.part", ".report.html.sylva-7.part",
                ".sylva-write-check8812.tmp");
        for (String o : orphans) Files.writeString(out.resolve(o), "half written");
        List<String> mine = List.of(".notes.part", "labels.part", ".labels.npy.3f2a.part");
        for (String o : mine) Files.writeString(out.resolve(o), "the user's");
        Cli.Result r = Cli.run("hdbscan", clips, "--min-cluster-size", "10", "--out", out.toString()).assertOk();
        assertTrue(r.err().contains("sylva: removed 3 temporary files that an interrupted run left in " + out), r.err());
        List<String> want = new ArrayList<>(HdbscanOutputs.names(OutputFormat.NPY));
        want.addAll(mine);
        assertEquals(Cli.withManifest(want), Cli.list(out));
        // the ball tree does the same in its folder
        Files.writeString(out.resolve(".mask.npy.sylva-1.part"), "half written");
        Cli.run("balltree", clips, "--out", out.toString(), "-q").assertOk();
        assertFalse(Files.exists(out.resolve(".mask.npy.sylva-1.part")));
    }

    /** Across processes: the lock is the operating system's, so another JVM sees it too. */
    @Test
    void anotherProcessIsRefusedWhileThisOneHoldsTheFolder(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        FileLock lock = hold(out);
        try {
            List<String> cmd = InterruptTest.sylvaCommand();
            cmd.addAll(List.of("hdbscan", clips, "--out", out.toString()));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            assertEquals(ExitStatus.ERROR, p.exitValue(), text);
            assertTrue(text.contains("sylva: error: output directory " + out + " is in use: another sylva run (process "
                    + "4242)"), text);
            assertEquals(List.of(".sylva.lock"), Cli.list(out));
        } finally {
            lock.channel().close();
        }
    }
}
