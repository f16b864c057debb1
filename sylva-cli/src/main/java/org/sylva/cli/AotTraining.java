package org.sylva.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.sylva.demo.ClipLikeData;
import org.sylva.io.Npy;

/**
 * The training run behind the launchers' start-up cache: JDK 25 stores in its ahead-of-time cache
 * ({@code -XX:AOTCacheOutput}) the classes one run loads, parsed and verified, so a later start reads them
 * from the cache instead of from the jar. That run should load what users' runs load, and a user runs
 * {@code sylva hdbscan} once per file: so this runs, in one JVM and through the real command line
 * ({@link Main#run}), the commands of {@link #commandLines}: {@code hdbscan} on a small input (scalar
 * kernels, as {@code auto} picks in a fresh JVM) and on a larger one (vector kernels, with a report and a
 * saved model), {@code predict} of the small input against that model, {@code demo}, {@code balltree} and a fit
 * through {@code sylva serve}'s engine ({@link #serve}).
 * A class none of them loads is read from the jar as before, so a command missing here is slower to start,
 * never wrong. Two more trainings serve the runs the launchers start without the Vector API module, on
 * caches of their own (a cache holding more classes than a run needs costs that run start-up time: the
 * JVM loads every class of the cache at start): {@link Training#SMALL} runs only the small {@code hdbscan},
 * with a report drawing waveforms and a saved model, as the README's examples ask (the classes of those cost
 * a plain small run 1–2 % at most and save a run that asks for them 5–20 %: BENCHMARKS.md, "Cold runs: the
 * command line declared in code"), {@link Training#SMALL_PREDICT} that fit with {@code --save-model} and a
 * {@code predict} against it.
 *
 * <p>Not a user command: {@code bin/sylva-java.sh} ({@code sylva_train_aot}) runs it once per build and
 * keeps no cache when it exits non-zero (a test runs it too, so a renamed option cannot break it unseen):
 * <pre>{@code
 * java [the launcher's module options] -XX:AOTCacheOutput=sylva.aot -cp sylva.jar org.sylva.cli.AotTraining WORK
 * }</pre>
 * with the module options of the runs the cache serves ({@code sylva_train_aot} passes them: a cache made with
 * others has its module handling dropped at every start).
 */
public final class AotTraining {
    /** Clips of the small input: 1 500 x 61 values, which a fresh JVM fits on the scalar kernels (StageKernels.coldScalar). */
    static final int SMALL_CLIPS = 1_500;
    /** Clips of the larger input: 12 000 x 61 values, which it fits on the vector kernels. */
    static final int LARGE_CLIPS = 12_000;
    /** Points of the ball-tree input (3-d, one batch). */
    static final int CLOUD_POINTS = 4_096;

    private AotTraining() {
    }

    /** Which commands a training runs: the cache it makes serves runs like them. */
    enum Training {
        /** Every command, for the launchers' main cache (runs that start with the Vector API module). */
        FULL(null),
        /** Only the small {@code hdbscan}, with a report, waveforms and a saved model, for small inputs' cache. */
        SMALL("--small"),
        /** The small {@code hdbscan} saving its model and a {@code predict} against it, for few new points' cache. */
        SMALL_PREDICT("--small-predict");

        /** The command-line flag that asks for it (none for {@link #FULL}). */
        final String flag;

        Training(String flag) {
            this.flag = flag;
        }
    }

    /** Runs the training ({@code [--small | --small-predict] WORK_DIR}) in the folder WORK_DIR (created; left for the caller to remove). */
    public static void main(String[] args) throws IOException {
        Training training = null;
        if (args.length == 1) training = Training.FULL;
        for (Training t : Training.values()) {
            if (args.length == 2 && args[0].equals(t.flag)) training = t;
        }
        if (training == null) {
            System.err.println("usage: java -cp sylva.jar org.sylva.cli.AotTraining [--small | --small-predict] WORK_DIR");
            System.exit(ExitStatus.ERROR);
        }
        Writer sink = Writer.nullWriter();   // the commands' summaries: nobody reads them
        int code = train(Path.of(args[args.length - 1]), training, new PrintWriter(sink),
                Main.standardError());
        System.exit(code);
    }

