package org.sylva.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.bench.balltree.BallTreeBench;
import org.sylva.bench.hdbscan.BenchControl;
import org.sylva.bench.hdbscan.HdbscanBench;
import org.sylva.bench.hdbscan.PredictBench;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import picocli.CommandLine.Model.CommandSpec;

/** {@code sylva bench}: time Sylva on your own data, in-process, after warm-up. */
final class BenchCommand implements Callable<Integer> {
    CommandSpec spec;
    private final CliContext context;

    BenchCommand(CliContext context) {
        this.context = context;
    }

    /** This command's picocli model, bound to this object ({@link CommandModel}). */
    CommandSpec model() {
        CommandModel m = new CommandModel("bench", this)
                .header("Time HDBSCAN, predictions or the ball tree on your data (in-process, after warm-up).")
                .description("Times HDBSCAN, predictions or the ball tree in-process after warm-up (medians; no I/O "
                        + "in the timing).")
                .footer("",
                        "Examples:",
                        "  sylva bench hdbscan clips.npy --min-cluster-size 20 --repeat 3",
                        "  sylva bench balltree cloud.npy --batch batch.npy --repeat 21",
                        "  sylva bench predict clips.model later.npy --repeat 5");
        m.subcommand(new Hdb(context).model()).subcommand(new Tree(context).model())
                .subcommand(new Predict(context).model());
        spec = m.spec();
        return spec;
    }

    /**
     * {@code sylva bench} without a subcommand: the usage on stderr and a usage error's status, as for {@code sylva}
     * alone, so that a script whose subcommand came out empty fails instead of passing having timed nothing.
     */
    @Override
    public Integer call() {
        var err = spec.commandLine().getErr();
        err.println("sylva: bench needs a subcommand: hdbscan, balltree or predict");
        spec.commandLine().usage(err, picocli.CommandLine.Help.Ansi.OFF);   // no colour codes: stderr shows them escaped
        return ExitStatus.ERROR;
    }

    /**
     * Each run's line on stderr ({@code sylva: bench run 1 of 3: 2.977 s}; the table stays alone on stdout) and the
     * command's token, which Ctrl-C cancels, given to every run.
     */
    static BenchControl control(CommandSpec spec, CliContext context) {
        java.io.PrintWriter err = spec.commandLine().getErr();
        return new BenchControl(line -> {
            err.println("sylva: bench " + line);
            err.flush();
        }, context.cancel());
    }

    /** Declares {@code --json} on a bench subcommand: its figures as one JSON line on stdout instead of text. */
    static void declareJson(CommandModel m, java.util.function.Consumer<Boolean> setter) {
        m.option(boolean.class, setter::accept, "--json")
                .description("Print the figures as one JSON line on stdout instead of the text (keys in "
                        + "docs/cli-json.md; times in seconds).");
    }

    /**
     * Refuses input with no points to time: a bench of nothing would print figures of an empty loop (a ball tree or a
     * prediction of no points is done at once, and succeeds in {@code sylva balltree} and {@code sylva predict}).
     */
    static void refuseEmpty(String input, PointSet points, String what) {
        if (points.size() == 0) {
            throw new InvalidInputException(("-".equals(input) ? "standard input" : input) + ": no points; "
                    + "sylva bench times " + what + " of one or more points");
        }
    }

    /** Refuses a warm-up time that is negative, not a number or longer than a day. */
    static void checkWarmupSeconds(double seconds) {
        if (!(seconds >= 0 && seconds <= 86_400)) {
            throw new InvalidInputException("--warmup-seconds must be between 0 and 86400; got " + seconds);
        }
    }

    /** {@code sylva bench hdbscan}. */
    static final class Hdb implements Callable<Integer> {
        CommandSpec spec;
        private final CliContext context;
        String input;
        String shape;
        Integer generate;
        int minClusterSize;
        Integer minSamples;
        SelectionMethod method;
        String backend;
        int repeat;
        int warmup;
        double warmupSeconds;
        Integer threads;
        String metric;
        Double p;
        boolean json;

