package org.sylva.cli;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.sylva.balltree.BallTree;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.cli.report.BallTreeReport;
import org.sylva.cli.report.BallTreeReportData;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.io.AtomicOutput;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.io.NpyDtype;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.TypeConversionException;

/** {@code sylva balltree}: Erwin's perfect binary ball tree (or its rotated partition) of a point cloud. */
final class BallTreeCommand implements Callable<Integer> {
    CommandSpec spec;
    private final CliContext context;
    InputOptions in = new InputOptions();
    Path batch;
    Path out;
    /** --partition-level as given (any size: a level past every tree's depth gives single cells), or null. */
    BigInteger partitionLevel;
    OutputFormat format;
    Path report;
    /** --report-level as given, or null: level {@link #DEFAULT_REPORT_LEVEL}. */
    Integer reportLevel;
    static final int DEFAULT_REPORT_LEVEL = 3;
    Integer reportBatch;
    Kernels kernels;
    String backend;

    /** Which code builds the tree; the trees are identical. */
    enum Kernels { SCALAR, VECTOR }

    RunOptions run = new RunOptions();
    boolean json;

    /** The help of {@code --backend}. */
    static final String BACKEND_TEXT = "Engine of the build (default ${DEFAULT-VALUE}: the CPU engine; a GPU only when "
            + "named). scalar and simd: the CPU engine on the scalar or the vector kernels (as --kernels scalar or "
            + "vector; simd is refused where the vector kernels cannot run, as in sylva hdbscan). opencl and cuda build every batch level by level on the first usable device of that API "
            + "(opencl: a GPU before a CPU device), byte-identical to the CPU engine; no usable device is refused at "
            + "once, exit 2 (sylva devices says what is found). --threads and --kernels choose the CPU engine's "
            + "threads and kernels: given with opencl or cuda, which would ignore them, they are refused.";

    /** This command's picocli model, bound to this object ({@link CommandModel}). */
    CommandSpec model() {
        CommandModel m = new CommandModel("balltree", this)
                .unsorted()
                .header("Build Erwin's perfect binary ball tree of a (batched) point cloud.")
                .description("Builds Erwin's perfect binary ball tree: per batch, 2^(L+1) slots in heap layout, "
                        + "split along the widest dimension at the median, smaller index first on ties. Writes "
                        + "tree_idx (int64 global row indices), mask (bool; false = padding), offsets (int64 slot "
                        + "offset of each batch, plus the total) and levels (int32 L per batch). With "
                        + "--partition-level T writes perm.npy instead.")
                .footer("",
                        "Examples:",
                        "  sylva balltree cloud.npy --out tree/",
                        "  sylva balltree cloud.npy --batch batch.npy --out tree/ \\",
                        "      --report tree/balls.html --report-level 4",
                        "  sylva balltree rotated.npy --batch batch.npy --partition-level 6 --out part/",
                        "  sylva balltree cloud.npy --batch batch.npy --backend opencl --out tree/");
        in.declare(m, InputOptions.TREE_INPUT_TEXT);
        m.option(Path.class, v -> batch = v, "--batch")
                .paramLabel("IDS")
                .description("Batch id per point (a .npy of shape (n,) or (n, 1) of any integer dtype, e.g. int64): "
                        + "start at 0, never decrease, never skip.");
        m.option(Path.class, v -> out = v, "--out")
                .required(true)
                .paramLabel("DIR")
                .description("Output directory (created if needed). A second run into the same DIR while this one "
                        + "runs is refused at once (lock file .sylva.lock, removed at the end); an output name taken "
                        + "by anything but a regular file is refused before the build. The files an earlier run's "
                        + "manifest names that this run does not write are removed, and named, if they are still as "
                        + "that run wrote them (a warning names those changed since), except a report whose name a user "
                        + "chose (--report). The manifest "
                        + "sylva-run.json, removed before the new files land and put in place last, marks the folder "
                        + "complete (sylva verify DIR).");
        m.option(BigInteger.class, v -> partitionLevel = v, "--partition-level")
                .converters(BallTreeCommand::level)
                .paramLabel("T")
                .description("Write Erwin's rotated-tree partition stopping at level T (perm.npy) instead of the "
                        + "tree. A batch of m points is single points from level ceil(log2 m) on: a deeper T gives "
                        + "the same cells (a note says so).");
        OutputFormat.declare(m, v -> format = v);
        m.option(Path.class, v -> report = v, "--report")
                .paramLabel("FILE.html")
                .description("Also write an HTML picture of one batch of the cloud coloured by ball (--report-batch; "
                        + "more than 2 dimensions: on its first two principal components). FILE must be a regular "
                        + "file or not exist (a directory, link, FIFO or device is refused, never replaced), and not "
                        + "an output's name in --out. If the report fails, the outputs are still written; exit "
                        + "status 3.");
        m.option(Integer.class, v -> reportLevel = v, "--report-level")
                .paramLabel("K")
                .description("Tree level whose balls colour the report (root = 0; default " + DEFAULT_REPORT_LEVEL + "). A level "
                        + "deeper than a batch's tree shows that batch's deepest level, and says so.");
        m.option(Integer.class, v -> reportBatch = v, "--report-batch")
                .paramLabel("B")
                .description("The batch the report draws (default: the largest batch, the first of equals).");
        m.option(Kernels.class, v -> kernels = v, "--kernels")
                .paramLabel("scalar|vector")
                .defaultValue("scalar")
                .description("Scalar code or the Vector API kernels, for the tree and for --partition-level (default "
                        + "${DEFAULT-VALUE}: one build per process ends before the JIT has compiled the vector "
                        + "kernels, which until then are several times slower; the output is identical). "
                        + "--backend scalar and --backend simd say the same, in sylva hdbscan's words.");
        m.option(String.class, v -> backend = v, "--backend")
                .paramLabel("auto|cpu|scalar|simd|opencl|cuda")
                .defaultValue("auto")
                .converters(new EngineChoice.TreeName())
                .description(BACKEND_TEXT);
        m.option(boolean.class, v -> json = v, "--json")
                .description("Print a machine-readable summary on stdout (one JSON line; keys in docs/cli-json.md). "
                        + "Where stdout cannot be written the exit status is 2, but the outputs, in place by then, "
                        + "stay complete.");
        run.declare(m);
        spec = m.spec();
        return spec;
    }

