package org.sylva.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
        refuseUnnamed("--out", out);
        refuseUnnamed("--report", report);
        context.directories().prepare("--out", out);
        refuseDotDotAfterLink("--out", out);
        if (report != null) {
            context.directories().prepare("--report", report.toAbsolutePath().getParent());
            refuseDotDotAfterLink("--report", report.toAbsolutePath().getParent());
        }
        context.locks().acquire(out);
        List<Path> orphans = AtomicOutput.deleteOrphans(out);
        if (!orphans.isEmpty() && !quiet) {
            err.println("sylva: removed " + orphans.size() + (orphans.size() == 1 ? " temporary file" : " temporary files")
                    + " that an interrupted run left in " + out);
        }
        if (report != null) tellOrphansRemoved(err, quiet, report);
        for (String name : outputs) AtomicOutput.checkTarget(out.resolve(name));
        // the commit replaces the manifest, and writes the other while it publishes: Sylva's own names, not the user's
        for (String own : List.of(ResultFolder.MANIFEST, ResultFolder.PUBLISHING)) {
            try {
                AtomicOutput.checkTarget(out.resolve(own));
            } catch (InvalidInputException e) {
                throw new InvalidInputException(e.getMessage().replace("give another path", "Sylva keeps the name "
                        + own + " in --out for its own file: remove it, or give another --out"), e);
            }
        }
        if (report != null) {
            checkTarget("--report", report);
            checkNotAnOutput("--report", out, reserved, report);
        }
    }

    /**
     * Claims one more file the run writes beside {@code out}'s outputs (for example {@code --save-model}):
     * its folder is created if needed, and it must be a regular file or absent and not one of Sylva's own
     * names in {@code out}.
     */
    static void claimFile(CliContext context, PrintWriter err, boolean quiet, String option, Path out,
            Collection<String> reserved, Path file) throws IOException {
        refuseUnnamed(option, file);
        context.directories().prepare(option, file.toAbsolutePath().getParent());
        refuseDotDotAfterLink(option, file.toAbsolutePath().getParent());
        checkTarget(option, file);
        checkNotAnOutput(option, out, reserved, file);
        tellOrphansRemoved(err, quiet, file);
    }

    /** {@link AtomicOutput#checkTarget} for the file {@code option} names, its refusal naming the option. */
    private static void checkTarget(String option, Path file) {
        try {
            AtomicOutput.checkTarget(file);
        } catch (InvalidInputException e) {
            throw new InvalidInputException(option + ": " + e.getMessage(), e);
        }
    }

    /** Removes the temporaries a killed run left for {@code file} ({@link AtomicOutput#deleteOrphansOf}), saying so. */
    private static void tellOrphansRemoved(PrintWriter err, boolean quiet, Path file) throws IOException {
        List<Path> removed = AtomicOutput.deleteOrphansOf(file);
        if (!removed.isEmpty() && !quiet) {
            err.println("sylva: removed " + removed.size() + (removed.size() == 1 ? " temporary file" : " temporary files")
                    + " of " + file + " that an interrupted run left");
        }
    }

    /**
     * Refuses a folder ({@code dir}, which exists) whose path has a {@code ..} after a symbolic link: the system reads
     * {@code link/..} as the link target's parent, the commit of a result folder as the folder the text names after
     * {@code ..} takes a name off, so the run would lock and write its temporaries in one folder and publish into
     * another.
     */
    static void refuseDotDotAfterLink(String option, Path dir) throws IOException {
        Path abs = dir.toAbsolutePath();
        boolean dotDot = false;
        for (Path part : abs) dotDot |= part.toString().equals("..");
        if (!dotDot) return;
        Path asWritten = abs.normalize();
        Path resolved = abs.toRealPath();
        if (!Files.exists(asWritten) || !asWritten.toRealPath().equals(resolved)) {
            throw new InvalidInputException(option + " " + dir + ": '..' after a symbolic link names " + resolved
                    + ", while the path reads as " + asWritten + "; give the folder without '..'");
        }
    }

    /**
     * After a commit into {@code out}, names the files of an earlier run it removed ({@code Group#removedEarlier}),
     * unless quiet, and, in a warning, those it left in place: changed since that run wrote them
     * ({@code Group#keptEarlier}), or under one of Sylva's output names without any run's record
     * ({@link StaleOutputs#leftovers}: a killed run's, the user's).
     */
    static void tellRemoved(PrintWriter err, boolean quiet, AtomicOutput.Group g, Path out) {
        if (!quiet && !g.removedEarlier().isEmpty()) err.println(HdbscanOutputs.removedLine(g.removedEarlier()));
        List<Path> left = new ArrayList<>(g.keptEarlier());   // absolute paths
        for (Path p : StaleOutputs.leftovers(out, g.published())) {
            Path a = p.toAbsolutePath().normalize();
            if (!left.contains(a)) left.add(a);
        }
        if (!left.isEmpty()) err.println(StaleOutputs.leftLine(left));
    }

    /**
     * Refuses an empty path ({@code --out ''}), which would otherwise mean the current folder, and {@code -}, which
     * on this command line means standard input or output, never a file or folder of that name.
     */
    static void refuseUnnamed(String option, Path p) {
        if (p != null && p.toString().isBlank()) {
            throw new InvalidInputException(option + " is empty; name a " + (option.equals("--out") ? "folder" : "file")
                    + (option.equals("--out") ? " (--out . for the current one)" : ""));
        }
        if (p != null && p.toString().equals("-")) {
            boolean folder = option.equals("--out");
            throw new InvalidInputException(option + " -: " + (folder ? "the results are a folder of files" : "this is a "
                    + "file") + ", not written to standard output; name a " + (folder ? "folder" : "file") + " (./- for one "
                    + "named '-')" + (folder ? "; --json prints a summary on standard output" : ""));
        }
    }

    /**
     * A file that an option names ({@code option} starts with {@code --}), or a command's argument
     * ({@code option} then says what it holds: {@code input}, {@code model}).
     */
    record OptionFile(String option, Path path) {
    }

    /**
     * Refuses a run that would write one file twice or write over a file it reads: two of {@code written}
     * (files outside {@code out}, such as {@code --report} and {@code --save-model}) naming one file, one of
     * them being a file of {@code read}, or {@code out} holding a file of {@code read} under one of
     * {@code outputs} (this run's outputs, and the names it removes as stale) or of the names its manifest
     * lists. Null paths are skipped; the input {@code -} (standard input) is the file standard input is redirected
     * from, when it is one. Call it after {@link #claim} and {@link #claimFile}, which create the folders.
     */
    static void refuseOverlaps(Path out, Collection<String> outputs, List<OptionFile> written, List<OptionFile> read)
            throws IOException {
        // and what the folder's manifest names: the commit removes those files when this run does not write them
        List<String> names = union(outputs, org.sylva.io.ResultFolder.earlierOutputs(out));
        List<OptionFile> w = written.stream().filter(f -> f.path() != null).toList();
        for (int i = 0; i < w.size(); i++) {
            for (int j = i + 1; j < w.size(); j++) {
                if (resolved(w.get(i).path()).equals(resolved(w.get(j).path()))) {
                    throw new InvalidInputException(w.get(i).option() + " " + w.get(i).path() + " and " + w.get(j).option()
                            + " " + w.get(j).path() + " name the same file; give each its own");
                }
            }
        }
        for (OptionFile given : read) {
            if (given.path() == null) continue;
            // standard input redirected from a file (< points.npy) is that file, which an output must not replace
            OptionFile r = given.path().toString().equals("-") && given.option().equals("input")
                    ? new OptionFile(given.option(), STDIN) : given;
            if (!Files.isRegularFile(r.path())) continue;
            for (OptionFile f : w) {
                if (Files.exists(f.path()) && Files.isSameFile(r.path(), f.path())) {
                    throw new InvalidInputException(f.option() + " " + f.path() + " is " + read(r) + "; write it elsewhere");
                }
            }
            for (String name : names) {
                Path o = out.resolve(name);
                if (Files.exists(o) && Files.isSameFile(r.path(), o)) {
                    throw new InvalidInputException("--out " + out + " holds " + read(r) + " under the output name " + name
                            + ", which this run would replace or remove; choose another --out or move the file");
                }
            }
        }
    }

    /** Standard input as a path: on Linux the file it was redirected from, when it was. */
    static final Path STDIN = Path.of("/dev/stdin");

    /** How a message names a file the run reads: {@code the input file (x.npy)}, {@code the file --batch reads (b.npy)}. */
    private static String read(OptionFile r) {
        if (r.path() == STDIN) return "the " + r.option() + " file (standard input is redirected from it)";
        return (r.option().startsWith("--") ? "the file " + r.option() + " reads" : "the " + r.option() + " file")
                + " (" + r.path() + ")";
    }

    /** The names of {@code a} and then those of {@code b} not in {@code a}. */
    static List<String> union(Collection<String> a, Collection<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        for (String name : b) if (!all.contains(name)) all.add(name);
        return all;
    }

    /** {@code p} with its folder (which exists) as the file system sees it. */
    private static Path resolved(Path p) throws IOException {
        return p.toAbsolutePath().getParent().toRealPath().resolve(p.getFileName().toString());
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
                : name.equals(ResultFolder.PUBLISHING) ? "the list a run keeps while it publishes"
                : AtomicOutput.isTemporaryName(name) ? "a name Sylva gives its temporary files" : null;
        if (what != null) {
            throw new InvalidInputException(option + " " + report + " names " + what + " in --out (" + name
                    + "); choose another file name");
        }
    }
}
