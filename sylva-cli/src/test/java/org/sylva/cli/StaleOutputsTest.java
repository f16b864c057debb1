package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A results folder holds only the current run's outputs: a second run into the same --out removes the
 * files of the first that it does not write (Sylva's own names only), leaves every other file alone, and
 * removes nothing when it fails.
 */
class StaleOutputsTest {
    @TempDir
    static Path shared;
    static Path clips;

    @BeforeAll
    static void data() throws IOException {
        clips = TestData.writeNpy(TestData.clips(200), shared.resolve("clips.npy"));
    }

    static List<String> outputs(String ext) {
        List<String> l = new ArrayList<>();
        for (String o : HdbscanCommandTest.OUTPUTS) l.add(o + ext);
        return l;
    }

    static List<String> sorted(List<String> a, List<String> b) {
        List<String> l = new ArrayList<>(a);
        l.addAll(b);
        l.sort(null);
        return l;
    }

    /** The user's own files, some with names close to Sylva's. */
    static final List<String> USER_FILES = List.of("notes.txt", "labels.npy.bak", "old_labels.csv", "my-report.html",
            "report.htm");

    @Test
    void aSecondRunRemovesTheFirstRunsOtherOutputsAndNothingElse(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", out.toString(), "--format", "csv",
                "--report", out.resolve("report.html").toString(), "-q").assertOk();
        List<String> first = new ArrayList<>(outputs(".csv"));
        first.add("report.html");
        assertEquals(Cli.withManifest(sorted(first, List.of())), Cli.list(out));
        for (String f : USER_FILES) Files.writeString(out.resolve(f), "mine");
        Files.createDirectories(out.resolve("sub"));
        Files.writeString(out.resolve("sub").resolve("labels.csv"), "mine too");

        Cli.Result second = Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", out.toString());
        second.assertOk();
        List<String> want = sorted(outputs(".npy"), USER_FILES);
        want.add("sub");
        want.sort(null);
        assertEquals(Cli.withManifest(want), Cli.list(out), "only this run's outputs and the user's files");
        for (String f : USER_FILES) assertEquals("mine", Files.readString(out.resolve(f)), f);
        assertEquals("mine too", Files.readString(out.resolve("sub").resolve("labels.csv")), "only --out itself");
        assertTrue(second.err().contains("removed 9 files of an earlier run that this run does not write: labels.csv,"),
                second.err());
        assertTrue(second.err().contains("report.html"), second.err());
    }

    /**
     * A file under one of Sylva's output names that no run recorded (a hand-written report.html in a project
     * folder, say) is not the run's to remove: it stays, and the run names it in a warning, even with -q.
     */
    @Test
    void aFileUnderAnOutputNameThatNoRunRecordedStays(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Path elsewhere = tmp.resolve("pages").resolve("report.html");
        Files.createDirectories(out);
        Files.writeString(out.resolve("report.html"), "my own report");
        Files.writeString(out.resolve("labels.csv"), "my own labels");
        Cli.Result r = Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", out.toString(),
                "--report", elsewhere.toString(), "-q").assertOk();
        assertEquals(Cli.withManifest(sorted(outputs(".npy"), List.of("labels.csv", "report.html"))), Cli.list(out));
        assertEquals("my own report", Files.readString(out.resolve("report.html")));
        assertEquals("my own labels", Files.readString(out.resolve("labels.csv")));
        assertTrue(r.err().contains("sylva: warning: left in place 2 files that this run did not write")
                && r.err().contains("labels.csv, report.html"), r.err());
        assertTrue(Files.size(elsewhere) > 1000);
        assertEquals("complete", Cli.run("verify", out.toString()).out().split(":")[0].strip());
    }

    /**
     * A file an earlier run wrote and the user changed since (another size or SHA-256 than the manifest's) is
     * the user's: the next run keeps it and says so, and removes the earlier run's unchanged files.
     */
    @Test
    void anEarlierRunsFileChangedSinceStays(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Cli.run("balltree", clips.toString(), "--out", out.toString(), "-q").assertOk();
        Files.writeString(out.resolve("mask.npy"), "the user's own array");
        Cli.Result r = Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", out.toString());
        r.assertOk();
        assertEquals(Cli.withManifest(sorted(outputs(".npy"), List.of("mask.npy"))), Cli.list(out));
        assertEquals("the user's own array", Files.readString(out.resolve("mask.npy")));
        assertTrue(r.err().contains("removed 3 files of an earlier run") && r.err().contains("tree_idx.npy"), r.err());
        assertTrue(r.err().contains("sylva: warning: left in place 1 file that this run did not write")
                && r.err().contains(": mask.npy;"), r.err());
        // the same for a file under HDBSCAN's own names (and mask.npy again: still under a name of Sylva's, unrecorded)
        Files.writeString(out.resolve("labels.npy"), "relabelled by hand");
        r = Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", out.toString(), "--format", "csv")
                .assertOk();
        assertEquals("relabelled by hand", Files.readString(out.resolve("labels.npy")));
        assertTrue(!Files.exists(out.resolve("mst.npy")), "the unchanged outputs of the earlier run are removed");
        assertTrue(r.err().contains("left in place 2 files") && r.err().contains(": labels.npy, mask.npy;"), r.err());
        // named once with a relative --out too (the earlier manifest's file and the output name are one file)
        Files.writeString(out.resolve("labels.csv"), "relabelled by hand too");
        Path relative = Path.of("").toAbsolutePath().relativize(out);
        r = Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", relative.toString()).assertOk();
        assertTrue(r.err().contains("left in place 2 files ") && r.err().contains(": labels.csv, mask.npy;"), r.err());
    }

    /**
     * Another command's run into the same folder removes what the earlier run's manifest named: the folder
     * holds one run's files, and its manifest names all of them.
     */
    @Test
    void anotherCommandsRunRemovesTheEarlierRunsFiles(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", out.toString(), "-q").assertOk();
        Files.writeString(out.resolve("notes.txt"), "mine");
        Cli.Result tree = Cli.run("balltree", clips.toString(), "--out", out.toString()).assertOk();
        assertTrue(tree.err().contains("removed 8 files of an earlier run") && tree.err().contains("labels.npy"),
                "the removed files are named: " + tree.err());
        assertEquals(Cli.withManifest(List.of("levels.npy", "mask.npy", "notes.txt", "offsets.npy", "tree_idx.npy")),
                Cli.list(out));
        Cli.Result back = Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", out.toString(),
                "--format", "csv");
        back.assertOk();
        assertTrue(back.err().contains("tree_idx.npy"), "the removed files are named: " + back.err());
        assertEquals(Cli.withManifest(sorted(outputs(".csv"), List.of("notes.txt"))), Cli.list(out));
        assertEquals("complete", Cli.run("verify", out.toString()).out().split(":")[0].strip());
    }

    /**
     * A model and a report that a run wrote into --out under names the user chose are the user's: a later run
     * of any command into the folder keeps them (the manifest marks them chosen), where it removes the earlier
     * run's other files.
     */
    @Test
    void filesWhoseNamesTheUserChoseStay(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", out.toString(), "-q",
                "--save-model", out.resolve("important.model").toString(),
                "--report", out.resolve("my-analysis.html").toString()).assertOk();
        String manifest = Files.readString(out.resolve("sylva-run.json"));
        assertTrue(manifest.contains("\"name\": \"important.model\"") && manifest.contains("\"chosen\": true"), manifest);
        byte[] model = Files.readAllBytes(out.resolve("important.model"));
        Cli.Result again = Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", out.toString());
        again.assertOk();
        assertTrue(!again.err().contains("removed"), again.err());
        assertEquals(Cli.withManifest(sorted(outputs(".npy"), List.of("important.model", "my-analysis.html"))), Cli.list(out));
        org.junit.jupiter.api.Assertions.assertArrayEquals(model, Files.readAllBytes(out.resolve("important.model")));
        Cli.run("balltree", clips.toString(), "--out", out.toString(), "-q").assertOk();
        assertTrue(Files.exists(out.resolve("important.model")) && Files.exists(out.resolve("my-analysis.html")));
        assertEquals("complete", Cli.run("verify", out.toString()).out().split(":")[0].strip());
    }

    @Test
    void aFailedRunRemovesNothing(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Files.createDirectories(out);
        for (String f : outputs(".csv")) Files.writeString(out.resolve(f), "old");
        Files.writeString(out.resolve("report.html"), "old");
        Path nan = tmp.resolve("nan.npy");
        TestData.writeNpy(TestData.with(TestData.clips(50), 3, 4, Float.NaN), nan);
        Cli.run("hdbscan", nan.toString(), "--out", out.toString()).assertError("NaN");
        Cli.run("hdbscan", clips.toString(), "--out", out.toString(), "--channels", "7", "--report",
                out.resolve("report.html").toString()).assertError("(option --channels)");
        assertEquals(sorted(outputs(".csv"), List.of("report.html")), Cli.list(out), "the earlier outputs stay");
    }

    @Test
    void aDirectoryWithAnOutputsNameIsNotTouched(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Files.createDirectories(out.resolve("labels.csv"));
        Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", out.toString(), "-q").assertOk();
        assertTrue(Files.isDirectory(out.resolve("labels.csv")));
    }

    /**
     * Files under Sylva's names that no run recorded (a fit killed before its manifest, the user's) are named by
     * every command that writes beside them, not only by sylva hdbscan: a cut's labels beside a killed fit's mst
     * would otherwise pass for one run.
     */
    @Test
    void everyCommandNamesUnrecordedFilesUnderSylvasNames(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Path model = tmp.resolve("clips.model");
        Cli.run("hdbscan", clips.toString(), "--min-cluster-size", "10", "--out", out.toString(), "--save-model",
                model.toString(), "-q").assertOk();
        Files.delete(out.resolve(org.sylva.io.ResultFolder.MANIFEST));   // as a fit killed before its manifest leaves it
        Cli.Result cut = Cli.run("cut", model.toString(), "--distance", "0.5", "--out", out.toString(), "-q").assertOk();
        List<String> others = new ArrayList<>(outputs(".npy"));
        others.remove("labels.npy");
        assertTrue(cut.err().contains("sylva: warning: left in place " + others.size() + " files that this run did not "
                + "write") && cut.err().contains(": " + String.join(", ", others) + ";"), cut.err());
        // the other commands' names too: a stray membership or tree array beside a reselect's outputs (and the killed
        // fit's arrays that neither the cut nor the reselect writes)
        Files.writeString(out.resolve("membership.npy"), "mine");
        Files.writeString(out.resolve("tree_idx.csv"), "mine");
        Cli.Result re = Cli.run("reselect", model.toString(), "--method", "leaf", "--out", out.toString(), "-q").assertOk();
        assertTrue(re.err().contains("left in place 5 files") && re.err().contains(": core_distances.npy, mst.npy, "
                + "single_linkage.npy, membership.npy, tree_idx.csv;"), re.err());
        Cli.Result predicted = Cli.run("predict", model.toString(), clips.toString(), "--out", out.toString(), "-q")
                .assertOk();
        assertTrue(predicted.err().contains("left in place 4 files ") && predicted.err().contains(": core_distances.npy, "
                + "mst.npy, single_linkage.npy, tree_idx.csv;"), predicted.err());
        Cli.Result tree = Cli.run("balltree", clips.toString(), "--out", out.toString(), "-q").assertOk();
        assertTrue(tree.err().contains("left in place 4 files ") && tree.err().contains(": core_distances.npy, "
                + "mst.npy, single_linkage.npy, tree_idx.csv;"), "the predict run's files were recorded and removed: "
                + tree.err());
        assertTrue(!Files.exists(out.resolve("membership.npy")));
        assertEquals("mine", Files.readString(out.resolve("tree_idx.csv")));
    }

    @Test
    void theDemoKeepsItsFolderCurrentAndTheUsersFiles(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("demo");
        Cli.run("demo", "--points", "300", "--out", out.toString(), "-q").assertOk();
        Files.writeString(out.resolve("labels.csv"), "mine");
        Cli.Result r = Cli.run("demo", "--points", "300", "--out", out.toString()).assertOk();
        assertTrue(r.err().contains("left in place 1 file that this run did not write") && r.err().contains("labels.csv"),
                r.err());
        assertEquals(Cli.withManifest(sorted(outputs(".npy"), List.of("labels.csv", "report.html"))), Cli.list(out));
    }
}