    /**
     * Writes the inputs into {@code work}, runs every command line of {@code training} on them and returns
     * 0, or the exit status of the first that failed (its error is on {@code err}).
     */
    static int train(Path work, Training training, PrintWriter out, PrintWriter err) throws IOException {
        Files.createDirectories(work);
        writeClips(work.resolve("small.npy"), SMALL_CLIPS, 1);
        if (training == Training.FULL) {
            writeClips(work.resolve("large.npy"), LARGE_CLIPS, 2);
            writeCloud(work.resolve("cloud.npy"));
        }
        for (List<String> line : commandLines(work, training)) {
            // as Main.main runs a command line (the version check first, the process's context), so the
            // classes that loads are in the cache too
            String[] args = line.toArray(String[]::new);
            if (VersionText.answer(args, new PrintStream(OutputStream.nullOutputStream()))) continue;
            int code = Main.run(args, out, err, Main.processContext());
            if (code != ExitStatus.OK) {
                err.println("sylva: the start-up cache's training run failed on: sylva " + String.join(" ", line));
                return code;
            }
        }
        if (training == Training.FULL) {
            int code = serve(err);
            if (code != ExitStatus.OK) {
                err.println("sylva: the start-up cache's training run failed on: sylva serve (a fit as Python asks for one)");
                return code;
            }
        }
        return ExitStatus.OK;
    }

    /** The longest the training's engine fit may take before its pipes are closed and the training goes on without it. */
    static final java.time.Duration SERVE_LIMIT = java.time.Duration.ofMinutes(2);

