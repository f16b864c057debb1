package org.sylva.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.sylva.io.AtomicOutput;
import org.sylva.progress.CancellationToken;
import picocli.CommandLine;

/**
 * Entry point of the {@code sylva} command. Exit status: 0 success, 2 bad input or parameters (one line
 * on stderr naming the problem; a stack trace only with {@code --verbose}), 130 interrupted (Ctrl-C:
 * the running computation is cancelled through its token, temporaries are removed; SIGTERM does the
 * same and exits 143, as the JVM reports 128 + the signal number).
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
    /** How long the shutdown hook waits for the cancelled command to clean up and report. */
    static final long HOOK_WAIT_MILLIS = 1500;

    /** Cancelled by the shutdown hook (Ctrl-C); every command passes it to the library. */
    static final CancellationToken CANCEL = new CancellationToken();
    private static final CountDownLatch FINISHED = new CountDownLatch(1);
    private static volatile boolean shuttingDown;
    /** Whether progress may draw an updating line: true only for the real stderr on a terminal. */
    private static volatile boolean terminal;
    /** What {@code -} reads; null means {@link System#in}. Tests replace it through {@link #run(String[], PrintWriter, PrintWriter, InputStream)}. */
    private static volatile InputStream stdin;

    private Main() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        terminal = stderrIsTerminal();
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("sylva-interrupt").unstarted(() -> {
            shuttingDown = true;
            CANCEL.cancel();
            boolean finished = false;
            try {
                // The worker notices the token within one chunk (<= 0.5 s), cleans up and reports.
                finished = FINISHED.await(HOOK_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
            AtomicOutput.deleteTemporaries();
            if (!finished) {
                // The command is somewhere the token is not checked (e.g. reading a large input): the
                // JVM halts after this hook, so clean up and say so here.
                CreatedDirectories.removeEmpty();
                err.println("sylva: interrupted; no output was written");
            }
            out.flush();
            err.flush();
        }));
        int code = run(args, out, err);
        out.flush();
        err.flush();
        FINISHED.countDown();
        // During shutdown (a signal) System.exit would block for good; the JVM exits with 128 + signal.
        if (!shuttingDown) System.exit(code);
    }

    /** Runs the command line and returns its exit status (used by tests, in-process). */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CreatedDirectories.forget();
        int code;
        try {
            code = commandLine(out, err).execute(args);
        } catch (OutOfMemoryError e) {
            // picocli hands only Exceptions to the handler; an Error would otherwise end in a stack trace.
            err.println("sylva: error: " + ErrorHandler.oneLine(ErrorHandler.message(e)));
            code = EXIT_ERROR;
        }
        if (code != 0) CreatedDirectories.removeEmpty();
        CreatedDirectories.forget();
        out.flush();
        err.flush();
        return code;
    }

    /** As {@link #run(String[], PrintWriter, PrintWriter)} with {@code in} standing for standard input. */
    static int run(String[] args, PrintWriter out, PrintWriter err, InputStream in) {
        InputStream before = stdin;
        stdin = in;
        try {
            return run(args, out, err);
        } finally {
            stdin = before;
        }
    }

    static InputStream stdin() {
        InputStream s = stdin;
        return s != null ? s : System.in;
    }

    static boolean terminal() {
        return terminal;
    }

    private static boolean stderrIsTerminal() {
        java.io.Console c = System.console();
        String term = System.getenv("TERM");
        return c != null && c.isTerminal() && term != null && !"dumb".equals(term);
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new SylvaCommand());
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setUsageHelpAutoWidth(true);
        cl.setExecutionExceptionHandler(new ErrorHandler());
        cl.setParameterExceptionHandler(new ErrorHandler.Parameters());
        CommandLine help = cl.getSubcommands().get("help");
        if (help != null) {
            help.getCommandSpec().usageMessage().footer(List.of("", "Examples:", "  sylva help hdbscan",
                    "  sylva help balltree").toArray(String[]::new));
        }
        return cl;
    }
}
