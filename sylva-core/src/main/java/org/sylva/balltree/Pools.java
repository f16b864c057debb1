package org.sylva.balltree;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;

/**
 * One fork-join pool per requested thread count, created on first use and kept (daemon threads), so a
 * build of a few hundred microseconds does not pay for starting threads.
 *
 * <pre>{@code
 * ForkJoinPool pool = Pools.get(2);
 * }</pre>
 */
final class Pools {
    private static final ConcurrentHashMap<Integer, ForkJoinPool> POOLS = new ConcurrentHashMap<>();

    private Pools() { }

    static ForkJoinPool get(int threads) {
        return POOLS.computeIfAbsent(threads, ForkJoinPool::new);
    }
}
