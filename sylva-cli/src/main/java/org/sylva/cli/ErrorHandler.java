package org.sylva.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Map;
import org.sylva.data.InvalidInputException;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import picocli.CommandLine;

/**
 * Turns every failure into one line on stderr (at most {@link #MAX_LINE} characters) and an exit status:
 * 2 for errors, 3 for a report that failed after the outputs were written, 130 for cancellation.
 * Stack traces only with {@code --verbose}. The library's messages are printed as they are; when one is
 * about a parameter ({@link InvalidInputException#parameter()}), the option that sets it follows:
 * {@code sylva: error: min_cluster_size must be at least 2; got 1 (option --min-cluster-size)}.
 */
final class ErrorHandler implements CommandLine.IExecutionExceptionHandler {
    private final CompletedInputs completed;
    /** The run's token: once a signal cancelled it, any failure is the interruption's. */
    private final CancellationToken cancel;

    /** For a command of one input. */
    ErrorHandler() {
        this(new CompletedInputs(), CancellationToken.NEVER);
    }

    /**
     * Errors of a command that may have several inputs (the line then says which inputs' folders are kept), run
     * under {@code cancel}.
     */
    ErrorHandler(CompletedInputs completed, CancellationToken cancel) {
        this.completed = completed;
        this.cancel = cancel;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult parseResult) {
        var err = cl.getErr();
        // A failure after the run was cancelled is reported as the interruption: a signal can break what was under
        // way (an OpenCL driver compiling a kernel loses its temporary files to it), and that is not a fault to report.
        if (ex instanceof CancelledException || cancel.isCancelled()) {
            err.println(interruptedLine(completed.interruptedNote()));
            if (!(ex instanceof CancelledException) && verboseAnywhere(parseResult)) ex.printStackTrace(err);
            return ExitStatus.INTERRUPTED;
        }
        // which of several inputs failed, kept whole however long the message: it says which folders to use
        String note = completed.errorNote();
        String tail = note.isEmpty() ? "" : "; " + note.replaceAll("\\s*\\R\\s*", "; ");
        if (ex instanceof ReportNotWritten r) {
            err.println("sylva: error: " + oneLine(r.getMessage() + ": " + message(r.getCause()), tail));
            if (verboseAnywhere(parseResult)) r.getCause().printStackTrace(err);
            err.flush();
            return ExitStatus.REPORT_FAILED;
        }
        err.println("sylva: error: " + oneLine(message(ex) + optionOf(ex, cl.getCommandSpec()), tail));
        if (parseResult.hasMatchedOption("--verbose") || verboseAnywhere(parseResult)) {
            ex.printStackTrace(err);
        }
        err.flush();
        return ExitStatus.ERROR;
    }

    /**
     * The line of an interrupted command: nothing was written, or ({@code kept} not empty) the inputs done
     * before the interruption keep their complete folders and the rest got nothing.
     */
    static String interruptedLine(String kept) {
        return kept.isEmpty() ? "sylva: interrupted; no output was written" : "sylva: interrupted " + kept;
    }

    /**
     * {@code m} as one line ({@link #oneLine(String)}) followed by {@code tail}, the message shortened so that
     * the two stay within {@link #MAX_LINE} characters where the tail leaves room for it.
     */
    static String oneLine(String m, String tail) {
        if (tail.isEmpty()) return oneLine(m);
        String line = oneLine(m, Math.max(MAX_LINE / 2, MAX_LINE - tail.length()));
        return line + tail;
    }

    /**
     * Longest error line, in characters: a message quoting input (a header of 100 000 columns, a huge
     * cell) would otherwise make a line of hundreds of kilobytes that buries the point.
     */
    static final int MAX_LINE = 400;

    /**
     * Error output is one line, whatever a message holds, and at most {@link #MAX_LINE} characters: a
     * longer one keeps its start and its end (where the file, line and remedy usually are) around "…".
     */
    static String oneLine(String m) {
        return oneLine(m, MAX_LINE);
    }

    private static String oneLine(String m, int max) {
        String line = m.strip().replaceAll("\\s*\\R\\s*", "; ");
        if (line.length() <= max) return line;
        int tail = max / 4;
        int head = max - tail - 3;
        // never split a surrogate pair (an emoji in a header) into half a character
        if (Character.isHighSurrogate(line.charAt(head - 1))) head--;
        int from = line.length() - tail;
        if (Character.isLowSurrogate(line.charAt(from))) from++;
        return line.substring(0, head) + " \u2026 " + line.substring(from);
    }

    private static boolean verboseAnywhere(CommandLine.ParseResult pr) {
        for (CommandLine.ParseResult p = pr; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--verbose")) return true;
        }
        return false;
    }

    /**
     * Options whose name is not the parameter's in kebab case ({@code min_cluster_size} is set by
     * {@code --min-cluster-size}, {@code threads} by {@code --threads}).
     */
    private static final Map<String, String> OPTION_NAMES = Map.of("cluster_selection_method", "--method",
            "n_components", "--pca", "store_centers", "--centers", "cut_distance", "--distance");

