package org.sylva.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.sylva.io.ResultFolder;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What a result folder's manifest says its run was made from (the manifest's {@code "run"} object,
 * {@link org.sylva.io.ResultManifest#run}): Sylva's version, the command line as given, the working directory
 * (against which the arguments' relative paths resolve), each file the run read with its size and SHA-256, and the
 * parameters in effect (defaults filled in, typed as scikit-learn's), so that a folder says how to make it again
 * and whether its inputs are still the ones it was made from ({@code sylva verify --inputs}, {@link RecordedInputs}).
 *
 * <p>An input is hashed from the moment the command names it, before it reads it, on a thread of its own beside
 * the computation ({@link Input#of}): the digest is that of the bytes the run reads (a file changed during the run
 * no longer matches), and the hashing costs the run's wall time only where it outlasts the computation. Only
 * regular files are hashed: standard input ({@code -}), a pipe or a FIFO is recorded by its path alone, and so is
 * a file that cannot be read again (the run's own reading says why, if it fails). For a command of several inputs
 * each folder's arguments are the command that makes that folder alone: the other inputs left out (a manifest's size
 * does not grow with their number), its own folder as {@code --out}, its report and model file as {@code --report}
 * and {@code --save-model}.
 *
 * <pre>{@code
 * RunRecord.Input points = RunRecord.Input.of("points", "clips.npy", cancel);   // hashing starts
 * // ... read clips.npy, fit ...
 * Map<String, Object> run = RunRecord.of(spec, List.of(points), result.parameters().describeTyped()).describe();
 * group.commitFolder(out, "hdbscan", run, () -> { });
 * }</pre>
 *
 * @param arguments  the command line after {@code sylva}, as given, an {@code @FILE} argument replaced by its words
 *                   (less the other inputs of a command of several)
 * @param inputs     the files the run read
 * @param parameters the parameters in effect, or an empty map where the arguments say it all
 * @param options    Sylva's own choices that shape the outputs besides the parameters ({@code sylva hdbscan}'s
 *                   {@code non_finite}, {@code pca} and {@code centers}, as {@code --json} names them), or an empty map
 */
record RunRecord(List<String> arguments, List<Input> inputs, Map<String, Object> parameters, Map<String, Object> options) {
    RunRecord {
        arguments = List.copyOf(arguments);
        inputs = List.copyOf(inputs);
        parameters = parameters == null ? Map.of() : parameters;
        options = options == null ? Map.of() : options;
    }

    /** This record with {@code options} ({@link #options}). */
    RunRecord withOptions(Map<String, Object> options) {
        return new RunRecord(arguments, inputs, parameters, options);
    }

    /**
     * A file the run read: its role, its path as given and, for a regular file, its size and SHA-256, computed on a
     * daemon thread that starts when the input is named.
     */
    static final class Input {
        private final String role;
        private final String path;
        private final CompletableFuture<Map<String, Object>> digest;

        private Input(String role, String path, CompletableFuture<Map<String, Object>> digest) {
            this.role = role;
            this.path = path;
            this.digest = digest;
        }

        /**
         * The input {@code path} of {@code role} ({@code "points"}, {@code "model"}, {@code "sample_weight"}, ...),
         * its hashing started (stopped by {@code cancel}); null when {@code path} is null (no such input).
         */
        static Input of(String role, String path, CancellationToken cancel) {
            if (path == null) return null;
            CompletableFuture<Map<String, Object>> digest = new CompletableFuture<>();
            Path p = null;
            BasicFileAttributes a = null;
            try {
                p = path.equals("-") ? null : Path.of(path);
                if (p != null) a = Files.readAttributes(p, BasicFileAttributes.class);   // follows a link
            } catch (IOException | RuntimeException e) {
                a = null;   // unreadable: the run's own reading reports it
            }
            if (a == null || !a.isRegularFile()) {
                digest.complete(Map.of());   // standard input, a pipe, a FIFO: read once, by the run
            } else {
                long bytes = a.size();
                Path file = p;
                Thread t = new Thread(() -> {
                    try {
                        Map<String, Object> d = new LinkedHashMap<>();
                        d.put("bytes", bytes);
                        d.put("sha256", ResultFolder.sha256(file, cancel));
                        digest.complete(d);
                    } catch (IOException | UncheckedIOException | CancelledException e) {
                        digest.complete(Map.of());   // gone or cancelled: recorded without a digest
                    } catch (Throwable e) {
                        digest.completeExceptionally(e);
                    }
                }, "sylva-input-digest");
                t.setDaemon(true);
                t.start();
            }
            return new Input(role, path, digest);
        }

        /** {@link #of} of a path, or null. */
        static Input of(String role, Path path, CancellationToken cancel) {
            return path == null ? null : of(role, path.toString(), cancel);
        }

        /**
         * The manifest's entry: {@code role}, {@code path} and, where the file was hashed, {@code bytes} and
         * {@code sha256}; waits for the hashing. The size is the one the file had when it was named: a file that
         * grew while it was hashed no longer matches it.
         */
        Map<String, Object> describe() {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("role", role);
            f.put("path", path);
            Map<String, Object> d;
            try {
                d = digest.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CancelledException();
            } catch (ExecutionException e) {
                throw new IllegalStateException("hashing " + path + " failed", e.getCause());
            }
            f.putAll(d);
            return f;
        }
    }

    /** The record of the command {@code spec} parses, with its {@code inputs} (nulls skipped). */
    static RunRecord of(CommandSpec spec, List<Input> inputs, Map<String, Object> parameters) {
        return of(spec, inputs, parameters, List.of(), List.of(), Map.of());
    }

    /**
     * As {@link #of(CommandSpec, List, Map)}; {@code positional} are the command's positional arguments in the order
     * given, of which the arguments keep those in {@code keep}, and the options named in {@code values} take the
     * values given there: each folder of {@code sylva hdbscan a.npy b.npy --out res} records the command that makes
     * it alone, {@code ["hdbscan", "a.npy", "--out", "res/a", ...options]} or {@code ["hdbscan", "b.npy", "--out",
     * "res/b", ...options]}. Where one of {@code keep} is not among them, the arguments stay whole.
     */
    static RunRecord of(CommandSpec spec, List<Input> inputs, Map<String, Object> parameters, List<String> positional,
            List<String> keep, Map<String, String> values) {
        List<String> args = arguments(spec.commandLine());
        if (positional.size() > keep.size() && positional.containsAll(keep)) {
            args = keepOnly(spec, args, positional, keep, values);
        }
        List<Input> given = new ArrayList<>();
        for (Input i : inputs) if (i != null) given.add(i);
        return new RunRecord(asTyped(args), given, parameters, Map.of());   // after keepOnly, which reads the words
    }

    /**
     * The command line's arguments after picocli's expansion of {@code @FILE} into the file's words (the root's
     * list: a subcommand's own starts after its name), so that the record stays whole when that file changes.
     */
    private static List<String> arguments(picocli.CommandLine command) {
        if (command == null) return List.of();
        picocli.CommandLine root = command;
        while (root.getParent() != null) root = root.getParent();
        return root.getParseResult() == null ? List.of() : root.getParseResult().expandedArgs();
    }

    /**
     * {@code words} as they are typed to mean them: a word that starts with {@code @} (typed {@code @@NAME}, a
     * file's name) with its {@code @} doubled, so that the recorded command, run again, reads the same words.
     */
    static List<String> asTyped(List<String> words) {
        List<String> typed = new ArrayList<>(words.size());
        for (String w : words) typed.add(w.startsWith("@") && w.length() > 1 ? "@" + w : w);
        return typed;
    }

    /**
     * {@code args} without the values of {@code positional} not in {@code keep}, and with the value of each option
     * named in {@code values} replaced by the one given there (written as it was: {@code --name value} or
     * {@code --name=value}): an argument is an option's value when it follows an option of {@code spec} that takes one
     * (not written {@code --name=value}); every other argument after the command's name that is not an option, and
     * every one after {@code --}, is the next positional value.
     */
    static List<String> keepOnly(CommandSpec spec, List<String> args, List<String> positional, List<String> keep,
            Map<String, String> values) {
        List<String> kept = new ArrayList<>();
        int next = 0;
        boolean optionsEnded = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (i == 0 && a.equals(spec.name())) {
                kept.add(a);
                continue;
            }
            if (!optionsEnded && a.equals("--")) {
                optionsEnded = true;
                kept.add(a);
                continue;
            }
            if (!optionsEnded && a.startsWith("-") && a.length() > 1) {
                int eq = a.indexOf('=');
                String replaced = values.get(eq < 0 ? a : a.substring(0, eq));
                kept.add(eq >= 0 && replaced != null ? a.substring(0, eq + 1) + replaced : a);
                OptionSpec o = eq >= 0 ? null : spec.findOption(a);
                if (o != null && o.arity().max() > 0 && !o.type().equals(boolean.class) && i + 1 < args.size()) {
                    i++;
                    kept.add(replaced != null ? replaced : args.get(i));   // its value
                }
                continue;
            }
            if (next < positional.size() && a.equals(positional.get(next))) {
                next++;
                if (keep.contains(a)) kept.add(a);
            } else {
                kept.add(a);
            }
        }
        return kept;
    }

    /** The manifest's {@code "run"} object; waits for the inputs' hashing. */
    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sylva_version", SylvaCommand.version());
        m.put("arguments", arguments);
        m.put("working_directory", Path.of("").toAbsolutePath().toString());
        List<Object> files = new ArrayList<>();
        for (Input i : inputs) files.add(i.describe());
        m.put("inputs", files);
        if (!parameters.isEmpty()) m.put("parameters", parameters);
        if (!options.isEmpty()) m.put("options", options);
        return m;
    }
}
