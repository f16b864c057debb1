package org.sylva.cli;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.sylva.data.InvalidInputException;
import org.sylva.io.AtomicOutput;

/**
 * Prepares output directories up front (so an unwritable one is reported before the long computation)
 * and remembers the ones this run created, so that a run that fails or is interrupted can remove those
 * it left empty: a failed run leaves the file system as it found it. A directory counts as this run's
 * only if this run's own {@code mkdir} made it: missing levels are created one at a time, top down, and
 * one that another process made in the meantime is not ours, so a failing run never removes a folder
 * that a concurrent run created or writes into. Only empty directories are ever removed (a running
 * {@code sylva} keeps its lock file in its {@code --out}). Thread-safe: the shutdown hook may clean up
 * while the command still runs.
 *
 * <pre>{@code
 * CreatedDirectories created = new CreatedDirectories();   // one per run (CliContext#directories)
 * created.prepare("--out", out);   // creates out/ if needed, checks that it is writable
 * ...                          // on failure: created.removeEmpty()
 * }</pre>
 */
final class CreatedDirectories {
    /** A directory this run made, with its file key (device and inode) as made. */
    private record Made(Path path, Object key) { }

    /** Deepest first, so that parents are removed after their children. */
    private final Deque<Made> created = new ConcurrentLinkedDeque<>();

    /**
     * Creates {@code dir} (and missing parents) if needed and checks that it is a writable directory; a
     * problem is reported naming {@code option}, whose path needs the directory.
     */
    void prepare(String option, Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        List<Path> missing = new ArrayList<>();
        // Bounded by the depth of the path; deepest first.
        for (Path p = abs; p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS); p = p.getParent()) missing.add(p);
        for (int i = missing.size() - 1; i >= 0; i--) {
            try {
                Files.createDirectory(missing.get(i));
                // ours alone; pushed parents first, so polled children first
                created.push(new Made(missing.get(i), key(missing.get(i))));
            } catch (FileAlreadyExistsException e) {
                // made by someone else since we looked (or a file is there: the check below says so)
            } catch (IOException e) {
                break;   // the check below names the problem
            }
        }
        try {
            AtomicOutput.checkOutputDirectory(dir, 0);
        } catch (InvalidInputException e) {
            throw new InvalidInputException(option + ": " + e.getMessage(), e);
        }
    }

    /**
     * Removes the directories {@link #prepare} created that are still empty (deepest first) and still the ones it
     * made: a folder moved away during the run and another made at its path (by the user, by another run) is kept.
     */
    void removeEmpty() {
        for (Made m = created.poll(); m != null; m = created.poll()) {
            // gone or replaced (a file system without file keys: by its path, as it can only be told there)
            if (m.key() != null && !m.key().equals(key(m.path()))) continue;
            try {
                Files.deleteIfExists(m.path());
            } catch (IOException e) {
                // not empty (something else put files there) or already gone: keep it
            }
        }
    }

    /** The directory's file key (device and inode), null when it is gone or the file system has none. */
    private static Object key(Path dir) {
        try {
            var a = Files.readAttributes(dir, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isDirectory() ? a.fileKey() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** Forgets the directories created so far (the run succeeded: they are kept). */
    void forget() {
        created.clear();
    }
}