        /** This command's picocli model, bound to this object ({@link CommandModel}). */
        CommandSpec model() {
            CommandModel m = new CommandModel("hdbscan", this)
                    .unsorted()
                    .description("Per-stage medians of repeated HDBSCAN fits of FILE (or of generated clip-like "
                            + "data).")
                    .footer("",
                            "Examples:",
                            "  sylva bench hdbscan clips.npy --min-cluster-size 20 --repeat 3",
                            "  sylva bench hdbscan --generate 50000 --threads 1",
                            "  sylva bench hdbscan --generate 200000 --backend cuda --repeat 3",
                            "  sylva bench hdbscan points.npy --metric manhattan --min-cluster-size 20",
                            "  sylva bench hdbscan graph.npz --metric precomputed --min-samples 10");
            m.parameter(String.class, v -> input = v)
                    .index("0")
                    .arity("0..1")
                    .paramLabel("FILE")
                    .description("Points (.npy, .csv/.tsv, .npz, raw with --shape), as sylva hdbscan and sylva "
                            + "balltree read them.");
            m.option(String.class, v -> shape = v, "--shape")
                    .paramLabel("N,D")
                    .description("Shape of a raw float32 input.");
            m.option(Integer.class, v -> generate = v, "--generate")
                    .paramLabel("N")
                    .description("Use N generated clip-like waveforms instead of FILE.");
            m.option(int.class, v -> minClusterSize = v, "--min-cluster-size")
                    .paramLabel("M")
                    .defaultValue("20")
                    .description("HDBSCAN min_cluster_size (default ${DEFAULT-VALUE}, the spike clips' value, as "
                            + "sylva demo fits them; sylva hdbscan's default is 5, so give it to time that fit). The "
                            + "first line of the output names the values timed.");
            m.option(Integer.class, v -> minSamples = v, "--min-samples")
                    .paramLabel("K")
                    .description("HDBSCAN min_samples (default: the min_cluster_size).");
            m.option(SelectionMethod.class, v -> method = v, "--method")
                    .paramLabel("eom|leaf")
                    .defaultValue("eom")
                    .description("Cluster selection method (default ${DEFAULT-VALUE}).");
            m.option(String.class, v -> backend = v, "--backend")
                    .paramLabel("auto|scalar|simd|opencl|cuda")
                    .defaultValue("auto")
                    .converters(new EngineChoice.Name())
                    .description("Distance kernels (default auto, which runs small inputs on the scalar kernels for "
                            + "its first 5 s; simd: the vector kernels warm), or the GPU engine on the first usable "
                            + "OpenCL (a GPU before a CPU device) or CUDA device (at most 2048 coordinates per point).");
            m.option(int.class, v -> repeat = v, "--repeat")
                    .paramLabel("N")
                    .defaultValue("3")
                    .description("Timed repetitions (default ${DEFAULT-VALUE}).");
            m.option(int.class, v -> warmup = v, "--warmup")
                    .paramLabel("N")
                    .defaultValue("1")
                    .description("Untimed warm-up fits (default ${DEFAULT-VALUE}); with one or more, they go on "
                            + "for --warmup-seconds and until the process makes a long-lived process's choices "
                            + "(kernels, bounds: a fresh JVM makes a one-shot run's for its first seconds); 0: no "
                            + "warm-up, a fresh JVM's first fits timed.");
            m.option(double.class, v -> warmupSeconds = v, "--warmup-seconds")
                    .paramLabel("S")
                    .defaultValue("10")
                    .description("Least time the warm-up goes on once the process makes a long-lived process's "
                            + "choices (default ${DEFAULT-VALUE}), for the JIT to compile their code.");
            m.option(Integer.class, v -> threads = v, "--threads")
                    .paramLabel("T")
                    .description("Worker threads (default: all processors).");
            m.option(String.class, v -> metric = v, "--metric")
                    .paramLabel("NAME")
                    .defaultValue("euclidean")
                    .description("euclidean (default), manhattan, chebyshev, minkowski (with --p) or cosine, as "
                            + "sylva hdbscan --metric; or precomputed for a FILE.npz holding a sparse distance matrix "
                            + "(scipy.sparse.save_npz), timed with its checks as the stage 'graph checks'.");
            m.option(Double.class, v -> p = v, "--p")
                    .paramLabel("P")
                    .description("The exponent of --metric minkowski (>= 1; default 2).");
            declareJson(m, v -> json = v);
            spec = m.spec();
            return spec;
        }

