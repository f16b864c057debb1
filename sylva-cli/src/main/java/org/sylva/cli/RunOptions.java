package org.sylva.cli;

import org.sylva.parallel.Pools;

/** Options every computing command shares: its worker threads, and {@link QuietOptions}. */
final class RunOptions extends QuietOptions {
    Integer threads;

    /** Adds {@link QuietOptions}' options, then these, to {@code m}, bound to this object. */
    @Override
    void declare(CommandModel m) {
        super.declare(m);
        m.option(Integer.class, v -> threads = v, "--threads")
                .paramLabel("T")
                .description("Worker threads (default: all ${sys:sylva.cpus} processors). Results do not depend on "
                        + "it.");
    }

    /** The worker threads asked for (all processors by default); refuses a count outside 1 .. 32767, naming --threads. */
    int threadCount() {
        return Pools.checkThreads(threads == null ? Runtime.getRuntime().availableProcessors() : threads);
    }

    static {
        System.setProperty("sylva.cpus", Integer.toString(Runtime.getRuntime().availableProcessors()));
    }
}