    BallTreeCommand(CliContext context) {
        this.context = context;
    }

    /** A --partition-level value: an integer of any size, else picocli's wording for an int ("is not an int"). */
    private static BigInteger level(String value) {
        try {
            return new BigInteger(value.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not an integer");
        }
    }

    @Override
    public Integer call() throws Exception {
        var err = spec.commandLine().getErr();
        if (partitionLevel != null && partitionLevel.signum() < 0) {
            throw new InvalidInputException("--partition-level must be >= 0; got " + partitionLevel);
        }
        if (reportLevel != null && reportLevel < 0) {
            throw new InvalidInputException("--report-level must be >= 0; got " + reportLevel);
        }
        if (batch != null && batch.toString().equals("-")) {
            throw new InvalidInputException("--batch cannot come from standard input (the points may); give a file");
        }
        if (reportLevel != null && report == null) {
            throw new InvalidInputException("--report-level chooses the level --report colours; give --report too");
        }
        int level = reportLevel != null ? reportLevel : DEFAULT_REPORT_LEVEL;
        if (partitionLevel != null && report != null) {
            throw new InvalidInputException("--report draws the tree's balls; it cannot be combined with --partition-level");
        }
        if (reportBatch != null && report == null) {
            throw new InvalidInputException("--report-batch chooses the batch --report draws; give --report too");
        }
        if (reportBatch != null && reportBatch < 0) {
            throw new InvalidInputException("--report-batch must be >= 0; got " + reportBatch);
        }
        refuseKernelsOnGpu(backend, spec);
        refuseThreadsOnGpu(backend, run.threads);
        Kernels chosen = kernels(backend, kernels, spec);
        // Before anything is read or created: the builder refuses a bad thread count (ErrorHandler names --threads).
        BallTreeBuilder builder = new BallTreeBuilder().threads(run.threadCount()).cancellation(context.cancel())
                .vectorKernels(chosen == Kernels.VECTOR);
        // A GPU API with no usable device is refused here, before any input is read or output claimed.
        builder.engine(EngineChoice.tree(backend));
        refuseUnreadableBatch(batch);
        OutputTargets.claim(context, err, run.quiet, out, names(partitionLevel != null ? PARTITION : TREE, format),
                RESERVED, report);
        OutputTargets.refuseOverlaps(out, RESERVED, List.of(new OutputTargets.OptionFile("--report", report)),
                List.of(new OutputTargets.OptionFile("input", in.readPath()), new OutputTargets.OptionFile("--batch", batch)));
        String processor = EngineChoice.processorNote(builder.engine());
        if (processor != null && !run.quiet) err.println(processor);
        String gpu = EngineChoice.gpuEngine(builder.engine());
        String onEngine = gpu == null ? "" : " on " + gpu;
        // The reading's warnings (float64 values rounded to float32) wait until the inputs have passed their
        // checks: a refused input gets its one error line alone.
        java.io.StringWriter readWarnings = new java.io.StringWriter();
        List<RunRecord.Input> read = java.util.Arrays.asList(RunRecord.Input.of("points", in.input, context.cancel()),
                RunRecord.Input.of("batch", batch, context.cancel()));
        long readStart = System.nanoTime();
        PointSet points = in.readForTree(new java.io.PrintWriter(readWarnings, true), context.stdin(), context.cancel(),
                "; a ball tree needs finite coordinates");
        BatchLayout layout;
        try {
            layout = batch == null ? BatchLayout.single(points.size()) : readLayout(batch, points.size(), context.cancel());
        } catch (InvalidInputException e) {   // about the batch file: the error names its option, as --sample-weight's do
            throw e.parameter().isPresent() ? e : InvalidInputException.forParameter("batch", e.getMessage());
        }
        if (reportBatch != null && reportBatch >= layout.batchCount()) {
            throw new InvalidInputException("--report-batch " + reportBatch + ": there " + (layout.batchCount() == 0
                    ? "are no batches (the input has no points)" : layout.batchCount() == 1 ? "is 1 batch (0)"
                    : "are " + layout.batchCount() + " batches (0 to " + (layout.batchCount() - 1) + ")"));
        }
        double readSeconds = JsonSummary.since(readStart);
        err.print(readWarnings);
        err.flush();
        int drawn = reportBatch != null ? reportBatch : largestBatch(layout);
        boolean vector = chosen == Kernels.VECTOR && BallTreeBuilder.vectorKernelsAvailable();
        JsonSummary summary = new JsonSummary("balltree")
                .put("input", in.input)
                .put("batch", batch == null ? null : batch.toString())
                .put("n_points", points.size())
                .put("n_dims", points.dimensions())
                .put("n_batches", layout.batchCount())
                .put("partition_level", partitionLevel)
                .put("threads", gpu == null ? run.threadCount() : null)
                .put("backend", gpu != null ? builder.engine().name() : vector ? "simd" : "scalar");
        if (chosen == Kernels.VECTOR && !BallTreeBuilder.vectorKernelsAvailable()) {
            err.println("sylva: warning: " + ("simd".equals(backend) ? "--backend simd" : "--kernels vector")
                    + ": this JVM has no Vector API kernels ("
                    + org.sylva.kernels.KernelProvider.get().vectorPartitionUnavailableReason()
                    + "); building with the scalar code");
        }
        long t0 = System.nanoTime();
        int[] perm = null;
        BallTree tree = null;
        try (ProgressPrinter progress = context.progress(err, run.quiet, points.size())) {
            builder.progress(progress);
            if (partitionLevel != null) {
                perm = builder.partition(points, layout, partitionDepth());
            } else {
                tree = builder.build(points, layout);
            }
        }
        double ms = (System.nanoTime() - t0) / 1e6;
        context.cancel().throwIfCancelled();
        try (AtomicOutput.Group g = AtomicOutput.group(context.cancel())) {
            if (perm != null) {
                long[] p = new long[perm.length];
                for (int i = 0; i < perm.length; i++) p[i] = perm[i];
                Path written = format.stage(g, out, "perm", NpyArray.ofInt64(p, p.length));
                context.cancel().throwIfCancelled();
                g.commitFolder(out, "balltree", RunRecord.of(spec, read, null).describe(), () -> { });
                OutputTargets.tellRemoved(err, run.quiet, g, out);
                printJson(summary.put("n_slots", null), readSeconds, ms, List.of(written));
                if (!run.quiet) {
                    int batches = layout.batchCount();
                    int singles = singlePointLevel(layout);
                    if (partitionLevel.compareTo(BigInteger.valueOf(singles)) > 0 && points.size() > 0) {
                        err.printf(Locale.ROOT, "sylva: note: --partition-level %s is deeper than needed: %s single "
                                + "points from level %d on%n", partitionLevel, batches == 1 ? "the batch's cells are"
                                : "every batch's cells are", singles);
                    }
                    err.printf(Locale.ROOT, "partition of %d %s (%d %s) at level %d in %.2f ms%s; wrote %s%n",
                            points.size(), plural(points.size(), "point"), batches, plural(batches, "batch"), partitionLevel, ms,
                            onEngine, out.resolve("perm" + format.extension()));
                }
                return 0;
            }
            List<Path> written = new ArrayList<>();
            written.add(format.stage(g, out, "tree_idx", NpyArray.ofInt64(tree.indicesAsLong(), tree.size())));
            written.add(format.stage(g, out, "mask", NpyArray.ofBool(tree.mask(), tree.size())));
            int[] so = layout.slotOffsets();
            long[] offsets = new long[so.length];
            for (int i = 0; i < so.length; i++) offsets[i] = so[i];
            written.add(format.stage(g, out, "offsets", NpyArray.ofInt64(offsets, offsets.length)));
            int[] levels = layout.levels();
            written.add(format.stage(g, out, "levels", NpyArray.ofInt32(levels, levels.length)));
            int deepest = levels.length == 0 ? 0 : levels[drawn];
            if (report != null && reportLevel != null && level > deepest && !run.quiet && points.size() > 0) {
                // the report says so too; here, before the user opens it (not for the default level: the user
                // asked for no level, and a small cloud's report colours its deepest)
                err.printf(Locale.ROOT, "sylva: note: --report-level %d is deeper than batch %d's tree (levels 0 to %d); "
                        + "the report colours the balls of its deepest level%n", level, drawn, deepest);
            }
            Throwable reportFailure = null;
            BallTree built = tree;   // for the report's renderer
            if (report != null) {
                reportFailure = ReportStage.stage(g, out, report, () -> BallTreeReport.render(BallTreeReportData.builder()
                        .title("Sylva ball tree — " + ("-".equals(in.input) ? "standard input" : in.input))
                        .points(points.size(), points.dimensions(), points.coordinates())
                        .tree(built.indices(), built.mask(), levels)
                        .batch(drawn)
                        .level(level)
                        .parameter("input", in.input)
                        .parameter("points", points.size() + " x " + points.dimensions())
                        .parameter("batches", Integer.toString(layout.batchCount()))
                        .stage("build", ms / 1e3)
                        .sylvaVersion(SylvaCommand.version())
                        .build()));
            }
            context.cancel().throwIfCancelled();
            Throwable failed = reportFailure;
            g.commitFolder(out, "balltree", RunRecord.of(spec, read, null).describe(), () -> {
                // an earlier report there would describe another tree
                if (failed != null) ReportStage.removeEarlier(report);
            });
            OutputTargets.tellRemoved(err, run.quiet, g, out);
            if (report != null && reportFailure == null) written.add(report);
            printJson(summary.put("n_slots", tree.size()), readSeconds, ms, written);
            if (!run.quiet) {
                int batches = layout.batchCount();
                err.printf(Locale.ROOT, "ball tree of %d %s (%d %s, %d slots) in %.2f ms%s; wrote %s%n",
                        points.size(), plural(points.size(), "point"), batches, plural(batches, "batch"), tree.size(), ms,
                        onEngine, out);
            }
            if (reportFailure != null) throw new ReportNotWritten(report, out, reportFailure);
        }
        return 0;
    }

    /** With {@code --json}: {@code summary}'s line, with the read and the build's times and the files written. */
    private void printJson(JsonSummary summary, double readSeconds, double buildMs, List<Path> written) {
        if (!json) return;
        java.util.Map<String, Object> seconds = new java.util.LinkedHashMap<>();
        seconds.put("read", readSeconds);
        seconds.put("build", buildMs / 1e3);
        spec.commandLine().getOut().println(summary.put("seconds", seconds).files(written).line());
    }

    /**
     * The CPU engine's kernels: {@code --backend scalar} or {@code simd} where given (with a {@code --kernels} that
     * says otherwise refused: one of them), else {@code --kernels}. {@code sylva balltree} and its bench.
     */
    static Kernels kernels(String backend, Kernels kernels, CommandSpec spec) {
        Kernels named = "scalar".equals(backend) ? Kernels.SCALAR : "simd".equals(backend) ? Kernels.VECTOR : null;
        if (named == null) return kernels;
        if (spec.commandLine().getParseResult().hasMatchedOption("--kernels") && kernels != named) {
            throw new InvalidInputException("--backend " + backend + " and --kernels "
                    + kernels.name().toLowerCase(Locale.ROOT) + " choose different kernels: give one of them");
        }
        // as sylva hdbscan --backend simd: refused where the vector kernels cannot run (--kernels vector warns and
        // builds with the scalar code, as it always has)
        if (named == Kernels.VECTOR && !BallTreeBuilder.vectorKernelsAvailable()) {
            throw InvalidInputException.forParameter("backend", "backend simd is not available: "
                    + org.sylva.kernels.KernelProvider.get().vectorPartitionUnavailableReason() + "; use backend scalar");
        }
        return named;
    }

    /** The partition's level: --partition-level, or the largest int for a deeper one (the same cells). */
    private int partitionDepth() {
        return partitionLevel.bitLength() < 32 ? partitionLevel.intValue() : Integer.MAX_VALUE;
    }

    /**
     * The level from which every cell of the partition is a single point: {@code ceil(log2 m)} for the largest batch
     * of m points, one level below its tree's leaves of two (0 for batches of at most one point).
     */
    static int singlePointLevel(BatchLayout layout) {
        int largest = 0;
        for (int b = 0; b < layout.batchCount(); b++) largest = Math.max(largest, layout.batchSize(b));
        return largest <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(largest - 1);
    }

    /** A shape as NumPy prints it: {@code (10, 2)}, {@code (5,)}. */
    static String numpyShape(int[] shape) {
        StringBuilder s = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) s.append(i == 0 ? "" : ", ").append(shape[i]);
        return s.append(shape.length == 1 ? ",)" : ")").toString();
    }

