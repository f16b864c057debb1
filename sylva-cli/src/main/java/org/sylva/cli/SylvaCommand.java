package org.sylva.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The top-level {@code sylva} command: a list of subcommands ({@link #SUBCOMMANDS}). {@link Main} registers
 * only the one a command line names, or all of them when it names none (see {@link #subcommandsFor}).
 */
@Command(name = "sylva", mixinStandardHelpOptions = true, versionProvider = SylvaCommand.Version.class,
        description = {
            "Exact HDBSCAN (scikit-learn's answers) and perfect binary ball trees (Erwin's layout), "
                + "deterministic, on every core. Each command has its own help: sylva COMMAND --help."},
        footer = {"", "Examples:",
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
            "",
            "Exit status: 0 success, 2 error (one line names the problem), 3 results written but the report "
                + "not, 130 interrupted (Ctrl-C), 143 terminated (SIGTERM); verify: 1 incomplete, 4 mismatch."})
final class SylvaCommand implements java.util.concurrent.Callable<Integer> {
    /** Every subcommand, in the order of the usage text. */
    static final List<Class<?>> SUBCOMMANDS = List.of(HdbscanCommand.class, PredictCommand.class, CutCommand.class,
            ReselectCommand.class, BallTreeCommand.class, DemoCommand.class, BenchCommand.class, ServeCommand.class,
            DevicesCommand.class, VerifyCommand.class, CommandLine.HelpCommand.class);

    /**
     * The subcommands to register for {@code args}: the one its first argument names (not {@code help}),
     * else all of them. Picocli builds the model of every registered command by reflection when the command
     * line is made, which a fresh JVM pays for on every run (BENCHMARKS.md, "Only the named subcommand is
     * registered"); usage texts, {@code help} and the error for an unknown command see them all.
     */
    static List<Class<?>> subcommandsFor(String[] args) {
        if (args.length > 0) {
            for (Class<?> c : SUBCOMMANDS) {
                if (c != CommandLine.HelpCommand.class && c.getAnnotation(Command.class).name().equals(args[0])) {
                    return List.of(c);
                }
            }
        }
        return SUBCOMMANDS;
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * {@code sylva} without a command: the usage on stderr and a usage error's status, as for an unknown
     * command, so that a script whose command word came out empty ({@code sylva $CMD ...}) fails instead of
     * passing having done nothing ({@code sylva --help} prints the same text on stdout and exits 0).
     */
    @Override
    public Integer call() {
        var err = spec.commandLine().getErr();
        err.println("sylva: a command is required, e.g. sylva demo; the commands are:");
        spec.commandLine().usage(err);
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
