package org.sylva.cli;

import org.sylva.parallel.Pools;
import picocli.CommandLine.Option;

/** Options every computing command shares: its worker threads, and {@link QuietOptions}. */
final class RunOptions extends QuietOptions {
    @Option(names = "--threads", paramLabel = "T",
            description = "Worker threads (default: all ${sys:sylva.cpus} processors). Results do not depend on it.")
    Integer threads;

    /** The worker threads asked for (all processors by default); refuses a count outside 1 .. 32767, naming --threads. */
    int threadCount() {
        return Pools.checkThreads(threads == null ? Runtime.getRuntime().availableProcessors() : threads);
    }

    static {
        System.setProperty("sylva.cpus", Integer.toString(Runtime.getRuntime().availableProcessors()));
    }
}
