package org.sylva.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sylva.io.ResultFolder;
import org.sylva.progress.CancellationToken;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What a result folder's manifest says its run was made from (the manifest's {@code "run"} object,
 * {@link org.sylva.io.ResultManifest#run}): Sylva's version, the command line as given, the working directory
 * (against which the arguments' relative paths resolve), each file the run read with its size and SHA-256, and the
 * parameters in effect (defaults filled in, typed as scikit-learn's), so that a folder says how to make it again
 * and whether its inputs are still the ones it was made from. A file's size and SHA-256 are taken when the
 * outputs are written; standard input ({@code -}) is named without them.
 *
 * <pre>{@code
 * Map<String, Object> run = RunRecord.of(spec, List.of(new RunRecord.Input("points", "clips.npy")),
 *         result.parameters().describeTyped()).describe(cancel);
 * group.commitFolder(out, "hdbscan", run, () -> { });
 * }</pre>
 *
 * @param arguments  the command line after {@code sylva}, as given
 * @param inputs     the files the run read
 * @param parameters the parameters in effect, or an empty map where the arguments say it all
 */
record RunRecord(List<String> arguments, List<Input> inputs, Map<String, Object> parameters) {
    /**
     * A file the run read.
     *
     * @param role what the run read it as ({@code "points"}, {@code "model"}, {@code "sample_weight"}, ...)
     * @param path the path as given, or {@code -} for standard input
     */
    record Input(String role, String path) {
    }

    RunRecord {
        arguments = List.copyOf(arguments);
        inputs = List.copyOf(inputs);
        parameters = parameters == null ? Map.of() : parameters;
    }

    /** The record of the command {@code spec} parses, with its inputs ({@code null} paths skipped). */
    static RunRecord of(CommandSpec spec, List<Input> inputs, Map<String, Object> parameters) {
        List<String> args = spec.commandLine() == null || spec.commandLine().getParseResult() == null ? List.of()
                : spec.commandLine().getParseResult().originalArgs();
        List<Input> given = new ArrayList<>();
        for (Input i : inputs) if (i.path() != null) given.add(i);
        return new RunRecord(args, given, parameters);
    }

    /** An input at {@code path} (null: none). */
    static Input input(String role, Path path) {
        return new Input(role, path == null ? null : path.toString());
    }

    /** The manifest's {@code "run"} object; reads each input file through once for its SHA-256. */
    Map<String, Object> describe(CancellationToken cancel) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sylva_version", SylvaCommand.version());
        m.put("arguments", arguments);
        m.put("working_directory", Path.of("").toAbsolutePath().toString());
        List<Object> files = new ArrayList<>();
        for (Input i : inputs) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("role", i.role());
            f.put("path", i.path());
            if (!i.path().equals("-")) {
                Path p = Path.of(i.path());
                f.put("bytes", Files.size(p));
                f.put("sha256", ResultFolder.sha256(p, cancel));
            }
            files.add(f);
        }
        m.put("inputs", files);
        if (!parameters.isEmpty()) m.put("parameters", parameters);
        return m;
    }

    /**
     * What differs between the inputs the manifest's {@code run} object records and the files now at their paths
     * (relative paths resolved against the run's working directory): one clause per input that is missing or whose
     * size or SHA-256 differs, in the manifest's order; empty when every recorded input is as the run read it. An
     * input read from standard input, or a manifest that records none (format version 1), has nothing to check:
     * {@link #inputsRecorded} tells.
     */
    static List<String> changedInputs(Map<String, Object> run, CancellationToken cancel) throws IOException {
        List<String> changed = new ArrayList<>();
        Object dir = run.get("working_directory");
        Path base = dir instanceof String d ? Path.of(d) : Path.of("");
        if (!(run.get("inputs") instanceof List<?> inputs)) return changed;
        for (Object o : inputs) {
            if (!(o instanceof Map<?, ?> f) || !(f.get("path") instanceof String given) || !(f.get("sha256") instanceof String sha)
                    || !(f.get("bytes") instanceof Long bytes)) {
                continue;   // standard input: no digest to compare
            }
            Path p = base.resolve(given);
            String name = f.get("role") + " " + given;
            if (!Files.isRegularFile(p)) {
                changed.add(name + ": " + (Files.exists(p) ? "not a regular file" : "no longer there") + " (" + p + ")");
            } else if (Files.size(p) != bytes) {
                changed.add(name + ": " + Files.size(p) + " bytes, but the run read " + bytes);
            } else {
                String now = ResultFolder.sha256(p, cancel);
                if (!now.equals(sha)) changed.add(name + ": its SHA-256 is " + now + ", but the run read " + sha);
            }
        }
        return changed;
    }

    /** How many inputs of the manifest's {@code run} object have a digest to check ({@link #changedInputs}). */
    static int inputsRecorded(Map<String, Object> run) {
        int n = 0;
        if (run.get("inputs") instanceof List<?> inputs) {
            for (Object o : inputs) if (o instanceof Map<?, ?> f && f.get("sha256") instanceof String) n++;
        }
        return n;
    }
}
