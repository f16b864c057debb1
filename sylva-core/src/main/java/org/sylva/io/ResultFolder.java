package org.sylva.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.ArrayList;
import java.util.List;
import org.sylva.data.InvalidInputException;
import org.sylva.progress.CancellationToken;

/**
 * Tells whether a result folder holds one complete run. A run publishes its files and then, last, a
 * manifest {@value #MANIFEST} naming each of them with its size and SHA-256 ({@link ResultManifest});
 * before its first file lands it removes the previous manifest. So after any crash a folder either has a
 * manifest that matches every file it names ({@link Status#COMPLETE}), or has none ({@link
 * Status#INCOMPLETE}: a run was interrupted, or the folder was not written by Sylva); a manifest that
 * does not match ({@link Status#MISMATCH}) means something changed the folder after the run. Files the
 * manifest does not name (another tool's, a lock or temporary file) are not part of the run and not
 * looked at.
 *
 * <pre>{@code
 * ResultFolder.Verdict v = ResultFolder.verify(Path.of("result"));
 * if (v.status() != ResultFolder.Status.COMPLETE) throw new IOException(v.message());
 * }</pre>
 */
public final class ResultFolder {
    /** The manifest's file name inside a result folder. */
    public static final String MANIFEST = "sylva-run.json";
    /**
     * While a run publishes, the files the folder may hold of earlier runs and of this one (a manifest's JSON, each
     * with its size and SHA-256): written before the folder's manifest is removed and removed once the new one is in
     * place, so that the run after a crash half-way still knows which files to clear ({@link #earlierEntries}).
     */
    public static final String PUBLISHING = ".sylva-run.publishing.json";
    /** A manifest is a few hundred bytes per file; a far larger file is not one. */
    static final long MAX_MANIFEST_BYTES = 16L << 20;

    private ResultFolder() {
    }

    /** What {@link #verify} found. */
    public enum Status {
        /** The manifest is there and every file it names has its size and SHA-256. */
        COMPLETE,
        /** No manifest: a run did not finish (or nothing was published there). */
        INCOMPLETE,
        /** A manifest that does not match: a named file missing, of another size or content; or damaged. */
        MISMATCH
    }

    /**
     * The verdict on a folder.
     *
     * <pre>{@code
     * System.out.println(ResultFolder.verify(dir).message());   // "complete: result (8 files of a hdbscan run, id 3f2a...)"
     * }</pre>
     *
     * @param status   what was found
     * @param file     the file at fault (the manifest, or a file it names), or null when complete
     * @param detail   why, in words (empty when complete)
     * @param manifest the manifest read, or null when there is none or it is damaged
     */
    public record Verdict(Status status, Path file, String detail, ResultManifest manifest) {
        /** One line for a person: the status, the folder or file, and why. */
        public String message() {
            return switch (status) {
                case COMPLETE -> "complete: " + file + " (" + manifest.files().size()
                        + (manifest.files().size() == 1 ? " file" : " files") + " of a "
                        + manifest.command() + " run, id " + manifest.runId() + ")";
                case INCOMPLETE -> "incomplete: " + file + ": " + detail;
                case MISMATCH -> "mismatch: " + file + ": " + detail;
            };
        }
    }

    /**
     * The names (relative to {@code dir}) of the files its manifest lists under Sylva's names (not
     * {@code "chosen"} by the user); none when it has no readable manifest. What the next run into {@code dir}
     * removes if it does not write them again.
     */
    public static List<String> earlierOutputs(Path dir) {
        List<String> names = new ArrayList<>();
        for (ResultManifest.Entry e : earlierEntries(dir)) names.add(e.name());
        return names;
    }

