package org.sylva.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.sylva.io.AtomicOutput;

/**
 * Prepares output directories up front (so an unwritable one is reported before the long computation)
 * and remembers the ones this run created, so that a run that fails or is interrupted can remove those
 * it left empty: a failed run leaves the file system as it found it. Only empty directories are ever
 * removed. Thread-safe: the shutdown hook may clean up while the command still runs.
 *
 * <pre>{@code
 * CreatedDirectories created = new CreatedDirectories();   // one per run (CliContext#directories)
 * created.prepare(out);        // creates out/ if needed, checks that it is writable
 * ...                          // on failure: created.removeEmpty()
 * }</pre>
 */
final class CreatedDirectories {
    /** Deepest first, so that parents are removed after their children. */
    private final Deque<Path> created = new ConcurrentLinkedDeque<>();

    /** Creates {@code dir} (and missing parents) if needed and checks that it is a writable directory. */
    void prepare(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        List<Path> missing = new ArrayList<>();
        // Bounded by the depth of the path.
        for (Path p = abs; p != null && !Files.exists(p); p = p.getParent()) missing.add(p);
        try {
            AtomicOutput.checkOutputDirectory(dir, 0);
        } finally {
            for (Path p : missing) {
                if (Files.isDirectory(p)) created.add(p);
            }
        }
    }

    /** Removes the directories {@link #prepare} created that are still empty (deepest first). */
    void removeEmpty() {
        for (Path p = created.poll(); p != null; p = created.poll()) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // not empty (something else put files there) or already gone: keep it
            }
        }
    }

    /** Forgets the directories created so far (the run succeeded: they are kept). */
    void forget() {
        created.clear();
    }
}
