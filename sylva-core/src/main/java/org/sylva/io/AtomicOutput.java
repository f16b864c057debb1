package org.sylva.io;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.sylva.data.InvalidInputException;
import org.sylva.progress.CancellationToken;

/**
 * Writes files so that a reader never sees a half-written one: the content goes to a temporary
 * file in the target's directory (named {@code .NAME.sylva-RANDOM.part}), is flushed to disk, and is
 * then renamed onto the target ({@code ATOMIC_MOVE}, falling back to {@code REPLACE_EXISTING} where the
 * file system cannot move atomically). If writing fails or is cancelled the temporary is deleted
 * and the target is left as it was. A {@link Group} stages several files and renames them together
 * at the end of a run. {@link #checkOutputDirectory} lets a command fail before a long computation
 * when its output directory cannot be created or written. Only regular files are written or replaced:
 * a target that exists as anything else (directory, symbolic link, FIFO, device, socket) is refused
 * ({@link #checkTarget}), so a rename never replaces a device node or a link. A process killed mid-write
 * leaves its temporary behind; {@link #deleteOrphans} removes such files (only names of this pattern).
 *
 * <pre>{@code
 * AtomicOutput.checkOutputDirectory(outDir, 0);             // fail early: exists/creatable and writable
 * ... long computation ...
 * AtomicOutput.write(outDir.resolve("labels.csv"), out -> out.write(bytes));
 * Runtime.getRuntime().addShutdownHook(new Thread(AtomicOutput::deleteTemporaries));
 * }</pre>
 */
public final class AtomicOutput {
    /** The most bytes written between two looks at the cancellation token. */
    private static final int CHUNK = 1 << 20;
    /** Temporaries being written or staged right now, so a shutdown hook can remove them. */
    private static final Set<Path> IN_FLIGHT = ConcurrentHashMap.newKeySet();
    /**
     * The open channel of each temporary written and not yet renamed or deleted, holding a lock on the whole file:
     * another process tells a live run's temporary from a killed one's by it ({@link #deleteOrphansOf}). Closing the
     * channel, after the rename or the deletion, releases the lock.
     */
    private static final Map<Path, FileChannel> HELD = new ConcurrentHashMap<>();

    private AtomicOutput() {
    }

    /**
     * Produces a file's content; it must not close the stream (closing is ignored).
     *
     * <pre>{@code
     * AtomicOutput.Content c = out -> out.write("done\n".getBytes(StandardCharsets.UTF_8));
     * }</pre>
     */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** {@code b} as a file's content: one lambda for every such file, whose class a cold JVM makes once. */
    private static Content bytes(byte[] b) {
        return out -> out.write(b);
    }

    /** Writes {@code target} atomically: all of {@code content} or, on any failure, nothing. */
    public static void write(Path target, Content content) throws IOException {
        Path tmp = writeTemporary(target, content, CancellationToken.NEVER).tmp();
        try {
            moveIntoPlace(tmp, target);
        } finally {
            deleteQuietly(tmp);
        }
    }

    /** Starts a group of files that become visible together at {@link Group#commit()}. */
    public static Group group() {
        return new Group(CancellationToken.NEVER);
    }

    /**
     * As {@link #group()}, its writes checking {@code cancel} before every piece of at most 1 MiB, so a
     * Ctrl-C while large outputs are written stops within milliseconds (the commit itself is not cancelled).
     */
    public static Group group(CancellationToken cancel) {
        return new Group(cancel);
    }

    /**
     * Several output files written to temporaries and renamed into place only at {@link #commit()};
     * {@link #close()} deletes every temporary not committed (use try-with-resources), so a run that
     * fails or is cancelled half-way leaves none of its outputs behind. Renames happen in the order
     * the files were written; if one of them fails, the files renamed before it stay in place. {@link
     * #commitFolder} publishes the files as one result folder instead, with a manifest written last
     * ({@link ResultFolder}), so that a reader can tell a complete folder from one a crash left half-way.
     *
     * <pre>{@code
     * try (AtomicOutput.Group g = AtomicOutput.group()) {
     *     g.write(dir.resolve("tree_idx.npy"), out -> ...);
     *     g.write(dir.resolve("mask.npy"), out -> ...);
     *     g.commitFolder(dir, "balltree", () -> { });
     * }
     * }</pre>
     */
    public static final class Group implements AutoCloseable {
        private final Map<Path, Staged> staged = new LinkedHashMap<>();
        /** Staged targets whose names the user chose ({@link #writeChosen}). */
        private final java.util.Set<Path> chosen = new java.util.HashSet<>();
        private final List<Path> removedEarlier = new ArrayList<>();
        private final List<Path> keptEarlier = new ArrayList<>();
        private final List<Path> published = new ArrayList<>();
        private boolean committed;
        /** Where tests inject faults into the commit's file operations; does nothing otherwise. */
        private FaultHook faults = (step, path) -> { };
        private final CancellationToken cancel;

