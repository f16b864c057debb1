package org.sylva.cli;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.sylva.data.InvalidInputException;
import org.sylva.io.AtomicOutput;
import org.sylva.progress.CancellationToken;
import picocli.CommandLine;

/**
 * Entry point of the {@code sylva} command. Exit status ({@link ExitStatus}): 0 success, 2 bad input or
 * parameters (one line on stderr naming the problem; a stack trace only with {@code --verbose}), 3 the
 * outputs were written but the report could not be, 130 interrupted (Ctrl-C: the running computation
 * is cancelled through its token, temporaries are removed; SIGTERM does the same and exits 143, as the
 * JVM reports 128 + the signal number).
 *
 * <p>Everything a command needs from the process (the cancellation token, stdin, whether stderr is a
 * terminal, the directories the run created) reaches it in a {@link CliContext}, given to each command
 * when the command line is built.
 *
 * <pre>{@code
 * sylva hdbscan clips.npy --min-cluster-size 20 --out result/
 * }</pre>
 */
public final class Main {
    /**
     * How long the shutdown hook waits for the cancelled command to clean up and report: under a second,
     * so that a signal ends the process within about a second also where no token is checked (a read
     * blocked on a pipe or FIFO that never delivers); the hook then cleans up and reports itself.
     */
    static final long HOOK_WAIT_MILLIS = 900;

    private Main() {
    }

