package org.sylva.io;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a result folder's manifest ({@value ResultFolder#MANIFEST}) says: the format version, the
 * command that wrote the folder, a random run id, what the run was made from ({@link #run}), and each file of the
 * run (its name relative to the folder, its size in bytes and its SHA-256). The manifest is the last file a run
 * writes and the first it removes, so it stands for a complete run (see {@link ResultFolder}). Text form: one JSON
 * object, readable without Sylva ({@code json.load} and {@code hashlib.sha256} in Python).
 *
 * <pre>{@code
 * {"format": "sylva-run", "version": 2, "command": "hdbscan", "run_id": "3f2a...",
 *  "run": {"sylva_version": "0.1.0", "arguments": ["hdbscan", "clips.npy", "--out", "result"], ...},
 *  "files": [{"name": "labels.npy", "bytes": 4128, "sha256": "9b1c..."}, ...,
 *            {"name": "clips.model", "bytes": 90210, "sha256": "07e4...", "chosen": true}]}
 * }</pre>
 * A file whose name the user chose ({@code --save-model}, {@code --report}) has {@code "chosen": true}: a later
 * run into the same folder keeps it, where it removes the earlier run's other files that it does not write.
 *
 * @param version the manifest format's version ({@link #VERSION}, or 1 for a manifest read from a folder written
 *                before {@code run} existed)
 * @param command the command that wrote the folder ({@code "hdbscan"}, {@code "balltree"}, ...)
 * @param runId   a random identifier of the run (32 hex digits)
 * @param run     what the run was made from, as its writer describes it (the command line tool: its version, its
 *                arguments, the working directory, each input file with its size and SHA-256, the parameters in
 *                effect); JSON values: maps, lists, strings, {@code Long} or {@code Double} numbers, booleans, null. An
 *                empty map: not described (a version 1 manifest, or a writer that gave none)
 * @param files   the run's files, in the order written
 */
public record ResultManifest(int version, String command, String runId, Map<String, Object> run, List<Entry> files) {
    /** The format version this library writes; it reads this one and version 1 (no {@code run}). */
    public static final int VERSION = 2;
    /** The value of the {@code "format"} key, which tells a manifest from any other JSON file. */
    static final String FORMAT = "sylva-run";

    public ResultManifest {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(runId, "runId");
        run = ManifestJson.frozen(run == null ? Map.of() : run);
        files = List.copyOf(files);
    }

    /**
     * A manifest without a run object, as format version 1 had them (the record's components before {@code run}).
     *
     * <pre>{@code
     * new ResultManifest(1, "hdbscan", runId, List.of(new ResultManifest.Entry("labels.npy", 4128, sha)));
     * }</pre>
     */
    public ResultManifest(int version, String command, String runId, List<Entry> files) {
        this(version, command, runId, Map.of(), files);
    }

    /** A manifest of this version that describes no run. */
    public ResultManifest(String command, String runId, List<Entry> files) {
        this(VERSION, command, runId, Map.of(), files);
    }

    /**
     * One file of a run.
     *
     * <pre>{@code
     * new ResultManifest.Entry("labels.npy", 4128, "9b1c...");
     * }</pre>
     *
     * @param name   the path relative to the folder, with {@code /} between names
     * @param bytes  the file's size
     * @param sha256 its SHA-256, 64 lower-case hex digits
     * @param chosen whether the user chose its name (kept by a later run into the folder)
     */
    public record Entry(String name, long bytes, String sha256, boolean chosen) {
        public Entry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(sha256, "sha256");
        }

        /** A file under a name of Sylva's. */
        public Entry(String name, long bytes, String sha256) {
            this(name, bytes, sha256, false);
        }

        // Written out, as the record's own would compute them: the record's are bootstrapped on first use, which
        // makes classes at run time that the start-up cache does not hold (a commit puts entries in a set).
        @Override
        public boolean equals(Object o) {
            return o instanceof Entry e && e.bytes == bytes && e.chosen == chosen && e.name.equals(name)
                    && e.sha256.equals(sha256);
        }

        @Override
        public int hashCode() {
            return Objects.hash(name, bytes, sha256, chosen);
        }
    }

    /**
     * A fresh random run id (128 bits, hex). It tells runs apart and is no secret, so it comes from
     * {@link ThreadLocalRandom}: a {@code SecureRandom}'s first use costs a fresh JVM milliseconds.
     */
    static String newRunId() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return HexFormat.of().toHexDigits(r.nextLong()) + HexFormat.of().toHexDigits(r.nextLong());
    }

    /** The manifest's text: one JSON object, one line per file. */
    public String toJson() {
        StringBuilder b = new StringBuilder();
        b.append("{\"format\": ").append(JsonWriter.quote(FORMAT))
                .append(", \"version\": ").append(version)
                .append(", \"command\": ").append(JsonWriter.quote(command))
                .append(", \"run_id\": ").append(JsonWriter.quote(runId));
        if (!run.isEmpty()) JsonWriter.write(b.append(",\n \"run\": "), run);
        b.append(",\n \"files\": [");
        for (int i = 0; i < files.size(); i++) {
            Entry e = files.get(i);
            b.append(i == 0 ? "\n  " : ",\n  ")
                    .append("{\"name\": ").append(JsonWriter.quote(e.name()))
                    .append(", \"bytes\": ").append(e.bytes())
                    .append(", \"sha256\": ").append(JsonWriter.quote(e.sha256()))
                    .append(e.chosen() ? ", \"chosen\": true}" : "}");
        }
        return b.append("]}\n").toString();
    }

    /**
     * Reads a manifest's text; throws {@link IllegalArgumentException} saying what is wrong when it is
     * not a manifest of a version this library knows.
     */
    public static ResultManifest parse(String text) {
        if (!(ManifestJson.parse(text) instanceof Map<?, ?> m)) throw bad("not a JSON object");
        if (!FORMAT.equals(m.get("format"))) throw bad("no \"format\": \"" + FORMAT + "\"");
        if (!(m.get("version") instanceof Long v) || v < 1 || v > VERSION) {
            throw bad("version " + m.get("version") + ", but this Sylva reads versions 1 to " + VERSION);
        }
        if (!(m.get("command") instanceof String command)) throw bad("no command");
        if (!(m.get("run_id") instanceof String runId)) throw bad("no run_id");
        Object run = m.get("run");
        if (run != null && !(run instanceof Map<?, ?>)) throw bad("\"run\" is not an object");
        if (!(m.get("files") instanceof List<?> list)) throw bad("no list of files");
        List<Entry> files = new ArrayList<>();
        for (Object o : list) {
            if (!(o instanceof Map<?, ?> f) || !(f.get("name") instanceof String name)
                    || !(f.get("bytes") instanceof Long bytes) || !(f.get("sha256") instanceof String sha)) {
                throw bad("a file entry without name, bytes and sha256");
            }
            if (f.containsKey("chosen") && !(f.get("chosen") instanceof Boolean)) throw bad("\"chosen\" is not true or false");
            files.add(new Entry(name, bytes, sha, Boolean.TRUE.equals(f.get("chosen"))));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> described = run == null ? Map.of() : (Map<String, Object>) run;
        return new ResultManifest(v.intValue(), command, runId, described, files);
    }

    private static IllegalArgumentException bad(String what) {
        return new IllegalArgumentException("not a valid manifest: " + what);
    }
}
