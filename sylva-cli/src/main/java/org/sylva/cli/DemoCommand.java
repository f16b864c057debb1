package org.sylva.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.sylva.cli.report.Waveforms;
import org.sylva.data.InvalidInputException;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import picocli.CommandLine.Model.CommandSpec;

/** {@code sylva demo}: the built-in clip-like data set clustered end to end, with a report. */
final class DemoCommand implements Callable<Integer> {
    CommandSpec spec;
    private final CliContext context;
    int points;
    long seed;
    int minClusterSize;
    Path out;
    RunOptions run = new RunOptions();

    /** This command's picocli model, bound to this object ({@link CommandModel}). */
    CommandSpec model() {
        CommandModel m = new CommandModel("demo", this)
                .unsorted()
                .header("Cluster built-in clip-like spike waveforms end to end and write a report.")
                .description("Generates clip-like spike waveforms (12 templates of 61 samples, AR(1) noise, a tenth "
                        + "pure-noise clips; fixed seed), clusters them with HDBSCAN (min-cluster-size 20), compares "
                        + "the clusters with the generating templates, and writes the outputs and report.html into "
                        + "--out. The report's path, the demo's result, goes to stdout, with --quiet too.")
                .footer("", "Examples:", "  sylva demo", "  sylva demo --points 50000 --out /tmp/demo");
        m.option(int.class, v -> points = v, "--points")
                .paramLabel("N")
                .defaultValue("20000")
                .description("Clips to generate (default ${DEFAULT-VALUE}).");
        m.option(long.class, v -> seed = v, "--seed")
                .paramLabel("S")
                .defaultValue("20240")
                .description("Generator seed (default ${DEFAULT-VALUE}).");
        m.option(int.class, v -> minClusterSize = v, "--min-cluster-size")
                .paramLabel("M")
                .defaultValue("20")
                .description("HDBSCAN min_cluster_size (default ${DEFAULT-VALUE}).");
        m.option(Path.class, v -> out = v, "--out")
                .paramLabel("DIR")
                .defaultValue("sylva-demo")
                .description("Output directory (default ${DEFAULT-VALUE}); a second run into it while this one runs "
                        + "is refused at once. The manifest sylva-run.json, written last, marks the folder complete "
                        + "(sylva verify DIR).");
        run.declare(m);
        spec = m.spec();
        return spec;
    }

    /** The report's name in --out. */
    private static final String REPORT = "report.html";

    DemoCommand(CliContext context) {
        this.context = context;
    }

    /** Refuses a generated data set's size outside {@code 2 .. ClipLikeData.MAX_POINTS}, naming {@code option}. */
    static void checkPoints(String option, int points) {
        if (points < 2) throw new InvalidInputException(option + " must be at least 2; got " + points);
        if (points > ClipLikeData.MAX_POINTS) {
            throw new InvalidInputException(option + " must be at most " + ClipLikeData.MAX_POINTS + " (the clips'"
                    + " float32 samples are one Java array); got " + points);
        }
    }

    @Override
    public Integer call() throws Exception {
        var err = spec.commandLine().getErr();
        checkPoints("--points", points);
        if (minClusterSize > points) {
            // min_samples defaults to min_cluster_size, and a fit refuses more than the points
            throw new InvalidInputException("--min-cluster-size (" + minClusterSize + ") must be at most --points ("
                    + points + ")");
        }
        Hdbscan h = Hdbscan.builder().minClusterSize(minClusterSize).threads(run.threadCount()).build();
        List<String> files = new ArrayList<>(HdbscanOutputs.names(OutputFormat.NPY));
        files.add(REPORT);
        OutputTargets.claim(context, err, run.quiet, out, files, StaleOutputs.ARRAY_FILES, null);
        long t0 = System.nanoTime();
        ClipLikeData demo = ClipLikeData.generate(points, seed);
        double gen = (System.nanoTime() - t0) / 1e9;
        if (!run.quiet) {
            err.printf(Locale.ROOT, "sylva demo: %d clip-like waveforms x %d samples (seed %d), HDBSCAN min_cluster_size=%d%n",
                    points, ClipLikeData.SAMPLES, seed, minClusterSize);
        }
        HdbscanResult r;
        try (ProgressPrinter progress = context.progress(err, run.quiet, demo.points().size())) {
            r = h.fit(demo.points(), progress, context.cancel());
        }
        Path report = out.resolve(REPORT);
        // the demo's rows are single-channel clips, so the report draws them as waveforms
        Waveforms clips = Waveforms.channelMajor(points, 1, demo.points().coordinates());
        HdbscanOutputs.Written w = HdbscanOutputs.writeDemo(h, r, out, report, demo.points(), clips,
                "built-in clip-like demo",
                RunRecord.of(spec, List.of(), r.parameters().describeTyped()).describe(), context.cancel());
        // the summary goes where sylva hdbscan's does (stderr), and -q keeps it back as there; the report's path
        // is the demo's result, on stdout
        if (!w.left().isEmpty()) err.println(w.leftLine());
        if (!run.quiet) {
            err.println(HdbscanOutputs.summary(r, demo.points(), "float32", "generate", gen, w.files()));
            if (!w.removed().isEmpty()) err.println(w.removedLine());
            err.printf(Locale.ROOT, "adjusted Rand index vs the generating templates (noise clips as one class): %.3f%n",
                    Agreement.adjustedRand(demo.truth(), r.labels()));
        }
        if (w.reportFailure() != null) throw new ReportNotWritten(report, out, w.reportFailure());
        spec.commandLine().getOut().println("report: " + report.toAbsolutePath());
        return 0;
    }
}
