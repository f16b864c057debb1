package org.sylva.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Flushes a folder's entries (renames, deletions) to disk between the steps of a commit
 * ({@link AtomicOutput.Group#commitFolder}), so that a crash never leaves a manifest ahead of the files it names. A
 * file system that does not sync folders is excused (the renames are still atomic); a failing disk is not, and the
 * run must not say it succeeded. Which is which is told by the C library's words ({@link #unsupported}) or, under a
 * locale whose words differ, by a {@link #probe} of the folder before any output that failed in the same words.
 *
 * <pre>{@code
 * DirectorySync.probe(out);   // when the run checks its folder
 * DirectorySync.sync(out);    // between the commit's renames
 * }</pre>
 */
final class DirectorySync {
    /** Folders whose {@code fsync} failed when probed, before any output, with the failure's words. */
    private static final Map<Path, String> CANNOT_SYNC = new ConcurrentHashMap<>();

    private DirectorySync() {
    }

    /** Flushes {@code dir}'s entries to disk; a no-op where the platform or the file system cannot. */
    static void sync(Path dir) throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(dir, StandardOpenOption.READ);
        } catch (IOException | UnsupportedOperationException e) {
            return;   // not every platform opens a directory (Windows); the renames themselves are still atomic
        }
        try (ch) {
            ch.force(true);
        } catch (UnsupportedOperationException e) {
            // a channel that cannot sync: the renames are still atomic
        } catch (IOException e) {
            if (!unsupported(e) && !String.valueOf(e.getMessage()).equals(CANNOT_SYNC.get(dir.toAbsolutePath().normalize()))) {
                throw new IOException("cannot flush the folder " + dir + " to disk (" + e.getMessage() + "): its "
                        + "files may not survive a crash", e);
            }
        }
    }

    /** Tries {@code dir}'s {@code fsync} once, before any output, and remembers a folder that cannot, and why. */
    static void probe(Path dir) {
        Path key = dir.toAbsolutePath().normalize();
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
            CANNOT_SYNC.remove(key);
        } catch (IOException e) {
            CANNOT_SYNC.put(key, String.valueOf(e.getMessage()));
        } catch (UnsupportedOperationException e) {
            // a channel that cannot sync: sync excuses it anyway
        }
    }

    /**
     * Whether a folder's {@code fsync} failed because the file system does not sync folders ({@code EINVAL},
     * {@code ENOTSUP}: some network and FUSE file systems), in the C library's English words; any other failure
     * ({@code EIO}) means the disk did not take what was written.
     */
    static boolean unsupported(IOException e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        return m.contains("Invalid argument") || m.contains("not supported") || m.contains("Not supported");
    }
}
