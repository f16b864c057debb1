package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault injection into {@link AtomicOutput.Group#commitFolder}: a fault at each of its file operations in
 * turn, either an {@link IOException} (the run fails and cleans up) or a crash (the folder is frozen as it
 * was at that moment: no cleanup at all). After each, the folder holds the previous complete run, the new
 * complete run, or no manifest; never a manifest that does not match. And the next run repairs it.
 */
class CommitFaultTest {
    @TempDir
    Path tmp;

    /** A crash at a fault point: thrown past every catch of IOException, as a kill would end the run. */
    private static final class SimulatedCrash extends Error {
        private static final long serialVersionUID = 1L;
    }

    /** The earlier run: two outputs and one that the new run no longer writes. */
    private static final String[] PREVIOUS = {"labels.npy", "old labels", "mst.npy", "old tree", "labels.csv", "old csv"};

    private static ResultManifest publishPrevious(Path dir) throws IOException {
        return ResultFolderTest.publish(dir, PREVIOUS);
    }

    /**
     * The new run: two outputs replaced, one added, a report outside the folder, and the earlier run's
     * CSV removed before publishing (as the CLI's stale-output step does). {@code hook} sees each step.
     */
    private static ResultManifest publishNew(Path dir, AtomicOutput.FaultHook hook) throws IOException {
        try (AtomicOutput.Group g = AtomicOutput.group().faults(hook)) {
            for (String[] f : List.of(new String[] {"labels.npy", "new labels"}, new String[] {"mst.npy", "new tree"},
                    new String[] {"persistence.npy", "new persistence"})) {
                byte[] b = f[1].getBytes(StandardCharsets.UTF_8);
                g.write(dir.resolve(f[0]), out -> out.write(b));
            }
            g.write(dir.resolveSibling("report.html"), out -> out.write('r'));
            return g.commitFolder(dir, "test", () -> Files.deleteIfExists(dir.resolve("labels.csv")));
        }
    }

    /** Every step {@link #publishNew} takes, in order, from a run without faults. */
    private List<String> steps() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("dry").resolve("out"));
        publishPrevious(dir);
        List<String> steps = new ArrayList<>();
        publishNew(dir, (step, path) -> steps.add(step + " " + path.getFileName()));
        return steps;
    }

    /** What a reader may see: previous complete, new complete, or incomplete; never a mismatch. */
    private static String assertTransactional(Path dir, ResultManifest previous, String where) throws IOException {
        ResultFolder.Verdict v = ResultFolder.verify(dir);
        switch (v.status()) {
            case MISMATCH -> fail(where + ": a manifest that does not match: " + v.message());
            case INCOMPLETE -> {
                return "incomplete";
            }
            case COMPLETE -> {
                if (v.manifest().runId().equals(previous.runId())) {
                    assertEquals("old labels", Files.readString(dir.resolve("labels.npy")), where);
                    return "previous";
                }
                assertEquals("new labels", Files.readString(dir.resolve("labels.npy")), where);
                assertEquals("new persistence", Files.readString(dir.resolve("persistence.npy")), where);
                assertFalse(Files.exists(dir.resolve("labels.csv")), where + ": no earlier file beside a new manifest");
                return "new";
            }
        }
        throw new AssertionError();
    }

    /** Copies the folder's regular files (temporaries too) as they are: what a crash right now leaves. */
    private static void freeze(Path dir, Path into) throws IOException {
        Files.createDirectories(into);
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) Files.copy(p, into.resolve(p.getFileName()));
            }
        }
    }

    @Test
    void anIOExceptionAtAnyStepLeavesThePreviousRunOrAnIncompleteFolder() throws IOException {
        List<String> steps = steps();
        assertEquals(List.of("write-manifest sylva-run.json", "write-publishing .sylva-run.publishing.json",
                "remove-manifest sylva-run.json", "rename labels.npy",
                "rename mst.npy", "rename persistence.npy", "rename report.html", "before-publish out",
                "rename-manifest sylva-run.json"), steps);
        Map<String, String> seen = new TreeMap<>();
        for (int k = 0; k < steps.size(); k++) {
            Path dir = Files.createDirectories(tmp.resolve("io" + k).resolve("out"));
            ResultManifest previous = publishPrevious(dir);
            int fault = k;
            int[] at = {0};
            IOException e = assertThrows(IOException.class, () -> publishNew(dir, (step, path) -> {
                if (at[0]++ == fault) throw new IOException("injected at " + step);
            }));
            if (steps.get(k).startsWith("rename ")) {
                // a file that cannot be put in place: named, and the folder said to be incomplete
                String name = steps.get(k).substring("rename ".length());
                assertTrue(e.getMessage().startsWith("cannot put ") && e.getMessage().contains(name + " in place (injected")
                        && e.getMessage().contains("is incomplete now (no manifest): a run into it again clears it"),
                        e.getMessage());
            } else {
                assertTrue(e.getMessage().startsWith("injected"), e.getMessage());
            }
            String state = assertTransactional(dir, previous, "IOException at " + steps.get(k));
            seen.put(steps.get(k), state);
            try (Stream<Path> s = Files.list(dir)) {
                assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".part")), "a failed run cleans up");
            }
            assertRepaired(dir, previous);
        }
        // the manifest's write (what a full disk fails) and the old manifest's removal touch none of the previous run
        assertEquals("previous", seen.get(steps.get(0)), "nothing was touched before the manifest was written");
        assertEquals("previous", seen.get(steps.get(1)), "the list of files could not be written: nothing was touched");
        assertEquals("previous", seen.get(steps.get(2)), "the old manifest could not be removed: nothing else was touched");
        for (int k = 3; k < steps.size(); k++) assertEquals("incomplete", seen.get(steps.get(k)), steps.get(k));
    }

    @Test
    void aCrashAtAnyStepLeavesThePreviousRunOrAnIncompleteFolder() throws IOException {
        List<String> steps = steps();
        for (int k = 0; k <= steps.size(); k++) {
            Path dir = Files.createDirectories(tmp.resolve("crash" + k).resolve("out"));
            Path frozen = tmp.resolve("crash" + k).resolve("frozen");
            ResultManifest previous = publishPrevious(dir);
            int fault = k;
            int[] at = {0};
            try {
                // the group is not closed after a crash: nothing of the run's cleanup happens
                AtomicOutput.Group g = AtomicOutput.group().faults((step, path) -> {
                    if (at[0]++ == fault) {
                        freeze(dir, frozen);
                        throw new SimulatedCrash();
                    }
                });
                byte[] labels = "new labels".getBytes(StandardCharsets.UTF_8);
                byte[] pers = "new persistence".getBytes(StandardCharsets.UTF_8);
                g.write(dir.resolve("labels.npy"), out -> out.write(labels));
                g.write(dir.resolve("persistence.npy"), out -> out.write(pers));
                g.commitFolder(dir, "test", () -> Files.deleteIfExists(dir.resolve("labels.csv")));
                freeze(dir, frozen);   // k == steps: no crash; the folder after a whole run
            } catch (SimulatedCrash expected) {
                // the process is gone; its temporaries stay
            }
            String where = k < steps.size() ? "crash before " + steps.get(k) : "no crash";
            String state = assertTransactional(frozen, previous, where);
            if (k == 0) assertEquals("previous", state, where);
            if (k == steps.size()) assertEquals("new", state, where);
            assertNotEquals("", state);
            // the next run into the frozen folder removes what the crash left and publishes a whole run
            assertEquals(ResultFolder.Status.COMPLETE, repairedStatus(frozen), where);
        }
    }

    /** After a failed run, the next run into the folder leaves it complete. */
    private static void assertRepaired(Path dir, ResultManifest previous) throws IOException {
        assertEquals(ResultFolder.Status.COMPLETE, repairedStatus(dir));
        assertNotEquals(previous.runId(), ResultFolder.verify(dir).manifest().runId());
    }

    /**
     * A run stopped at any step of its commit, and then another stopped at any step of its own: the run after them
     * leaves only its own files, whatever the folder held of the complete run before them and of the stopped ones
     * (none of which wrote its manifest).
     */
    @Test
    void theRunAfterStoppedRunsClearsTheirFilesAndTheLastCompleteRuns() throws IOException {
        String[] complete = {"a.npy", "complete a", "b.npy", "complete b"};
        String[] stopped = {"a.npy", "stopped a", "c.npy", "stopped c"};
        String[] again = {"b.npy", "again b", "e.npy", "again e"};
        int stoppedSteps = 7;   // write-manifest, write-publishing, remove-manifest, 2 renames, before-publish, rename-manifest
        for (int k = 0; k < stoppedSteps; k++) {
            for (int j : new int[] {-1, 0, 3, 5}) {   // -1: no second stopped run
                Path dir = Files.createDirectories(tmp.resolve("twice" + k + "_" + j).resolve("out"));
                ResultFolderTest.publish(dir, complete);
                stop(dir, stopped, k);
                if (j >= 0) stop(dir, again, j);
                ResultFolderTest.publish(dir, "d.npy", "last d");
                List<String> left;
                try (Stream<Path> s = Files.list(dir)) {
                    left = s.map(p -> p.getFileName().toString()).filter(n -> !AtomicOutput.isTemporaryName(n)).sorted()
                            .toList();
                }
                assertEquals(List.of("d.npy", ResultFolder.MANIFEST), left, "stopped before step " + k + ", then " + j);
            }
        }
    }

    /** Runs stopped one after another keep the list to what the folder may still hold: it does not grow with them. */
    @Test
    void stoppedRunsInARowDoNotGrowTheList() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("many").resolve("out"));
        ResultFolderTest.publish(dir, "a.npy", "complete a", "b.npy", "complete b");
        int most = 0;
        for (int i = 0; i < 20; i++) {
            stop(dir, new String[] {"a.npy", "stopped a" + (char) ('A' + i), "c.npy", "stopped c" + (char) ('A' + i)}, 5);
            most = Math.max(most, ResultFolder.earlierEntries(dir).size());
        }
        assertTrue(most <= 6, "entries at most: " + most);
        ResultFolderTest.publish(dir, "d.npy", "last d");
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of("d.npy", ResultFolder.MANIFEST), s.map(p -> p.getFileName().toString())
                    .filter(n -> !AtomicOutput.isTemporaryName(n)).sorted().toList());
        }
    }

    /** A staged file under the list's name is refused, as one under the manifest's. */
    @Test
    void aStagedFileCannotBeTheList() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("named").resolve("out"));
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            g.write(dir.resolve(ResultFolder.PUBLISHING), out -> out.write('x'));
            assertThrows(IllegalArgumentException.class, () -> g.commitFolder(dir, "test", () -> { }));
        }
    }

    /** Publishes {@code namesAndContents} into {@code dir}, the process killed before commit step {@code k}. */
    private static void stop(Path dir, String[] namesAndContents, int k) throws IOException {
        int[] at = {0};
        try {
            AtomicOutput.Group g = AtomicOutput.group().faults((step, path) -> {
                if (at[0]++ == k) throw new SimulatedCrash();
            });
            for (int i = 0; i < namesAndContents.length; i += 2) {
                byte[] b = namesAndContents[i + 1].getBytes(StandardCharsets.UTF_8);
                g.write(dir.resolve(namesAndContents[i]), out -> out.write(b));
            }
            g.commitFolder(dir, "test", () -> { });
        } catch (SimulatedCrash expected) {
            // the process is gone: nothing of its cleanup happens
        }
    }

    private static ResultFolder.Status repairedStatus(Path dir) throws IOException {
        AtomicOutput.deleteOrphans(dir);
        publishNew(dir, (step, path) -> { });
        try (Stream<Path> s = Files.list(dir)) {
            assertTrue(s.noneMatch(p -> AtomicOutput.isTemporaryName(p.getFileName().toString())), "orphans removed");
        }
        return ResultFolder.verify(dir).status();
    }
}