        private Group(CancellationToken cancel) {
            this.cancel = cancel;
        }

        /** Test hook: {@code hook} runs before each file operation of {@link #commitFolder}. */
        Group faults(FaultHook hook) {
            this.faults = hook;
            return this;
        }

        /** Writes {@code content} to a temporary for {@code target}; nothing is visible until commit. */
        public synchronized void write(Path target, Content content) throws IOException {
            if (committed) throw new IllegalStateException("group already committed");
            Path key = target.toAbsolutePath().normalize();
            Staged previous = staged.remove(key);
            if (previous != null) deleteQuietly(previous.tmp());
            staged.put(key, writeTemporary(target, content, cancel));
        }

        /**
         * As {@link #write}, for a file whose name the user chose (a saved model, a report): a result folder's
         * manifest marks it {@code "chosen"}, and a later run into the same folder leaves it in place rather
         * than removing it as an earlier run's output.
         */
        public synchronized void writeChosen(Path target, Content content) throws IOException {
            write(target, content);
            chosen.add(target.toAbsolutePath().normalize());
        }

        /** Renames every staged temporary onto its target, in the order written. */
        public synchronized void commit() throws IOException {
            if (committed) return;
            committed = true;
            List<Map.Entry<Path, Staged>> entries = new ArrayList<>(staged.entrySet());
            for (Map.Entry<Path, Staged> e : entries) {
                moveIntoPlace(e.getValue().tmp(), e.getKey());
                staged.remove(e.getKey());
                published.add(e.getKey());
            }
        }

        /**
         * Publishes the staged files as the result folder {@code dir}, in this order: writes the new manifest
         * ({@value ResultFolder#MANIFEST}, naming each staged file inside {@code dir} with its size and SHA-256)
         * to a temporary, removes {@code dir}'s manifest, renames every staged temporary onto its target, runs
         * {@code beforePublish}, removes the files the previous manifest named that this run did not write and
         * that are still as that run wrote them ({@link #removedEarlier}; a changed one stays, {@link
         * #keptEarlier}), and renames the new manifest into place.
         * Every write that needs space comes before the first removal or rename, so a full disk leaves the
         * previous run as it was. The folder's directory
         * entries are flushed to disk between these steps, where the file system allows. A failure or a
         * crash at any point leaves either the previous manifest with the previous files (nothing was
         * renamed yet), or no manifest, never a manifest that does not match. Returns the manifest.
         */
        public synchronized ResultManifest commitFolder(Path dir, String command, BeforePublish beforePublish)
                throws IOException {
            return commitFolder(dir, command, Map.of(), beforePublish);
        }

