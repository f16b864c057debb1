package org.sylva.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sylva.io.JsonWriter;

/**
 * The one line of JSON a command prints on stdout with {@code --json}: an object whose first two keys are always
 * {@code sylva_version} and {@code command} (the subcommand's words, {@code "hdbscan"}, {@code "bench balltree"}),
 * then the command's own keys in a fixed order. The same quantity has the same key and unit in every command
 * ({@code n_points}, {@code n_dims}, {@code n_clusters}, {@code n_noise}, {@code cluster_sizes}, {@code threads},
 * {@code files}; times in seconds under {@code seconds}, or {@code median_seconds} and {@code min_seconds} for
 * {@code sylva bench}), so that a script reads every command's line alike. {@code docs/cli-json.md} lists each
 * command's keys; a test holds every command to that list.
 *
 * <pre>{@code
 * String line = new JsonSummary("cut").put("model", "fit.model").clusters(labels).files(written).line();
 * }</pre>
 */
final class JsonSummary {
    private final Map<String, Object> fields = new LinkedHashMap<>();

    /** A summary of {@code command}: {@code sylva_version} and {@code command} set. */
    JsonSummary(String command) {
        fields.put("sylva_version", SylvaCommand.version());
        fields.put("command", command);
    }

    /** Sets {@code key} (a JSON value: null, a number, a string, a boolean, a list or a map of them). */
    JsonSummary put(String key, Object value) {
        fields.put(key, value);
        return this;
    }

    /**
     * {@code n_clusters}, {@code n_noise} (labels {@code -1}) and {@code cluster_sizes} (the points labelled each
     * cluster, in cluster order) of {@code labels}, whose clusters are {@code 0 .. clusters - 1}.
     */
    JsonSummary clusters(int[] labels, int clusters) {
        int[] sizes = new int[clusters];
        int noise = 0;
        for (int l : labels) {
            if (l >= 0) sizes[l]++;
            else if (l == -1) noise++;
        }
        fields.put("n_clusters", clusters);
        fields.put("n_noise", noise);
        fields.put("cluster_sizes", list(sizes));
        return this;
    }

    /** {@code files}: the paths written, as given (relative paths stay relative). */
    JsonSummary files(List<Path> written) {
        List<Object> files = new ArrayList<>();
        for (Path p : written) files.add(p.toString());
        fields.put("files", files);
        return this;
    }

    /** The line, without its line break. */
    String line() {
        return JsonWriter.write(fields);
    }

    /** {@code values} as a JSON list. */
    static List<Object> list(int[] values) {
        List<Object> l = new ArrayList<>(values.length);
        for (int v : values) l.add(v);
        return l;
    }

    /** {@code values} as a JSON list. */
    static List<Object> list(double[] values) {
        List<Object> l = new ArrayList<>(values.length);
        for (double v : values) l.add(v);
        return l;
    }

    /** Seconds since {@code startNanos} of {@link System#nanoTime()}. */
    static double since(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
