package org.sylva.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sylva.data.InvalidInputException;
import org.sylva.io.InputFiles;
import org.sylva.io.PointReaders;

/**
 * The inputs of one {@code sylva hdbscan} (or {@code sylva predict}) command and where each one's outputs go.
 * One input writes into {@code --out} itself, as always. Several inputs are fitted (assigned) one after the
 * other in the same process with the same options (a JVM started and warmed once instead of once per file),
 * each into its own folder {@code --out/NAME}, NAME being the input's file name without its last extension
 * ({@code day1/clips.npy} into {@code result/clips}); each folder is exactly what a separate run of that input
 * into it would write, manifest included (its run id and the arguments of its run record aside). {@code --report} and {@code --save-model} then name a file written
 * into each folder.
 * Refused before anything is read: standard input among several inputs, two inputs with the same NAME,
 * an input that does not exist, is a directory or has no format a reader knows, an empty {@code --out},
 * a {@code --report} or {@code --save-model} with a folder in it, and the options that name one file for one
 * input ({@code --sample-weight}, {@code --waveforms-from}).
 *
 * <pre>{@code
 * List<InputBatch.Target> targets = InputBatch.plan(List.of("a.npy", "b.npy"), null, Path.of("res"), null, null);
 * // res/a and res/b
 * }</pre>
 */
final class InputBatch {
    private InputBatch() {
    }

    /**
     * Where one input's outputs go.
     *
     * @param input     the input, as given
     * @param out       its result folder
     * @param report    its report, or null
     * @param saveModel its model file, or null
     */
    record Target(String input, Path out, Path report, Path saveModel) {
    }

    /**
     * The targets of {@code inputs}, in the order given. For one input, {@code out}, {@code report} and
     * {@code saveModel} as given; for several, see the class comment.
     */
    static List<Target> plan(List<String> inputs, String shape, Path out, Path report, Path saveModel)
            throws IOException {
        if (inputs.size() == 1) return List.of(new Target(inputs.get(0), out, report, saveModel));
        refuseBeyondOpenFileLimit(inputs.size(), Path.of("/proc/self/limits"), Path.of("/proc/self/fd"));
        OutputTargets.refuseUnnamed("--out", out);
        OutputTargets.refuseUnnamed("--report", report);
        OutputTargets.refuseUnnamed("--save-model", saveModel);
        String reportName = fileNameOnly("--report", report);
        String modelName = fileNameOnly("--save-model", saveModel);
        Map<String, String> byName = new HashMap<>();
        List<Target> targets = new ArrayList<>(inputs.size());
        for (String input : inputs) {
            if (input.equals("-")) {
                throw new InvalidInputException("standard input ('-') can only be the one input of a run; with "
                        + inputs.size() + " inputs, give each as a file");
            }
            Path p = Path.of(input);
            if (org.sylva.io.PointReaders.isUnnamedStream(p)) {   // <(...): /dev/fd/63, a number, not a name
                throw new InvalidInputException(input + " is a pipe, read as standard input is, and can only be the "
                        + "one input of a run; with " + inputs.size() + " inputs, give each as a file");
            }
            refuseUnreadable(input, p, shape);
            String name = folderName(p);
            String other = byName.putIfAbsent(name, input);
            if (other != null) {
                throw new InvalidInputException("inputs " + other + " and " + input + " would both write into "
                        + out.resolve(name) + " (a folder is named after its input's file name without the "
                        + "extension); rename one, or run them separately");
            }
            Path folder = out.resolve(name);
            targets.add(new Target(input, folder, reportName == null ? null : folder.resolve(reportName),
                    modelName == null ? null : folder.resolve(modelName)));
        }
        return List.copyOf(targets);
    }

    /**
     * Open files a run needs besides its folders' locks: the input being read and hashed, the outputs' temporaries
     * (each held open until it is renamed), a report's, a model's.
     */
    static final int SPARE_FILES = 24;

