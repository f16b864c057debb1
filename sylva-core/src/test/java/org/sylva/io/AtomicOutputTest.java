package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.InvalidInputException;
import org.sylva.progress.CancelledException;

/** Files appear complete or not at all; temporaries never outlive a failure; directories are checked early. */
class AtomicOutputTest {
    @TempDir
    Path dir;

    private List<Path> listing() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    @Test
    void writesAndReplaces() throws IOException {
        Path t = dir.resolve("out.bin");
        AtomicOutput.write(t, out -> out.write(new byte[] {1, 2, 3}));
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(t));
        AtomicOutput.write(t, out -> out.write(new byte[] {4}));
        assertArrayEquals(new byte[] {4}, Files.readAllBytes(t));
        assertEquals(List.of(t), listing());
    }

    @Test
    void outputsGetOrdinaryPermissionsNotThoseOfATemporaryFile() throws IOException {
        Path t = dir.resolve("perm.npy");
        Npy.writeInt32(t, new int[] {1}, 1);
        Path plain = Files.createFile(dir.resolve("plain"));
        Set<PosixFilePermission> expected = Files.getPosixFilePermissions(plain);
        assertEquals(expected, Files.getPosixFilePermissions(t));
    }

    @Test
    void failureMidWriteLeavesTheOldFileAndNoTemporary() throws IOException {
        Path t = dir.resolve("keep.bin");
        Files.write(t, new byte[] {9});
        IOException e = assertThrows(IOException.class, () -> AtomicOutput.write(t, out -> {
            out.write(new byte[100_000]);
            throw new IOException("disk full (simulated)");
        }));
        // the message names the file being written, then the reason
        assertEquals("cannot write " + t + ": disk full (simulated)", e.getMessage());
        assertEquals("disk full (simulated)", e.getCause().getMessage());
        assertArrayEquals(new byte[] {9}, Files.readAllBytes(t));
        assertEquals(List.of(t), listing());
        // A cancellation (unchecked) behaves the same, and so does a new file.
        Path fresh = dir.resolve("fresh.bin");
        assertThrows(CancelledException.class, () -> AtomicOutput.write(fresh, out -> {
            out.write(1);
            throw new CancelledException();
        }));
        assertFalse(Files.exists(fresh));
        assertEquals(List.of(t), listing());
    }

    @Test
    void groupCommitsTogetherOrLeavesNothing() throws IOException {
        Path a = dir.resolve("a.npy"), b = dir.resolve("b.npy");
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            g.write(a, out -> out.write(1));
            g.write(b, out -> out.write(2));
            assertFalse(Files.exists(a), "nothing visible before commit");
            g.commit();
        }
        assertArrayEquals(new byte[] {1}, Files.readAllBytes(a));
        assertArrayEquals(new byte[] {2}, Files.readAllBytes(b));

        Path c = dir.resolve("c.npy");
        assertThrows(IllegalStateException.class, () -> {
            try (AtomicOutput.Group g = AtomicOutput.group()) {
                g.write(c, out -> out.write(3));
                throw new IllegalStateException("computation failed");
            }
        });
        assertFalse(Files.exists(c));
        assertEquals(List.of(a, b), listing());
    }

    @Test
    void temporariesOfInFlightWritesCanBeDeletedByAShutdownHook() throws Exception {
        Path t = dir.resolve("slow.bin");
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread w = new Thread(() -> {
            try {
                AtomicOutput.write(t, out -> {
                    out.write(new byte[10]);
                    out.flush();
                    writing.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new IOException("interrupted run");
                });
            } catch (IOException expected) {
                // the write is abandoned, as on Ctrl-C
            }
        });
        w.start();
        writing.await();
        assertEquals(1, listing().size(), "one temporary exists while writing");
        assertTrue(listing().get(0).getFileName().toString().startsWith(".slow.bin."));
        assertTrue(AtomicOutput.deleteTemporaries() >= 1);
        assertEquals(List.of(), listing());
        release.countDown();
        w.join();
        assertFalse(Files.exists(t));
    }

    @Test
    void outputDirectoryIsCheckedUpFront() throws IOException {
        Path nested = dir.resolve("x/y/z");
        AtomicOutput.checkOutputDirectory(nested, 0);
        assertTrue(Files.isDirectory(nested));
        assertEquals(List.of(), Files.list(nested).toList(), "the probe file is removed");

        Path file = Files.writeString(dir.resolve("afile"), "x");
        InvalidInputException notDir = assertThrows(InvalidInputException.class, () -> AtomicOutput.checkOutputDirectory(file, 0));
        assertEquals("output directory " + file + " exists and is not a directory", notDir.getMessage());
        InvalidInputException under = assertThrows(InvalidInputException.class,
                () -> AtomicOutput.checkOutputDirectory(file.resolve("sub"), 0));
        assertTrue(under.getMessage().startsWith("cannot create output directory " + file.resolve("sub") + ": "), under.getMessage());
        // a folder on the way that is a link to nowhere is named as such
        Path nowhere = Files.createSymbolicLink(dir.resolve("nowhere-link"), dir.resolve("missing").resolve("deep"));
        InvalidInputException viaLink = assertThrows(InvalidInputException.class,
                () -> AtomicOutput.checkOutputDirectory(nowhere.resolve("x"), 0));
        assertEquals("cannot create output directory " + nowhere.resolve("x") + ": " + nowhere + " is a link to "
                + dir.resolve("missing").resolve("deep") + ", which does not exist", viaLink.getMessage());
        InvalidInputException full = assertThrows(InvalidInputException.class,
                () -> AtomicOutput.checkOutputDirectory(nested, Long.MAX_VALUE));
        assertTrue(full.getMessage().contains("free but the outputs need about"), full.getMessage());
    }

    @Test
    void writingIntoAMissingDirectoryOrOntoADirectoryIsAClearError() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> Npy.writeInt32(dir.resolve("nope/out.npy"), new int[] {1}, 1));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        InvalidInputException d = assertThrows(InvalidInputException.class, () -> Npy.writeInt32(dir, new int[] {1}, 1));
        assertTrue(d.getMessage().contains("it is a directory"), d.getMessage());
    }

    /** Makes a named pipe at {@code p} with mkfifo (in the test's temporary folder, never under /dev). */
    static Path fifo(Path p) throws IOException, InterruptedException {
        Process mk;
        try {
            mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("mkfifo is not available here");
            return p;
        }
        Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo is not available here");
        return p;
    }

    static boolean isFifo(Path p) throws IOException {
        return Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class,
                java.nio.file.LinkOption.NOFOLLOW_LINKS).isOther();
    }

    @Test
    void nonRegularTargetsAreRefusedNamingWhatTheyAreAndLeftAsTheyWere() throws Exception {
        Path pipe = fifo(dir.resolve("pipe.npy"));
        InvalidInputException f = assertThrows(InvalidInputException.class,
                () -> AtomicOutput.write(pipe, out -> out.write(1)));
        assertEquals("cannot write " + pipe + ": it is a named pipe (FIFO); Sylva writes only regular files and never"
                + " replaces anything else: give another path", f.getMessage());
        assertTrue(isFifo(pipe), "the FIFO is still there");
        Path real = Files.writeString(dir.resolve("real.txt"), "keep");
        Path link = Files.createSymbolicLink(dir.resolve("link.npy"), real);
        InvalidInputException l = assertThrows(InvalidInputException.class,
                () -> AtomicOutput.write(link, out -> out.write(1)));
        assertTrue(l.getMessage().contains("a symbolic link"), l.getMessage());
        assertTrue(Files.isSymbolicLink(link), "the link is not replaced");
        assertEquals("keep", Files.readString(real), "nor written through");
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.npy"), dir.resolve("nowhere"));
        assertThrows(InvalidInputException.class, () -> AtomicOutput.checkTarget(dangling));
        AtomicOutput.checkTarget(real);
        AtomicOutput.checkTarget(dir.resolve("absent.npy"));
        assertThrows(InvalidInputException.class, () -> AtomicOutput.checkTarget(dir));
        assertEquals(List.of(dangling, link, pipe, real), listing(), "no temporary left");
    }

    /**
     * A name longer than a file name may be is refused by the check a command makes before its work; a long
     * name that fits is written, its temporary exactly as long, so a name the file system refuses fails when the
     * file is written and never at the rename that publishes it.
     */
    @Test
    void namesTooLongAreRefusedBeforeTheWorkAndLongNamesThatFitAreWritten() throws IOException {
        Path tooLong = dir.resolve("r".repeat(251) + ".html");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> AtomicOutput.checkTarget(tooLong));
        assertEquals("cannot write " + tooLong + ": its name is 256 bytes long, more than the 255 a file name may "
                + "have", e.getMessage());
        Path earlier = Files.writeString(dir.resolve("keep.txt"), "earlier");
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            assertThrows(InvalidInputException.class, () -> g.write(tooLong, out -> out.write(1)));
        }
        assertEquals(List.of(earlier), listing(), "nothing written, no temporary left");
        // 255 bytes, of which some are two-byte characters: written, through a temporary of 255 bytes too
        String fits = "é".repeat(60) + "r".repeat(130) + ".html";
        assertEquals(255, fits.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        Path target = dir.resolve(fits);
        AtomicOutput.write(target, out -> out.write(new byte[] {7}));
        assertArrayEquals(new byte[] {7}, Files.readAllBytes(target));
        for (String name : List.of(fits, "é".repeat(100) + "rr", "x".repeat(101), "short.npy", "x".repeat(100))) {
            String temporary = "." + AtomicOutput.temporaryStem(name) + ".sylva-" + "0".repeat(16) + ".part";
            int want = name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            int got = temporary.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (want > 100) assertEquals(want, got, name); else assertEquals(want + 29, got, name);
            assertTrue(AtomicOutput.isTemporaryName(temporary), temporary);
        }
    }

    @Test
    void aTargetThatTurnsIntoAFifoBeforeTheCommitIsNotReplaced() throws Exception {
        Path a = dir.resolve("a.npy"), b = dir.resolve("b.npy");
        assertThrows(InvalidInputException.class, () -> {
            try (AtomicOutput.Group g = AtomicOutput.group()) {
                g.write(a, out -> out.write(1));
                g.write(b, out -> out.write(2));
                fifo(b);   // appears while the run is still computing
                g.commit();
            }
        });
        assertTrue(isFifo(b), "the FIFO is still there");
        assertEquals(List.of(a, b), listing(), "a was renamed before b was refused; no temporary left");
    }

    @Test
    void orphanedTemporariesAreRecognisedByTheirPatternOnly() throws IOException {
        List<String> orphans = List.of(".labels.npy.sylva-1f3a9c.part", ".report.html.sylva-7fffffffffffffff.part",
                ".sylva-write-check123456.tmp");
        List<String> others = List.of("labels.npy", ".labels.npy.1f3a9c.part", "notes.part", ".x.sylva-zz.part",
                ".sylva.lock", "labels.npy.sylva-12.part");
        for (String o : orphans) Files.writeString(dir.resolve(o), "left by a killed run");
        for (String o : others) Files.writeString(dir.resolve(o), "someone else's");
        Files.createDirectories(dir.resolve(".sub.sylva-12.part"));
        List<Path> deleted = AtomicOutput.deleteOrphans(dir);
        assertEquals(orphans.stream().map(dir::resolve).sorted().toList(), deleted.stream().sorted().toList());
        List<String> left = listing().stream().map(p -> p.getFileName().toString()).toList();
        List<String> want = new java.util.ArrayList<>(others);
        want.add(".sub.sylva-12.part");
        want.sort(null);
        assertEquals(want, left, "only Sylva's own temporaries, only regular files");
        // a temporary this JVM is writing right now is not an orphan
        AtomicOutput.write(dir.resolve("live.bin"), out -> {
            assertEquals(List.of(), AtomicOutput.deleteOrphans(dir));
            out.write(1);
        });
        assertTrue(Files.exists(dir.resolve("live.bin")));
    }

    /**
     * Beside a file outside a locked folder (a model, a report), a temporary is an orphan only when no process holds a
     * lock on it: another process's live temporary of the same file is kept, and so are other files' ones and this
     * JVM's own. In a locked folder too, a locked temporary (another run's file written there) is kept.
     */
    @Test
    void aTargetsOrphansAreThoseNoProcessHoldsALockOn() throws Exception {
        String live = ".m.model.sylva-1f3a9c.part", dead = ".m.model.sylva-2b.part", other = ".n.model.sylva-3c.part";
        for (String f : List.of(live, dead, other, ".m.model.sylva-zz.part")) Files.writeString(dir.resolve(f), "x");
        Process holder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LockHolder.class.getName(), dir.resolve(live).toString())
                .redirectErrorStream(true).start();
        try {
            assertEquals("locked", new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream(),
                    java.nio.charset.StandardCharsets.UTF_8)).readLine());
            assertEquals(List.of(dir.resolve(dead)), AtomicOutput.deleteOrphansOf(dir.resolve("m.model")));
            assertTrue(Files.exists(dir.resolve(live)) && Files.exists(dir.resolve(other)));
            assertEquals(List.of(dir.resolve(other)), AtomicOutput.deleteOrphans(dir), "the locked one is kept");
            assertTrue(Files.exists(dir.resolve(live)));
        } finally {
            holder.getOutputStream().close();
            holder.waitFor();
        }
        assertEquals(List.of(dir.resolve(live)), AtomicOutput.deleteOrphansOf(dir.resolve("m.model")), "its writer gone");
        // this JVM's own temporary, being written, is never taken for an orphan, here or by another process
        AtomicOutput.write(dir.resolve("m.model"), out -> {
            assertEquals(List.of(), AtomicOutput.deleteOrphansOf(dir.resolve("m.model")));
            out.write(1);
            Process sweep = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                    System.getProperty("java.class.path"), OrphanSweep.class.getName(), dir.resolve("m.model").toString())
                    .redirectErrorStream(true).start();
            String said = new String(sweep.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            try {
                assertEquals(0, sweep.waitFor(), said);
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            assertEquals("0", said.strip(), "the other process kept the locked temporary");
        });
        assertTrue(Files.exists(dir.resolve("m.model")));
        // a folder that cannot be read is no error: nothing is cleaned there
        assertEquals(List.of(), AtomicOutput.deleteOrphansOf(dir.resolve("no-such-folder").resolve("m.model")));
    }

    /** A folder's fsync that fails because the file system cannot sync folders is no error; a failing disk is. */
    @Test
    void onlyAFileSystemThatCannotSyncFoldersIsExcused() {
        assertTrue(DirectorySync.unsupported(new IOException("Invalid argument")));
        assertTrue(DirectorySync.unsupported(new IOException("Operation not supported")));
        assertTrue(!DirectorySync.unsupported(new IOException("Input/output error")));
        assertTrue(!DirectorySync.unsupported(new IOException("No space left on device")));
        assertTrue(!DirectorySync.unsupported(new IOException((String) null)));
    }

    /** Writing one target twice in a group keeps the second content and leaves no temporary of the first behind. */
    @Test
    void aTargetWrittenTwiceInAGroupLeavesNoTemporary() throws IOException {
        Path t = dir.resolve("twice.bin");
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            g.write(t, out -> out.write(new byte[] {1}));
            g.write(t, out -> out.write(new byte[] {2, 3}));
            assertEquals(1, listing().size(), "one temporary staged: " + listing());
            g.commit();
        }
        assertArrayEquals(new byte[] {2, 3}, Files.readAllBytes(t));
        assertEquals(List.of(t), listing());
    }
}
