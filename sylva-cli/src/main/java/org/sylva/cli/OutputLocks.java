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
 * the path names now, unless the path still names the marked file: a run killed between marking and deleting
 * it left it there, and it is as free as any other lock file nobody holds. The holder never closes a second
 * descriptor of its lock file while it holds it: on Linux, closing any descriptor of the file drops the process's
 * lock (the check for a marked file left behind opens one, and keeps it open as long as the lock). One run per process holds a given folder
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

    /** A held lock: its file, the channel that locked it, and a second channel on it to close with it (or null). */
    private record Held(Path dir, Path file, FileChannel channel, FileChannel second) {
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
            FileChannel second = null;
            // a retired file that the path still names was left by a run killed between marking and deleting it
            if (!RELEASED.equals(contents(ch)) || (second = secondChannelIfStillNamed(file)) != null) {
                try {
                    ch.truncate(0);
                    ch.write(ByteBuffer.wrap(token.getBytes(StandardCharsets.US_ASCII)), 0);   // who holds it
                } catch (IOException e) {
                    // the id is a courtesy for a refused run's message; the lock is what counts
                }
                Held h = new Held(dir, file, ch, second);
                held.push(h);
                Object key = fileKey(file);
                // a folder removed and made again while this run writes is another folder, which another run may
                // have locked: the commit refuses to publish into it
                AtomicOutput.checkBeforePublishing(dir, new StillHeld(h, key));
                return;
            }
            // a run that just ended retired this file (deleted, then unlocked): the path names another now
            closeQuietly(ch);
        }
        throw new InvalidInputException("cannot lock output directory " + dir + ": its lock file " + file
                + " was retired by " + ATTEMPTS + " runs in a row; is another program creating it?");
    }

    /**
     * A second channel on {@code file} when the path still names the file this process has just locked (which Java
     * tells by a lock through it overlapping this JVM's own: it keys its locks by the file's identity), else null.
     * The channel returned must stay open while the lock is held, and is closed with it (see the class comment);
     * one on another file is closed here, which drops nothing of the locked file's lock.
     */
    private static FileChannel secondChannelIfStillNamed(Path file) {
        FileChannel probe;
        try {
            probe = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return null;   // the path names nothing now (its run deleted the retired file), or nothing we may open
        }
        try {
            FileLock other = probe.tryLock();
            if (other != null) other.release();   // another file, free: the next attempt takes it
        } catch (OverlappingFileLockException e) {
            return probe;   // the locked file itself
        } catch (IOException e) {
            // another file that cannot be locked: the next attempt says so
        }
        closeQuietly(probe);
        return null;
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

    /** The identity of {@code file} (its inode), or null where the file system has none or it cannot be read. */
    private static Object fileKey(Path file) {
        try {
            return Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                    .fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    /** Whether {@code h} is still held, by identity (a record's own equals is bootstrapped at run time). */
    private boolean holds(Held h) {
        for (Held x : held) if (x == h) return true;
        return false;
    }

    /** {@link #checkStillHeld} as a class of its own: a lambda's class is made at run time in a cold JVM. */
    private final class StillHeld implements AtomicOutput.PublishCheck {
        private final Held h;
        private final Object key;

        StillHeld(Held h, Object key) {
            this.h = h;
            this.key = key;
        }

        @Override
        public void check() {
            checkStillHeld(h, key);
        }
    }

    /**
     * Refuses to publish into {@code h}'s folder when its lock file is no longer the one this run locked ({@code key}).
     * A lock released already (the shutdown hook's, on its own thread, for a run interrupted) or a file system without
     * file identities has nothing to compare: the commit goes on as it would without the check.
     */
    private void checkStillHeld(Held h, Object key) {
        if (key == null || !holds(h)) return;
        if (!key.equals(fileKey(h.file()))) {
            Path dir = h.dir();
            throw new InvalidInputException("output directory " + dir + " was removed or replaced while this run wrote "
                    + "into it (its lock file " + FILE_NAME + " is gone, or another): nothing was published there; "
                    + "run again");
        }
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
            AtomicOutput.noCheckBeforePublishing(h.dir());
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
            if (h.second() != null) closeQuietly(h.second());
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