        Hdb(CliContext context) {
            this.context = context;
        }

        @Override
        public Integer call() throws Exception {
            PointSet pts;
            if (generate != null && input != null) {
                throw new InvalidInputException("give a FILE or --generate N, not both");
            }
            if (generate != null && shape != null) {
                throw new InvalidInputException("--shape gives the shape of a raw FILE; --generate N makes N clips of 61 "
                        + "samples: give one of them");
            }
            Metric m = Metric.parse(metric, p);
            if (m.isPrecomputed()) return graph();
            if (!m.isEuclidean() && !backend.equals("auto")) {
                throw InvalidInputException.forParameter("backend", "--backend chooses the euclidean metric's kernels; "
                        + "metric " + m.name() + " runs on Sylva's own exact CPU engine (leave --backend out)");
            }
            // the options first: a bad one is refused before the input is read or generated
            checkRuns();
            Hdbscan.Builder b = Hdbscan.builder().metric(m);
            if (minSamples != null) b.minSamples(minSamples);
            Hdbscan h = EngineChoice.apply(backend, b.minClusterSize(minClusterSize).clusterSelectionMethod(method))
                    .threads(threads == null ? Runtime.getRuntime().availableProcessors() : threads).build();
            if (generate != null) {
                DemoCommand.checkPoints("--generate", generate);
                pts = ClipLikeData.generate(generate, 20240L + generate).points();
            } else if (input != null) {
                InputOptions in = new InputOptions();
                in.input = input;
                in.shape = shape;
                // read as sylva hdbscan reads it, so the fit timed is the fit it runs: float64 values stay exact
                InputOptions.Loaded loaded = in.readForFit(spec.commandLine().getErr(), context.stdin(),
                        context.cancel());
                in.requireFinite(loaded, "; sylva bench times finite inputs (sylva hdbscan has --non-finite)");
                in.requireRepresentable(loaded, m);
                pts = loaded.exact();
            } else {
                throw new InvalidInputException("give a FILE or --generate N");
            }
            try {
                print(HdbscanBench.run(pts, h, repeat, warmup, warmupSeconds, control(spec, context)), h);
            } catch (InvalidInputException e) {
                // the fit's checks (too few points, a min_samples above them) say what; the file says where
                throw input == null ? e : e.withContext("-".equals(input) ? "standard input" : input);
            }
            return 0;
        }

        /** The result: its table, or with {@code --json} its JSON line. */
        private void print(HdbscanBench.Result r, Hdbscan h) {
            if (!json) {
                spec.commandLine().getOut().print(r.table());
                return;
            }
            spec.commandLine().getOut().println(new JsonSummary("bench hdbscan")
                    .put("input", input)
                    .put("generate", generate)
                    .put("n_points", r.points())
                    .put("n_dims", r.dims())
                    .put("parameters", h.parameters().describeTyped())
                    .put("threads", r.threads())
                    .put("backend", r.backend())
                    .put("repeat", r.repeat())
                    .put("warmup", r.warmup())
                    .put("n_clusters", r.clusters())
                    .put("n_noise", r.noise())
                    .put("peak_heap_bytes", r.peakHeapBytes())
                    .put("median_seconds", r.medianSeconds())
                    .put("min_seconds", r.minSeconds())
                    .line());
        }

        /** Refuses a bad --repeat, --warmup or --warmup-seconds. */
        private void checkRuns() {
            if (repeat < 1 || warmup < 0) {
                throw new InvalidInputException("--repeat must be >= 1 and --warmup >= 0; got " + repeat + " and " + warmup);
            }
            checkWarmupSeconds(warmupSeconds);
        }

