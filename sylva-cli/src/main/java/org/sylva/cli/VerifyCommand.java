package org.sylva.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.sylva.data.InvalidInputException;
import org.sylva.io.ResultFolder;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code sylva verify DIR...}: whether each result folder holds one complete run ({@link ResultFolder#verify}),
 * in one line per folder on stdout, with an exit status a script can test: 0 complete (the manifest matches
 * every file it names), {@value ExitStatus#INCOMPLETE} incomplete (no manifest: a run was interrupted), {@value
 * ExitStatus#MISMATCH} mismatch (a file named by the manifest is missing or differs: changed after the run);
 * for several folders the worst of theirs (mismatch before incomplete), so that {@code sylva verify result/}{@code *}
 * checks the folders of a command of several inputs at once. With {@code --inputs} a complete folder is also checked
 * against the input files its manifest's run record names ({@link RecordedInputs}): one that is missing or
 * changed makes it a mismatch.
 *
 * <pre>{@code
 * $ sylva verify result/
 * complete: result (8 files of a hdbscan run, id 3f2a9c...)
 * }</pre>
 */
final class VerifyCommand implements Callable<Integer> {
    CommandSpec spec;
    java.util.List<Path> dirs;
    boolean quiet;
    boolean inputs;
    private final CliContext context;

    VerifyCommand(CliContext context) {
        this.context = context;
    }

    /** This command's picocli model, bound to this object ({@link CommandModel}). */
    CommandSpec model() {
        CommandModel m = new CommandModel("verify", this)
                .header("Check that a result folder holds one complete run.")
                .description("Reads DIR/" + ResultFolder.MANIFEST + ", which every run writes last (after all its "
                        + "files) and removes first, and checks each file it names against its size and SHA-256. "
                        + "Prints one line and exits 0 when complete, " + ExitStatus.INCOMPLETE + " when there is no "
                        + "manifest (a run was interrupted or never finished: do not use the files), "
                        + ExitStatus.MISMATCH + " when a named file is missing or differs (changed after the run).")
                .footer("",
                        "Examples:",
                        "  sylva verify result/",
                        "  sylva verify result/ && python analyse.py result/",
                        "  sylva verify result/*/   # every folder of a run of several inputs",
                        "  sylva verify --inputs result/   # and the inputs are as the run read them");
        @SuppressWarnings("unchecked")
        Class<java.util.List<Path>> list = (Class<java.util.List<Path>>) (Class<?>) java.util.List.class;
        m.parameter(list, v -> dirs = v)
                .index("0..*")
                .arity("1..*")
                .auxiliaryTypes(Path.class)
                .paramLabel("DIR")
                .description("A folder written by sylva hdbscan, balltree, predict, cut, reselect or demo (--out); "
                        + "several: one line each, and the worst status (" + ExitStatus.MISMATCH + " before "
                        + ExitStatus.ERROR + ", for one that is no folder, named on stderr, before "
                        + ExitStatus.INCOMPLETE + ").");
        m.option(boolean.class, v -> inputs = v, "--inputs")
                .description("Also check that each input file the run read (the manifest's run record: the points, "
                        + "a model, --sample-weight ...) is still at its path with the same size and SHA-256; one "
                        + "that is missing or changed is a mismatch (" + ExitStatus.MISMATCH + ").");
        m.option(boolean.class, v -> quiet = v, "-q", "--quiet")
                .description("Print no verdict; the exit status says it all (a command line that cannot run, such as a folder "
                        + "that does not exist, is still an error on stderr).");
        spec = m.spec();
        return spec;
    }

    @Override
    public Integer call() throws Exception {
        int status = ExitStatus.OK;
        boolean unchecked = false;
        for (Path dir : dirs) {
            ResultFolder.Verdict v;
            try {
                v = ResultFolder.verify(dir, context.cancel());
            } catch (InvalidInputException e) {
                if (dirs.size() == 1) throw e;
                // one of several that is no folder: said, and the others are still checked
                spec.commandLine().getErr().println("sylva: error: " + e.getMessage());
                unchecked = true;
                continue;
            } catch (java.io.IOException e) {
                if (dirs.size() == 1) throw e;
                // one of several that cannot be read (a file of it unreadable): said, and the others still checked
                spec.commandLine().getErr().println(ErrorHandler.oneLine("sylva: error: " + dir + ": "
                        + ErrorHandler.message(e)));
                unchecked = true;
                continue;
            }
            String hint = v.status() == ResultFolder.Status.INCOMPLETE ? resultFolders(dir) : "";
            String line = v.message();
            if (inputs && v.status() == ResultFolder.Status.COMPLETE) {
                RecordedInputs c = RecordedInputs.check(v.manifest().run(), context.cancel());
                if (!c.changed().isEmpty()) {
                    v = new ResultFolder.Verdict(ResultFolder.Status.MISMATCH, dir, "", v.manifest());
                    line = "mismatch: " + dir + ": the inputs changed since the run: " + String.join("; ", c.changed());
                } else {
                    line += c.sameClause(v.manifest().version());
                }
            }
            if (!quiet) spec.commandLine().getOut().println(ErrorHandler.oneLine(line, hint));
            switch (v.status()) {
                case COMPLETE -> { }
                case INCOMPLETE -> status = status == ExitStatus.MISMATCH ? status : ExitStatus.INCOMPLETE;
                case MISMATCH -> status = ExitStatus.MISMATCH;
            }
        }
        return unchecked && status != ExitStatus.MISMATCH ? ExitStatus.ERROR : status;
    }

    /**
     * For a folder without a manifest that holds result folders (the {@code --out} of {@code sylva hdbscan} with
     * several inputs): a clause naming them and how to check them, else the empty string.
     */
    private static String resultFolders(Path dir) throws java.io.IOException {
        java.util.List<String> names = new java.util.ArrayList<>();
        try (var entries = java.nio.file.Files.newDirectoryStream(dir)) {
            for (Path e : entries) {
                if (java.nio.file.Files.isRegularFile(e.resolve(ResultFolder.MANIFEST))) {
                    names.add(e.getFileName().toString());
                }
            }
        }
        if (names.isEmpty()) return "";
        java.util.Collections.sort(names);
        String shown = String.join(", ", names.subList(0, Math.min(3, names.size())))
                + (names.size() > 3 ? ", ..." : "");
        return "; it holds " + names.size() + (names.size() == 1 ? " result folder" : " result folders") + " (" + shown
                + "), as a command given several inputs writes: check them with sylva verify " + dir.resolve("*")
                + "/";
    }
}