        /**
         * As {@link #commitFolder(Path, String, BeforePublish)}, with the manifest's description of what the run
         * was made from ({@link ResultManifest#run}: JSON values, which an {@link IllegalArgumentException} refuses
         * before anything is touched).
         */
        public synchronized ResultManifest commitFolder(Path dir, String command, Map<String, Object> run,
                BeforePublish beforePublish) throws IOException {
            ResultManifest described = new ResultManifest(ResultManifest.VERSION, command, ResultManifest.newRunId(),
                    run, List.of());
            if (committed) throw new IllegalStateException("group already committed");
            committed = true;
            Path root = dir.toAbsolutePath().normalize();
            PublishCheck check = PUBLISH_CHECKS.get().get(root);
            if (check != null) check.check();   // before anything of the folder is touched
            Path manifest = root.resolve(ResultFolder.MANIFEST);
            List<ResultManifest.Entry> files = new ArrayList<>();
            for (Map.Entry<Path, Staged> e : staged.entrySet()) {
                if (e.getKey().equals(manifest)) throw new IllegalArgumentException("a staged file is the manifest");
                if (e.getKey().equals(root.resolve(ResultFolder.PUBLISHING))) {
                    throw new IllegalArgumentException("a staged file is the list a commit keeps while it publishes");
                }
                if (!e.getKey().startsWith(root)) continue;   // a report elsewhere is not part of the folder
                String name = root.relativize(e.getKey()).toString().replace(java.io.File.separatorChar, '/');
                // nor one reached through a symbolic link in the folder: it lies elsewhere, and verify says so
                if (ResultFolder.notInside(root, name) != null) continue;
                files.add(new ResultManifest.Entry(name, e.getValue().bytes(), e.getValue().sha256(),
                        chosen.contains(e.getKey())));
            }
            ResultManifest m = new ResultManifest(ResultManifest.VERSION, command, described.runId(), described.run(),
                    files);
            Map<Path, List<ResultManifest.Entry>> earlier = earlierFiles(root, manifest);
            // The manifest is written first, to a temporary, and then the list of what the folder may hold until
            // the new manifest is in place (the earlier files and this run's): the last writes that need space (a
            // full disk) then fail before anything of the previous run is touched, and what follows are renames and
            // removals. A run stopped after them leaves no manifest but that list, by which the next run clears both.
            byte[] text = m.toJson().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            faults.before("write-manifest", manifest);
            Path tmp = writeTemporary(manifest, bytes(text), CancellationToken.NEVER).tmp();
            Path publishing = root.resolve(ResultFolder.PUBLISHING);
            try {
                byte[] list = publishingList(root, manifest, files, described.runId()).toJson()
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
                faults.before("write-publishing", publishing);
                Path listTmp = writeTemporary(publishing, bytes(list), CancellationToken.NEVER).tmp();
                try {
                    moveIntoPlace(listTmp, publishing);
                } finally {
                    deleteQuietly(listTmp);   // gone already when the rename took it
                }
                DirectorySync.sync(root);   // the list is on disk before the manifest it stands in for is removed
                if (check != null) check.check();   // again: reading the earlier files may have taken a while
                faults.before("remove-manifest", manifest);
                removeManifest(manifest);
                DirectorySync.sync(root);   // the manifest is gone on disk before any file of the new run lands
                for (Map.Entry<Path, Staged> e : new ArrayList<>(staged.entrySet())) {
                    try {
                        faults.before("rename", e.getKey());
                        moveIntoPlace(e.getValue().tmp(), e.getKey());
                    } catch (IOException x) {
                        throw new IOException("cannot put " + e.getKey() + " in place (" + reason(x) + "); the folder "
                                + root + " is incomplete now (no manifest): a run into it again clears it", x);
                    }
                    staged.remove(e.getKey());
                    published.add(e.getKey());
                }
                faults.before("before-publish", root);
                beforePublish.run();
                // whatever the earlier run's manifest named and this run did not write (another command's files,
                // another format's), so that the new manifest describes the folder's Sylva files; a file changed
                // since that run wrote it (another size or SHA-256, a link in its place) is the user's: it stays
                for (Map.Entry<Path, List<ResultManifest.Entry>> e : earlier.entrySet()) {
                    Path f = e.getKey();
                    if (!Files.exists(f, LinkOption.NOFOLLOW_LINKS)) continue;
                    if (!ResultFolder.unchangedAny(f, e.getValue())) {
                        keptEarlier.add(f);
                        continue;
                    }
                    faults.before("remove-earlier", f);
                    if (Files.deleteIfExists(f)) removedEarlier.add(f);
                }
                DirectorySync.sync(root);   // every file is in place on disk before the manifest says so
                faults.before("rename-manifest", manifest);
                moveIntoPlace(tmp, manifest);
            } finally {
                deleteQuietly(tmp);
            }
            DirectorySync.sync(root);
            deleteQuietly(publishing);   // the manifest says it all again; left over, a later run ignores it
            return m;
        }