    /**
     * {@link #earlierOutputs}'s entries, with the size and SHA-256 the manifest gives each file; in a folder without a
     * manifest (a run stopped while it published), those of {@link #PUBLISHING}: the last complete run's files and
     * those of every run stopped since, a name more than once where they differ.
     */
    static List<ResultManifest.Entry> earlierEntries(Path dir) {
        Path mf = dir.resolve(MANIFEST);
        if (!Files.exists(mf, LinkOption.NOFOLLOW_LINKS)) mf = dir.resolve(PUBLISHING);
        try {
            if (!Files.isRegularFile(mf, LinkOption.NOFOLLOW_LINKS) || Files.size(mf) > MAX_MANIFEST_BYTES) return List.of();
            Path root = dir.toAbsolutePath().normalize();
            List<ResultManifest.Entry> entries = new ArrayList<>();
            for (ResultManifest.Entry e : ResultManifest.parse(Files.readString(mf, StandardCharsets.UTF_8)).files()) {
                // a name that leads out of the folder is no file of a run here (an edited manifest): never removed
                if (!e.chosen() && notInside(root, e.name()) == null) entries.add(e);
            }
            return entries;
        } catch (IOException | IllegalArgumentException e) {
            return List.of();   // an unreadable manifest names nothing; verify reports it
        }
    }

    /** The longest file name (one path element) in UTF-8 bytes that Linux file systems take (NAME_MAX). */
    private static final int NAME_MAX = 255;

    /**
     * Null where the manifest entry {@code name} names a file inside the folder {@code root} (absolute and normalised),
     * else why not: it is the folder itself or outside it after "..", reaches into it through a symbolic link in the
     * folder (a link {@code up -> ..} makes {@code up/x} a file outside, which a later run would remove and verify
     * would read), or is no file name here (a NUL character, an element longer than 255 bytes). A Sylva run never
     * writes such a name: an edited manifest.
     */
    static String notInside(Path root, String name) {
        Path f;
        try {
            f = root.resolve(name).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            return "not a file name on this system";
        }
        if (!f.startsWith(root) || f.equals(root)) return "outside the folder";
        // bounded by the name's depth below root
        for (Path p = f; p != null && !p.equals(root); p = p.getParent()) {
            if (p.getFileName().toString().getBytes(StandardCharsets.UTF_8).length > NAME_MAX) {
                return "not a file name on this system (an element longer than " + NAME_MAX + " bytes)";
            }
            if (p != f && Files.isSymbolicLink(p)) return "through the symbolic link " + root.relativize(p) + ", outside the folder";
        }
        return null;
    }

    /**
     * Whether {@code f} is still the file one of {@code entries} describes: a regular file (not a link) of its size
     * and SHA-256, read at most once (a folder repaired after stopped runs has several entries for one name). What a
     * later run may remove as an earlier run's output; a file the user changed is theirs.
     */
    static boolean unchangedAny(Path f, List<ResultManifest.Entry> entries) {
        return matching(f, entries) != null;
    }

