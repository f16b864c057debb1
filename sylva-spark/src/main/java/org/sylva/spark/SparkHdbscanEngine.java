package org.sylva.spark;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.core.NearestSlice;
import org.sylva.hdbscan.engine.DuplicatePoints;
import org.sylva.hdbscan.engine.FittedPoints;
import org.sylva.hdbscan.engine.HdbscanEngine;
import org.sylva.hdbscan.engine.MutualReachabilityMst;
import org.sylva.hdbscan.mst.BoruvkaMst;
import org.sylva.hdbscan.mst.BoruvkaRoundState;
import org.sylva.hdbscan.mst.DistributedBoruvka;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;

/**
 * The distributed HDBSCAN engine: the library's stage seam ({@link HdbscanEngine}) run on a Spark cluster.
 * The points are broadcast once; every executor builds the same point index from them. The core
 * distances are one job of {@code slices} tasks, each computing the exact nearest lists of its slice of
 * the index's leaves against the whole set. Then each Borůvka round is one job: the driver applies the two
 * exact shortcuts and broadcasts the round's state (component per point, each component's best weight so
 * far, which points still need a scan); each task scans its slice with the CPU engine's pruned scan and
 * returns the lightest edge per component; the driver keeps the lightest per component under the tie
 * order {@code (weight, lo, hi)} and merges. The order is total, so the tree is the unique one the CPU
 * engine finds: core distances and edges are bitwise {@code Hdbscan.fit}'s for any number of slices,
 * partitions or executors, and a retried task recomputes the same answer.
 *
 * <p>Jobs are described in the Spark UI by stage and round ({@code sylva hdbscan: spanning tree round 3
 * (412 components, 8 tasks)}) and carry the job tag {@link #JOB_TAG} and one of the fit's own, added to the
 * caller's job group and tags (which stay in force). A fit stops when its token is cancelled, or when its
 * jobs are cancelled through Spark: {@code sc.cancelJobsWithTag(SparkHdbscanEngine.JOB_TAG)}, the caller's
 * own {@code sc.cancelJobGroup}, or the UI's kill link.
 *
 * <pre>{@code
 * SparkHdbscanEngine engine = new SparkHdbscanEngine(spark, 0);   // 0: the cluster's default parallelism
 * HdbscanResult r = Hdbscan.builder().minClusterSize(20).engine(engine).build()
 *         .fit(coords, n, d, ProgressListener.NONE, CancellationToken.NEVER);
 * }</pre>
 */
public final class SparkHdbscanEngine implements HdbscanEngine {
    /** The job tag every Sylva fit's jobs carry: {@code sc.cancelJobsWithTag(JOB_TAG)} stops them all. */
    public static final String JOB_TAG = "sylva-hdbscan";

    /** Fewest distinct points per task: a fit runs at most {@code ceil(n / MIN_TASK_POINTS)} tasks per stage. */
    public static final int MIN_TASK_POINTS = 16;

    private final transient JavaSparkContext sc;
    private final int slices;
    private volatile DistributedFitStats lastStats;

    /**
     * An engine on {@code spark}'s cluster with {@code slices} tasks per stage (at most one per
     * {@link #MIN_TASK_POINTS} distinct points); {@code slices <= 0} takes the context's default parallelism.
     */
    public SparkHdbscanEngine(SparkSession spark, int slices) {
        this.sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        this.slices = slices > 0 ? slices : Math.max(1, sc.defaultParallelism());
    }

    @Override
    public String name() {
        return "spark/" + slices;
    }

    /** Tasks per stage. */
    public int slices() {
        return slices;
    }

    /** Figures of the last fit this engine ran, or {@code null} before the first. */
    public DistributedFitStats lastFitStats() {
        return lastStats;
    }

