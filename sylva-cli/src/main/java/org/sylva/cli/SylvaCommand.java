package org.sylva.cli;

import java.io.InputStream;
import java.util.Properties;
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
            "      --report result/report.html",
            "  sylva balltree cloud.npy --batch batch.npy --out tree/",
            "  sylva help hdbscan",
            "",
            "Exit status: 0 success, 2 error (one line names the problem), 130 interrupted (Ctrl-C)."},
        subcommands = {HdbscanCommand.class, BallTreeCommand.class, DemoCommand.class, BenchCommand.class,
            CommandLine.HelpCommand.class})
final class SylvaCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static String version() {
        try (InputStream in = SylvaCommand.class.getResourceAsStream("/sylva-version.properties")) {
            Properties p = new Properties();
            if (in != null) p.load(in);
            return p.getProperty("version", "unknown");
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    /** {@code sylva --version}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            // Which implementation of each kernel runs, and why one fell back (KernelProvider).
            String kernels = org.sylva.kernels.KernelProvider.get().describe();
            return ("sylva " + version() + " (Java " + Runtime.version() + ", "
                    + org.sylva.kernels.KernelProvider.get().bestDistance().name() + " backend)\n" + kernels).split("\n");
        }
    }
}
