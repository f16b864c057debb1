package org.sylva.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Keeps an HDBSCAN output directory to the current run's files: after a run has committed its outputs,
 * the files that an earlier run wrote there under Sylva's own names and that this run did not write
 * (e.g. {@code labels.csv} after a run with {@code --format npy}, or {@code report.html} after a run
 * without {@code --report}) are removed, so that nobody reads an old report beside new labels. Only
 * these names are ever touched ({@link #NAMES}), only regular files and links, never a directory, and
 * nothing before the new outputs are in place (and before the manifest is written, so a folder with a
 * manifest never has an earlier run's file beside it): a run that fails before its commit removes nothing. A report written
 * under another name than {@code report.html} is the user's to remove.
 *
 * <pre>{@code
 * g.commitFolder(out, "hdbscan", () -> removed.addAll(StaleOutputs.remove(out, written)));
 * }</pre>
 */
final class StaleOutputs {
    /** The arrays {@code sylva hdbscan} writes, without extension (each as .npy or .csv). */
    static final List<String> ARRAYS = List.of("labels", "probabilities", "outlier_scores", "core_distances", "mst",
            "single_linkage", "condensed_tree", "persistence");
    /** The arrays written on request (cluster centres, and the rows of a weighted fit's points), without extension. */
    static final List<String> OPTIONAL_ARRAYS = List.of("centroids", "medoids", "fitted_rows");
    /** Every file name a Sylva HDBSCAN run may leave in its output directory. */
    static final List<String> NAMES = names();
    /** The arrays' file names in every format (what a report in the output directory must not be called). */
    static final List<String> ARRAY_FILES = NAMES.subList(0, NAMES.size() - 1);

    private StaleOutputs() {
    }

    private static List<String> names() {
        List<String> names = new ArrayList<>();
        for (List<String> group : List.of(ARRAYS, OPTIONAL_ARRAYS)) {
            for (String a : group) {
                for (OutputFormat f : OutputFormat.values()) names.add(a + f.extension());
            }
        }
        names.add("report.html");
        return List.copyOf(names);
    }

    /**
     * Removes from {@code dir} the files named in {@link #NAMES} that are not among {@code written};
     * returns them. A file that cannot be removed is an error naming it (the new outputs stay).
     */
    static List<Path> remove(Path dir, List<Path> written) throws IOException {
        Set<Path> keep = new HashSet<>();
        for (Path p : written) keep.add(p.toAbsolutePath().normalize());
        List<Path> removed = new ArrayList<>();
        for (String name : NAMES) {
            Path p = dir.resolve(name);
            if (keep.contains(p.toAbsolutePath().normalize())) continue;
            // a link is removed, not what it points to; a directory of that name is not ours
            if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && !Files.isSymbolicLink(p)) continue;
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                throw new IOException("the outputs were written, but " + p + ", left by an earlier run, could not"
                        + " be removed (" + ErrorHandler.message(e) + ")", e);
            }
            removed.add(p);
        }
        return removed;
    }
}