    /** The batch with the most points, the first of equals (0 for an empty cloud): what the report draws by default. */
    static int largestBatch(BatchLayout layout) {
        int best = 0;
        for (int b = 1; b < layout.batchCount(); b++) {
            if (layout.batchSize(b) > layout.batchSize(best)) best = b;
        }
        return best;
    }

    /** The arrays of a tree, and of a partition, without extension. */
    static final List<String> TREE = List.of("tree_idx", "mask", "offsets", "levels");
    static final List<String> PARTITION = List.of("perm");
    /** Every output's file name in every format: a report in --out must not take one. */
    static final List<String> RESERVED = reserved();

    private static List<String> reserved() {
        List<String> l = new ArrayList<>();
        for (OutputFormat f : OutputFormat.values()) {
            l.addAll(names(TREE, f));
            l.addAll(names(PARTITION, f));
        }
        return List.copyOf(l);
    }

    static List<String> names(List<String> arrays, OutputFormat format) {
        List<String> l = new ArrayList<>();
        for (String a : arrays) l.add(a + format.extension());
        return l;
    }

    /** {@code word} for a count of one, else its plural ("batch" becomes "batches"). */
    static String plural(long count, String word) {
        if (count == 1) return word;
        return word.endsWith("ch") ? word + "es" : word + "s";
    }