        /** A sparse distance matrix's fits: {@code FILE.npz}, read once, made into a graph and fitted each time. */
        private int graph() throws java.io.IOException {
            InputOptions in = new InputOptions();
            in.input = input;
            if (input == null || !in.isSparseNpz() || backend != null && !backend.equals("auto")) {
                throw InvalidInputException.forParameter("metric", "--metric precomputed times a FILE.npz holding a "
                        + "sparse distance matrix (scipy.sparse.save_npz), on the CPU");
            }
            if (shape != null) {
                throw new InvalidInputException("--shape gives the shape of a raw FILE; a .npz holds its own");
            }
            checkRuns();
            Hdbscan.Builder b = Hdbscan.builder().metric(org.sylva.hdbscan.metric.Metric.precomputed());
            if (minSamples != null) b.minSamples(minSamples);
            Hdbscan h = b.minClusterSize(minClusterSize).clusterSelectionMethod(method)
                    .threads(threads == null ? Runtime.getRuntime().availableProcessors() : threads).build();
            org.sylva.io.SparseMatrix m = in.readSparse(context.cancel());
            if (m.rows() != m.columns()) {
                throw InvalidInputException.forParameter("metric", input + ": a precomputed distance matrix must be "
                        + "square (n x n); got " + m.rows() + " x " + m.columns());
            }
            try {
                print(HdbscanBench.runGraph(m.rows(), m.indptr(), m.indices(), m.data(), h, repeat, warmup,
                        warmupSeconds, control(spec, context)), h);
            } catch (InvalidInputException e) {
                throw e.withContext(input);   // the graph's checks name an entry; the file names where
            }
            return 0;
        }
    }

    /** {@code sylva bench balltree}. */
    static final class Tree implements Callable<Integer> {
        CommandSpec spec;
        private final CliContext context;
        String input;
        String shape;
        Path batch;
        int repeat;
        Integer threads;
        BallTreeCommand.Kernels kernels;
        String backend;
        boolean json;

        /** This command's picocli model, bound to this object ({@link CommandModel}). */
        CommandSpec model() {
            CommandModel m = new CommandModel("balltree", this)
                    .unsorted()
                    .description("Builds the ball tree of FILE N times after warm-up; prints the median and minimum "
                            + "in ms (each build's time, and a warm-up build's once a second, on stderr).")
                    .footer("",
                            "Examples:",
                            "  sylva bench balltree cloud.npy --batch batch.npy --repeat 21 --threads 2");
            m.parameter(String.class, v -> input = v)
                    .index("0")
                    .paramLabel("FILE")
                    .description("Points (.npy, .csv/.tsv, .npz, raw with --shape), as sylva hdbscan and sylva "
                            + "balltree read them.");
            m.option(String.class, v -> shape = v, "--shape")
                    .paramLabel("N,D")
                    .description("Shape of a raw float32 input.");
            m.option(Path.class, v -> batch = v, "--batch")
                    .paramLabel("IDS")
                    .description("Batch id of each point (.npy of integers), as sylva balltree --batch.");
            m.option(int.class, v -> repeat = v, "--repeat")
                    .paramLabel("N")
                    .defaultValue("21")
                    .description("Timed builds (default ${DEFAULT-VALUE}).");
            m.option(Integer.class, v -> threads = v, "--threads")
                    .paramLabel("T")
                    .description("Worker threads (default: all processors).");
            m.option(BallTreeCommand.Kernels.class, v -> kernels = v, "--kernels")
                    .paramLabel("scalar|vector")
                    .defaultValue("vector")
                    .description("Vector API kernels where the JVM has them, or the scalar code (default "
                            + "${DEFAULT-VALUE}).");
            m.option(String.class, v -> backend = v, "--backend")
                    .paramLabel("auto|cpu|scalar|simd|opencl|cuda")
                    .defaultValue("auto")
                    .converters(new EngineChoice.TreeName())
                    .description("Engine (default ${DEFAULT-VALUE}: the CPU; scalar and simd: the CPU on those "
                            + "kernels, as --kernels scalar or vector). On a GPU, a second line times builds "
                            + "with the points already on the device and the tree left there (device_median_ms, "
                            + "device_min_ms).");
            declareJson(m, v -> json = v);
            spec = m.spec();
            return spec;
        }

        Tree(CliContext context) {
            this.context = context;
        }