    public static void main(String[] args) {
        // `sylva --version` alone is answered before anything else is loaded (a cold start figure).
        if (VersionText.answer(args, System.out)) {
            if (System.out.checkError() && !StandardDescriptors.isPipe(StandardDescriptors.target(1))) {
                System.err.println("sylva: error: " + LOST_TEXT);
                System.exit(ExitStatus.ERROR);
            }
            return;   // into a pipe whose reader has gone (| head -1): nothing to say
        }
        // Straight on file descriptor 1, not through System.out: a PrintStream swallows write errors
        // (a full disk, a closed pipe), and Main.run must see them to fail instead of exiting 0.
        PrintWriter out = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                stdoutCharset()), true);
        PrintWriter err = standardError();
        CliContext context = processContext();
        CountDownLatch finished = new CountDownLatch(1);
        AtomicBoolean shuttingDown = new AtomicBoolean();
        AtomicInteger status = new AtomicInteger(-1);
        AtomicBoolean exiting = new AtomicBoolean();
        // A named class, not a lambda on a thread builder: this runs in every process, and neither is in the
        // start-up cache (its training does not go through main), where a lambda is linked at run time.
        Thread.setDefaultUncaughtExceptionHandler(new QuietThreadLimit());
        Runtime.getRuntime().addShutdownHook(new Thread(new InterruptHook(context, finished, shuttingDown, status,
                exiting, out, err), "sylva-interrupt"));
        int code = run(args, out, err, context);
        out.flush();
        err.flush();
        status.set(code);
        finished.countDown();
        // During shutdown (a signal) System.exit would block for good; the JVM exits with 128 + signal.
        if (!shuttingDown.get()) {
            exiting.set(true);   // System.exit runs the hook too: no signal to speak of
            System.exit(code);
        }
    }

    /**
     * The process's standard error as commands write to it: control characters that a terminal would obey (a file
     * name holding escape sequences) are shown escaped ({@link ControlCharacterFilter}).
     */
    static PrintWriter standardError() {
        return new PrintWriter(new ControlCharacterFilter(new OutputStreamWriter(System.err, System.err.charset())), true);
    }

    /**
     * What a thread that dies of an exception prints: as the JVM's own handler, except for a thread the system
     * refused to start ({@code ulimit -u}), which a pool's worker meets while starting another and which the command
     * reports in one line ({@link ErrorHandler#message}): without this, each of a hundred workers printed its stack.
     */
    static final class QuietThreadLimit implements Thread.UncaughtExceptionHandler {
        @Override
        public void uncaughtException(Thread t, Throwable e) {
            if (e instanceof OutOfMemoryError && e.getMessage() != null && e.getMessage().contains("native thread")) {
                return;
            }
            System.err.print("Exception in thread \"" + t.getName() + "\" ");
            e.printStackTrace(System.err);
        }
    }

    /**
     * The shutdown hook of a process (Ctrl-C, SIGTERM): cancels the command's token and waits up to
     * {@link #HOOK_WAIT_MILLIS} for it to stop; a command that did not stop in time has its temporaries, lock
     * and new empty folders removed here, and the user is told that nothing was written. A command that
     * finished its work anyway (the signal came after its outputs were committed, where the token is no longer
     * looked at) has its complete outputs kept, and the user is told so, since the exit status is the signal's.
     */
    static final class InterruptHook implements Runnable {
        private final CliContext context;
        private final CountDownLatch finished;
        private final AtomicBoolean shuttingDown;
        /** The command's exit status once it returned, else -1. */
        private final AtomicInteger status;
        /** Set before {@code System.exit}, which runs the hook too: then no signal came. */
        private final AtomicBoolean exiting;
        private final PrintWriter out;
        private final PrintWriter err;

        InterruptHook(CliContext context, CountDownLatch finished, AtomicBoolean shuttingDown, AtomicInteger status,
                AtomicBoolean exiting, PrintWriter out, PrintWriter err) {
            this.context = context;
            this.finished = finished;
            this.shuttingDown = shuttingDown;
            this.status = status;
            this.exiting = exiting;
            this.out = out;
            this.err = err;
        }

        @Override
        public void run() {
            shuttingDown.set(true);
            context.cancel().cancel();
            boolean done = false;
            try {
                // The worker notices the token within one chunk (<= 0.5 s), cleans up and reports.
                done = finished.await(HOOK_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
            AtomicOutput.deleteTemporaries();
            if (!done) {
                // The command is somewhere the token is not checked (e.g. reading a large input): the
                // JVM halts after this hook, so clean up and say so here.
                context.locks().releaseAll();   // its lock file first, or --out is not empty
                context.directories().removeEmpty();
                if (PhaseTrace.ON) {
                    err.println("sylva: phase " + PhaseTrace.current() + " did not stop within " + HOOK_WAIT_MILLIS
                            + " ms");
                    PhaseTrace.whereStuck(err);
                }
                err.println(ErrorHandler.interruptedLine(context.completed().interruptedNote()));
            } else if (status.get() == ExitStatus.OK && !exiting.get()) {
                err.println("sylva: interrupted as the run ended; its outputs were complete and are kept (the exit "
                        + "status is the signal's)");
            }
            out.flush();
            err.flush();
        }
    }

    /** The context of a command run by this process: the real standard input, stderr's terminal check. */
    static CliContext processContext() {
        return new CliContext(new CancellationToken(), standardInput(), stderrIsTerminal(),
                new CreatedDirectories(), new OutputLocks());
    }

    /**
     * Standard input as a stream over a channel rather than {@code System.in}: closing a channel wakes a
     * read blocked in it, so Ctrl-C ends a read from a pipe that delivers nothing more (the cancellation
     * token closes the stream being read), which closing {@code System.in} would not.
     */
    static InputStream standardInput() {
        if (startedWithoutStandardInput()) return new ClosedInput();
        return java.nio.channels.Channels.newInputStream(new FileInputStream(FileDescriptor.in).getChannel());
    }

    /**
     * Whether this process started with descriptor 0 closed ({@code sylva hdbscan - <&-}). The JVM's first
     * open file then takes descriptor 0, its own {@code lib/modules} (seen on Linux through
     * {@code /proc/self/fd/0}), which reading {@code -} would otherwise parse as the input. False where that
     * cannot be told (no {@code /proc}).
     */
    static boolean startedWithoutStandardInput() {
        String target = StandardDescriptors.target(0);
        if (target == null) return false;
        try {
            Path modules = Path.of(System.getProperty("java.home"), "lib", "modules").toRealPath();
            Path in = Path.of(target);
            return in.isAbsolute() && in.normalize().equals(modules);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Standard input of a process started without one: reading it is an error that says so. */
    private static final class ClosedInput extends InputStream {
        @Override
        public int read() {
            throw closed();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            throw closed();
        }

        private static InvalidInputException closed() {
            return new InvalidInputException("standard input is closed (the command was started without one, as "
                    + "with <&-); give a file, or pipe the data in");
        }
    }

    /** Runs the command line in-process with the real standard input and returns its exit status (tests). */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(args, out, err, System.in);
    }

    /** As {@link #run(String[], PrintWriter, PrintWriter)} with {@code in} standing for standard input. */
    static int run(String[] args, PrintWriter out, PrintWriter err, InputStream in) {
        return run(args, out, err, CliContext.inProcess(in));
    }

    /**
     * Runs the command line in {@code context}; releases the output directories it locked, and a failed
     * run removes the directories it created. Standard output that could not be written (a full device,
     * a closed pipe) makes a run that would have succeeded fail with status 2, saying so.
     */
    static int run(String[] args, PrintWriter out, PrintWriter err, CliContext context) {
        String undecodable = undecodableArgument(args);
        String argumentFile = undecodable == null ? ArgumentFiles.problem(args) : null;
        if (argumentFile != null) undecodable = ErrorHandler.oneLine(argumentFile);   // a name's line breaks shown as "; "
        if (undecodable != null) {
            err.println("sylva: error: " + undecodable);
            err.flush();
            return ExitStatus.ERROR;
        }
        int code;
        boolean textOnly = false;
        try {
            CommandLine cl = commandLine(out, err, context, args);
            code = cl.execute(SylvaCommand.nestedHelp(cl, args));
            textOnly = helpOrVersion(cl);
        } catch (CommandLine.InitializationException e) {
            // an argument file picocli could not read (one ArgumentFiles did not foresee): one line, not its trace
            Throwable cause = e.getCause();
            err.println("sylva: error: " + ErrorHandler.oneLine(e.getMessage()
                    + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage())));
            code = ExitStatus.ERROR;
        } catch (OutOfMemoryError e) {
            // picocli hands only Exceptions to the handler; an Error would otherwise end in a stack trace.
            String note = context.completed().errorNote();   // which of several inputs ran out, and what is kept
            err.println("sylva: error: "
                    + ErrorHandler.oneLine(ErrorHandler.message(e), note.isEmpty() ? "" : "; " + note));
            code = ExitStatus.ERROR;
        } finally {
            context.locks().releaseAll();   // before removeEmpty: the lock file is inside --out
        }
        if (out.checkError() && textOnly) {
            // help or a version: quiet into a pipe whose reader has gone (| head -1), as git's and ls's help is; a
            // computing command's --json there is an error (its help says so), since a script may rely on that line
            if (!StandardDescriptors.isPipe(StandardDescriptors.target(1))) {
                err.println("sylva: error: " + LOST_TEXT);
                if (code == ExitStatus.OK) code = ExitStatus.ERROR;
            }
        } else if (out.checkError()) {   // flushes, then tells whether any write to stdout failed
            err.println("sylva: error: standard output could not be written (a full device or a closed pipe?): "
                    + "what this command printed there is lost or incomplete; the files it wrote, if any, are in "
                    + "place and complete (sylva verify DIR)");
            if (code == ExitStatus.OK) code = ExitStatus.ERROR;
        }
        if (code != ExitStatus.OK) context.directories().removeEmpty();   // only empty ones: outputs stay
        context.directories().forget();
        out.flush();
        err.flush();
        return code;
    }

    private static final String LOST_TEXT = "standard output could not be written (a full device, or a reader that"
            + " went away?): the text is lost or incomplete";

    /** Whether the command line that ran asked only for help or a version (at any level, or the help command). */
    private static boolean helpOrVersion(CommandLine cl) {
        CommandLine.ParseResult r = cl.getParseResult();
        for (int depth = 0; r != null && depth < 8; depth++) {   // sylva COMMAND ...: two levels in practice
            if (r.isUsageHelpRequested() || r.isVersionHelpRequested()
                    || r.commandSpec().commandLine().getCommand() instanceof CommandLine.HelpCommand) {
                return true;
            }
            r = r.subcommand();
        }
        return false;
    }

    /** The charset the JVM picked for standard output ({@code stdout.encoding}), as System.out uses. */
    private static Charset stdoutCharset() {
        String name = System.getProperty("stdout.encoding");
        try {
            return name == null ? Charset.defaultCharset() : Charset.forName(name);
        } catch (IllegalArgumentException e) {
            return Charset.defaultCharset();
        }
    }

    /**
     * Why an argument cannot be used, or null: the JVM decodes the command line with the system's encoding
     * and puts U+FFFD where bytes are not valid in it (a file name in another encoding), so a path would
     * silently name another file; such an argument is refused.
     */
    static String undecodableArgument(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].indexOf('\uFFFD') >= 0) {
                return "argument " + (i + 1) + " (" + ErrorHandler.oneLine(args[i]) + ") holds bytes that are not valid "
                        + System.getProperty("sun.jnu.encoding", "in the system's encoding")
                        + " (shown as \uFFFD): a path there would name another file; rename it or use a path without them";
            }
        }
        return null;
    }

    private static boolean stderrIsTerminal() {
        String term = System.getenv("TERM");
        if (term == null || "dumb".equals(term)) return false;
        // the launchers' word: they pipe the JVM's stderr through a filter, so descriptor 2 is a pipe here
        if ("terminal".equals(System.getProperty("sylva.stderr"))) return true;
        String target = StandardDescriptors.target(2);
        if (target != null) return StandardDescriptors.isTerminal(target);
        java.io.Console c = System.console();   // no /proc: stdin's and stdout's answer is the best there is
        return c != null && c.isTerminal();
    }

    /** The {@code sylva} command line with every subcommand, its commands made with {@code context}. */
    static CommandLine commandLine(PrintWriter out, PrintWriter err, CliContext context) {
        return commandLine(out, err, context, new String[0]);
    }

    /** A decimal number, or {@code inf}, {@code +inf}, {@code -inf}, {@code nan} in any case. */
    static Double parseNumber(String v) {
        String t = v.strip().toLowerCase(java.util.Locale.ROOT);
        switch (t) {
            case "inf", "+inf", "infinity", "+infinity" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-inf", "-infinity" -> {
                return Double.NEGATIVE_INFINITY;
            }
            case "nan" -> {
                return Double.NaN;
            }
            default -> {
                // hexadecimal and type suffixes (0x1p3, 1d, 2f) are Java's, not a user's: refused
                if (!t.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)(e[+-]?\\d+)?")) {
                    throw new CommandLine.TypeConversionException("'" + v + "' is not a number");
                }
                double d = Double.parseDouble(t);
                // a decimal beyond float64's range would become an infinity, or a zero, that the user did not write
                if (Double.isInfinite(d)) {
                    throw new CommandLine.TypeConversionException("'" + v + "' is beyond float64's range (+-"
                            + Double.MAX_VALUE + "); write inf for an infinite value");
                }
                if (d == 0 && t.split("e")[0].matches(".*[1-9].*")) {
                    throw new CommandLine.TypeConversionException("'" + v + "' is closer to 0 than float64 holds ("
                            + Double.MIN_VALUE + "); write 0 for zero");
                }
                return d;
            }
        }
    }

    /** A path as the file system reads it; a string it cannot take is a conversion error naming the reason. */
    static Path parsePath(String v) {
        try {
            return Path.of(v);
        } catch (InvalidPathException e) {
            throw new CommandLine.TypeConversionException("'" + v + "' is not a path here: " + e.getReason());
        }
    }

    /**
     * Every command's synopsis wrapped at spaces only. picocli wraps it at the line-break opportunities of
     * Java's {@code BreakIterator}, which include ',', '.' and ']' inside an option's token
     * ({@code [--shape=N,} / {@code D]}, {@code [--[no-]} / {@code waveforms]}); rendered on one line and
     * wrapped here, every token stays whole.
     */
    static void wrapSynopsesAtSpaces(CommandLine cl) {
        cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_SYNOPSIS, Main::synopsis);
        for (CommandLine sub : cl.getSubcommands().values()) wrapSynopsesAtSpaces(sub);
    }

    private static String synopsis(CommandLine.Help help) {
        CommandLine.Model.UsageMessageSpec u = help.commandSpec().usageMessage();
        int width = u.width();
        boolean auto = u.autoWidth();
        String line;
        try {
            u.autoWidth(false);
            u.width(1 << 16);
            line = new CommandLine.Help(help.commandSpec(), help.colorScheme()).synopsis(help.synopsisHeadingLength());
        } finally {
            u.width(width);
            u.autoWidth(auto);
        }
        int indent = help.synopsisHeadingLength() + help.commandSpec().qualifiedName().length() + 1;
        return wrapAtSpaces(line.strip(), width, help.synopsisHeadingLength(), indent) + System.lineSeparator();
    }

    /**
     * {@code text} in lines of at most {@code width} characters (a longer word stands alone), broken at spaces;
     * the first line starts at column {@code first}, the others are indented by {@code indent}.
     */
    static String wrapAtSpaces(String text, int width, int first, int indent) {
        StringBuilder out = new StringBuilder();
        int column = first;
        String[] words = text.split(" ");
        for (int i = 0; i < words.length; i++) {
            String w = words[i];
            if (i > 0 && column + 1 + w.length() > width) {
                out.append(System.lineSeparator()).append(" ".repeat(indent));
                column = indent;
            } else if (i > 0) {
                out.append(' ');
                column++;
            }
            out.append(w);
            column += w.length();
        }
        return out.toString();
    }

    /**
     * The command line for {@code args}: with only the subcommand they name, or every subcommand
     * ({@link SylvaCommand#subcommandsFor}). The settings below apply to the subcommands registered
     * before them, so those come first.
     */
    static CommandLine commandLine(PrintWriter out, PrintWriter err, CliContext context, String[] args) {
        CommandLine cl = new CommandLine(new SylvaCommand().model());
        for (SylvaCommand.Subcommand sub : SylvaCommand.subcommandsFor(args)) {
            cl.addSubcommand(sub.name(), new CommandLine(sub.model().apply(context)));
        }
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.registerConverter(org.sylva.hdbscan.Backend.class, v -> {
            try {
                return org.sylva.hdbscan.Backend.parse(v);
            } catch (org.sylva.data.InvalidInputException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        });
        // numbers as Java reads them, and also inf / -inf / nan as numpy and --json write them
        CommandLine.ITypeConverter<Double> number = Main::parseNumber;
        cl.registerConverter(Double.class, number);
        cl.registerConverter(double.class, number);
        // picocli's own Path converter calls Paths.get by reflection, whose first use in a fresh JVM generates classes
        cl.registerConverter(Path.class, Main::parsePath);
        cl.setUsageHelpAutoWidth(true);
        wrapSynopsesAtSpaces(cl);
        cl.setExecutionExceptionHandler(new ErrorHandler(context.completed(), context.cancel()));
        cl.setParameterExceptionHandler(new ErrorHandler.Parameters());
        CommandLine help = cl.getSubcommands().get("help");
        if (help != null) {
            help.getCommandSpec().usageMessage().footer(List.of("", "Examples:", "  sylva help hdbscan",
                    "  sylva help balltree").toArray(String[]::new));
        }
        return cl;
    }
}
