package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.demo.ClipLikeData;
import org.sylva.io.Npy;

/**
 * SIGINT latency per phase of {@code sylva hdbscan} (issue 24: "signals within a second everywhere"). For
 * each phase a child JVM runs the command on an input that keeps it in that phase for a while, with the
 * test-only phase trace on ({@code -Dsylva.trace-phases=true}, see {@link PhaseTrace}); the test waits
 * until the phase has begun (its {@code sylva: phase NAME} line, or the library's first progress line of
 * a stage), sends SIGINT with {@code kill}, and measures the time from the signal to the process's exit.
 * Each run must exit with 130, say it was interrupted, leave no output and no temporary file, and exit
 * within {@link InterruptTest#EXIT_LIMIT_MILLIS} (the issue asks for about a second; the bound allows for
 * a loaded 2-core machine). The phases:
 *
 * <ul>
 *   <li>reading a large .npy (3 000 000 x 61 float32, 732 MB), parsing a large CSV (~90 MB);</li>
 *   <li>a FIFO that delivers slowly (64 KiB every 50 ms), and one that delivers nothing more after its
 *       first rows (the read blocks where no token can be looked at: the shutdown hook ends the run after
 *       {@link Main#HOOK_WAIT_MILLIS}, which the trace reports as "did not stop");</li>
 *   <li>indexing (900 000 x 61 points: duplicate search and partition tree, before the first progress
 *       line; the signal 0.1 to 0.5 s into it, a different moment each run), the neighbour search (core
 *       distances), Borůvka (spanning tree rounds) and the model's neighbour pass ({@code --save-model} of a
 *       weighted fit: "prediction data") on 60 000 clips;</li>
 *   <li>rendering the HTML report. The renderer is bounded (well under a second even for wide data, see
 *       {@code WideReportTest}), so the signal is sent as soon as the phase starts.</li>
 * </ul>
 *
 * <p>Writing the outputs is not measured: it takes milliseconds for inputs that fit this test's time.
 * A case whose phase ended before the signal could be sent (a much faster machine) is skipped, saying so.
 * With {@code -Dsylva.signal-latency.runs=N} each phase runs N times; the medians are printed at the end
 * (the figures in BENCHMARKS.md, "Signal latency per phase", come from such a run).
 */
class SignalLatencyTest {
    static final long LIMIT_MILLIS = InterruptTest.EXIT_LIMIT_MILLIS;
    static final int RUNS = Integer.getInteger("sylva.signal-latency.runs", 1);
    static final String HOOK_LINE = "did not stop within";

    @TempDir
    static Path dir;

    /** Phase -> latencies in ms, and how each run stopped, for the table printed at the end. */
    static final Map<String, List<Long>> FIGURES = Collections.synchronizedMap(new LinkedHashMap<>());
    static final Map<String, List<String>> HOW = Collections.synchronizedMap(new LinkedHashMap<>());

    @AfterAll
    static void printTable() {
        if (FIGURES.isEmpty()) return;
        StringBuilder sb = new StringBuilder("SignalLatencyTest: SIGINT -> exit, ms (median, min..max over runs)\n");
        FIGURES.forEach((phase, ms) -> {
            List<Long> s = new ArrayList<>(ms);
            Collections.sort(s);
            sb.append(String.format(Locale.ROOT, "  %-34s median %5d  range %5d..%-5d  runs %d  %s%n", phase,
                    s.get(s.size() / 2), s.get(0), s.get(s.size() - 1), s.size(), HOW.get(phase)));
        });
        System.out.print(sb);
    }

    // ------------------------------------------------------------------------------------------ the cases

