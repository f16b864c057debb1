package org.sylva.cli;

import picocli.CommandLine.Option;

/**
 * The options every command that writes results shares: how much it says on stderr. Warnings about the
 * input (a header read as a point, values rounded or beyond float32's range) and errors are printed
 * with {@code --quiet} too: they tell what the results were computed from.
 */
class QuietOptions {
    @Option(names = {"-q", "--quiet"}, description = "No progress and no summary on stderr (warnings and errors "
            + "still).")
    boolean quiet;

    @Option(names = {"-v", "--verbose"}, description = "Print a stack trace with errors.")
    boolean verbose;
}