    /**
     * Refuses, before any work, more inputs than the open-file limit lets the run lock: each folder's lock stays open
     * until the command ends, and a run that reached the limit at input 900 failed there, after the fits before it.
     * Reads the soft limit from {@code limits} (Linux's {@code /proc/self/limits}) and counts {@code fds}; where they
     * cannot be read nothing is checked.
     */
    static void refuseBeyondOpenFileLimit(int inputs, Path limits, Path fds) {
        long limit = -1;
        try {
            for (String line : Files.readAllLines(limits)) {
                if (!line.startsWith("Max open files")) continue;
                String[] f = line.substring("Max open files".length()).trim().split("\\s+");
                if (f.length > 0 && f[0].chars().allMatch(Character::isDigit) && !f[0].isEmpty()) {
                    limit = Long.parseLong(f[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return;
        }
        if (limit < 0) return;   // unlimited, or not said
        long open;
        try (var list = Files.list(fds)) {
            open = list.count();
        } catch (IOException | RuntimeException e) {
            return;
        }
        if (open + inputs + SPARE_FILES > limit) {
            throw new InvalidInputException(inputs + " inputs: the run keeps each one's folder locked, a file open, until "
                    + "it ends, and the limit on open files (ulimit -n) is " + limit + ", " + open + " of them open; "
                    + "raise it (ulimit -n " + (open + inputs + SPARE_FILES) + " or more) or give the inputs to several "
                    + "commands");
        }
    }

    /**
     * Refuses what a reader would refuse only when it came to this input, after the fits of those before it: a
     * missing file, a directory, a name of no known format, a {@code --shape} for a {@code .npy}, {@code .npz} or
     * text file.
     */
    private static void refuseUnreadable(String input, Path p, String shape) throws IOException {
        if (input.isBlank()) throw new InvalidInputException("an input's name is empty; name a file of points");
        if (!Files.exists(p)) throw new InvalidInputException(input + ": " + InputFiles.missing(p));
        if (Files.isDirectory(p)) throw new InvalidInputException(input + ": is a directory; give a file of points");
        PointReaders.Format named = PointReaders.formatOf(input, false);
        boolean npz = input.toLowerCase(java.util.Locale.ROOT).endsWith(".npz");
        if (shape == null && named == null && !npz && !InputOptions.isNpy(p) && !PointReaders.isUnnamedStream(p)) {
            throw new InvalidInputException(input + ": cannot tell the format from the name; use .npy, .csv, "
                    + ".tsv, .txt, .npz, or raw little-endian float32, which needs its shape N,D (--shape on the "
                    + "command line)");
        }
        boolean npy = named == PointReaders.Format.NPY || named == null && InputOptions.isNpy(p);
        npz |= shape != null && named == null && InputOptions.startsAsZip(p);   // a .npz under another name
        if (shape != null && (named != null || npz || npy)) {
            throw new InvalidInputException(input + ": a shape is only for raw float32 input; this "
                    + (npz ? ".npz states its own" : npy ? ".npy file states its shape in its header"
                    : "text file's rows give its shape"));
        }
    }

    /** The line that announces input {@code i} (from 0) of several: {@code sylva: input 2 of 5: b.npy into res/b}. */
    static String startLine(int i, List<Target> targets) {
        Target t = targets.get(i);
        return "sylva: input " + (i + 1) + " of " + targets.size() + ": " + t.input() + " into " + t.out();
    }

    /**
     * Refuses, for a run of several inputs, an option that names one file for one input.
     *
     * @param inputs how many inputs the run has
     * @param option the option's name
     * @param file   its value, or null when not given
     */
    static void refuseOneFileOption(int inputs, String option, Object file) {
        if (inputs > 1 && file != null) {
            throw new InvalidInputException(option + " names a file for one input; with " + inputs + " inputs, run "
                    + "sylva hdbscan once per input to use it");
        }
    }

    /** The result folder's name for input {@code p}: its file name without its last extension ({@code x.tar}). */
    static String folderName(Path p) {
        Path f = p.getFileName();
        String name = f == null ? "" : f.toString();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        if (stem.isEmpty() || stem.equals(".") || stem.equals("..")) {
            throw new InvalidInputException("input " + p + " has no file name to name its result folder after; "
                    + "give each input as a file");
        }
        if (org.sylva.io.ResultFolder.MANIFEST.equals(stem) || stem.equals(OutputLocks.FILE_NAME)
                || stem.equals(org.sylva.io.ResultFolder.PUBLISHING)) {
            throw new InvalidInputException("input " + p + " would name its result folder " + stem + ", a name Sylva "
                    + "keeps for its own files in --out; rename the input");
        }
        return stem;
    }

    /** With several inputs, {@code --report} and {@code --save-model} are a file name put into each folder. */
    private static String fileNameOnly(String option, Path file) {
        if (file == null) return null;
        if (file.isAbsolute() || file.getNameCount() != 1 || file.toString().equals(".")
                || file.toString().equals("..")) {
            throw new InvalidInputException(option + " " + file + ": with several inputs, " + option + " is a file "
                    + "name written into each input's result folder (for example " + option + " "
                    + (option.equals("--report") ? "report.html" : "clips.model") + "), not a path");
        }
        return file.toString();
    }
}