    @Test
    void readingALargeNpy() throws Exception {
        Path npy = bigNpy();
        // The read begins by allocating the 732 MB array, which no JVM can interrupt: a signal that arrives
        // during it waits for it. Its time in a fresh JVM is measured first and allowed for; it is about
        // 0.1 s on most machines and 2.1 s on a VM whose memory the host fills in on first touch.
        long allocation = freshAllocationMillis(3_000_000L * 61, "-Xmx3g");
        for (int i = 0; i < RUNS; i++) {
            // twice the probe's time: the probe runs once, and on a machine busy with other work the run's own
            // allocation was seen to take longer (an exit 5.2 s after the signal against 5.0 s allowed)
            measure("reading .npy (3M x 61 f32)", List.of("hdbscan", npy.toString(), "--min-cluster-size", "20"),
                    "-Xmx3g", l -> l.equals("sylva: phase read"), 300, l -> l.equals("sylva: phase fit"), null, 0,
                    LIMIT_MILLIS + 2 * allocation);
        }
    }

    /** Milliseconds a fresh JVM with {@code xmx} takes to allocate one float array of {@code values} values. */
    static long freshAllocationMillis(long values, String xmx) throws Exception {
        return freshAllocationMillis(values, 0, xmx);
    }

    /**
     * The slowest of the allocations a fresh JVM with {@code xmx} makes when it allocates one float array of
     * {@code values} values and then, keeping each, {@code doubles} float64 arrays of as many values, in ms.
     */
    static long freshAllocationMillis(long values, int doubles, String xmx) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, xmx, "-cp", System.getProperty("java.class.path"),
                FreshAllocation.class.getName(), Long.toString(values), Integer.toString(doubles))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        assertEquals(0, p.waitFor(), "allocation probe: " + out);
        long ms = Long.parseLong(out);
        System.out.printf(Locale.ROOT, "SignalLatencyTest: a fresh JVM allocates %d floats%s in %d ms at most%n",
                values, doubles == 0 ? "" : " and then " + doubles + " times as many doubles", ms);
        return ms;
    }

    /** The probe of {@link #freshAllocationMillis}: prints the milliseconds the slowest allocation took. */
    static final class FreshAllocation {
        public static void main(String[] args) {
            int values = Math.toIntExact(Long.parseLong(args[0]));
            Object[] kept = new Object[1 + Integer.parseInt(args[1])];
            long slowest = 0;
            for (int i = 0; i < kept.length; i++) {
                long t0 = System.nanoTime();
                kept[i] = i == 0 ? new float[values] : new double[values];
                slowest = Math.max(slowest, (System.nanoTime() - t0) / 1_000_000);
            }
            System.out.println(kept[kept.length - 1] != null ? slowest : -1);
        }
    }

    @Test
    void parsingALargeCsv() throws Exception {
        Path csv = bigCsv();
        for (int i = 0; i < RUNS; i++) {
            measure("parsing .csv (150k x 61, ~90 MB)", List.of("hdbscan", csv.toString(), "--min-cluster-size", "20"),
                    "-Xmx2g", l -> l.equals("sylva: phase read"), 500, l -> l.equals("sylva: phase fit"), null, 0);
        }
    }

    @Test
    void waitingOnASlowFifo() throws Exception {
        for (int i = 0; i < RUNS; i++) {
            Path fifo = fifo("slow-" + i + ".npy");
            measure("slow FIFO (64 KiB per 50 ms)", List.of("hdbscan", fifo.toString()), "-Xmx2g",
                    l -> l.equals("sylva: phase read"), 500, l -> l.equals("sylva: phase fit"), fifo, 50);
        }
    }

    @Test
    void waitingOnAFifoThatDeliversNothingMore() throws Exception {
        for (int i = 0; i < RUNS; i++) {
            Path fifo = fifo("stuck-" + i + ".npy");
            measure("stalled FIFO (read blocked)", List.of("hdbscan", fifo.toString()), "-Xmx2g",
                    l -> l.equals("sylva: phase read"), 300, l -> l.equals("sylva: phase fit"), fifo, -1);
        }
    }

    @Test
    void waitingOnStandardInputThatDeliversNothingMore() throws Exception {
        for (int i = 0; i < RUNS; i++) {
            Path fifo = fifo("stdin-" + i + ".npy");
            measure("stalled standard input (read blocked)", List.of("hdbscan", "-"), "-Xmx2g",
                    l -> l.equals("sylva: phase read"), 300, l -> l.equals("sylva: phase fit"), fifo, -1);
        }
    }

    /**
     * The signal at a different moment of each run (a phase without progress lines: its steps vary). The phase
     * lasts about 0.6 s on an idle 2-core machine, longer under load: later signals would skip the case there.
     */
    static final long[] INDEX_DELAYS = {250, 100, 400, 150, 500};

    /**
     * The fit's float64 arrays as large as its input during indexing: the rows as float64, the partition's two
     * working copies and the index's blocked rows.
     */
    static final int INDEX_DOUBLE_ARRAYS = 4;

    @Test
    void indexing() throws Exception {
        Path npy = indexNpy();
        // Indexing allocates float64 arrays of the input's size (INDEX_DOUBLE_ARRAYS of them, 439 MB each here);
        // as in readingALargeNpy, a signal during one waits for it, so the slowest such allocation in a fresh
        // JVM is measured and allowed for twice (CI failed once at 4.07 s against 2.5 s on a loaded 2-core VM
        // whose memory the host fills in on first touch: each allocation took 0.3-1.4 s there).
        long allocation = freshAllocationMillis(900_000L * 61, INDEX_DOUBLE_ARRAYS, "-Xmx3g");
        for (int i = 0; i < RUNS; i++) {
            measure("indexing (900k x 61)", List.of("hdbscan", npy.toString(), "--min-cluster-size", "20"), "-Xmx3g",
                    l -> l.equals("sylva: phase fit"), INDEX_DELAYS[i % INDEX_DELAYS.length],
                    l -> l.startsWith("core distances"), null, 0, LIMIT_MILLIS + 2 * allocation);
        }
    }

    @Test
    void neighbourSearch() throws Exception {
        Path npy = clips();
        for (int i = 0; i < RUNS; i++) {
            measure("neighbour search (core distances)", List.of("hdbscan", npy.toString(), "--min-cluster-size", "20"),
                    "-Xmx2g", l -> l.startsWith("core distances"), 300, l -> l.startsWith("spanning tree"), null, 0);
        }
    }

    @Test
    void boruvka() throws Exception {
        Path npy = clips();
        for (int i = 0; i < RUNS; i++) {
            measure("Borůvka (spanning tree round 2)", List.of("hdbscan", npy.toString(), "--min-cluster-size", "20"),
                    "-Xmx2g", l -> l.startsWith("spanning tree round 2"), 200, l -> l.equals("sylva: phase write"), null, 0);
        }
    }

    /**
     * The model's own neighbour pass: a weighted fit's model searches its rows (an unweighted fit's model takes the
     * prediction core distances from the fit's lists and has no such pass).
     */
    @Test
    void modelPredictionData() throws Exception {
        Path npy = clips();
        Path weights = dir.resolve("weights.npy");
        if (!java.nio.file.Files.exists(weights)) {
            int[] w = new int[60_000];
            java.util.Arrays.fill(w, 1);
            for (int i = 0; i < w.length; i += 97) w[i] = 2;
            Npy.writeInt32(weights, w, w.length);
        }
        for (int i = 0; i < RUNS; i++) {
            measure("--save-model (prediction data)", List.of("hdbscan", npy.toString(), "--min-cluster-size", "20",
                    "--sample-weight", weights.toString(), "--save-model", "MODEL"), "-Xmx2g",
                    l -> l.startsWith(HdbscanCommand.MODEL_STAGE), 200, l -> l.equals("sylva: phase write"), null, 0);
        }
    }

    @Test
    void renderingTheReport() throws Exception {
        Path npy = reportClips();
        for (int i = 0; i < RUNS; i++) {
            measure("rendering the report", List.of("hdbscan", npy.toString(), "--min-cluster-size", "20",
                    "--report", "REPORT", "--waveforms"), "-Xmx2g", l -> l.equals("sylva: phase report"), 0,
                    l -> l.startsWith("wrote "), null, 0);
        }
    }

    // ------------------------------------------------------------------------------------------ the harness

    /**
     * Runs {@code sylva ARGS --out OUT --threads 2} with the phase trace; waits for a line matching
     * {@code begun}, waits {@code delayMillis} more, sends SIGINT and checks the exit. A line matching
     * {@code moved} (the next phase) seen before the signal was sent skips the case: the phase was over.
     * With a {@code fifo}, a thread writes it meanwhile (see {@link #feed}).
     */
    void measure(String phase, List<String> args, String xmx, Predicate<String> begun, long delayMillis,
            Predicate<String> moved, Path fifo, long feedEveryMillis) throws Exception {
        measure(phase, args, xmx, begun, delayMillis, moved, fifo, feedEveryMillis, LIMIT_MILLIS);
    }

    /** As above, the exit allowed {@code limitMillis} after the signal. */
    @SuppressWarnings("try")   // the FIFO is opened only to unblock the feeding thread
    void measure(String phase, List<String> args, String xmx, Predicate<String> begun, long delayMillis,
            Predicate<String> moved, Path fifo, long feedEveryMillis, long limitMillis) throws Exception {
        Path tmp = Files.createTempDirectory(dir, "run");
        Path out = tmp.resolve("out");
        List<String> cmd = InterruptTest.sylvaCommand();
        int at = cmd.indexOf("-Xmx2g");
        cmd.set(at, xmx);
        cmd.add(at + 1, "-D" + "sylva.trace-phases=true");
        for (String a : args) {
            cmd.add(a.equals("REPORT") ? out.resolve("report.html").toString()
                    : a.equals("MODEL") ? out.resolve("clips.model").toString() : a);
        }
        cmd.addAll(List.of("--out", out.toString(), "--threads", "2"));
        // "-" reads standard input: the FIFO is redirected into it (its writer first: opening a FIFO waits for both ends)
        boolean viaStdin = fifo != null && args.contains("-");
        Thread feeding = viaStdin ? feed(fifo, 200_000, feedEveryMillis) : null;
        Traced c = new Traced(cmd, tmp.resolve("stdout.txt"), viaStdin ? fifo : null);
        if (fifo != null && !viaStdin) feeding = feed(fifo, 200_000, feedEveryMillis);
        try {
            int seen = c.await(begun, 120);
            assertTrue(seen >= 0, () -> "the phase never began (no matching line within 120 s); stderr:\n" + c.text());
            if (delayMillis > 0) Thread.sleep(delayMillis);
            int before = c.count();
            boolean over = c.anyFrom(seen, before, moved);
            if (over || !c.process.isAlive()) {
                c.process.destroyForcibly();
                c.process.waitFor(30, TimeUnit.SECONDS);
                Assumptions.abort(phase + ": the phase was over before the signal (a faster machine?); stderr:\n"
                        + c.text());
            }
            long t0 = System.nanoTime();
            Process kill = new ProcessBuilder("/bin/sh", "-c", "kill -INT " + c.process.pid()).redirectErrorStream(true)
                    .start();
            assertEquals(0, kill.waitFor(), "kill -INT failed");
            if (!c.process.waitFor(30, TimeUnit.SECONDS)) {
                c.process.destroyForcibly();
                fail(phase + ": no exit within 30 s of SIGINT; stderr:\n" + c.text());
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            c.reader.join(5_000);
            String err = c.text();
            assertEquals(130, c.process.exitValue(), () -> phase + ": exit status; stderr:\n" + err);
            assertTrue(err.contains("sylva: interrupted"), () -> phase + ": stderr says it was interrupted:\n" + err);
            assertTrue(!err.contains("Exception") && !err.contains("\tat "), () -> phase + ": no stack trace:\n" + err);
            Cli.assertNothingWritten(out);
            assertEquals(List.of("stdout.txt"), Cli.list(tmp).stream().filter(n -> !n.equals("out")
                    && !n.endsWith(".npy")).toList(), "no temporary beside the inputs");
            boolean hook = err.contains(HOOK_LINE);
            String movedOn = c.anyFrom(before, c.count(), moved) ? "moved on to the next phase, " : "";
            String how = hook ? movedOn + "hook" : movedOn + "token";
            FIGURES.computeIfAbsent(phase, k -> Collections.synchronizedList(new ArrayList<>())).add(ms);
            HOW.computeIfAbsent(phase, k -> Collections.synchronizedList(new ArrayList<>())).add(how);
            System.out.printf(Locale.ROOT, "SignalLatencyTest: %s: SIGINT -> exit 130 in %d ms (%s)%n", phase, ms, how);
            assertTrue(ms <= limitMillis, () -> phase + ": exited " + ms + " ms after SIGINT (allowed " + limitMillis
                    + "); stderr:\n" + err);
        } finally {
            c.process.destroyForcibly();
            if (feeding != null) {
                feeding.interrupt();
                feeding.join(2_000);
                if (feeding.isAlive()) {   // still blocked opening the FIFO: the child never opened it
                    try (var unblock = Files.newInputStream(fifo)) {
                        feeding.join(10_000);
                    }
                }
            }
        }
    }

    /** A child whose stderr lines are collected as they come. */
    static final class Traced {
        final Process process;
        final List<String> lines = new ArrayList<>();
        final Thread reader;

        Traced(List<String> command, Path stdout, Path stdin) throws IOException {
            ProcessBuilder b = new ProcessBuilder(command).redirectOutput(stdout.toFile());
            if (stdin != null) b.redirectInput(stdin.toFile());
            process = b.start();
            reader = Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                        StandardCharsets.UTF_8))) {
                    for (String l = r.readLine(); l != null; l = r.readLine()) {
                        synchronized (lines) {
                            lines.add(l);
                            lines.notifyAll();
                        }
                    }
                } catch (IOException ignored) {
                    // the child is gone
                }
                synchronized (lines) {
                    lines.notifyAll();
                }
            });
        }

        /** Waits for a line matching {@code p}; returns its index, or -1 (timeout or the child ended). */
        int await(Predicate<String> p, int seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            int from = 0;
            synchronized (lines) {
                while (true) {
                    for (; from < lines.size(); from++) if (p.test(lines.get(from))) return from;
                    long left = deadline - System.nanoTime();
                    if (left <= 0 || !reader.isAlive()) return -1;
                    lines.wait(Math.max(1, Math.min(100, left / 1_000_000)));
                }
            }
        }

        int count() {
            synchronized (lines) {
                return lines.size();
            }
        }

        boolean anyFrom(int from, int to, Predicate<String> p) {
            synchronized (lines) {
                for (int i = from; i < to; i++) if (p.test(lines.get(i))) return true;
                return false;
            }
        }

        String text() {
            synchronized (lines) {
                return String.join("\n", lines) + "\n";
            }
        }
    }

    // ------------------------------------------------------------------------------------------ the inputs

    private static Path bigNpy;
    private static Path indexNpy;
    private static Path bigCsv;
    private static Path clips;
    private static Path reportClips;

    static synchronized Path bigNpy() throws IOException {
        if (bigNpy == null) bigNpy = randomNpy(dir.resolve("big.npy"), 3_000_000, 61, 1);
        return bigNpy;
    }

    static synchronized Path indexNpy() throws IOException {
        if (indexNpy == null) indexNpy = randomNpy(dir.resolve("index.npy"), 900_000, 61, 2);
        return indexNpy;
    }

    static synchronized Path clips() throws IOException {
        if (clips == null) {
            ClipLikeData d = ClipLikeData.generate(60_000, 9);
            clips = dir.resolve("clips.npy");
            Npy.writeFloat32(clips, d.points().coordinates(), d.points().size(), ClipLikeData.SAMPLES);
        }
        return clips;
    }

    static synchronized Path reportClips() throws IOException {
        if (reportClips == null) {
            ClipLikeData d = ClipLikeData.generate(20_000, 9);
            reportClips = dir.resolve("report-clips.npy");
            Npy.writeFloat32(reportClips, d.points().coordinates(), d.points().size(), ClipLikeData.SAMPLES);
        }
        return reportClips;
    }

    /** 150 000 rows of 61 random numbers as text (Float.toString: about 10 characters each). */
    static synchronized Path bigCsv() throws IOException {
        if (bigCsv == null) {
            Path p = dir.resolve("big.csv");
            SplittableRandom rng = new SplittableRandom(3);
            try (BufferedWriter w = Files.newBufferedWriter(p, StandardCharsets.US_ASCII)) {
                StringBuilder line = new StringBuilder(1024);
                for (int i = 0; i < 150_000; i++) {
                    line.setLength(0);
                    for (int j = 0; j < 61; j++) {
                        if (j > 0) line.append(',');
                        line.append((float) (rng.nextDouble() * 200 - 100));
                    }
                    w.append(line).append('\n');
                }
            }
            bigCsv = p;
        }
        return bigCsv;
    }

    /** The header of a C-order little-endian float32 .npy of shape (n, d), padded to 64 bytes. */
    static byte[] npyHeader(int n, int d) {
        String dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + n + ", " + d + "), }";
        int len = 10 + dict.length() + 1;
        int padded = (len + 63) / 64 * 64;
        StringBuilder h = new StringBuilder(dict);
        while (10 + h.length() + 1 < padded) h.append(' ');
        h.append('\n');
        ByteBuffer b = ByteBuffer.allocate(padded).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short) h.length());
        b.put(h.toString().getBytes(StandardCharsets.US_ASCII));
        return b.array();
    }

    /** n x d float32 uniform in [-1, 1), streamed to disk in 4 MiB chunks (no n x d array in this JVM). */
    static Path randomNpy(Path p, int n, int d, long seed) throws IOException {
        SplittableRandom rng = new SplittableRandom(seed);
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 22).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(npyHeader(n, d)));
            long values = (long) n * d;
            for (long i = 0; i < values; i++) {
                buf.putFloat((float) (rng.nextDouble() * 2 - 1));
                if (!buf.hasRemaining() || i == values - 1) {
                    buf.flip();
                    while (buf.hasRemaining()) ch.write(buf);
                    buf.clear();
                }
            }
        }
        return p;
    }

    /** A new FIFO in the temporary directory (the case is skipped where mkfifo is missing). */
    static Path fifo(String name) throws Exception {
        Path mkfifo = Path.of("/usr/bin/mkfifo");
        Assumptions.assumeTrue(Files.isExecutable(mkfifo) || Files.isExecutable(Path.of("/bin/mkfifo")),
                "no mkfifo to make a FIFO");
        Path f = dir.resolve(name);
        Process p = new ProcessBuilder(Files.isExecutable(mkfifo) ? mkfifo.toString() : "/bin/mkfifo", f.toString())
                .redirectErrorStream(true).start();
        Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo failed");
        return f;
    }

    /**
     * Opens {@code fifo} for writing (blocks until the child opens it) and writes the header of an
     * {@code n} x 61 float32 .npy and ten rows; then 64 KiB every {@code everyMillis} ms, or, with a
     * negative interval, nothing more, holding it open, until interrupted or the reader is gone.
     */
    static Thread feed(Path fifo, int n, long everyMillis) {
        return Thread.ofPlatform().daemon().name("fifo-writer").start(() -> {
            try (OutputStream o = Files.newOutputStream(fifo)) {
                o.write(npyHeader(n, 61));
                o.write(new byte[4 * 61 * 10]);
                o.flush();
                byte[] chunk = new byte[1 << 16];
                while (!Thread.currentThread().isInterrupted()) {
                    if (everyMillis < 0) {
                        Thread.sleep(100);
                    } else {
                        Thread.sleep(everyMillis);
                        o.write(chunk);
                        o.flush();
                    }
                }
            } catch (IOException | InterruptedException ignored) {
                // the child is gone (a broken pipe) or the test is done
            }
        });
    }
}