    /**
     * What {@code sylva serve}, the Python package's engine, does for a first {@code fit}: a hello, then one
     * {@code hdbscan} request of float64 points with progress frames, answered by the engine on a thread of this
     * process through two pipes, written and read by a client thread (the command itself is not run, which would
     * take this process's standard output). The requests end once the answer is read, as a client's do (the end of
     * the requests cancels what is still running); 0 when that answer is an {@code ok}. Every wait is bounded: past
     * {@link #SERVE_LIMIT} the four pipe ends are closed, which ends both threads' reads and writes.
     */
    static int serve(PrintWriter err) throws IOException {
        org.sylva.data.PointSet clips = ClipLikeData.generate(SMALL_CLIPS, 3).points();
        org.sylva.cli.serve.Frame request = new org.sylva.cli.serve.Frame("hdbscan",
                java.util.Map.of("min_cluster_size", 20L, "id", 1L, "progress", true),
                List.of(org.sylva.cli.serve.WireArray.of("points", clips.coordinates64(), clips.size(), clips.dimensions())));
        java.nio.channels.Pipe toEngine = java.nio.channels.Pipe.open();
        java.nio.channels.Pipe fromEngine = java.nio.channels.Pipe.open();
        java.util.concurrent.atomic.AtomicInteger status = new java.util.concurrent.atomic.AtomicInteger(ExitStatus.ERROR);
        java.util.concurrent.atomic.AtomicReference<String> answer = new java.util.concurrent.atomic.AtomicReference<>();
        Thread engine = Thread.ofPlatform().name("sylva-training-engine").daemon().start(() -> {
            try (java.io.InputStream requests = java.nio.channels.Channels.newInputStream(toEngine.source());
                 OutputStream answers = java.nio.channels.Channels.newOutputStream(fromEngine.sink())) {
                status.set(org.sylva.cli.serve.EngineServer.standard(requests, answers,
                        org.sylva.cli.serve.FrameLimits.defaults(), SylvaCommand.version(), err, false).run());
            } catch (Throwable t) {   // closing both ends lets the client's write or read end too
                err.println("sylva: the training's engine: " + t);
            }
        });
        Thread client = Thread.ofPlatform().name("sylva-training-client").daemon().start(() -> {
            try (OutputStream requests = java.nio.channels.Channels.newOutputStream(toEngine.sink());
                 java.io.InputStream answers = java.nio.channels.Channels.newInputStream(fromEngine.source())) {
                new org.sylva.cli.serve.FrameWriter(requests).write(request);
                org.sylva.cli.serve.FrameReader reader = new org.sylva.cli.serve.FrameReader(answers,
                        org.sylva.cli.serve.FrameLimits.defaults());
                // the hello, progress frames (one per change of a stage's percent: a few thousand at most), the answer
                for (int frames = 0; frames < 100_000 && answer.get() == null; frames++) {
                    org.sylva.cli.serve.Frame f = reader.read();
                    if (f == null) break;
                    if (!f.kind().equals("hello") && !f.kind().equals("progress")) answer.set(f.kind());
                }
            } catch (Throwable t) {
                answer.compareAndSet(null, "nothing: " + t);
            }
        });
        try {
            long deadline = System.nanoTime() + SERVE_LIMIT.toNanos();
            client.join(SERVE_LIMIT);
            engine.join(java.time.Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (client.isAlive() || engine.isAlive()) {
                for (java.nio.channels.Channel c : List.of(toEngine.sink(), toEngine.source(), fromEngine.sink(),
                        fromEngine.source())) {
                    c.close();
                }
                answer.compareAndSet(null, "nothing within " + SERVE_LIMIT.toSeconds() + " s");
                client.join(java.time.Duration.ofSeconds(10));
                engine.join(java.time.Duration.ofSeconds(10));
                status.set(ExitStatus.ERROR);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitStatus.INTERRUPTED;
        }
        if (!"ok".equals(answer.get())) err.println("sylva: the training's engine answered " + answer.get());
        return status.get() == ExitStatus.OK && "ok".equals(answer.get()) ? ExitStatus.OK : ExitStatus.ERROR;
    }

    /** The command lines of {@code training}, on the inputs {@link #train} writes into {@code work}. */
    static List<List<String>> commandLines(Path work, Training training) {
        String w = work.toString();
        // not quiet: most runs print their progress and summary, whose formatting loads classes of its own
        List<String> small = List.of("hdbscan", w + "/small.npy", "--min-cluster-size", "20", "--out", w + "/small");
        return switch (training) {
            case SMALL -> {
                List<String> reporting = new java.util.ArrayList<>(small);
                reporting.addAll(List.of("--report", w + "/small-report.html", "--waveforms", "--save-model",
                        w + "/small-fit.model"));
                yield List.of(reporting);
            }
            case SMALL_PREDICT -> {
                List<String> saving = new java.util.ArrayList<>(small);
                saving.addAll(List.of("--save-model", w + "/small.model"));
                yield List.of(saving, List.of("predict", w + "/small.model", w + "/small.npy", "--out", w + "/small-predicted"));
            }
            case FULL -> List.of(
                    small,
                    List.of("hdbscan", w + "/large.npy", "--min-cluster-size", "20", "--out", w + "/large",
                            "--report", w + "/large-report.html", "--save-model", w + "/large.model"),
                    List.of("predict", w + "/large.model", w + "/small.npy", "--out", w + "/predicted"),
                    List.of("demo", "--points", "2000", "--out", w + "/demo"),
                    List.of("balltree", w + "/cloud.npy", "--out", w + "/tree"));
        };
    }

    private static void writeClips(Path file, int n, long seed) throws IOException {
        Npy.writeFloat32(file, ClipLikeData.generate(n, seed).points().coordinates(), n, ClipLikeData.SAMPLES);
    }

    private static void writeCloud(Path file) throws IOException {
        Random random = new Random(7);
        float[] xyz = new float[CLOUD_POINTS * 3];
        for (int i = 0; i < xyz.length; i++) xyz[i] = (float) random.nextGaussian();
        Npy.writeFloat32(file, xyz, CLOUD_POINTS, 3);
    }
}
