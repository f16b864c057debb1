package org.sylva.parallel;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import org.sylva.data.InvalidInputException;

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
    /**
     * The most workers one pool may have: Java's fork-join pools refuse a larger parallelism (their
     * {@code MAX_CAP}, 32767) with a bare {@code IllegalArgumentException}, so the builders check thread
     * counts against it up front and name the parameter.
     */
    public static final int MAX_WORKERS = 0x7fff;

    private static final ConcurrentHashMap<Integer, ForkJoinPool> POOLS = new ConcurrentHashMap<>();

    private Pools() { }

    /**
     * Refuses a thread count outside {@code 1 .. MAX_WORKERS} with an {@link InvalidInputException} about
     * the parameter {@code threads}; returns it otherwise.
     */
    public static int checkThreads(int threads) {
        if (threads < 1) {
            throw InvalidInputException.forParameter("threads", "threads must be at least 1; got " + threads);
        }
        if (threads > MAX_WORKERS) {
            throw InvalidInputException.forParameter("threads", "threads must be at most " + MAX_WORKERS
                    + " (the most workers a Java fork-join pool takes); got " + threads);
        }
        return threads;
    }

    /** The shared pool of {@code 1 <= workers <= MAX_WORKERS} threads. */
    public static ForkJoinPool get(int workers) {
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be in 1.." + MAX_WORKERS + ", got " + workers);
        }
        return POOLS.computeIfAbsent(workers, ForkJoinPool::new);
    }
}
