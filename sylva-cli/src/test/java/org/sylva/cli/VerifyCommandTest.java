package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.io.ResultFolder;

/**
 * Every command that writes a results folder (hdbscan, balltree, predict, demo) leaves a manifest that
 * {@code sylva verify} finds complete; a folder without one is incomplete (exit 1), a changed file a
 * mismatch naming it (exit 4); a report may not take the manifest's name.
 */
class VerifyCommandTest {
    @TempDir
    Path tmp;

    private static void assertComplete(Path dir, String command, int files) {
        Cli.Result v = Cli.run("verify", dir.toString()).assertOk();
        assertTrue(v.out().startsWith("complete: " + dir + " (" + files + (files == 1 ? " file" : " files") + " of a "
                + command + " run"), v.out());
    }

    @Test
    void everyCommandPublishesACompleteFolder() throws IOException {
        Path clips = TestData.writeNpy(TestData.clips(400), tmp.resolve("clips.npy"));
        Path fit = tmp.resolve("fit");
        Path model = fit.resolve("clips.model");   // inside --out: part of the folder
        Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", fit.toString(), "--save-model",
                model.toString(), "--report", fit.resolve("report.html").toString(), "--threads", "2").assertOk();
        assertComplete(fit, "hdbscan", 8 + 2);

        Path assigned = tmp.resolve("assigned");
        Cli.run("predict", model.toString(), clips.toString(), "--out", assigned.toString()).assertOk();
        assertComplete(assigned, "predict", 4);

        Path cloud = TestData.writeNpy(TestData.blob(300, 3, 5), tmp.resolve("cloud.npy"));
        Path tree = tmp.resolve("tree");
        Cli.run("balltree", cloud.toString(), "--out", tree.toString()).assertOk();
        assertComplete(tree, "balltree", 4);
        // a partition into the same folder replaces the tree's manifest with its own one file
        Cli.run("balltree", cloud.toString(), "--out", tree.toString(), "--partition-level", "2").assertOk();
        assertComplete(tree, "balltree", 1);

        Path demo = tmp.resolve("demo");
        Cli.run("demo", "--points", "1500", "--out", demo.toString()).assertOk();
        assertComplete(demo, "demo", 9);
    }

    @Test
    void aFolderWithoutManifestIsIncompleteAndAChangedFileIsNamed() throws IOException {
        Path cloud = TestData.writeNpy(TestData.blob(200, 2, 6), tmp.resolve("cloud.npy"));
        Path tree = tmp.resolve("tree");
        Cli.run("balltree", cloud.toString(), "--out", tree.toString(), "--format", "csv").assertOk();
        Files.writeString(tree.resolve("mask.csv"), "changed\n", java.nio.file.StandardOpenOption.APPEND);
        Cli.Result r = Cli.run("verify", tree.toString());
        assertEquals(ExitStatus.MISMATCH, r.code());
        assertTrue(r.out().startsWith("mismatch: " + tree.resolve("mask.csv").toAbsolutePath()), r.out());

        Files.delete(tree.resolve(ResultFolder.MANIFEST));
        r = Cli.run("verify", tree.toString());
        assertEquals(ExitStatus.INCOMPLETE, r.code());
        assertTrue(r.out().startsWith("incomplete: "), r.out());
        r = Cli.run("verify", tree.toString(), "-q");
        assertEquals(ExitStatus.INCOMPLETE, r.code());
        assertEquals("", r.out() + r.err(), "-q: the status alone");

        Cli.run("verify", tmp.resolve("absent").toString()).assertError("absent: no such folder");
        Path file = Files.writeString(tmp.resolve("points.npy"), "not a folder");
        Cli.run("verify", file.toString()).assertError("points.npy: is a file, not a result folder");
    }

    /** Several folders: one line each, in the order given, and the worst status, mismatch before incomplete. */
    @Test
    void severalFoldersGetALineEachAndTheWorstStatus() throws IOException {
        Path cloud = TestData.writeNpy(TestData.blob(200, 2, 8), tmp.resolve("cloud.npy"));
        List<Path> trees = new ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            trees.add(tmp.resolve(name));
            Cli.run("balltree", cloud.toString(), "--out", tmp.resolve(name).toString()).assertOk();
        }
        String[] args = {"verify", trees.get(0).toString(), trees.get(1).toString(), trees.get(2).toString()};
        Cli.Result r = Cli.run(args).assertOk();
        assertEquals(3, r.out().lines().filter(l -> l.startsWith("complete: ")).count(), r.out());
        Files.delete(trees.get(2).resolve(ResultFolder.MANIFEST));
        r = Cli.run(args);
        assertEquals(ExitStatus.INCOMPLETE, r.code(), r.out());
        assertTrue(r.out().lines().toList().get(2).startsWith("incomplete: " + trees.get(2)), r.out());
        Files.writeString(trees.get(0).resolve("mask.npy"), "changed");
        r = Cli.run(args);
        assertEquals(ExitStatus.MISMATCH, r.code(), "a mismatch outranks the incomplete folder after it: " + r.out());
        assertEquals(List.of("mismatch", "complete", "incomplete"),
                r.out().lines().map(l -> l.substring(0, l.indexOf(':'))).toList());
        // the parent of result folders (the --out of hdbscan with several inputs) says what to check instead
        r = Cli.run("verify", tmp.toString());
        assertEquals(ExitStatus.INCOMPLETE, r.code());
        assertTrue(r.out().strip().endsWith("; it holds 2 result folders (a, b), as a command given several inputs "
                + "writes: check them with sylva verify " + tmp.resolve("*") + "/"), r.out());
        // one that is no folder is named on stderr, and the folders after it are still checked: their mismatch
        // outranks it, an incomplete folder does not
        Path absent = tmp.resolve("absent");
        r = Cli.run("verify", trees.get(1).toString(), absent.toString(), trees.get(0).toString());
        assertEquals(ExitStatus.MISMATCH, r.code(), r.err());
        assertEquals("sylva: error: " + absent + ": no such folder", r.err().strip());
        assertEquals(List.of("complete", "mismatch"), r.out().lines().map(l -> l.substring(0, l.indexOf(':'))).toList());
        r = Cli.run("verify", absent.toString(), trees.get(2).toString());
        assertEquals(ExitStatus.ERROR, r.code(), r.err());
        assertTrue(r.out().startsWith("incomplete: " + trees.get(2)), r.out());
        Cli.run("verify", "").assertError("a result folder's name is empty");
    }

    @Test
    void aReportCannotTakeTheManifestsName() throws IOException {
        Path cloud = TestData.writeNpy(TestData.blob(200, 2, 7), tmp.resolve("cloud.npy"));
        Path out = tmp.resolve("tree");
        Cli.run("balltree", cloud.toString(), "--out", out.toString(), "--report",
                out.resolve(ResultFolder.MANIFEST).toString()).assertError("the run's manifest");
        assertEquals(List.of(), Cli.list(out));
    }
}
