package org.sylva.spark;

import java.util.List;

/**
 * What one distributed fit moved and spent, per stage: bytes broadcast to the executors (counted once,
 * whatever the number of executors), bytes of task results collected by the driver, and wall-clock
 * seconds of the job plus the driver's share (merge, shortcuts). The benchmark and the scaling model in
 * {@code BENCHMARKS.md} read these figures.
 *
 * <pre>{@code
 * SparkHdbscanEngine engine = new SparkHdbscanEngine(spark, 8);
 * Hdbscan.builder().minClusterSize(20).engine(engine).build().fit(coords, n, d, ProgressListener.NONE, token);
 * DistributedFitStats s = engine.lastFitStats();
 * }</pre>
 *
 * @param slices tasks per stage
 * @param stages one entry per stage in order: the core distances, then each Borůvka round
 */
public record DistributedFitStats(int slices, List<Stage> stages) {
    public DistributedFitStats {
        stages = List.copyOf(stages);
    }

    /**
     * One stage of a distributed fit.
     *
     * @param name {@code "core distances"} or {@code "round r"}
     * @param componentsBefore components at the start (the number of points for the core stage)
     * @param broadcastBytes payload broadcast for this stage
     * @param collectedBytes payload of the task results
     * @param jobSeconds seconds the Spark job took (from submission to the driver holding the results)
     * @param driverSeconds seconds the driver spent before and after the job (shortcuts, merge, assembly)
     */
    public record Stage(String name, int componentsBefore, long broadcastBytes, long collectedBytes,
                        double jobSeconds, double driverSeconds) {
    }

    /** Seconds of all stages, jobs and driver together. */
    public double totalSeconds() {
        double s = 0;
        for (Stage st : stages) s += st.jobSeconds() + st.driverSeconds();
        return s;
    }
}
