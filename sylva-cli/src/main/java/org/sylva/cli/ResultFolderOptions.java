package org.sylva.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.predict.HdbscanModel;

/**
 * The options of a command that writes a result folder from a saved model ({@code predict}, {@code cut},
 * {@code reselect}): where ({@code --out}), in which format ({@code --format}) and whether a JSON summary
 * goes to stdout ({@code --json}); and what these commands do alike before their work: claim the folder
 * and load the model.
 *
 * <pre>{@code
 * @Mixin ResultFolderOptions folder = new ResultFolderOptions();   // then folder.out, folder.format, folder.json
 * }</pre>
 */
final class ResultFolderOptions {
    Path out;
    OutputFormat format;
    boolean json;

    /**
     * Adds these options to {@code m}, bound to this object; {@code savesModel} when the command has
     * {@code --save-model}, whose file the clean-up of {@code --out} leaves alone.
     */
    void declare(CommandModel m, boolean savesModel) {
        m.option(Path.class, v -> out = v, "--out")
                .required(true)
                .paramLabel("DIR")
                .description("Output directory (created if needed; a second run into it while this one runs is "
                        + "refused at once). The files an earlier run's manifest names that this run does not write "
                        + "are removed, and named, if they are still as that run wrote them (a warning names those "
                        + "changed since)" + (savesModel ? ", except a model whose name the user chose (--save-model)"
                        : "") + ". The manifest sylva-run.json, removed before the new files land "
                        + "and put in place last, marks the folder complete (sylva verify DIR).");
        OutputFormat.declare(m, v -> format = v);
        m.option(boolean.class, v -> json = v, "--json")
                .description("Print a machine-readable summary on stdout (one JSON line per result folder written). Where stdout cannot be "
                        + "written the exit status is 2, but the outputs, in place by then, stay complete.");
    }

    /** Every file name of {@code outputs} in every format: names no other file given may take in {@code --out}. */
    static List<String> reserved(List<String> outputs) {
        return Stream.of(OutputFormat.values()).flatMap(f -> BallTreeCommand.names(outputs, f).stream()).toList();
    }

    /** Claims {@code --out} for {@code outputs} in this run's format (folder, lock, targets: {@link OutputTargets}). */
    void claim(CliContext context, PrintWriter err, boolean quiet, List<String> outputs) throws IOException {
        claim(context, err, quiet, outputs, out);
    }

    /** As {@link #claim(CliContext, PrintWriter, boolean, List)} for the folder {@code dir}. */
    void claim(CliContext context, PrintWriter err, boolean quiet, List<String> outputs, Path dir) throws IOException {
        OutputTargets.claim(context, err, quiet, dir, BallTreeCommand.names(outputs, format), reserved(outputs), null);
    }

    /** Refuses a run that writes one file twice or over a file it reads ({@link OutputTargets#refuseOverlaps}). */
    void refuseOverlaps(List<String> outputs, List<OutputTargets.OptionFile> written, List<OutputTargets.OptionFile> read)
            throws IOException {
        refuseOverlaps(outputs, out, written, read);
    }

    /** As {@link #refuseOverlaps(List, List, List)} for the folder {@code dir}. */
    void refuseOverlaps(List<String> outputs, Path dir, List<OutputTargets.OptionFile> written,
            List<OutputTargets.OptionFile> read) throws IOException {
        OutputTargets.refuseOverlaps(dir, reserved(outputs), written, read);
    }

    /**
     * The model in {@code file}, its read stopped by {@code cancel}; refused naming {@code command} when it holds no
     * spanning tree (format version 1).
     */
    static HdbscanModel modelWithTree(Path file, String command, org.sylva.progress.CancellationToken cancel)
            throws IOException {
        HdbscanModel m = HdbscanModel.load(file, org.sylva.progress.ProgressListener.NONE, cancel);
        if (m.spanningTree().isEmpty()) {
            throw new InvalidInputException("model file " + file + " holds no spanning tree (format version 1, written "
                    + "by an earlier Sylva), which " + command + " needs; fit again with sylva hdbscan --save-model to "
                    + "get a file that holds it");
        }
        return m;
    }
}
