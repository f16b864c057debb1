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
 * String note = context.completed().errorNote();  // "" or "input 3 of 3; the 2 inputs before it are done, ..."
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
     * Where a failed input stands, for its error line: empty for a run of one input; otherwise which input
     * failed and what became of the others, for example {@code input 3 of 5; the 2 inputs before it are done,
     * their folders in res complete; the 2 inputs after it were not run}.
     */
    String errorNote() {
        int n = inputs.get();
        if (n <= 1) return "";
        int d = Math.min(done.get(), n - 1);
        int after = n - d - 1;
        StringBuilder b = new StringBuilder("input " + (d + 1) + " of " + n);
        if (d > 0) b.append("; ").append(before(d));
        if (after == 1) b.append("; the input after it was not run");
        if (after > 1) b.append("; the ").append(after).append(" inputs after it were not run");
        return b.toString();
    }

    /**
     * What an interruption keeps, for its line: empty when nothing is (one input, or none done yet), otherwise,
     * for example, {@code in input 3 of 5; the 2 inputs before it are done, their folders in res complete;
     * nothing was written for it and the others}.
     */
    String interruptedNote() {
        int n = inputs.get();
        int d = done.get();
        if (n <= 1 || d == 0) return "";
        if (d >= n) return "after its " + n + " inputs; their folders in " + parent + " are complete";
        return "in input " + (d + 1) + " of " + n + "; " + before(d) + "; nothing was written for "
                + (d == n - 1 ? "it" : "it and the others");
    }

    private String before(int d) {
        return (d == 1 ? "the input before it is done, its folder" : "the " + d + " inputs before it are done, their "
                + "folders") + " in " + parent + " complete";
    }
}
