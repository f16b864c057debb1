package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where outputs go: a {@code --report} or output path that exists as anything but a regular file (FIFO,
 * directory, symbolic link) is refused before the fit with one line naming it and left as it was; a
 * report that would land on one of the outputs in {@code --out} is refused; standard output that cannot
 * be written fails the run with status 2. FIFOs and links are made in the test's own folder, never under
 * /dev.
 */
class OutputTargetsTest {
    @TempDir
    static Path shared;
    static String clips;

    @BeforeAll
    static void data() throws IOException {
        clips = TestData.writeNpy(TestData.clips(200), shared.resolve("clips.npy")).toString();
    }

    static Path fifo(Path p) throws IOException, InterruptedException {
        Process mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
        Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo is not available here");
        return p;
    }

    static boolean isFifo(Path p) throws IOException {
        return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isOther();
    }

    /**
     * Standard input redirected from a file is that file: an output that would replace it (the output folder
     * holding it under an output's name, --save-model or --report naming it) is refused, as for the file named.
     * A child process, since only a real process's standard input can come from a file.
     */
    @Test
    void standardInputRedirectedFromAFileIsNotReplacedByAnOutput(@TempDir Path tmp) throws Exception {
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path points = Files.copy(Path.of(clips), out.resolve("labels.npy"));
        byte[] before = Files.readAllBytes(points);
        Path other = Files.copy(Path.of(clips), tmp.resolve("model.bin"));
        for (List<String> args : List.of(List.of("--out", out.toString()),
                List.of("--out", tmp.resolve("o2").toString(), "--save-model", other.toString()),
                List.of("--out", tmp.resolve("o3").toString(), "--report", other.toString()))) {
            Path stdin = args.size() == 2 ? points : other;
            List<String> cmd = InterruptTest.sylvaCommand();
            cmd.addAll(List.of("hdbscan", "-", "--min-cluster-size", "10"));
            cmd.addAll(args);
            Process p = new ProcessBuilder(cmd).redirectInput(stdin.toFile()).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(ExitStatus.ERROR, p.waitFor(), output);
            assertTrue(output.contains("(standard input is redirected from it)"), output);
            assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(stdin)), "the input is as it was");
        }
    }

    @Test
    void aFifoAsReportIsRefusedBeforeTheFitAndLeftAlone(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("out");
        Path pipe = fifo(tmp.resolve("report.html"));
        String line = Cli.run("hdbscan", clips, "--min-cluster-size", "10", "--out", out.toString(), "--report",
                pipe.toString()).assertError(pipe.toString(), "named pipe (FIFO)");
        assertTrue(line.length() < 300, line);
        assertTrue(isFifo(pipe), "the FIFO is still a FIFO");
        Cli.assertNothingWritten(out);
        // the same for an output's name in --out, and for the ball tree
        Files.createDirectories(out);
        Path labels = fifo(out.resolve("labels.npy"));
        Cli.run("hdbscan", clips, "--out", out.toString()).assertError(labels.toString(), "named pipe");
        Path treeIdx = fifo(out.resolve("tree_idx.npy"));
        Cli.run("balltree", clips, "--out", out.toString()).assertError(treeIdx.toString(), "named pipe");
        assertTrue(isFifo(labels) && isFifo(treeIdx));
        assertEquals(List.of("labels.npy", "tree_idx.npy"), Cli.list(out), "nothing else written, no lock left");
    }

    @Test
    void aDirectoryAsReportOrOutputIsRefused(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Path dir = Files.createDirectories(tmp.resolve("r.html"));
        Cli.run("hdbscan", clips, "--out", out.toString(), "--report", dir.toString())
                .assertError(dir.toString(), "a directory");
        Files.createDirectories(out.resolve("probabilities.csv"));
        Cli.run("hdbscan", clips, "--out", out.toString(), "--format", "csv")
                .assertError(out.resolve("probabilities.csv").toString(), "a directory");
        assertTrue(Files.isDirectory(dir) && Files.isDirectory(out.resolve("probabilities.csv")));
        // where Sylva writes its own files (the manifest, the list it keeps while publishing): refused before the fit
        for (String own : List.of(org.sylva.io.ResultFolder.MANIFEST, org.sylva.io.ResultFolder.PUBLISHING)) {
            Path o = tmp.resolve("own-" + own);
            Files.createDirectories(o.resolve(own));
            String line = Cli.run("balltree", clips, "--out", o.toString()).assertError(o.resolve(own).toString(),
                    "a directory", "Sylva keeps the name " + own + " in --out for its own file");
            assertTrue(!line.contains("give another path"), line);
            assertTrue(Files.isDirectory(o.resolve(own)));
        }
    }

    /** A '..' after a symbolic link would lock one folder and publish into another: refused before the fit. */
    @Test
    void dotDotAfterALinkIsRefused(@TempDir Path tmp) throws IOException {
        Path real = Files.createDirectories(tmp.resolve("real").resolve("sub"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        Files.createDirectories(tmp.resolve("x"));
        Path out = link.resolve("..").resolve("x");   // the system: real/x; the text: x beside link
        Cli.run("balltree", clips, "--out", out.toString()).assertError("--out " + out, "'..' after a symbolic link",
                "give the folder without '..'");
        assertTrue(Cli.list(tmp.resolve("x")).isEmpty(), "nothing published where the text points");
        // a '..' without a link reads as it resolves: taken
        Path plain = tmp.resolve("real").resolve("..").resolve("y");
        Cli.run("balltree", clips, "--out", plain.toString(), "-q").assertOk();
        assertTrue(Files.exists(tmp.resolve("y").resolve(org.sylva.io.ResultFolder.MANIFEST)));
    }

    /** Decision: a link is neither written through nor replaced; the run is refused and both stay as they were. */
    @Test
    void aSymbolicLinkAsReportOrOutputIsRefusedAndNeitherLinkNorTargetChanges(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Path target = Files.writeString(tmp.resolve("elsewhere.html"), "the user's page");
        Path link = Files.createSymbolicLink(tmp.resolve("report.html"), target);
        Cli.run("hdbscan", clips, "--out", out.toString(), "--report", link.toString())
                .assertError(link.toString(), "symbolic link");
        Files.createDirectories(out);
        Path labelsLink = Files.createSymbolicLink(out.resolve("labels.npy"), target);
        Cli.run("hdbscan", clips, "--out", out.toString()).assertError(labelsLink.toString(), "symbolic link");
        assertTrue(Files.isSymbolicLink(link) && Files.isSymbolicLink(labelsLink), "the links stay links");
        assertEquals("the user's page", Files.readString(target), "and their target is untouched");
        // a link in the folder part of the path is fine: only the file itself must be regular
        Path realDir = Files.createDirectories(tmp.resolve("real"));
        Path linkedDir = Files.createSymbolicLink(tmp.resolve("linked"), realDir);
        Cli.run("hdbscan", clips, "--min-cluster-size", "10", "--out", linkedDir.resolve("o").toString(), "--report",
                linkedDir.resolve("r.html").toString(), "-q").assertOk();
        assertTrue(Files.size(realDir.resolve("r.html")) > 1000);
    }

    @Test
    void aReportNamingAnOutputInOutIsRefusedBeforeTheFit(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", clips, "--out", out.toString(), "--report", out.resolve("labels.npy").toString())
                .assertError("--report", "labels.npy", "one of the outputs");
        // also spelled another way, and an output of the other format
        Cli.run("hdbscan", clips, "--out", out.toString(), "--report",
                out.resolve("..").resolve("out").resolve("mst.csv").toString()).assertError("one of the outputs");
        Cli.run("hdbscan", clips, "--out", out.toString(), "--report", out.resolve(".sylva.lock").toString())
                .assertError("the lock file");
        Cli.run("balltree", clips, "--out", out.toString(), "--report", out.resolve("tree_idx.npy").toString())
                .assertError("tree_idx.npy", "one of the outputs");
        Cli.assertNothingWritten(out);
        // report.html in --out, or any other name there, is fine
        Cli.run("hdbscan", clips, "--min-cluster-size", "10", "--out", out.toString(), "--report",
                out.resolve("clusters.html").toString(), "--json", "-q").assertOk();
        assertTrue(Files.size(out.resolve("clusters.html")) > 1000);
    }

    /** An output stream that fails every write, as /dev/full does. */
    static final class FullDevice extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            throw new IOException("No space left on device");
        }
    }

    @Test
    void aJsonSummaryThatCannotBeWrittenFailsTheRunWithStatus2(@TempDir Path tmp) throws IOException {
        StringWriter err = new StringWriter();
        int code;
        try (PrintWriter out = new PrintWriter(new FullDevice()); PrintWriter e = new PrintWriter(err)) {
            code = Main.run(new String[] {"hdbscan", clips, "--min-cluster-size", "10", "--out",
                tmp.resolve("out").toString(), "--json", "-q"}, out, e);
        }
        assertEquals(ExitStatus.ERROR, code, err::toString);
        assertTrue(err.toString().startsWith("sylva: error: standard output could not be written"), err.toString());
        assertEquals(1, err.toString().lines().count(), err::toString);
        assertTrue(Files.exists(tmp.resolve("out").resolve("labels.npy")), "the outputs themselves were written");
    }

    /** The real process on /dev/full (only written to, as any program's stdout may be; nothing made under /dev). */
    @Test
    void theRealCommandWithStdoutOnDevFullExits2(@TempDir Path tmp) throws Exception {
        Path full = Path.of("/dev/full");
        Assumptions.assumeTrue(Files.isWritable(full), "no /dev/full here");
        List<String> cmd = InterruptTest.sylvaCommand();
        cmd.addAll(List.of("hdbscan", clips, "--min-cluster-size", "10", "--out", tmp.resolve("out").toString(),
                "--json", "-q"));
        Process p = new ProcessBuilder(cmd).redirectOutput(full.toFile()).redirectError(tmp.resolve("err").toFile())
                .start();
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "the child finished");
        String err = Files.readString(tmp.resolve("err"));
        assertEquals(ExitStatus.ERROR, p.exitValue(), err);
        assertTrue(err.contains("sylva: error: standard output could not be written"), err);
        assertTrue(err.contains("the files it wrote, if any, are in place and complete"), err);
        assertEquals("complete", Cli.run("verify", tmp.resolve("out").toString()).out().split(":")[0].strip(),
                "the outputs stay, as --json's help says");
    }

    /** A --save-model or --report that names a folder: the refusal names the option, as its neighbours' do. */
    @Test
    void aFolderGivenForAnOutputFileIsRefusedNamingTheOption(@TempDir Path tmp) throws IOException {
        Path folder = Files.createDirectories(tmp.resolve("rdir"));
        Cli.run("hdbscan", clips, "--out", tmp.resolve("out").toString(), "--save-model", folder.toString())
                .assertError("--save-model: cannot write " + folder + ": it is a directory");
        Cli.run("hdbscan", clips, "--out", tmp.resolve("out").toString(), "--report", folder.toString())
                .assertError("--report: cannot write " + folder + ": it is a directory");
    }

    /**
     * Help and the version, which write nothing but text: on a full device an error (without the run's words on the
     * files it wrote), into a pipe whose reader has gone ({@code | head -c 1}) a quiet exit 0, as other tools do.
     */
    @Test
    void helpAndTheVersionOnAFullDeviceFailAndIntoAClosedPipeEndQuietly(@TempDir Path tmp) throws Exception {
        Path full = Path.of("/dev/full"), sh = Path.of("/bin/sh");
        Assumptions.assumeTrue(Files.isWritable(full) && Files.isExecutable(sh)
                && Files.isDirectory(Path.of("/proc/self/fd")), "no /dev/full, /bin/sh or /proc here");
        for (List<String> args : List.of(List.of("hdbscan", "--help"), List.of("help", "hdbscan"), List.of("--version"),
                List.of("--help"))) {
            List<String> cmd = InterruptTest.sylvaCommand();
            cmd.addAll(args);
            Process p = new ProcessBuilder(cmd).redirectOutput(full.toFile()).redirectError(tmp.resolve("err").toFile())
                    .start();
            assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "the child finished");
            String err = Files.readString(tmp.resolve("err"));
            assertEquals(ExitStatus.ERROR, p.exitValue(), args + ": " + err);
            assertTrue(err.contains("sylva: error: standard output could not be written (a full device, or a reader "
                    + "that went away?): the text is lost or incomplete"), args + ": " + err);
            assertFalse(err.contains("the files it wrote"), "help writes no files: " + err);
            // the reader, true, is gone before the JVM has started: the first write meets the closed pipe
            StringBuilder line = new StringBuilder();
            for (String a : cmd) line.append(' ').append(InterruptTest.shellQuote(a));
            Process piped = new ProcessBuilder(sh.toString(), "-c", "(" + line + "; echo \"status $?\" >&2) | "
                    + "true").redirectError(tmp.resolve("err2").toFile()).start();
            assertTrue(piped.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "the pipeline finished");
            String err2 = Files.readString(tmp.resolve("err2"));
            assertTrue(err2.strip().endsWith("status 0") && !err2.contains("sylva: error"), args + ": " + err2);
        }
    }

    /**
     * The real process started with descriptor 0 closed: the JVM's own first file takes that descriptor, and
     * {@code -} must not read it as the input.
     */
    @Test
    void standardInputClosedAtStartIsAnErrorNotTheJvmsOwnFile(@TempDir Path tmp) throws Exception {
        Path sh = Path.of("/bin/sh");
        Assumptions.assumeTrue(Files.isExecutable(sh) && Files.isDirectory(Path.of("/proc/self/fd")),
                "no /bin/sh or /proc here");
        StringBuilder line = new StringBuilder("exec");
        List<String> cmd = InterruptTest.sylvaCommand();
        cmd.addAll(List.of("hdbscan", "-", "--shape", "2,3", "--out", tmp.resolve("out").toString(), "-q"));
        for (String a : cmd) line.append(' ').append(InterruptTest.shellQuote(a));
        Process p = new ProcessBuilder(sh.toString(), "-c", line + " <&-").redirectErrorStream(true).start();
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "the child finished");
        String err = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(ExitStatus.ERROR, p.exitValue(), err);
        assertTrue(err.contains("sylva: error: standard input is closed"), err);
        assertFalse(Files.exists(tmp.resolve("out")), "nothing made");
    }

    @Test
    void threadsBeyondWhatJavaCanPoolNameTheOption(@TempDir Path tmp) {
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", clips, "--threads", "40000", "--out", out.toString())
                .assertError("at most 32767", "got 40000", "(option --threads)");
        Cli.run("balltree", clips, "--threads", "32768", "--out", out.toString())
                .assertError("at most 32767", "(option --threads)");
        Cli.run("demo", "--points", "100", "--threads", "99999", "--out", out.toString())
                .assertError("at most 32767", "(option --threads)");
    }

    @Test
    void aHugeErrorMessageIsCutToOneShortLine(@TempDir Path tmp) throws IOException {
        // a 100 000-column header whose second row has one value too few: the reader quotes the header
        StringBuilder csv = new StringBuilder();
        for (int j = 0; j < 100_000; j++) csv.append(j == 0 ? "" : ",").append("column_").append(j);
        csv.append('\n');
        for (int j = 0; j < 99_999; j++) csv.append(j == 0 ? "" : ",").append(j % 7);
        csv.append('\n');
        Path wide = Files.writeString(tmp.resolve("wide.csv"), csv);
        String line = Cli.run("hdbscan", wide.toString(), "--out", tmp.resolve("out").toString())
                .assertError("wide.csv");
        assertTrue(line.length() <= "sylva: error: ".length() + ErrorHandler.MAX_LINE, () -> line.length() + ": " + line);
        // an input path of 6 000 characters: the line keeps its start and the file's name at the end
        String deep = tmp + "/" + ("d".repeat(200) + "/").repeat(30) + "points.npy";
        String cutLine = Cli.run("hdbscan", deep, "--out", tmp.resolve("out").toString()).assertError("\u2026",
                "d/points.npy");
        assertTrue(cutLine.length() <= "sylva: error: ".length() + ErrorHandler.MAX_LINE, cutLine);
        String cut = ErrorHandler.oneLine("x".repeat(300_000) + " (at the end)");
        assertEquals(ErrorHandler.MAX_LINE, cut.length());
        assertTrue(cut.contains(" \u2026 ") && cut.endsWith(" (at the end)"), cut);
        assertEquals("short; two lines", ErrorHandler.oneLine("short\n two lines"));
    }
}
