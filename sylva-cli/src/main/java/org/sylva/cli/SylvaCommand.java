package org.sylva.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The top-level {@code sylva} command: a list of subcommands. */
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
            "Exit status: 0 success, 2 error (one line names the problem), 130 interrupted (Ctrl-C)."},
        subcommands = {HdbscanCommand.class, PredictCommand.class, CutCommand.class, ReselectCommand.class,
            BallTreeCommand.class, DemoCommand.class,
            BenchCommand.class, ServeCommand.class, DevicesCommand.class, VerifyCommand.class, CommandLine.HelpCommand.class})
final class SylvaCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
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