        /**
         * What the folder {@code root} may hold until the new manifest is in place ({@link ResultFolder#PUBLISHING}):
         * every earlier entry, those of names this run writes too (it may stop before its file replaces one), and
         * this run's {@code files}. After stopped runs (no manifest, a list) only the entry each file still matches is
         * kept, so that stopped runs in a row do not grow the list.
         */
        private static ResultManifest publishingList(Path root, Path manifest, List<ResultManifest.Entry> files,
                String runId) {
            java.util.Set<ResultManifest.Entry> mayHold = new java.util.LinkedHashSet<>();
            List<ResultManifest.Entry> before = ResultFolder.earlierEntries(root);
            if (Files.exists(manifest, LinkOption.NOFOLLOW_LINKS)) {
                mayHold.addAll(before);
            } else {
                Map<String, List<ResultManifest.Entry>> byName = new LinkedHashMap<>();
                for (ResultManifest.Entry e : before) byName.computeIfAbsent(e.name(), k -> new ArrayList<>()).add(e);
                for (Map.Entry<String, List<ResultManifest.Entry>> e : byName.entrySet()) {
                    ResultManifest.Entry match = ResultFolder.matching(root.resolve(e.getKey()).normalize(), e.getValue());
                    if (match != null) mayHold.add(match);
                }
            }
            mayHold.addAll(files);
            return new ResultManifest(ResultManifest.VERSION, "publishing", runId, Map.of(), List.copyOf(mayHold));
        }

        /** The files this group renamed into place (absolute, in the order written), a report elsewhere too. */
        public synchronized List<Path> published() {
            return List.copyOf(published);
        }

        /**
         * The files of an earlier run that {@link #commitFolder} removed: named by the folder's previous
         * manifest, not written by this run.
         */
        public synchronized List<Path> removedEarlier() {
            return List.copyOf(removedEarlier);
        }

        /**
         * The files of an earlier run that {@link #commitFolder} left in place: named by the folder's previous
         * manifest, not written by this run, but changed since that run wrote them.
         */
        public synchronized List<Path> keptEarlier() {
            return List.copyOf(keptEarlier);
        }

        /**
         * The files the manifest at {@code manifest} names inside {@code root}, other than this run's staged
         * files, each with its entry; none when there is no readable manifest.
         */
        private Map<Path, List<ResultManifest.Entry>> earlierFiles(Path root, Path manifest) {
            Map<Path, List<ResultManifest.Entry>> earlier = new java.util.LinkedHashMap<>();
            Path publishing = root.resolve(ResultFolder.PUBLISHING);
            for (ResultManifest.Entry e : ResultFolder.earlierEntries(root)) {
                Path f = root.resolve(e.name()).normalize();   // (earlierEntries keeps only names inside root)
                if (!f.equals(manifest) && !f.equals(publishing) && !staged.containsKey(f)) {
                    earlier.computeIfAbsent(f, k -> new ArrayList<>()).add(e);
                }
            }
            return earlier;
        }

        /** Deletes every temporary not yet renamed. */
        @Override
        public synchronized void close() {
            for (Staged s : staged.values()) deleteQuietly(s.tmp());
            staged.clear();
            committed = true;
        }
    }

    /**
     * A check that a folder may still be published into, which {@link Group#commitFolder} runs before it touches
     * the folder: a command's lock on it still held, say ({@link #checkBeforePublishing}).
     */
    @FunctionalInterface
    public interface PublishCheck {
        void check() throws IOException;
    }

    /**
     * The checks of the folders the calling thread's command holds, by their absolute paths: a command runs on one
     * thread, and two commands in one JVM (tests, a host program) may write into two folders of one path in turn.
     */
    private static final ThreadLocal<Map<Path, PublishCheck>> PUBLISH_CHECKS = new ThreadLocal<>() {
        // a class of its own, not a method reference: a lambda's class is made at run time in a cold JVM
        @Override
        protected Map<Path, PublishCheck> initialValue() {
            return new HashMap<>();
        }
    };

    /**
     * Has every later {@link Group#commitFolder} into {@code dir} on this thread run {@code check} first (a command
     * that locked the folder: that the folder is still the one it locked), until {@link #noCheckBeforePublishing}.
     */
    public static void checkBeforePublishing(Path dir, PublishCheck check) {
        PUBLISH_CHECKS.get().put(dir.toAbsolutePath().normalize(), check);
    }

    /** Ends {@link #checkBeforePublishing} for {@code dir} on this thread. */
    public static void noCheckBeforePublishing(Path dir) {
        PUBLISH_CHECKS.get().remove(dir.toAbsolutePath().normalize());
    }

    /**
     * What {@link Group#commitFolder} runs after the files are in place and before the manifest is written.
     *
     * <pre>{@code
     * AtomicOutput.BeforePublish step = () -> Files.deleteIfExists(dir.resolve("old.csv"));
     * }</pre>
     */
    @FunctionalInterface
    public interface BeforePublish {
        void run() throws IOException;
    }

    /** Runs before each file operation of a commit: tests throw or stop there (see {@code Group#faults}). */
    @FunctionalInterface
    interface FaultHook {
        void before(String step, Path path) throws IOException;
    }