    /**
     * " (option --x)" when {@code ex} is about a parameter that an option of {@code command} sets, else
     * the empty string.
     */
    static String optionOf(Throwable ex, CommandLine.Model.CommandSpec command) {
        if (!(ex instanceof InvalidInputException e) || e.parameter().isEmpty()) return "";
        String parameter = e.parameter().get();
        String option = OPTION_NAMES.getOrDefault(parameter, "--" + parameter.replace('_', '-'));
        String kebab = "--" + parameter.replace('_', '-');
        if (!option.equals(kebab) && command.findOption(kebab) != null && command.commandLine() != null
                && command.commandLine().getParseResult() != null
                && command.commandLine().getParseResult().hasMatchedOption(kebab)) {
            option = kebab;   // the user typed scikit-learn's name (--store-centers): the error names it
        }
        if (command.findOption(option) == null) return "";
        // min_samples defaults to min_cluster_size: a user who never gave --min-samples must hear of the other
        if (parameter.equals("min_samples") && command.findOption("--min-cluster-size") != null
                && command.commandLine() != null && command.commandLine().getParseResult() != null
                && !command.commandLine().getParseResult().hasMatchedOption(option)) {
            return " (option --min-cluster-size: min_samples defaults to it)";
        }
        return " (option " + option + ")";
    }

    static String message(Throwable ex) {
        Throwable t = ex instanceof UncheckedIOException u ? u.getCause() : ex;
        if (t instanceof NoSuchFileException e) return "no such file: " + e.getFile();
        if (t instanceof AccessDeniedException e) return "permission denied: " + e.getFile();
        if (t instanceof OutOfMemoryError && t.getMessage() != null && t.getMessage().contains("native thread")) {
            // not the heap: the system refused a thread (the JVM's words name both causes, "possibly out of memory")
            return "could not start a thread: the limit on processes and threads (ulimit -u) or on address space "
                    + "(ulimit -v) is reached; give fewer --threads, or raise the limit";
        }
        if (t instanceof OutOfMemoryError) {
            return "out of memory (raise the heap, e.g. SYLVA_JAVA_OPTS=-Xmx16g)";
        }
        if (t instanceof IOException && t.getMessage() != null && t.getMessage().endsWith("Too many open files")) {
            return "I/O error: " + t.getMessage() + " (the limit on open files, ulimit -n, is reached: raise it, or "
                    + "give fewer inputs to one command)";
        }
        if (t instanceof IOException && t.getMessage() != null) return "I/O error: " + t.getMessage();
        if (t instanceof IllegalArgumentException && t.getMessage() != null) return t.getMessage();
        // the GPU engine's refusals and failures read as sentences of their own (the API call is in the text)
        if (t instanceof org.sylva.gpu.GpuException && t.getMessage() != null) return t.getMessage();
        String m = t.getMessage();
        return m == null ? t.getClass().getSimpleName() : t.getClass().getSimpleName() + ": " + m;
    }

    /** Bad options: one line naming the option, with a pointer to --help; exit 2. */
    static final class Parameters implements CommandLine.IParameterExceptionHandler {
        @Override
        public int handleParseException(CommandLine.ParameterException ex, String[] args) {
            var cl = ex.getCommandLine();
            String m = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage().strip();
            if (ex instanceof CommandLine.UnmatchedArgumentException u) m = unmatched(u, cl, m);
            m = lowerCaseChoices(m);
            if (ex instanceof CommandLine.OverwrittenOptionException o
                    && o.getOverwritten() instanceof CommandLine.Model.OptionSpec opt && opt.negatable()) {
                // picocli says "should be specified only once" for --waveforms --no-waveforms too: name both
                String name = opt.longestName();
                m = name + " and " + name.replaceFirst("^--", "--no-") + " are one switch: give one of them, once";
            }
            cl.getErr().println("sylva: error: " + oneLine(m) + " (see '"
                    + cl.getCommandSpec().qualifiedName() + " --help' for usage and examples)");
            cl.getErr().flush();
            return ExitStatus.ERROR;
        }

        /**
         * An enum option's choices as the help and the README spell them, in lower case: picocli lists the
         * constants ("expected one of [EOM, LEAF] (case-insensitive)").
         */
        static String lowerCaseChoices(String m) {
            java.util.regex.Matcher c = java.util.regex.Pattern.compile("expected one of \\[([A-Z0-9_, ]+)\\] "
                    + "\\(case-insensitive\\)").matcher(m);
            if (!c.find()) return m;
            return m.substring(0, c.start()) + "expected one of [" + c.group(1).toLowerCase(java.util.Locale.ROOT) + "]"
                    + m.substring(c.end());
        }

        /** "unknown command 'x'" and "did you mean" instead of picocli's list of unmatched arguments. */
        private static String unmatched(CommandLine.UnmatchedArgumentException u, CommandLine cl, String m) {
            List<String> args = u.getUnmatched();
            if (args.isEmpty()) return m;
            String first = args.get(0);
            List<String> suggestions = u.getSuggestions();
            String hint = suggestions.isEmpty() ? "" : "; did you mean '" + suggestions.get(0) + "'?";
            // an option's name typed as a command ('sylva version'): point to the option, not a look-alike command
            if (!first.startsWith("-") && cl.getCommandSpec().findOption("--" + first) != null) {
                hint = "; did you mean '" + cl.getCommandSpec().qualifiedName() + " --" + first + "'?";
            }
            // a word where a command of this one's goes ('sylva cluster', 'sylva bench nosuch'): a command taking
            // no words of its own reads none but its commands' names
            if (!first.startsWith("-") && !cl.getSubcommands().isEmpty()
                    && cl.getCommandSpec().positionalParameters().isEmpty()) {
                List<String> shown = cl.getSubcommands().entrySet().stream()
                        .filter(e -> !e.getValue().getCommandSpec().usageMessage().hidden()).map(java.util.Map.Entry::getKey).toList();
                String whose = cl.getParent() == null ? "commands" : cl.getCommandSpec().qualifiedName() + "'s commands";
                return "unknown command '" + first + "'; " + whose + ": " + String.join(", ", shown) + hint;
            }
            if (first.startsWith("-")) return "unknown option '" + first + "'" + hint;
            return "unexpected argument '" + first + "'" + hint;
        }
    }
}
