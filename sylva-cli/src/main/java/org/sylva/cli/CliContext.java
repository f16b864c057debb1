package org.sylva.cli;

import java.io.InputStream;
import java.util.Objects;
import org.sylva.progress.CancellationToken;

/**
 * What a command gets from the process that runs it, handed to its constructor when the command line is
 * built ({@link SylvaCommand#SUBCOMMANDS}) instead of being read from globals: the token that Ctrl-C and
 * SIGTERM cancel, what {@code -} reads, whether progress may repaint a line on a terminal, the output
 * directories the run created (removed again if it fails) and the ones it locked (released when it ends).
 *
 * <pre>{@code
 * CliContext context = new CliContext(new CancellationToken(), System.in, false, new CreatedDirectories(),
 *         new OutputLocks());
 * CommandLine cl = new CommandLine(new HdbscanCommand(context).model());
 * }</pre>
 *
 * @param cancel      cancelled on Ctrl-C or SIGTERM; every command passes it to the library
 * @param stdin       what the input {@code -} reads
 * @param terminal    whether stderr is a terminal, so that progress may draw an updating line
 * @param directories the output directories this run created
 * @param locks       the output directories this run locked
 * @param completed   for a command of several inputs, how many are done (its messages say what is kept)
 */
record CliContext(CancellationToken cancel, InputStream stdin, boolean terminal, CreatedDirectories directories,
        OutputLocks locks, CompletedInputs completed) {
    CliContext {
        Objects.requireNonNull(cancel, "cancel");
        Objects.requireNonNull(stdin, "stdin");
        Objects.requireNonNull(directories, "directories");
        Objects.requireNonNull(locks, "locks");
        Objects.requireNonNull(completed, "completed");
    }

    CliContext(CancellationToken cancel, InputStream stdin, boolean terminal, CreatedDirectories directories,
            OutputLocks locks) {
        this(cancel, stdin, terminal, directories, locks, new CompletedInputs());
    }

    /** A context for one in-process run (tests): a fresh token, no terminal, {@code stdin} for {@code -}. */
    static CliContext inProcess(InputStream stdin) {
        return new CliContext(new CancellationToken(), stdin, false, new CreatedDirectories(), new OutputLocks());
    }

    /**
     * Progress of a computation on {@code points} input points on a command's stderr writer (an updating
     * line only on a terminal), silent with {@code quiet}.
     */
    ProgressPrinter progress(java.io.PrintWriter err, boolean quiet, long points) {
        return ProgressPrinter.forStderr(err, terminal, quiet, points);
    }
}