        @Override
        public Integer call() throws Exception {
            // the options first: a bad one is refused before the input is read
            BallTreeCommand.refuseKernelsOnGpu(backend, spec);
            BallTreeCommand.Kernels chosen = BallTreeCommand.kernels(backend, kernels, spec);
            if (repeat < 1) throw new InvalidInputException("--repeat must be >= 1; got " + repeat);
            BallTreeCommand.refuseThreadsOnGpu(backend, threads);   // as sylva balltree, before the count's range
            int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
            org.sylva.parallel.Pools.checkThreads(t);   // 1 .. 32767; ErrorHandler names --threads
            BallTreeCommand.refuseUnreadableBatch(batch);   // as sylva balltree: before the points are read
            org.sylva.balltree.engine.TreeEngine engine = EngineChoice.tree(backend);
            InputOptions in = new InputOptions();
            in.input = input;
            in.shape = shape;
            // read as sylva balltree reads it: the same shapes refused, the same float32 range checked
            PointSet pts = in.readForTree(spec.commandLine().getErr(), context.stdin(), context.cancel(),
                    "; a ball tree needs finite coordinates");
            BatchLayout layout = batch == null ? BatchLayout.single(pts.size())
                    : BallTreeCommand.readLayout(batch, pts.size(), context.cancel());
            refuseEmpty(input, pts, "ball trees");
            if (engine instanceof org.sylva.gpu.GpuTreeEngine gpu) {
                BallTreeBench.Result r = BallTreeBench.runOn(gpu, pts, layout, repeat, control(spec, context));
                double[] dev = gpu.timeOnDevice(pts, layout, Math.min(repeat, 5), repeat);
                double devMedian = repeat % 2 == 1 ? dev[repeat / 2] : (dev[repeat / 2 - 1] + dev[repeat / 2]) / 2;
                if (json) {
                    java.util.Map<String, Object> median = new java.util.LinkedHashMap<>();
                    median.put("build", r.medianMs() / 1e3);
                    median.put("build_on_device", devMedian / 1e3);
                    java.util.Map<String, Object> min = new java.util.LinkedHashMap<>();
                    min.put("build", r.minMs() / 1e3);
                    min.put("build_on_device", dev[0] / 1e3);
                    printJson(r, null, gpu.name(), median, min);
                    return 0;
                }
                spec.commandLine().getOut().printf(java.util.Locale.ROOT,
                        "balltree n=%d d=%d batches=%d backend=%s repeat=%d median_ms=%.3f min_ms=%.3f%n"
                                + "balltree-device n=%d d=%d batches=%d backend=%s repeat=%d device_median_ms=%.3f device_min_ms=%.3f%n",
                        r.points(), r.dimensions(), r.batches(), gpu.name().replace(' ', '_'), repeat, r.medianMs(), r.minMs(),
                        r.points(), r.dimensions(), r.batches(), gpu.name().replace(' ', '_'), repeat, devMedian, dev[0]);
                return 0;
            }
            BallTreeBench.Result r = BallTreeBench.run(pts, layout, repeat, t, chosen == BallTreeCommand.Kernels.VECTOR,
                    control(spec, context));
            if (json) {
                printJson(r, r.threads(), r.vectorKernels() ? "simd" : "scalar", java.util.Map.of("build", r.medianMs() / 1e3),
                        java.util.Map.of("build", r.minMs() / 1e3));
            } else {
                spec.commandLine().getOut().println(r.line());
            }
            return 0;
        }

        /** The JSON line of {@code r}: {@code threads} null on a GPU, {@code backend} the engine that built. */
        private void printJson(BallTreeBench.Result r, Integer threads, String backend, java.util.Map<String, Object> median,
                java.util.Map<String, Object> min) {
            spec.commandLine().getOut().println(new JsonSummary("bench balltree")
                    .put("input", input)
                    .put("batch", batch == null ? null : batch.toString())
                    .put("n_points", r.points())
                    .put("n_dims", r.dimensions())
                    .put("n_batches", r.batches())
                    .put("threads", threads)
                    .put("backend", backend)
                    .put("repeat", r.repeat())
                    .put("median_seconds", median)
                    .put("min_seconds", min)
                    .line());
        }
    }

