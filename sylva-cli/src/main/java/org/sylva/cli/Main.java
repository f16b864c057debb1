package org.sylva.cli;

import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.sylva.io.AtomicOutput;
import org.sylva.progress.CancellationToken;
import picocli.CommandLine;

/**
 * Entry point of the {@code sylva} command. Exit status: 0 success, 2 bad input or parameters (one line
 * on stderr naming the problem; a stack trace only with {@code --verbose}), 130 interrupted (Ctrl-C:
 * the running computation is cancelled through its token, temporaries are removed).
 *
 * <pre>{@code
 * sylva hdbscan clips.npy --min-cluster-size 20 --out result/
 * }</pre>
 */
public final class Main {
    /** Exit status for bad input, bad parameters and failed I/O. */
    static final int EXIT_ERROR = 2;
    /** Exit status after Ctrl-C (128 + SIGINT), as shells report it. */
    static final int EXIT_INTERRUPTED = 130;

    /** Cancelled by the shutdown hook (Ctrl-C); every command passes it to the library. */
    static final CancellationToken CANCEL = new CancellationToken();
    private static final CountDownLatch FINISHED = new CountDownLatch(1);
    private static volatile boolean shuttingDown;

    private Main() {
    }

    public static void main(String[] args) {
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("sylva-interrupt").unstarted(() -> {
            shuttingDown = true;
            CANCEL.cancel();
            try {
                // The worker notices the token within one chunk (<= 0.5 s) and cleans up.
                FINISHED.await(1500, TimeUnit.MILLISECONDS);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
            AtomicOutput.deleteTemporaries();
        }));
        int code = run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        FINISHED.countDown();
        if (!shuttingDown) System.exit(code);
    }

    /** Runs the command line and returns its exit status (used by tests, in-process). */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine(out, err);
        return cl.execute(args);
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new SylvaCommand());
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler(new ErrorHandler());
        cl.setParameterExceptionHandler(new ErrorHandler.Parameters());
        return cl;
    }
}
