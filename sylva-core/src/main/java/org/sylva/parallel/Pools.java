package org.sylva.parallel;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;

/**
 * The one pool policy of the library: one fork-join pool per requested worker count, created on first
 * use and kept for the life of the JVM (daemon threads), so a job of a few hundred microseconds does
 * not pay for starting threads and no job leaves threads behind. Both pipelines take their workers
 * here ({@link ParallelWork} for HDBSCAN's passes, {@link SplitScheduler} for the ball tree's recursion).
 *
 * <pre>{@code
 * ForkJoinPool pool = Pools.get(2);
 * }</pre>
 */
public final class Pools {
    private static final ConcurrentHashMap<Integer, ForkJoinPool> POOLS = new ConcurrentHashMap<>();

    private Pools() { }

    /** The shared pool of {@code workers >= 1} threads. */
    public static ForkJoinPool get(int workers) {
        if (workers < 1) throw new IllegalArgumentException("workers must be >= 1, got " + workers);
        return POOLS.computeIfAbsent(workers, ForkJoinPool::new);
    }
}