    /** The one of {@code entries} that {@code f} still is ({@link #unchangedAny}), or null. */
    static ResultManifest.Entry matching(Path f, List<ResultManifest.Entry> entries) {
        try {
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) return null;
            long size = Files.size(f);
            String sha = null;   // read once, and only when an entry has the file's size
            for (ResultManifest.Entry e : entries) {
                if (e.bytes() != size) continue;
                if (sha == null) sha = sha256(f);
                if (sha.equalsIgnoreCase(e.sha256())) return e;
            }
            return null;
        } catch (IOException x) {
            return null;
        }
    }

    /** Checks {@code dir} against its manifest, reading every file it names once. */
    public static Verdict verify(Path dir) throws IOException {
        return verify(dir, CancellationToken.NEVER);
    }

    /**
     * As {@link #verify(Path)}; {@code cancel} stops the reading of the files (a large folder's hashes take seconds)
     * with the library's {@link org.sylva.progress.CancelledException}.
     */
    public static Verdict verify(Path dir, CancellationToken cancel) throws IOException {
        if (dir.toString().isEmpty()) throw new InvalidInputException("a result folder's name is empty");
        if (!Files.isDirectory(dir)) {
            throw new InvalidInputException(dir + (Files.exists(dir)
                    ? ": is a file, not a result folder (give the folder a run wrote with --out)" : ": no such folder"));
        }
        Path mf = dir.resolve(MANIFEST);
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(mf, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return new Verdict(Status.INCOMPLETE, dir, "no " + MANIFEST + ": the run that wrote it did not finish, "
                    + "or no Sylva run wrote it", null);
        }
        if (!a.isRegularFile()) return new Verdict(Status.MISMATCH, mf, "not a regular manifest file", null);
        if (a.size() > MAX_MANIFEST_BYTES) {
            return new Verdict(Status.MISMATCH, mf, a.size() + " bytes, more than a manifest Sylva writes ("
                    + MAX_MANIFEST_BYTES + " at most)", null);
        }
        ResultManifest m;
        try {
            m = ResultManifest.parse(Files.readString(mf, StandardCharsets.UTF_8));
        } catch (java.nio.charset.CharacterCodingException e) {
            return new Verdict(Status.MISMATCH, mf, "is not UTF-8 text, as every manifest Sylva writes is", null);
        } catch (IllegalArgumentException e) {
            return new Verdict(Status.MISMATCH, mf, e.getMessage(), null);
        }
        if (m.files().isEmpty()) {   // every command's run writes at least one file
            return new Verdict(Status.MISMATCH, mf, "lists no files, but every Sylva run writes at least one", m);
        }
        Path root = dir.toAbsolutePath().normalize();
        java.util.Set<Path> named = new java.util.HashSet<>();
        for (ResultManifest.Entry e : m.files()) {
            String outside = notInside(root, e.name());
            if (outside != null) return new Verdict(Status.MISMATCH, mf, "names " + e.name() + ", " + outside, m);
            Path f = root.resolve(e.name()).normalize();
            if (!named.add(f)) {   // a run lists each file it wrote once: a second entry is an edited manifest
                return new Verdict(Status.MISMATCH, mf, "names " + e.name() + " twice", m);
            }
            // (read and named as the folder was given: relative where it was; by the normalised name, so that a
            // "link/.." is not followed through the link)
            Verdict v = check(dir.resolve(root.relativize(f).toString()), e, m, cancel);
            if (v != null) return v;
        }
        return new Verdict(Status.COMPLETE, dir, "", m);
    }

    /** Null when {@code f} has the entry's size and digest, else the mismatch. */
    private static Verdict check(Path f, ResultManifest.Entry e, ResultManifest m, CancellationToken cancel)
            throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException x) {
            return new Verdict(Status.MISMATCH, f, "missing, but the manifest names it", m);
        }
        if (!a.isRegularFile()) return new Verdict(Status.MISMATCH, f, "not a regular file", m);
        if (a.size() != e.bytes()) {
            return new Verdict(Status.MISMATCH, f, a.size() + " bytes, but the manifest says " + e.bytes(), m);
        }
        String sha = sha256(f, cancel);
        if (!sha.equalsIgnoreCase(e.sha256())) {
            return new Verdict(Status.MISMATCH, f, "its SHA-256 is " + sha + ", but the manifest says " + e.sha256(), m);
        }
        return null;
    }

    /** The SHA-256 of a file, in hex. */
    static String sha256(Path f) throws IOException {
        return sha256(f, CancellationToken.NEVER);
    }

    /**
     * The SHA-256 of the file {@code f}, in lower-case hex, as a manifest gives it; {@code cancel} is looked at
     * every 64 KiB (a {@link org.sylva.progress.CancelledException} when it is cancelled).
     *
     * <pre>{@code
     * String sha = ResultFolder.sha256(Path.of("clips.npy"), CancellationToken.NEVER);
     * }</pre>
     */
    public static String sha256(Path f, CancellationToken cancel) throws IOException {
        MessageDigest md = newDigest();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(f)) {
            // ends at the file's end: each pass reads at least one byte or stops
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                cancel.throwIfCancelled();
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
