package org.sylva.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.sylva.data.InvalidInputException;
import org.sylva.io.AtomicOutput;

/**
 * The output directories this run has locked, so that a second {@code sylva} run into the same
 * {@code --out} is refused at once, naming the folder, instead of mixing its files with this run's. The
 * lock is an operating-system lock ({@link FileChannel#tryLock}) on a file {@value #FILE_NAME} inside the
 * directory: the system drops it when the process dies, so a lock file that a killed run left behind
 * does not block later runs (the file's existence means nothing; only a held lock does). A run that ends
 * marks its lock file released, deletes it and only then lets go of the lock; a run that locked such a
 * retired file in the meantime (it had opened it just before) sees the mark and tries again on the file
 * the path names now. The holder never opens its lock file a second time: on Linux, closing any other
 * descriptor of the file would drop the process's lock. One run per process holds a given folder
 * ({@code sylva} runs one command per JVM). Thread-safe: the shutdown hook may release while the
 * command still runs.
 *
 * <pre>{@code
 * context.locks().acquire(out);    // after out exists; refuses when another run holds it
 * ...                              // Main.run (or the shutdown hook): context.locks().releaseAll()
 * }</pre>
 */
final class OutputLocks {
    /** The lock file's name inside a locked directory. */
    static final String FILE_NAME = ".sylva.lock";
    /** Written into a lock file just before it is deleted and unlocked. */
    private static final String RELEASED = "released\n";
    /** Retired lock files met in a row: give up rather than loop. */
    private static final int ATTEMPTS = 8;

    private record Held(Path file, FileChannel channel) {
    }

    private final Deque<Held> held = new ConcurrentLinkedDeque<>();

    /**
     * Locks {@code dir} (an existing directory) for this run. Throws {@link InvalidInputException} naming
     * the directory when another run holds it (with that run's process id when its lock file tells), or
     * when the lock file cannot be made.
     */
    void acquire(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        AtomicOutput.checkTarget(file);   // never open a FIFO or follow a link there
        String token = "pid " + ProcessHandle.current().pid() + "\n";
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            FileChannel ch;
            try {
                ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                throw new InvalidInputException("cannot lock output directory " + dir + ": cannot open " + file + " ("
                        + ErrorHandler.message(e) + ")", e);
            }
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;   // held by another run in this same JVM (in-process callers)
            } catch (IOException e) {
                closeQuietly(ch);
                throw new InvalidInputException("cannot lock output directory " + dir + " ("
                        + ErrorHandler.message(e) + ")", e);
            }
            if (lock == null) {
                String holder = contents(ch);
                closeQuietly(ch);
                if (holdsSameFile(file)) {
                    // this run holds it already: the folder of another of its inputs, by a link or another path
                    throw new InvalidInputException("output directory " + dir + " is already this run's: it is the "
                            + "folder of another input (a symbolic link, or another path to the same folder); give "
                            + "each input a folder of its own");
                }
                throw inUse(dir, holder);
            }
            if (!RELEASED.equals(contents(ch))) {
                try {
                    ch.truncate(0);
                    ch.write(ByteBuffer.wrap(token.getBytes(StandardCharsets.US_ASCII)), 0);   // who holds it
                } catch (IOException e) {
                    // the id is a courtesy for a refused run's message; the lock is what counts
                }
                held.push(new Held(file, ch));
                return;
            }
            // a run that just ended retired this file (deleted, then unlocked): the path names another now
            closeQuietly(ch);
        }
        throw new InvalidInputException("cannot lock output directory " + dir + ": its lock file " + file
                + " was retired by " + ATTEMPTS + " runs in a row; is another program creating it?");
    }

    /** The first bytes of the file, read through {@code ch} (never a second descriptor), or "". */
    private static String contents(FileChannel ch) {
        try {
            ByteBuffer b = ByteBuffer.allocate(64);
            int n = ch.read(b, 0);
            return n <= 0 ? "" : new String(b.array(), 0, n, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return "";
        }
    }

    /** Whether this run holds the lock file {@code file} already, under this or another path. */
    private boolean holdsSameFile(Path file) {
        for (Held h : held) {
            try {
                if (Files.isSameFile(h.file(), file)) return true;
            } catch (IOException e) {
                // a file that cannot be compared is not known to be ours
            }
        }
        return false;
    }

    private static InvalidInputException inUse(Path dir, String holder) {
        String who = "another sylva run";
        if (holder.startsWith("pid ") && holder.endsWith("\n")) who += " (process " + holder.substring(4).strip() + ")";
        return new InvalidInputException("output directory " + dir + " is in use: " + who + " is writing there "
                + "(it holds " + FILE_NAME + "); wait for it to finish or choose another --out");
    }

    /** Retires each lock file this run made (mark, delete) and then releases its lock, most recent first. */
    void releaseAll() {
        for (Held h = held.poll(); h != null; h = held.poll()) {
            FileChannel ch = h.channel();
            try {
                ch.truncate(0);
                ch.write(ByteBuffer.wrap(RELEASED.getBytes(StandardCharsets.US_ASCII)), 0);
                try {
                    Files.deleteIfExists(h.file());   // still locked: nobody takes it before it is gone
                } catch (IOException e) {
                    ch.truncate(0);   // it stays: leave an unmarked, unlocked (stale) file, which blocks nobody
                }
            } catch (IOException e) {
                // the folder or the disk is gone: nothing to clean
            }
            closeQuietly(ch);   // closing releases the lock
        }
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // nothing was written that matters
        }
    }
}
