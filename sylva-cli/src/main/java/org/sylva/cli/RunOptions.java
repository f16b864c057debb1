package org.sylva.cli;

import picocli.CommandLine.Option;

/** Options every computing command shares. */
final class RunOptions {
    @Option(names = "--threads", paramLabel = "T",
            description = "Worker threads (default: all ${sys:sylva.cpus} processors). Results do not depend on it.")
    Integer threads;

    @Option(names = {"-q", "--quiet"}, description = "No progress and no summary on stderr.")
    boolean quiet;

    @Option(names = {"-v", "--verbose"}, description = "Print a stack trace with errors.")
    boolean verbose;

    int threadCount() {
        return threads == null ? Runtime.getRuntime().availableProcessors() : threads;
    }

    static {
        System.setProperty("sylva.cpus", Integer.toString(Runtime.getRuntime().availableProcessors()));
    }
}
