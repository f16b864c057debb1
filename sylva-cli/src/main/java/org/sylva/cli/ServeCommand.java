package org.sylva.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.sylva.cli.serve.EngineServer;
import org.sylva.cli.serve.FrameLimits;
import org.sylva.data.InvalidInputException;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code sylva serve}: the long-lived engine the Python package starts once per process and talks to
 * over standard input and output ({@link EngineServer}; the frames are described in
 * {@code docs/engine-protocol.md}). Hidden from the command list: it speaks a binary protocol, not to
 * people. Standard output carries frames only, so everything else that would print there goes to stderr.
 */
final class ServeCommand implements Callable<Integer> {
    CommandSpec spec;
    private final CliContext context;
    long maxRequestMib;
    boolean verbose;
    Integer answersFd;

    /** This command's picocli model, bound to this object ({@link CommandModel}). */
    CommandSpec model() {
        CommandModel m = new CommandModel("serve", this)
                .unsorted()
                .hidden()
                .header("Serve the Python package's requests over stdin/stdout (a binary protocol).")
                .description("The engine behind the Python package `sylva`: reads length-prefixed request frames on "
                        + "standard input and writes one response frame each on standard output, until standard "
                        + "input closes. Not for interactive use; the frames are described in "
                        + "docs/engine-protocol.md.")
                .footer("",
                        "Examples:",
                        "  sylva serve                          # as the Python package runs it",
                        "  sylva serve --max-request-mib 4096   # refuse requests over 4 GiB");
        m.option(long.class, v -> maxRequestMib = v, "--max-request-mib")
                .paramLabel("MIB")
                .defaultValue("16384")
                .description("Largest request (all its arrays together) the engine accepts, in MiB (default "
                        + "${DEFAULT-VALUE}); a larger one is refused with an error and the engine goes on.");
        m.option(boolean.class, v -> verbose = v, "-v", "--verbose")
                .description("Print the stack trace of every failed request on stderr.");
        m.option(Integer.class, v -> answersFd = v, "--answers-fd")
                .paramLabel("FD")
                .description("Write the response frames to file descriptor FD (3 or more, open for writing; Linux's "
                        + "/dev/fd) instead of standard output, which then carries only what the JVM itself prints "
                        + "there (logs asked for with -Xlog or -verbose in SYLVA_JAVA_OPTS, say): it can no longer "
                        + "break the frames. The Python package starts the engine so.");
        spec = m.spec();
        return spec;
    }

    ServeCommand(CliContext context) {
        this.context = context;
    }

    @Override
    @SuppressWarnings("try")   // the registration is held for the run, and unregistered by its close
    public Integer call() {
        if (maxRequestMib < 1 || maxRequestMib > (Long.MAX_VALUE >> 20)) {
            throw new InvalidInputException("--max-request-mib must be from 1 to " + (Long.MAX_VALUE >> 20) + "; got "
                    + maxRequestMib);
        }
        OutputStream frames = new BufferedOutputStream(answers(), 1 << 16);
        // Nothing but frames may reach stdout: a stray print would break the client's reading.
        PrintStream stderr = System.err;
        System.setOut(stderr);
        PrintWriter log = Main.standardError();   // a request's values quoted in the log are shown, not obeyed
        FrameLimits limits = FrameLimits.defaults().withMaxFrameBytes(maxRequestMib << 20);
        EngineServer server = EngineServer.standard(context.stdin(), frames, limits, SylvaCommand.version(), log, verbose);
        // SIGTERM or Ctrl-C: the requests end there, each one read answered (cancelled where it had not finished)
        try (AutoCloseable stop = context.cancel().whenCancelled(server::stop)) {
            int status = server.run();
            // stopped by the signal: the signal's status (the JVM's anyway), and no word of a run's outputs from the hook
            return context.cancel().isCancelled() ? ExitStatus.INTERRUPTED : status;
        } catch (Exception e) {   // the registration's close throws nothing; run's unchecked exceptions pass on
            if (e instanceof RuntimeException r) throw r;
            throw new IllegalStateException(e);
        }
    }

    /** Where the response frames go: standard output, or the file descriptor {@code --answers-fd} names. */
    private OutputStream answers() {
        if (answersFd == null) return new FileOutputStream(FileDescriptor.out);
        if (answersFd < 3) {
            throw new InvalidInputException("--answers-fd must be 3 or more (0, 1 and 2 are the standard streams); got "
                    + answersFd);
        }
        try {
            return new FileOutputStream("/dev/fd/" + answersFd, true);   // appending: 3>>log keeps what log holds
        } catch (java.io.IOException e) {
            throw new InvalidInputException("--answers-fd " + answersFd + ": cannot write to file descriptor "
                    + answersFd + " (" + e.getMessage() + "): give one the engine's parent opened for writing", e);
        }
    }
}