    @Override
    public MutualReachabilityMst spanningTree(FittedPoints points, int minSamples, double alpha, Execution execution) {
        String fitId = UUID.randomUUID().toString();
        SparkJobs jobs = new SparkJobs(sc, "sylva-hdbscan-" + fitId, execution.cancel());
        // Identical points are searched once, with a multiplicity, and expanded after (as the CPU engine
        // does, bitwise the result of searching every copy): the executors see the distinct rows only.
        DuplicatePoints dup = points.n() <= DuplicatePoints.MAX_POINTS
                ? DuplicatePoints.find(points.rows(), points.n(), points.d(), execution.cancel()) : null;
        if (dup != null && !dup.collapses()) dup = null;
        double[] rows = dup != null ? dup.distinctRows() : points.rows();
        int n = dup != null ? dup.distinct() : points.n();
        // a task per MIN_TASK_POINTS distinct points at most: slicing does not change the result, and a thousand
        // tasks over a thousand points spend their time being scheduled (numSlices 2000 on 1 500 rows took 20 s)
        int tasks = (int) Math.max(1, Math.min(slices, ((long) n + MIN_TASK_POINTS - 1) / MIN_TASK_POINTS));
        List<DistributedFitStats.Stage> stages = new ArrayList<>();
        Map<String, Double> times = new LinkedHashMap<>();
        List<Broadcast<?>> broadcasts = new ArrayList<>();
        try {
            long t0 = System.nanoTime();
            FitData data = new FitData(fitId, rows, n, points.d());
            Broadcast<FitData> dataB = track(broadcasts, sc.broadcast(data));
            JavaRDD<Integer> sliceIds = sc.parallelize(IntStream.range(0, tasks).boxed().toList(), tasks);
            execution.progress().progress(CoreDistances.STAGE, 0, 1);
            long j0 = System.nanoTime();
            List<TaskResults.Lists> lists = jobs.collect(
                    sliceIds.map(s -> ExecutorTasks.nearest(dataB.value(), minSamples, s, tasks)),
                    "sylva hdbscan: core distances (" + n + " points, " + tasks + " tasks)");
            long j1 = System.nanoTime();
            List<NearestSlice> parts = new ArrayList<>(lists.size());
            long listBytes = 0;
            for (TaskResults.Lists l : lists) {
                parts.add(l.slice());
                listBytes += l.payloadBytes();
            }
            CoreDistances cd = CoreDistances.fromSlices(n, minSamples, parts);
            if (dup != null) cd = cd.withMultiplicities(dup.multiplicities());
            double[] core = cd.coreDistances();
            Broadcast<double[]> coreB = track(broadcasts, sc.broadcast(core));
            long t1 = System.nanoTime();
            stages.add(new DistributedFitStats.Stage(CoreDistances.STAGE, n, 8L * rows.length + 8L * n,
                    listBytes, (j1 - j0) / 1e9, ((j0 - t0) + (t1 - j1)) / 1e9));
            times.put("core distances", (t1 - t0) / 1e9);
            execution.progress().progress(CoreDistances.STAGE, 1, 1);

            DistributedBoruvka owner = new DistributedBoruvka(cd, alpha);
            // bounded: DistributedBoruvka refuses more than ceil(log2 n) + 1 rounds
            while (owner.componentsLeft() > 1) {
                execution.cancel().throwIfCancelled();
                long r0 = System.nanoTime();
                int before = owner.componentsLeft();
                BoruvkaRoundState state = owner.startRound();
                int round = owner.round();
                RoundMessage msg = RoundMessage.of(round, state);
                Broadcast<RoundMessage> roundB = sc.broadcast(msg);
                long rj0 = System.nanoTime();
                List<TaskResults.Edges> found;
                try {
                    found = jobs.collect(
                            sliceIds.map(s -> ExecutorTasks.scan(dataB.value(), coreB.value(), alpha, roundB.value(),
                                    s, tasks)),
                            "sylva hdbscan: " + BoruvkaMst.STAGE_PREFIX + round + " (" + before + " components, "
                                    + tasks + " tasks)");
                } finally {
                    destroy(roundB);
                }
                long rj1 = System.nanoTime();
                long edgeBytes = 0;
                for (TaskResults.Edges e : found) {
                    owner.offer(e.edges());
                    edgeBytes += e.payloadBytes();
                }
                owner.endRound();
                long r1 = System.nanoTime();
                stages.add(new DistributedFitStats.Stage("round " + round, before, msg.payloadBytes(), edgeBytes,
                        (rj1 - rj0) / 1e9, ((rj0 - r0) + (r1 - rj1)) / 1e9));
                execution.progress().progress(BoruvkaMst.STAGE_PREFIX + round, n - owner.componentsLeft(), n - 1);
            }
            long t2 = System.nanoTime();
            times.put("spanning tree", (t2 - t1) / 1e9);
            lastStats = new DistributedFitStats(tasks, stages);
            SpanningTree tree = owner.tree();
            if (dup != null) {
                tree = dup.expandTree(tree, core);
                core = dup.expandCore(core);
            }
            return new MutualReachabilityMst(core, tree, times);
        } finally {
            try {
                for (Broadcast<?> b : broadcasts) destroy(b);
            } finally {
                releaseIndexes(fitId, jobs.tag(), tasks);
            }
        }
    }

    /**
     * Drops the fit's point index where it is held: in this JVM (the driver, which in local mode is the only
     * executor), and on a cluster by one small job of {@code tasks} tasks, under the fit's job tags (not its
     * token: a cancelled fit releases too), submitted and not waited for: the fit's result, failure or
     * cancellation is not delayed by it. An executor that runs none of those tasks keeps its copy until the
     * next fit that reaches it; a task of the fit still running there after the release (a killed task that
     * has not stopped yet) builds its index without caching it ({@link ExecutorTasks#release}). A failed
     * release job is ignored (it frees memory, it computes nothing).
     */
    private void releaseIndexes(String fitId, String tag, int tasks) {
        ExecutorTasks.release(fitId);
        if (sc.isLocal()) return;
        try {
            new SparkJobs(sc, tag, CancellationToken.NEVER).submit(
                    sc.parallelize(IntStream.range(0, tasks).boxed().toList(), tasks).map(s -> ExecutorTasks.release(fitId)),
                    "sylva hdbscan: releasing the executors' point index");
        } catch (RuntimeException ignored) {
            // best effort: the fit's result (or its failure) stands
        }
    }

    /**
     * Destroys {@code b}, also for a fit stopped by an interrupt: Spark's {@code destroy} waits for the executors
     * and throws an (undeclared) {@code InterruptedException} on an interrupted thread, which would replace the
     * fit's {@code CancelledException} and leave the other broadcasts and the index held. The interrupt flag is
     * cleared while it waits and set again after. A failure to destroy is ignored: it frees memory, the fit's
     * result or failure stands.
     */
    static void destroy(Broadcast<?> b) {
        boolean interrupted = Thread.interrupted();
        try {
            b.destroy();
        } catch (Exception ignored) {
            // best effort, as the release of the indexes
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    private static <T> Broadcast<T> track(List<Broadcast<?>> all, Broadcast<T> b) {
        all.add(b);
        return b;
    }
}
