package org.sylva.cli;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Sylva's HDBSCAN output names, and the files under them that a run did not write. A run removes an earlier
 * run's files where the folder's manifest records them and they are unchanged since
 * ({@code AtomicOutput.Group#commitFolder}; a {@code report.html} in the folder is recorded as the run's own,
 * {@link ReportStage#OWN_NAME}), so that nobody reads an old report beside new labels. A file under one of these
 * names ({@link #NAMES}) that no manifest records, or that changed since, may be the user's own
 * ({@code report.html} in a project folder): it stays, and the run names it in a warning ({@link #leftovers}).
 *
 * <pre>{@code
 * List<Path> left = StaleOutputs.leftovers(out, written);   // after the commit; removes nothing
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
    /**
     * {@link #NAMES} and the other commands' outputs ({@code sylva predict}'s membership, the ball tree's arrays):
     * the names {@link #leftovers} looks for, whichever command wrote into the folder.
     */
    static final List<String> EVERY_COMMANDS = everyCommands();

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

    private static List<String> everyCommands() {
        List<String> names = new ArrayList<>(NAMES);
        for (OutputFormat f : OutputFormat.values()) {
            names.add("membership" + f.extension());
            names.addAll(BallTreeCommand.names(BallTreeCommand.TREE, f));
            names.addAll(BallTreeCommand.names(BallTreeCommand.PARTITION, f));
        }
        return List.copyOf(names);
    }

    /**
     * The regular files and links of {@code dir} named in {@link #EVERY_COMMANDS} that are not among
     * {@code written}: after a commit, what an earlier run or the user left under Sylva's names (a labels.npy
     * beside a cut's labels.csv, a killed fit's mst.npy beside a cut's labels.npy). Removes nothing.
     */
    static List<Path> leftovers(Path dir, List<Path> written) {
        Set<Path> keep = new HashSet<>();
        for (Path p : written) keep.add(p.toAbsolutePath().normalize());
        List<Path> left = new ArrayList<>();
        for (String name : EVERY_COMMANDS) {
            Path p = dir.resolve(name);
            if (keep.contains(p.toAbsolutePath().normalize())) continue;
            // a directory of that name is not an output
            if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(p)) left.add(p);
        }
        return left;
    }

    /**
     * One warning naming the files under output names that a run left in place ({@code left}), or the empty
     * string for none.
     */
    static String leftLine(List<Path> left) {
        if (left.isEmpty()) return "";
        List<String> names = new ArrayList<>();
        for (Path p : left) names.add(p.getFileName().toString());
        return "sylva: warning: left in place " + left.size() + (left.size() == 1 ? " file" : " files")
                + " that this run did not write and that no earlier run in the folder recorded as it is now (the"
                + " user's, or outputs changed since): " + String.join(", ", names) + "; they are not this run's results";
    }
}
