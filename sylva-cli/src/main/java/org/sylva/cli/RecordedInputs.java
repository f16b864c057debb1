package org.sylva.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sylva.io.ResultFolder;
import org.sylva.progress.CancellationToken;

/**
 * The inputs a result folder's manifest records ({@link RunRecord}) against the files now at their paths, for
 * {@code sylva verify --inputs}: each input with a digest is looked up (a relative path against the run's working
 * directory) and compared by size, then by SHA-256. An input recorded without a digest (standard input, a pipe) is
 * counted as not checkable; an entry that is damaged (a hand-edited manifest), a path that cannot be a path, or a
 * file that cannot be read is a difference, named, never an error that stops the verification of other folders.
 *
 * <pre>{@code
 * RecordedInputs.Check c = RecordedInputs.check(manifest.run(), cancel);
 * if (!c.changed().isEmpty()) System.out.println("changed: " + String.join("; ", c.changed()));
 * }</pre>
 *
 * @param changed   one clause per input missing, changed, unreadable or damaged, in the manifest's order
 * @param checked   how many inputs were compared
 * @param uncheckable how many inputs were recorded without a digest (standard input, a pipe)
 */
record RecordedInputs(List<String> changed, int checked, int uncheckable) {
    RecordedInputs {
        changed = List.copyOf(changed);
    }

    /** The comparison of the run object {@code run} (a manifest's; empty for format version 1) with the files. */
    static RecordedInputs check(Map<String, Object> run, CancellationToken cancel) {
        List<String> changed = new ArrayList<>();
        int checked = 0, uncheckable = 0;
        Object inputs = run.get("inputs");
        if (inputs == null) return new RecordedInputs(changed, 0, 0);
        if (!(inputs instanceof List<?> list)) return new RecordedInputs(List.of("the run's inputs are not a list"), 0, 0);
        Object wd = run.get("working_directory");
        for (int k = 0; k < list.size(); k++) {
            if (!(list.get(k) instanceof Map<?, ?> f) || !(f.get("path") instanceof String given)) {
                changed.add("input " + k + " of the manifest is damaged (no path)");
                continue;
            }
            String name = printable(f.get("role") + " " + given);
            if (f.get("sha256") == null && f.get("bytes") == null) {
                uncheckable++;
                continue;
            }
            if (!(f.get("sha256") instanceof String sha) || !(f.get("bytes") instanceof Long bytes)) {
                changed.add(name + ": its entry in the manifest is damaged (bytes and sha256 must be a number and a string)");
                continue;
            }
            checked++;
            try {
                Path p = (wd instanceof String d ? Path.of(d) : Path.of("")).resolve(given);
                if (!Files.isRegularFile(p)) {
                    changed.add(name + ": " + (Files.exists(p) ? "not a regular file" : "no longer there") + " (" + p + ")");
                } else if (Files.size(p) != bytes) {
                    changed.add(name + ": " + Files.size(p) + " bytes, but the run read " + bytes);
                } else {
                    String now = ResultFolder.sha256(p, cancel);
                    if (!now.equalsIgnoreCase(sha)) changed.add(name + ": its SHA-256 is " + now + ", but the run read " + sha);
                }
            } catch (IOException | java.nio.file.InvalidPathException e) {
                changed.add(name + ": cannot be read (" + printable(String.valueOf(e.getMessage())) + ")");
            }
        }
        return new RecordedInputs(changed, checked, uncheckable);
    }

    /** {@code s} with each control character (a NUL, a line break) written as its {@code \\uXXXX} escape. */
    private static String printable(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            else b.append(c);
        }
        return b.toString();
    }

    /** The clause {@code sylva verify --inputs} adds to a complete folder's line when nothing changed. */
    String sameClause(int manifestVersion) {
        String unchecked = uncheckable == 0 ? "" : "; " + uncheckable + (uncheckable == 1 ? " input" : " inputs")
                + " read from standard input or a pipe, not checked";
        if (checked == 0) {
            return "; no input file recorded to check" + (manifestVersion < 2 ? " (a manifest of format version 1)" : "")
                    + unchecked;
        }
        return "; " + (checked == 1 ? "its input is as the run read it" : "its " + checked + " inputs are as the run read them")
                + unchecked;
    }
}
