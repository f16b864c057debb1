package org.sylva.cli;

import java.util.List;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The top-level {@code sylva} command: a list of subcommands ({@link #SUBCOMMANDS}). {@link Main} registers
 * only the one a command line names, or all of them when it names none (see {@link #subcommandsFor}).
 */
final class SylvaCommand implements java.util.concurrent.Callable<Integer> {
    /**
     * A subcommand of {@code sylva}: its name, and the model of a new command object for one run.
     *
     * @param name  the command's name, as typed
     * @param model the model of a fresh command that runs with the given context
     */
    record Subcommand(String name, Function<CliContext, CommandSpec> model) {
    }

    /** Every subcommand, in the order of the usage text; {@code help} is picocli's own. */
    static final List<Subcommand> SUBCOMMANDS = List.of(
            new Subcommand("hdbscan", c -> new HdbscanCommand(c).model()),
            new Subcommand("predict", c -> new PredictCommand(c).model()),
            new Subcommand("cut", c -> new CutCommand(c).model()),
            new Subcommand("reselect", c -> new ReselectCommand(c).model()),
            new Subcommand("balltree", c -> new BallTreeCommand(c).model()),
            new Subcommand("demo", c -> new DemoCommand(c).model()),
            new Subcommand("bench", c -> new BenchCommand(c).model()),
            new Subcommand("serve", c -> new ServeCommand(c).model()),
            new Subcommand("devices", c -> new DevicesCommand().model()),
            new Subcommand("verify", c -> new VerifyCommand(c).model()),
            new Subcommand("help", c -> new CommandLine(new CommandLine.HelpCommand()).getCommandSpec()));

    /**
     * The subcommands to register for {@code args}: the one its first argument names (not {@code help}),
     * else all of them. Each registered command's model is made when the command line is, which a fresh JVM
     * pays for on every run (BENCHMARKS.md, "Only the named subcommand is registered"); usage texts,
     * {@code help} and the error for an unknown command see them all.
     */
    static List<Subcommand> subcommandsFor(String[] args) {
        if (args.length > 0) {
            for (Subcommand c : SUBCOMMANDS) {
                if (!c.name().equals("help") && c.name().equals(args[0])) return List.of(c);
            }
        }
        return SUBCOMMANDS;
    }

    /**
     * {@code sylva help bench hdbscan} as {@code sylva bench hdbscan --help}: picocli's {@code help} reads
     * only its first word, so a nested command's help would show its parent's. A word that names none of
     * the parent's commands is run as {@code sylva bench nosuch}, whose error names it, and {@code sylva help nosuch}
     * as {@code sylva nosuch}, for the same error as a mistyped command (picocli's {@code help} has its own wording).
     * Other arguments are returned as they are ({@code cl}: the command line with every command registered).
     */
    static String[] nestedHelp(CommandLine cl, String[] args) {
        if (args.length == 2 && args[0].equals("help") && !args[1].startsWith("-")
                && !cl.getSubcommands().containsKey(args[1])) {
            return new String[] {args[1]};
        }
        if (args.length < 3 || !args[0].equals("help")) return args;
        CommandLine parent = cl.getSubcommands().get(args[1]);
        if (parent == null || parent.getSubcommands().isEmpty()) return args;
        if (!parent.getSubcommands().containsKey(args[2])) return new String[] {args[1], args[2]};
        String[] asked = java.util.Arrays.copyOfRange(args, 1, args.length + 1);
        asked[asked.length - 1] = "--help";
        return asked;
    }

    CommandSpec spec;

    /** This command's picocli model, bound to this object ({@link CommandModel}). */
    CommandSpec model() {
        CommandModel m = new CommandModel("sylva", this)
                .description("Exact HDBSCAN (scikit-learn's answers) and perfect binary ball trees (Erwin's layout), "
                        + "deterministic, on every core. Each command has its own help: sylva COMMAND --help.")
                .footer("",
                        "Examples:",
                        "  sylva demo                    # writes sylva-demo/report.html",
                        "  sylva hdbscan clips.npy --min-cluster-size 20 --out result/ \\",
                        "      --report result/report.html --save-model clips.model",
                        "  sylva predict clips.model later.npy --out assigned/",
                        "  sylva cut clips.model --distance 0.8 --out cut/",
                        "  sylva reselect clips.model --method leaf --out leaf/",
                        "  sylva balltree cloud.npy --batch batch.npy --out tree/",
                        "  sylva devices                 # GPU devices for --backend opencl|cuda",
                        "  sylva verify result/          # complete, or interrupted half-way?",
                        "  sylva help hdbscan",
                        "  sylva --version --verbose     # which kernels run (SIMD or scalar), and why",
                        "",
                        "An argument @FILE stands for the words in FILE (quote a word with spaces, on one line; # starts "
                        + "a comment); the run's record (sylva-run.json) holds the words. A FILE that is a directory, "
                        + "cannot be read or leaves a quote open is an error. Write a name that starts with @ as @@NAME "
                        + "(so recorded) or ./@NAME.",
                        "",
                        "Exit status: 0 success, 2 error (one line names the problem), 3 results written but the "
                        + "report not, 130 interrupted (Ctrl-C), 143 terminated (SIGTERM); verify: 1 incomplete, 4 "
                        + "mismatch.");
        spec = m.spec();
        return spec;
    }

    /**
     * {@code sylva} without a command: the usage on stderr and a usage error's status, as for an unknown
     * command, so that a script whose command word came out empty ({@code sylva $CMD ...}) fails instead of
     * passing having done nothing ({@code sylva --help} prints the same text on stdout and exits 0).
     */
    @Override
    public Integer call() {
        var err = spec.commandLine().getErr();
        err.println("sylva: a command is required, e.g. sylva demo; the commands are:");
        spec.commandLine().usage(err, CommandLine.Help.Ansi.OFF);   // no colour codes: stderr shows them escaped
        return ExitStatus.ERROR;
    }

    static String version() {
        return VersionText.version();
    }

    /** {@code sylva COMMAND --version}: the short text of {@link VersionText} (no kernel loaded). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return VersionText.shortText().split("\n");
        }
    }
}
