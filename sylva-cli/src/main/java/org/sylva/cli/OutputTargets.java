package org.sylva.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import org.sylva.data.InvalidInputException;
import org.sylva.io.AtomicOutput;
import org.sylva.io.ResultFolder;

/**
 * Claims a command's output locations before any long work: creates {@code --out} (and the report's
 * folder) when missing ({@link CreatedDirectories}), locks {@code --out} against a second concurrent run
 * ({@link OutputLocks}), removes the temporaries that a killed run left in it ({@link
 * AtomicOutput#deleteOrphans}), and refuses, with one line naming the path, every target that exists as
 * anything but a regular file (directory, symbolic link, FIFO, device, socket: Sylva neither writes
 * through nor replaces them) and a {@code --report} that would land on one of Sylva's own files in
 * {@code --out} (an output, the lock file, the manifest, a temporary's name). So a bad destination fails in a
 * second, not after the fit, and nothing is ever written over what the user did not mean.
 *
 * <pre>{@code
 * OutputTargets.claim(context, err, quiet, out, outputs, reserved, report);   // report may be null
 * }</pre>
 */
final class OutputTargets {
    private OutputTargets() {
    }

    /**
     * Claims {@code out} for this run and checks the targets.
     *
     * @param outputs  file names this run writes into {@code out}
     * @param reserved file names in {@code out} a report must not take (every name of the command's
     *                 outputs in any format, whether this run writes it or not)
     * @param report   the report's path, or null
     */
    static void claim(CliContext context, PrintWriter err, boolean quiet, Path out, Collection<String> outputs,
            Collection<String> reserved, Path report) throws IOException {
        context.directories().prepare(out);
        if (report != null) context.directories().prepare(report.toAbsolutePath().getParent());
        context.locks().acquire(out);
        List<Path> orphans = AtomicOutput.deleteOrphans(out);
        if (!orphans.isEmpty() && !quiet) {
            err.println("sylva: removed " + orphans.size() + (orphans.size() == 1 ? " temporary file" : " temporary files")
                    + " that an interrupted run left in " + out);
        }
        for (String name : outputs) AtomicOutput.checkTarget(out.resolve(name));
        AtomicOutput.checkTarget(out.resolve(ResultFolder.MANIFEST));   // the commit replaces it
        if (report != null) {
            AtomicOutput.checkTarget(report);
            checkNotAnOutput("--report", out, reserved, report);
        }
    }

    /**
     * Claims one more file the run writes beside {@code out}'s outputs (for example {@code --save-model}):
     * its folder is created if needed, and it must be a regular file or absent and not one of Sylva's own
     * names in {@code out}.
     */
    static void claimFile(CliContext context, String option, Path out, Collection<String> reserved, Path file)
            throws IOException {
        context.directories().prepare(file.toAbsolutePath().getParent());
        AtomicOutput.checkTarget(file);
        checkNotAnOutput(option, out, reserved, file);
    }

    /** Refuses a path given to {@code option} that is one of Sylva's own files in {@code out}. */
    private static void checkNotAnOutput(String option, Path out, Collection<String> reserved, Path report)
            throws IOException {
        // both folders exist now: compare them as the file system sees them (links, "..", "." resolved)
        if (!report.toAbsolutePath().getParent().toRealPath().equals(out.toRealPath())) return;
        String name = report.getFileName().toString();
        String what = reserved.contains(name) ? "one of the outputs"
                : name.equals(OutputLocks.FILE_NAME) ? "the lock file"
                : name.equals(ResultFolder.MANIFEST) ? "the run's manifest"
                : AtomicOutput.isTemporaryName(name) ? "a name Sylva gives its temporary files" : null;
        if (what != null) {
            throw new InvalidInputException(option + " " + report + " names " + what + " in --out (" + name
                    + "); choose another file name");
        }
    }
}
