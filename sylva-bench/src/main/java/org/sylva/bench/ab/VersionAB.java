package org.sylva.bench.ab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;
import org.sylva.bench.ab.VersionCore.Core;
import org.sylva.bench.ab.VersionCore.NotACore;
import org.sylva.bench.ab.VersionCore.Op;
import static org.sylva.bench.ab.PairedTiming.median;
import static org.sylva.bench.ab.PairedTiming.pairs;
import static org.sylva.bench.ab.PairedTiming.warmUp;
import org.sylva.bench.ab.PairedTiming.Block;
import org.sylva.bench.ab.PairedTiming.Samples;

/**
 * Two versions of {@code sylva-core} timed against each other in one JVM: each is loaded by its own
 * {@link URLClassLoader} (parent: the platform class loader, so the two cores, and the copy of the core
 * that may sit on this harness's own class path, never mix) and driven only by reflection on the public
 * API both keep: {@code PointSet.of(int, int, float[])}, {@code Hdbscan.builder().minClusterSize(int)
 * .threads(int).build().fit(PointSet).labels()} and {@code new BallTreeBuilder().threads(int)
 * .build(PointSet, int[])}, {@code .indices()}, {@code .mask()}. This class compiles against nothing of
 * the core; the {@link Method} objects are resolved once, before any timing.
 *
 * <p>Inputs (generated here, the same arrays for both sides): HDBSCAN of 20 000 clip-like points in 61
 * dimensions ({@code ClipLikeData.generate(20000, 40240)} called in A's loader, the data of
 * {@code HdbscanBench}), {@code min_cluster_size} 20; ball trees of uniform points in [0, 1)^3 (seed 42, as
 * {@code BallTreeBench}): 16 384 points in one batch, the same points as 64 batches of 256, and 2^20
 * points in one batch. {@code --threads} applies to both the fit and the builds. With {@code --input
 * FILE.npy} the only input is the HDBSCAN fit of that file (a C-ordered {@code (n, d)} array of float32,
 * given as {@code PointSet.of}, or of float64, given as {@code PointSet.ofFloat64}), with
 * {@code --min-cluster-size} (default 20).
 *
 * <p>Per input: a warm-up of blocks of alternating builds (at least {@value PairedTiming#BLOCK_MIN_PAIRS} pairs and
 * half a second a block) until neither side's block median is more than 5 % below its previous block's
 * and the JIT compiled for at most 10 ms during the block, after at least 6 s and at most 30 s. Then
 * {@code --rounds} rounds; a round times every input once, as a block of an even number of pairs in
 * ABBA order (A B, B A, A B, ...) lasting about 6 s for HDBSCAN and 3 s for each ball tree. Printed per
 * input: the median time of A and of B over all pairs, the median over all pairs of the per-pair ratio
 * B/A (below 1: B is faster), and the range of the per-round medians of that ratio. With the defaults
 * (7 rounds) a run takes about two and a half minutes on two cores, four at most. After each side's
 * first call, after its warm-up and after every round the last results of A and B are compared with
 * each other and with A's first (labels; tree indices and mask): any difference aborts the run with
 * exit status 1.
 *
 * <p>Commands, from the repository root, JDK 25 ({@code . bin/find-jdk.sh}):
 * <pre>
 * # the core of a previous commit: a worktree, its core packaged (package, not install: install would
 * # put the old core into ~/.m2 as sylva-core 0.1.0 for every later build that resolves it from there)
 * git worktree add /tmp/old COMMIT
 * (cd /tmp/old &amp;&amp; mvn -q -B -o -DskipTests package -pl sylva-core)
 * # this tree: the new core and the harness
 * mvn -q -B -o -DskipTests package -pl sylva-core,sylva-bench
 * java -Xmx6g --add-modules jdk.incubator.vector -cp sylva-bench/target/classes org.sylva.bench.ab.VersionAB \
 *      --a /tmp/old/sylva-core/target/sylva-core-0.1.0.jar --b sylva-core/target/sylva-core-0.1.0.jar
 * # options: --rounds N (default 7)  --threads T (default 2)  --only hdbscan|balltree
 * #          --input FILE.npy (an HDBSCAN fit of that file only)  --min-cluster-size M (default 20)
 * git worktree remove /tmp/old
 * </pre>
 * The harness needs only its own classes ({@code sylva-bench/target/benchmarks.jar} works as well: the
 * core it holds is not seen by either side). {@code --a}/{@code --b} take a core jar or a classes
 * directory ({@code sylva-core/target/classes}). Without {@code --add-modules jdk.incubator.vector} both
 * sides run their scalar code. A run with A and B the same jar measures the harness's own scatter. On
 * this project's two-core machine, with other processes keeping the load average near 8, three such
 * runs ({@code --rounds 3}) gave ball-tree ratios of 0.92 to 1.05 and HDBSCAN ratios of 0.96 to 1.18,
 * and within one run the sign tended to hold over its rounds (each side's code is JIT-compiled once per
 * JVM, not always equally well). So one run does not resolve a change of a few per cent: judge it over
 * several runs, some with {@code --a} and {@code --b} swapped, on a machine as idle as can be had.
 */