    /** {@code sylva bench predict}. */
    static final class Predict implements Callable<Integer> {
        CommandSpec spec;
        private final CliContext context;
        Path model;
        String input;
        String shape;
        int repeat;
        int warmup;
        double warmupSeconds;
        Integer threads;
        boolean json;

        /** This command's picocli model, bound to this object ({@link CommandModel}). */
        CommandSpec model() {
            CommandModel m = new CommandModel("predict", this)
                    .unsorted()
                    .description("Predicts FILE's points against MODEL (labels, probabilities, outlier scores and "
                            + "membership vectors, as sylva predict) N times after warm-up; prints the median and "
                            + "minimum in seconds. The model's search index is built by the first prediction (a warm-up "
                            + "one unless --warmup 0) and kept, as in a long-lived process: the figures leave out reading the "
                            + "model and building its index, which a one-shot sylva predict pays.")
                    .footer("", "Examples:", "  sylva bench predict clips.model later.npy --repeat 5 --threads 2");
            m.parameter(Path.class, v -> model = v)
                    .index("0")
                    .paramLabel("MODEL")
                    .description("A model saved by sylva hdbscan --save-model.");
            m.parameter(String.class, v -> input = v)
                    .index("1")
                    .paramLabel("FILE")
                    .description("New points (.npy, .csv/.tsv, .npz, raw with --shape), as sylva predict reads them.");
            m.option(String.class, v -> shape = v, "--shape")
                    .paramLabel("N,D")
                    .description("Shape of a raw float32 input.");
            m.option(int.class, v -> repeat = v, "--repeat")
                    .paramLabel("N")
                    .defaultValue("5")
                    .description("Timed repetitions (default ${DEFAULT-VALUE}).");
            m.option(int.class, v -> warmup = v, "--warmup")
                    .paramLabel("N")
                    .defaultValue("1")
                    .description("Untimed warm-up runs (default ${DEFAULT-VALUE}); with one or more, they go on "
                            + "for --warmup-seconds and until the process makes a long-lived process's choices "
                            + "(a fresh JVM makes a one-shot run's for its first seconds); 0: no warm-up, a fresh "
                            + "JVM's first runs timed.");
            m.option(double.class, v -> warmupSeconds = v, "--warmup-seconds")
                    .paramLabel("S")
                    .defaultValue("10")
                    .description("Least time the warm-up lasts (default ${DEFAULT-VALUE}).");
            m.option(Integer.class, v -> threads = v, "--threads")
                    .paramLabel("T")
                    .description("Worker threads (default: all processors).");
            declareJson(m, v -> json = v);
            spec = m.spec();
            return spec;
        }

        Predict(CliContext context) {
            this.context = context;
        }

        @Override
        public Integer call() throws Exception {
            if (repeat < 1 || warmup < 0) {
                throw new InvalidInputException("--repeat must be >= 1 and --warmup >= 0; got " + repeat + " and " + warmup);
            }
            checkWarmupSeconds(warmupSeconds);
            int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
            org.sylva.parallel.Pools.checkThreads(t);   // 1 .. 32767; ErrorHandler names --threads
            HdbscanModel m = HdbscanModel.load(model, org.sylva.progress.ProgressListener.NONE, context.cancel());
            PointSet points = PredictCommand.newPoints(m, model, input, shape, spec.commandLine().getErr(), context,
                    false);
            refuseEmpty(input, points, "predictions");
            PredictBench.Result r = PredictBench.run(m, points, repeat, warmup, warmupSeconds, t, control(spec, context));
            if (!json) {
                spec.commandLine().getOut().println(r.line());
                return 0;
            }
            spec.commandLine().getOut().println(new JsonSummary("bench predict")
                    .put("model", model.toString())
                    .put("input", input)
                    .put("n_fitted", r.fitted())
                    .put("n_points", r.points())
                    .put("n_dims", r.dimensions())
                    .put("threads", r.threads())
                    .put("repeat", r.repeat())
                    .put("warmup", r.warmup())
                    .put("median_seconds", java.util.Map.of("prediction", r.medianSeconds()))
                    .put("min_seconds", java.util.Map.of("prediction", r.minSeconds()))
                    .line());
            return 0;
        }
    }
}