    /**
     * Refuses a {@code --batch} file that is missing, a folder, or not named {@code .npy}, before any output is claimed
     * and naming the option (the points' reader would have said only the file's name).
     */
    static void refuseUnreadableBatch(Path batch) {
        if (batch == null) return;
        if (batch.toString().isBlank()) throw InvalidInputException.forParameter("batch", "--batch is empty; name the .npy of batch ids");
        if (Files.isDirectory(batch)) {
            throw InvalidInputException.forParameter("batch", batch + ": is a folder; give the .npy of batch ids");
        }
        if (!Files.exists(batch)) throw InvalidInputException.forParameter("batch", batch + ": no such file");
        boolean npy;
        try {
            npy = InputOptions.isNpy(batch) || !Files.isRegularFile(batch);   // a pipe (/dev/stdin) is read as .npy
        } catch (IOException e) {
            return;   // unreadable: the reader says why, naming the file
        }
        if (!npy) {
            throw InvalidInputException.forParameter("batch", batch + ": batch ids are read from a .npy file (one integer "
                    + "id per point, e.g. numpy.save('batch.npy', ids.astype(numpy.int64)))");
        }
    }

    static BatchLayout readLayout(Path file, int n, org.sylva.progress.CancellationToken cancel) throws IOException {
        NpyArray a;
        try {
            a = Npy.read(file, cancel);
        } catch (org.sylva.io.NpyFormatException e) {
            if (e.unsupportedDescr().isEmpty()) throw e;
            // the reader's list of what it takes holds floats and bool, which batch ids are not
            throw new InvalidInputException(file + ": batch ids must have an integer dtype (e.g. int64); got descr "
                    + e.unsupportedDescr().get());
        }
        int[] shape = a.shape();
        if (!(shape.length == 1 || (shape.length == 2 && shape[1] == 1))) {
            throw new InvalidInputException(file + ": batch ids must be a 1-D array (one id per point) or a column (n, 1); "
                    + "got shape "
                    + numpyShape(shape));
        }
        NpyDtype t = a.dtype();
        if (t == NpyDtype.BOOL || t == NpyDtype.FLOAT16 || t == NpyDtype.FLOAT32 || t == NpyDtype.FLOAT64) {
            // as sylva.build_balltree and Erwin's reference (an int64 tensor): a float or bool array is most
            // likely another array given by mistake (the tree's own mask.npy is bool)
            throw new InvalidInputException(file + ": batch ids must have an integer dtype (e.g. int64); got "
                    + t.numpyName() + (t == NpyDtype.BOOL ? "" : " (whole numbers? save them with .astype(np.int64))"));
        }
        long[] ids = a.toInt64(); // every integer type fits (a uint64 beyond int64 was refused when read)
        if (ids.length != n) {
            throw new InvalidInputException(file + ": " + ids.length + " batch " + (ids.length == 1 ? "id" : "ids") + " for "
                    + n + " " + plural(n, "point"));
        }
        try {
            return BatchLayout.of(n, ids);
        } catch (InvalidInputException e) {
            throw e.withContext(file.toString());
        }
    }

    /**
     * Refuses {@code --threads} (the CPU engine's threads) given with a GPU {@code backend}, which builds on the
     * device and would ignore them. {@code sylva balltree} and its bench.
     */
    static void refuseThreadsOnGpu(String backend, Integer threads) {
        if (org.sylva.gpu.GpuEngines.isGpu(backend) && threads != null) {
            throw new InvalidInputException("--threads sets the CPU engine's threads; --backend " + backend
                    + " builds on the device: give one of them");
        }
    }

    /**
     * Refuses {@code --kernels} (the CPU engine's kernels) given with a GPU {@code backend}, which builds on the
     * device: a timing or a tree labelled with kernels that never ran. {@code sylva balltree} and its bench.
     */
    static void refuseKernelsOnGpu(String backend, CommandSpec spec) {
        if (org.sylva.gpu.GpuEngines.isGpu(backend) && spec.commandLine().getParseResult().hasMatchedOption("--kernels")) {
            throw new InvalidInputException("--kernels chooses the CPU engine's kernels; --backend " + backend
                    + " builds on the device: give one of them");
        }
    }
}