public final class VersionAB {
    static final int DEFAULT_ROUNDS = 7;
    static final int DEFAULT_THREADS = 2;
    static final int MAX_ROUNDS = 10_000;
    static final int MAX_THREADS = 4_096;
    static final int MAX_MIN_CLUSTER_SIZE = 1_000_000;

    private static final int CLIP_POINTS = 20_000;
    private static final long CLIP_SEED = 20240L + CLIP_POINTS;
    private static final int MIN_CLUSTER_SIZE = 20;
    private static final long UNIFORM_SEED = 42L;

    /* A timed round of one input: an even number of pairs, ABBA. */
    private static final long HDBSCAN_ROUND_NANOS = 6_000_000_000L;
    private static final long BALLTREE_ROUND_NANOS = 3_000_000_000L;
    static final int ROUND_MIN_PAIRS = 2;
    static final int ROUND_MAX_PAIRS = 20_000;

    static final String USAGE = """
            usage: java --add-modules jdk.incubator.vector -cp <sylva-bench classes> org.sylva.bench.ab.VersionAB \\
                        --a OLD_CORE --b NEW_CORE [--rounds N] [--threads T] [--only hdbscan|balltree]
                        [--input FILE.npy] [--min-cluster-size M]
              --a, --b    a sylva-core jar or classes directory for each side (required)
              --rounds    timed rounds, each timing every input once in ABBA pairs (default 7, 1..10000)
              --threads   threads of the HDBSCAN fit and of the ball-tree builds (default 2, 1..4096)
              --only      time only the HDBSCAN fit or only the ball trees
              --input     time the HDBSCAN fit of this (n, d) float32 or float64 .npy instead of every input
              --min-cluster-size  the HDBSCAN fit's min_cluster_size (default 20)
            Prints per input the median time of A and B and the median of the per-pair ratios B/A
            (below 1: B is faster) with the range of the per-round medians; exit 1 if A and B differ.""";

    private VersionAB() { }

    /** Parsed command line. {@code only} is null (everything), {@code "hdbscan"} or {@code "balltree"}. */
    record Options(Path a, Path b, int rounds, int threads, String only, Path input, int minClusterSize) { }

