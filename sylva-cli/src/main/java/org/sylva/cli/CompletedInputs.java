package org.sylva.cli;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How far a command of several inputs got ({@link InputBatch}): how many inputs it has and how many of their
 * result folders are complete, so that an error or an interruption in a later input says truthfully what is
 * kept instead of "no output was written". Empty for a run of one input, whose messages stay as they are.
 * Thread-safe: the shutdown hook reads it while the command runs.
 *
 * <pre>{@code
 * context.completed().plan(3, Path.of("res"));   // before the first input
 * context.completed().done();                     // after each input's outputs are in place
 * String note = context.completed().note();       // "" or "2 of 3 inputs are done: ..."
 * }</pre>
 */
final class CompletedInputs {
    private final AtomicInteger inputs = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private volatile Path parent;

    /** The command has {@code inputs} inputs, each written into a folder under {@code parent}. */
    void plan(int inputs, Path parent) {
        this.parent = parent;
        this.done.set(0);
        this.inputs.set(inputs);
    }

    /** One more input's result folder is complete. */
    void done() {
        done.incrementAndGet();
    }

    /**
     * What is kept, as a clause for an error or interruption line: empty when the run has one input or no
     * input is done yet; otherwise, for example, {@code 2 of 5 inputs are done, their folders in res complete}.
     */
    String note() {
        int n = inputs.get();
        int d = done.get();
        if (n <= 1 || d == 0) return "";
        return d + " of " + n + " inputs " + (d == 1 ? "is" : "are") + " done, " + (d == 1 ? "its folder" : "their folders")
                + " in " + parent + " complete";
    }
}
