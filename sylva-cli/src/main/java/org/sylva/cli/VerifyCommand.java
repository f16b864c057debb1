package org.sylva.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.sylva.io.ResultFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sylva verify DIR}: whether a result folder holds one complete run ({@link ResultFolder#verify}),
 * in one line on stdout, with an exit status a script can test: 0 complete (the manifest matches every
 * file it names), {@value ExitStatus#INCOMPLETE} incomplete (no manifest: a run was interrupted), {@value
 * ExitStatus#MISMATCH} mismatch (a file named by the manifest is missing or differs: changed after the run).
 *
 * <pre>{@code
 * $ sylva verify result/
 * complete: result (8 files of a hdbscan run, id 3f2a9c...)
 * }</pre>
 */
@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = SylvaCommand.Version.class,
        header = "Check that a result folder holds one complete run.",
        description = {
            "Reads DIR/" + ResultFolder.MANIFEST + ", which every run writes last (after all its files) and removes "
                + "first, and checks each file it names against its size and SHA-256. Prints one line and exits 0 "
                + "when complete, " + ExitStatus.INCOMPLETE + " when there is no manifest (a run was interrupted or "
                + "never finished: do not use the files), " + ExitStatus.MISMATCH + " when a named file is missing "
                + "or differs (changed after the run)."},
        footer = {"", "Examples:",
            "  sylva verify result/",
            "  sylva verify result/ && python analyse.py result/"})
final class VerifyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "A folder written by sylva hdbscan, balltree, "
            + "predict, cut, reselect or demo (--out).")
    Path dir;

    @Option(names = {"-q", "--quiet"}, description = "Print nothing; the exit status says it all.")
    boolean quiet;

    @Override
    public Integer call() throws Exception {
        ResultFolder.Verdict v = ResultFolder.verify(dir);
        if (!quiet) spec.commandLine().getOut().println(ErrorHandler.oneLine(v.message()));
        return switch (v.status()) {
            case COMPLETE -> ExitStatus.OK;
            case INCOMPLETE -> ExitStatus.INCOMPLETE;
            case MISMATCH -> ExitStatus.MISMATCH;
        };
    }
}