    /** A bad command line; a null message asks for the usage alone ({@code --help}). */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }


    /** The results of A and B differ: the run stops. */
    static final class ResultsDiffer extends RuntimeException {
        ResultsDiffer(String message) {
            super(message);
        }
    }

    static Options parse(String[] args) throws UsageException {
        Path a = null, b = null;
        int rounds = DEFAULT_ROUNDS, threads = DEFAULT_THREADS, minClusterSize = MIN_CLUSTER_SIZE;
        String only = null;
        Path input = null;
        for (int i = 0; i < args.length; i++) {   // bounded: i only grows
            String key = args[i];
            if (key.equals("-h") || key.equals("--help")) throw new UsageException(null);
            if (!List.of("--a", "--b", "--rounds", "--threads", "--only", "--input", "--min-cluster-size")
                    .contains(key)) {
                throw new UsageException("unknown argument '" + key + "'");
            }
            if (i + 1 >= args.length) throw new UsageException(key + " needs a value");
            String value = args[++i];
            switch (key) {
                case "--a" -> a = core(key, value);
                case "--b" -> b = core(key, value);
                case "--rounds" -> rounds = number(key, value, 1, MAX_ROUNDS);
                case "--threads" -> threads = number(key, value, 1, MAX_THREADS);
                case "--min-cluster-size" -> minClusterSize = number(key, value, 2, MAX_MIN_CLUSTER_SIZE);
                case "--input" -> {
                    input = Path.of(value);
                    if (!Files.isRegularFile(input) || !value.endsWith(".npy")) {
                        throw new UsageException("--input: no such .npy file: " + value);
                    }
                    input = input.toAbsolutePath().normalize();
                }
                default -> {
                    if (!value.equals("hdbscan") && !value.equals("balltree")) {
                        throw new UsageException("--only takes hdbscan or balltree, not '" + value + "'");
                    }
                    only = value;
                }
            }
        }
        if (a == null || b == null) throw new UsageException("both --a and --b are required");
        if (input != null && "balltree".equals(only)) throw new UsageException("--input is an HDBSCAN input");
        return new Options(a, b, rounds, threads, only, input, minClusterSize);
    }

    private static Path core(String key, String value) throws UsageException {
        Path p = Path.of(value);
        if (!Files.isRegularFile(p) && !Files.isDirectory(p)) {
            throw new UsageException(key + ": no such jar or directory: " + value);
        }
        return p.toAbsolutePath().normalize();
    }

    private static int number(String key, String value, int min, int max) throws UsageException {
        int v;
        try {
            v = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new UsageException(key + " takes a whole number, not '" + value + "'");
        }
        if (v < min || v > max) throw new UsageException(key + " must be in " + min + ".." + max + ", got " + v);
        return v;
    }

    /** One input: A's and B's call, the names of the compared outputs, the target length of a round. */
    record Input(String name, Op a, Op b, String[] outputNames, long roundNanos) { }

    /**
     * Null if the two result tuples are equal, else where they first differ. Arrays of int, long, boolean
     * and double are compared element by element; anything else with {@link Objects#deepEquals}.
     */
    static String difference(String[] names, Object[] x, Object[] y) {
        for (int k = 0; k < names.length; k++) {
            Object u = x[k], w = y[k];
            if (Objects.deepEquals(u, w)) continue;
            if (u == null || w == null || u.getClass() != w.getClass() || !u.getClass().isArray()) {
                return names[k] + " differ: " + u + " vs " + w;
            }
            int lu = java.lang.reflect.Array.getLength(u), lw = java.lang.reflect.Array.getLength(w);
            if (lu != lw) return names[k] + " differ in length: " + lu + " vs " + lw;
            int diff = 0, first = -1;
            for (int i = 0; i < lu; i++) {
                if (!Objects.equals(java.lang.reflect.Array.get(u, i), java.lang.reflect.Array.get(w, i))) {
                    if (first < 0) first = i;
                    diff++;
                }
            }
            return names[k] + " differ at " + diff + " of " + lu + " positions, first at " + first + ": "
                    + java.lang.reflect.Array.get(u, first) + " vs " + java.lang.reflect.Array.get(w, first);
        }
        return null;
    }

    static void check(Input in, String when, Object[] reference) {
        Object[] a = in.a().outputs(), b = in.b().outputs();
        String d = difference(in.outputNames(), a, b);
        if (d != null) throw new ResultsDiffer(in.name() + ", " + when + ": A and B " + d);
        d = difference(in.outputNames(), reference, a);
        if (d != null) throw new ResultsDiffer(in.name() + ", " + when + ": A against A's first result: " + d);
    }

    static float[] uniform(int n, int d, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        float[] c = new float[n * d];
        for (int i = 0; i < c.length; i++) c[i] = (float) rnd.nextDouble();
        return c;
    }

    static int[] evenBatches(int batches, int size) {
        int[] ids = new int[batches * size];
        for (int b = 0; b < batches; b++) Arrays.fill(ids, b * size, (b + 1) * size, b);
        return ids;
    }

    /** The clip-like coordinates, from {@code org.sylva.demo.ClipLikeData} in A's loader (else B's). */
    static float[] clips(Core a, Core b, int n, long seed) {
        ReflectiveOperationException failure = null;
        for (Core c : new Core[] {a, b}) {
            try {
                Class<?> demo = c.loader.loadClass("org.sylva.demo.ClipLikeData");
                Object data = demo.getMethod("generate", int.class, long.class).invoke(null, n, seed);
                Object points = demo.getMethod("points").invoke(data);
                return ((float[]) points.getClass().getMethod("coordinates").invoke(points)).clone();
            } catch (ReflectiveOperationException e) {
                failure = e;
            }
        }
        throw new IllegalStateException("neither core could generate the clip-like data (org.sylva.demo.ClipLikeData"
                + ".generate(int, long).points().coordinates()): " + failure, failure);
    }

    static List<Input> inputs(Core a, Core b, Options o) {
        List<Input> in = new ArrayList<>();
        int t = o.threads();
        if (o.input() != null) {
            NpyMatrix m;
            try {
                m = NpyMatrix.read(o.input());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Op[] ops = new Op[2];
            Core[] cores = {a, b};
            for (int s = 0; s < 2; s++) {
                Core k = cores[s];
                Object points = m.float32() != null ? k.points(m.n(), m.d(), m.float32())
                        : k.points(m.n(), m.d(), m.float64());
                ops[s] = new Op(k.side + ": Hdbscan.fit", k.fit, k.hdbscan(o.minClusterSize(), t),
                        new Object[] {points}, k.labels);
            }
            in.add(new Input("hdbscan " + o.input().getFileName() + " " + m.n() + " x " + m.d(), ops[0], ops[1],
                    new String[] {"labels"}, HDBSCAN_ROUND_NANOS));
        } else if (o.only() == null || o.only().equals("hdbscan")) {
            float[] c = clips(a, b, CLIP_POINTS, CLIP_SEED);
            int d = c.length / CLIP_POINTS;
            Op[] ops = new Op[2];
            Core[] cores = {a, b};
            for (int s = 0; s < 2; s++) {
                Core k = cores[s];
                ops[s] = new Op(k.side + ": Hdbscan.fit", k.fit, k.hdbscan(o.minClusterSize(), t),
                        new Object[] {k.points(CLIP_POINTS, d, c)}, k.labels);
            }
            in.add(new Input("hdbscan " + CLIP_POINTS + " x " + d, ops[0], ops[1], new String[] {"labels"},
                    HDBSCAN_ROUND_NANOS));
        }
        if (o.input() == null && (o.only() == null || o.only().equals("balltree"))) {
            int[][] cases = {{1, 16_384}, {64, 256}, {1, 1 << 20}};
            for (int[] cs : cases) {
                int batches = cs[0], size = cs[1], n = batches * size;
                float[] c = uniform(n, 3, UNIFORM_SEED);
                int[] ids = batches == 1 ? null : evenBatches(batches, size);
                Op[] ops = new Op[2];
                Core[] cores = {a, b};
                for (int s = 0; s < 2; s++) {
                    Core k = cores[s];
                    ops[s] = new Op(k.side + ": BallTreeBuilder.build", k.treeBuild, k.treeBuilder(t),
                            new Object[] {k.points(n, 3, c), ids == null ? null : ids.clone()}, k.indices, k.mask);
                }
                String name = "balltree " + (batches == 1 ? n + " one batch" : batches + " x " + size);
                in.add(new Input(name, ops[0], ops[1], new String[] {"indices", "mask"}, BALLTREE_ROUND_NANOS));
            }
        }
        return in;
    }

    static String ms(double nanos) {
        return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }

    public static void main(String[] args) {
        Options o;
        try {
            o = parse(args);
        } catch (UsageException e) {
            if (e.getMessage() == null) {
                System.out.println(USAGE);
                return;
            }
            System.err.println("VersionAB: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        try {
            run(o);
        } catch (NotACore e) {
            System.out.flush();
            System.err.println("VersionAB: " + e.getMessage());
            System.exit(1);
        } catch (ResultsDiffer e) {
            System.out.flush();
            System.err.println("VersionAB: RESULTS DIFFER, run aborted: " + e.getMessage());
            System.exit(1);
        } catch (IOException | RuntimeException e) {
            System.out.flush();
            System.err.println("VersionAB: failed: " + e);
            e.printStackTrace();
            System.exit(1);
        }
    }

    static void run(Options o) throws IOException {
        long start = System.nanoTime();
        try (Core a = new Core("A", o.a()); Core b = new Core("B", o.b())) {
            System.out.println("A: " + o.a());
            System.out.println("B: " + o.b());
            if (Files.isSameFile(o.a(), o.b())) {
                System.out.println("A and B are the same core: the ratios show the harness's scatter");
            }
            boolean vector = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
            System.out.printf(Locale.ROOT, "threads %d, rounds %d, Vector API %s, %s %s%n", o.threads(), o.rounds(),
                    vector ? "present" : "ABSENT (both sides run scalar code; add --add-modules jdk.incubator.vector)",
                    System.getProperty("java.vm.name"), System.getProperty("java.vm.version"));
            List<Input> inputs = inputs(a, b, o);
            int m = inputs.size();
            Object[][] reference = new Object[m][];
            for (int i = 0; i < m; i++) {
                Input in = inputs.get(i);
                long t0 = System.nanoTime();
                in.a().time();
                in.b().time();
                reference[i] = in.a().outputs();
                check(in, "first call", reference[i]);
                double[] warm = warmUp(in);
                check(in, "after warm-up", reference[i]);
                System.out.printf(Locale.ROOT, "warm-up %-28s %5.1f s; last block: A %s, B %s, JIT %.0f ms%n",
                        in.name(), (System.nanoTime() - t0) / 1e9, ms(warm[0]), ms(warm[1]), warm[2]);
            }
            Samples[] sa = new Samples[m], sb = new Samples[m], sr = new Samples[m];
            double[][] roundRatio = new double[m][o.rounds()];
            for (int i = 0; i < m; i++) {
                sa[i] = new Samples();
                sb[i] = new Samples();
                sr[i] = new Samples();
            }
            for (int r = 0; r < o.rounds(); r++) {
                StringBuilder line = new StringBuilder(
                        String.format(Locale.ROOT, "round %d/%d  B/A:", r + 1, o.rounds()));
                for (int i = 0; i < m; i++) {
                    Input in = inputs.get(i);
                    System.gc();
                    Block blk = pairs(in, in.roundNanos());
                    check(in, "round " + (r + 1), reference[i]);
                    sa[i].addAll(blk.a());
                    sb[i].addAll(blk.b());
                    sr[i].addAll(blk.ratio());
                    roundRatio[i][r] = median(blk.ratio());
                    line.append(String.format(Locale.ROOT, "  %s %.3f", in.name(), roundRatio[i][r]));
                }
                System.out.println(line);
            }
            System.out.println();
            System.out.printf(Locale.ROOT, "%-28s %7s %14s %14s %9s %15s%n", "input (threads " + o.threads() + ")",
                    "pairs", "A median", "B median", "B/A", "rounds min-max");
            for (int i = 0; i < m; i++) {
                double[] rr = roundRatio[i].clone();
                Arrays.sort(rr);
                double[] ratios = sr[i].values();
                System.out.printf(Locale.ROOT, "%-28s %7d %14s %14s %9.3f %7.3f-%.3f%n", inputs.get(i).name(),
                        ratios.length, ms(median(sa[i].values())), ms(median(sb[i].values())), median(ratios),
                        rr[0], rr[rr.length - 1]);
            }
            System.out.printf(Locale.ROOT, "B/A: median over all pairs of B's time / A's (below 1: B faster); "
                    + "results identical in every check; %.0f s in all%n", (System.nanoTime() - start) / 1e9);
        }
    }
}
