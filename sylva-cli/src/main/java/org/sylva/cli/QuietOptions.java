package org.sylva.cli;


/**
 * The options every command that writes results shares: how much it says on stderr. Warnings about the
 * input (a header read as a point, values rounded or beyond float32's range) and errors are printed
 * with {@code --quiet} too: they tell what the results were computed from.
 */
class QuietOptions {
    boolean quiet;
    boolean verbose;

    /** Adds these options to {@code m}, bound to this object. */
    void declare(CommandModel m) {
        m.option(boolean.class, v -> quiet = v, "-q", "--quiet")
                .description("No progress and no summary on stderr (warnings and errors still).");
        m.option(boolean.class, v -> verbose = v, "-v", "--verbose")
                .description("Print a stack trace with errors.");
    }
}