    /** A staged temporary with the size and SHA-256 of what was written to it. */
    private record Staged(Path tmp, long bytes, String sha256) {
    }

    /** Removes a result folder's manifest (a regular file or a link); refuses anything else there. */
    private static void removeManifest(Path manifest) throws IOException {
        if (Files.isDirectory(manifest, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("cannot publish the results: " + manifest + " is a directory");
        }
        Files.deleteIfExists(manifest);
    }

    /**
     * Deletes the temporaries of every write in progress in this JVM; for a shutdown hook (Ctrl-C).
     * Returns how many were deleted.
     */
    public static int deleteTemporaries() {
        int n = 0;
        for (Path p : List.copyOf(IN_FLIGHT)) {
            if (deleteQuietly(p)) n++;
        }
        return n;
    }

    /**
     * Refuses {@code target} when something other than a regular file is there (not following a link):
     * a directory, a symbolic link, a named pipe, a device or a socket; throws
     * {@link InvalidInputException} naming the path and what it is. Nothing there, or a regular file,
     * passes. Writing through a link or replacing it (or a device node, as {@code rename} would) could
     * surprise, so neither is done. A name longer than {@value #MAX_NAME_BYTES} bytes is refused too, so that a
     * command checking its targets before its work is told before the work.
     */
    public static void checkTarget(Path target) {
        Path name = target.getFileName();
        int bytes = name == null ? 0 : name.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_NAME_BYTES) {
            throw new InvalidInputException("cannot write " + target + ": its name is " + bytes + " bytes long, more "
                    + "than the " + MAX_NAME_BYTES + " a file name may have");
        }
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return; // nothing there (or unreadable: the write itself will tell)
        }
        if (a.isRegularFile()) return;
        throw new InvalidInputException("cannot write " + target + ": it is " + kind(target, a)
                + "; Sylva writes only regular files and never replaces anything else: give another path");
    }

    /** What a non-regular file is, in words ("a named pipe (FIFO)"). */
    private static String kind(Path p, BasicFileAttributes a) {
        if (a.isDirectory()) return "a directory";
        if (a.isSymbolicLink()) return "a symbolic link (Sylva neither writes through links nor replaces them)";
        int type;
        try {
            type = ((Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS)) & 0170000;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | ClassCastException e) {
            return "not a regular file";
        }
        return switch (type) {
            case 0010000 -> "a named pipe (FIFO)";
            case 0020000 -> "a character device";
            case 0060000 -> "a block device";
            case 0140000 -> "a socket";
            default -> "not a regular file";
        };
    }

    /** Temporaries of {@link #write} and {@link Group}: {@code .NAME.sylva-HEX.part}. */
    private static final Pattern TEMPORARY = Pattern.compile("\\..+\\.sylva-[0-9a-f]{1,16}\\.part");
    /** The probe files of {@link #checkOutputDirectory}. */
    private static final Pattern PROBE = Pattern.compile("\\.sylva-write-check[0-9]*\\.tmp");

    /** True for a file name this class gives its temporaries (and its write probes). */
    public static boolean isTemporaryName(String name) {
        return TEMPORARY.matcher(name).matches() || PROBE.matcher(name).matches();
    }

    /**
     * Deletes the temporaries that a killed process left for {@code target} ({@code .NAME.sylva-HEX.part} beside it,
     * NAME its name): those no process holds a lock on (a writer keeps its temporary locked until it is renamed or
     * deleted; the system drops the lock when the writer dies, {@code kill -9} too). For files outside a locked
     * folder ({@code --save-model}, a {@code --report} elsewhere), where another run, on this machine or another
     * sharing the folder, may be writing the same target right now. Best effort: a folder that cannot be listed, a
     * file that cannot be opened, locked or deleted (another user's) is left alone. Returns the files deleted.
     */
    public static List<Path> deleteOrphansOf(Path target) {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        String prefix = "." + temporaryStem(abs.getFileName().toString()) + ".sylva-";
        List<Path> deleted = new ArrayList<>();
        if (dir == null) return deleted;
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                if (name.startsWith(prefix) && isTemporaryName(name)
                        && name.substring(prefix.length()).matches("[0-9a-f]{1,16}\\.part")) {
                    found.add(p);
                }
            }
        } catch (IOException | java.nio.file.DirectoryIteratorException | SecurityException e) {
            return deleted;   // a folder the user may write into but not list (a drop box): nothing to clean
        }
        for (Path p : found) {
            if (deleteIfUnlocked(p)) deleted.add(p);
        }
        return deleted;
    }

    /** Whether another process holds a lock on a temporary (a live writer's), none does, or it cannot be told. */
    private enum LockState { HELD_ELSEWHERE, FREE, UNKNOWN }

    /**
     * Tries the lock of {@code p} and releases it at once: {@code UNKNOWN} where the file cannot be opened for writing
     * (another user's) or the file system has no locks; never called on this JVM's own temporaries.
     */
    private static LockState lockState(Path p) {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            java.nio.channels.FileLock lock = ch.tryLock();
            if (lock == null) return LockState.HELD_ELSEWHERE;
            lock.release();
            return LockState.FREE;
        } catch (IOException | java.nio.channels.OverlappingFileLockException | SecurityException e) {
            return LockState.UNKNOWN;
        }
    }

    /** True when another process holds a lock on {@code p} (a live writer's temporary); false where it cannot be told. */
    private static boolean isLocked(Path p) {
        return lockState(p) == LockState.HELD_ELSEWHERE;
    }

    /**
     * Deletes {@code p}, a regular file of a temporary's name, if no write of this JVM has it in flight and its lock
     * is free (no writer takes the lock of a file it did not create, so a free one stays free); false where it is
     * kept, or cannot be opened, locked or deleted.
     */
    private static boolean deleteIfUnlocked(Path p) {
        if (IN_FLIGHT.contains(p.toAbsolutePath()) || !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) return false;
        if (lockState(p) != LockState.FREE) return false;   // a live writer, another user's file, no locks here
        try {
            return Files.deleteIfExists(p);
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    /**
     * Deletes from {@code dir} (not below it) the regular files whose names are this class's temporaries
     * ({@link #isTemporaryName}) and that no write of this JVM has in progress: what a killed process
     * left. Call it only where no other process may be writing into {@code dir} right now (the caller
     * holds a lock on it). Returns the files deleted; a file that cannot be deleted is an error naming it.
     */
    public static List<Path> deleteOrphans(Path dir) throws IOException {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                if (isTemporaryName(p.getFileName().toString())
                        && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                        && !IN_FLIGHT.contains(p.toAbsolutePath())) {
                    found.add(p);
                }
            }
        }
        List<Path> deleted = new ArrayList<>();
        for (Path p : found) {
            // another run's temporary of a file it writes into this folder (its --save-model here) is locked: kept
            if (TEMPORARY.matcher(p.getFileName().toString()).matches() && isLocked(p)) continue;
            try {
                if (Files.deleteIfExists(p)) deleted.add(p);
            } catch (IOException e) {
                throw new IOException("cannot remove " + p + ", a temporary file left by an interrupted run: "
                        + reason(e), e);
            }
        }
        return deleted;
    }

    /**
     * Checks up front that {@code dir} is, or can be created as, a writable directory, creating it
     * (and missing parents) and probing it with a small temporary file; when {@code bytesNeeded > 0},
     * also checks that its file store reports at least that much usable space. Throws
     * {@link InvalidInputException} naming the directory and the reason.
     */
    public static void checkOutputDirectory(Path dir, long bytesNeeded) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new InvalidInputException("output directory " + dir + " exists and is not a directory");
        }
        if (Files.isSymbolicLink(dir) && !Files.exists(dir)) {
            throw new InvalidInputException("output directory " + dir + " " + InputFiles.missing(dir)
                    + "; give a folder, or a path that does not exist yet");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new InvalidInputException("cannot create output directory " + dir + ": " + reason(e), e);
        }
        try {
            Path probe = writeProbe(dir);
            // if-exists: a run starting in the same folder may have taken the probe for an orphan already
            if (probe != null) Files.deleteIfExists(probe);
            DirectorySync.probe(dir);
        } catch (IOException e) {
            // the reason without the probe's own name, which means nothing to the user
            String why = e instanceof AccessDeniedException ? "permission denied"
                    : e instanceof NoSuchFileException ? "no file can be created there"
                    : e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : reason(e);
            throw new InvalidInputException("output directory " + dir + " is not writable: " + why, e);
        }
        if (bytesNeeded > 0) {
            long usable;
            try {
                FileStore store = Files.getFileStore(dir);
                usable = store.getUsableSpace();
            } catch (IOException e) {
                return; // the space cannot be queried on this file system; the write itself will tell
            }
            if (usable < bytesNeeded) {
                throw new InvalidInputException("output directory " + dir + " has " + megabytes(usable)
                        + " free but the outputs need about " + megabytes(bytesNeeded));
            }
        }
    }

    /**
     * Creates an empty probe file in {@code dir} under a fresh name of {@link #PROBE}'s form and returns it (null
     * if every name tried was taken).
     */
    private static Path writeProbe(Path dir) throws IOException {
        NewFile probe = createNew(dir, ".sylva-write-check", ".tmp", false, false);
        if (probe == null) return null;
        probe.channel().close();
        return probe.path();
    }

    /** A file just created, open for writing. */
    private record NewFile(Path path, FileChannel channel) {
    }

    /**
     * Creates a new file in {@code dir} named {@code prefix}, a random non-negative number (decimal, or hex with
     * {@code hex}) and {@code suffix}, open for writing; null if 16 such names were all taken. Not
     * {@code Files.createTempFile}: that would make the file mode 0600 instead of the usual umask-derived
     * permissions, and its first call in a process sets up the JDK's {@code SecureRandom} (about 10 ms of a
     * small one-shot run); the name only has to be unused. With {@code inFlight}, its path is in
     * {@link #IN_FLIGHT} before the file exists (and stays there), so that {@link #deleteOrphans} in another
     * thread never sees it unclaimed.
     */
    private static NewFile createNew(Path dir, String prefix, String suffix, boolean hex, boolean inFlight)
            throws IOException {
        for (int attempt = 0; attempt < 16; attempt++) {
            long r = ThreadLocalRandom.current().nextLong() >>> 1;
            Path candidate = dir.resolve(prefix + (hex ? HexFormat.of().toHexDigits(r) : Long.toString(r)) + suffix);
            boolean claimed = inFlight && IN_FLIGHT.add(candidate.toAbsolutePath());
            boolean created = false;
            try {
                NewFile f = new NewFile(candidate, FileChannel.open(candidate, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE));
                created = true;
                return f;
            } catch (FileAlreadyExistsException e) {
                // try another name
            } finally {
                if (claimed && !created) IN_FLIGHT.remove(candidate.toAbsolutePath());
            }
        }
        return null;
    }

    /**
     * The longest file name, in bytes, of Linux's file systems (ext4, XFS, Btrfs, tmpfs: {@code NAME_MAX}); a file
     * system with a shorter limit refuses the name when the file is written ({@link #temporaryStem}).
     */
    static final int MAX_NAME_BYTES = 255;
    /** The hex digits of a temporary's name, always this many: {@link #temporaryStem} counts on it. */
    private static final int HEX_DIGITS = 16;
    /** The bytes a temporary's name adds to its stem: {@code "."}, {@code ".sylva-"}, the digits, {@code ".part"}. */
    private static final int TEMPORARY_OVERHEAD = 1 + 7 + HEX_DIGITS + 5;
    /** Target names up to this many bytes keep their whole name in their temporary's. */
    private static final int WHOLE_NAME_BYTES = 100;

    /**
     * The part of a temporary's name taken from its target's {@code name}. The temporary's name is never shorter,
     * in UTF-8 bytes, than the target's, so that a name the file system cannot hold is refused when the file is
     * written, not at the rename that publishes it (where a report's failure would no longer be the report's
     * alone, and the folder would be half published); and a long name's temporary is exactly as long, so that a
     * name that fits is never refused for its temporary's length.
     */
    static String temporaryStem(String name) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= WHOLE_NAME_BYTES) return name;
        int budget = utf8.length - TEMPORARY_OVERHEAD;
        StringBuilder stem = new StringBuilder();
        int used = 0;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            int len = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (used + len > budget) break;
            stem.appendCodePoint(cp);
            used += len;
            i += Character.charCount(cp);
        }
        while (used < budget) {   // a multi-byte character cut off at the end: the same length in ASCII
            stem.append('_');
            used++;
        }
        return stem.toString();
    }

    private static Staged writeTemporary(Path target, Content content, CancellationToken cancel) throws IOException {
        checkTarget(target);
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        NewFile created;
        try {
            created = createNew(dir, "." + temporaryStem(abs.getFileName().toString()) + ".sylva-", ".part", true,
                    true);
        } catch (NoSuchFileException e) {
            throw new InvalidInputException("cannot write " + target + ": directory " + dir + " does not exist", e);
        } catch (AccessDeniedException e) {
            throw new InvalidInputException("cannot write " + target + ": permission denied in " + dir, e);
        } catch (FileSystemException e) {
            if (e.getReason() == null || !e.getReason().contains("name too long")) {
                // no inode left, a read-only file system: named by the output, not by its temporary's name
                throw new IOException("cannot write " + target + ": " + reason(e), e);
            }
            throw new InvalidInputException("cannot write " + target + ": its name is too long for the file system", e);
        }
        if (created == null) throw new IOException("cannot create a temporary file for " + target + " in " + dir);
        Path tmp = created.path();
        FileChannel ch = created.channel();
        HELD.put(tmp.toAbsolutePath(), ch);   // closed (the lock released) when the temporary is renamed or deleted
        boolean ok = false;
        MessageDigest digest = ResultFolder.newDigest();
        long[] bytes = {0};
        try {
            try {
                ch.tryLock();   // another process's cleanup keeps a locked temporary (deleteOrphansOf)
            } catch (IOException e) {
                // a file system without locks: the temporary is written all the same, unmarked
            }
            {
                OutputStream os = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
                content.writeTo(new FilterOutputStream(os) {
                    @Override
                    public void write(int b) throws IOException {
                        cancel.throwIfCancelled();
                        out.write(b);
                        digest.update((byte) b);
                        bytes[0]++;
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        // in pieces of at most 1 MiB, each after a look at the token: a large array is one call
                        for (int done = 0; done < len; ) {
                            cancel.throwIfCancelled();
                            int n = Math.min(len - done, CHUNK);
                            out.write(b, off + done, n);
                            digest.update(b, off + done, n);   // the manifest's checksum, without a second read
                            done += n;
                        }
                        bytes[0] += len;
                    }

                    @Override
                    public void close() {
                        // The temporary is closed by AtomicOutput, after flushing to disk.
                    }
                });
                os.flush();   // not closed: that would close the channel, and with it the lock
                ch.force(true); // the data is on disk before the rename makes it visible
            }
            ok = true;
            return new Staged(tmp, bytes[0], HexFormat.of().formatHex(digest.digest()));
        } catch (IOException e) {
            // a full disk, a quota, a failing device: the message names the file being written
            throw new IOException("cannot write " + target + ": " + reason(e), e);
        } finally {
            if (!ok) deleteQuietly(tmp);
        }
    }

    private static void moveIntoPlace(Path tmp, Path target) throws IOException {
        try {
            checkTarget(target); // again: something else may have appeared there since the write began
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            release(tmp);
            IN_FLIGHT.remove(tmp.toAbsolutePath());
        }
    }

    /** Closes the channel {@link #HELD} for temporary {@code tmp}, releasing its lock. */
    private static void release(Path tmp) {
        FileChannel ch = HELD.remove(tmp.toAbsolutePath());
        if (ch == null) return;
        try {
            ch.close();
        } catch (IOException e) {
            // written, forced and renamed or deleted already: nothing is lost
        }
    }

    private static boolean deleteQuietly(Path p) {
        if (p == null) return false;
        release(p);
        IN_FLIGHT.remove(p.toAbsolutePath());
        try {
            return Files.deleteIfExists(p);
        } catch (IOException e) {
            return false;
        }
    }

    static String reason(IOException e) {
        if (e instanceof AccessDeniedException a) return "permission denied (" + a.getFile() + ")";
        if (e instanceof NoSuchFileException n) return "no such file or directory (" + n.getFile() + ")";
        if (e instanceof FileAlreadyExistsException x && x.getFile() != null && x.getReason() == null) {
            // what a folder on the way is instead: a link to nowhere, a file
            Path p = Path.of(x.getFile());
            if (Files.isSymbolicLink(p) && !Files.exists(p)) {
                String target;
                try {
                    target = String.valueOf(Files.readSymbolicLink(p));
                } catch (IOException | UnsupportedOperationException r) {
                    target = "?";
                }
                return x.getFile() + " is a link to " + target + ", which does not exist";
            }
            return x.getFile() + " exists and is not a directory";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** {@code bytes} in MB, or in kB below 10 MB, so that two small figures that differ do not print alike. */
    private static String megabytes(long bytes) {
        return bytes < 10_000_000 ? String.format(java.util.Locale.ROOT, "%.1f kB", bytes / 1e3)
                : String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
