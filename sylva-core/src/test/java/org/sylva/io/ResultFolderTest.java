package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A folder published with {@link AtomicOutput.Group#commitFolder} verifies; any change to it is named. */
class ResultFolderTest {
    @TempDir
    Path tmp;

    /** Publishes files {@code name -> content} into {@code dir} as one run. */
    static ResultManifest publish(Path dir, String... namesAndContents) throws IOException {
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            for (int i = 0; i < namesAndContents.length; i += 2) {
                byte[] b = namesAndContents[i + 1].getBytes(StandardCharsets.UTF_8);
                g.write(dir.resolve(namesAndContents[i]), out -> out.write(b));
            }
            return g.commitFolder(dir, "test", () -> { });
        }
    }

    @Test
    void aPublishedFolderIsCompleteAndItsManifestNamesEachFile() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("out"));
        ResultManifest m = publish(dir, "labels.npy", "abc", "mst.npy", "");
        ResultFolder.Verdict v = ResultFolder.verify(dir);
        assertEquals(ResultFolder.Status.COMPLETE, v.status(), v::message);
        assertEquals(m, v.manifest());
        assertEquals(List.of("labels.npy", "mst.npy"), m.files().stream().map(ResultManifest.Entry::name).toList());
        assertEquals(3, m.files().get(0).bytes());
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", m.files().get(0).sha256());
        assertEquals(32, m.runId().length());
        assertTrue(v.message().startsWith("complete: "), v.message());
    }

    @Test
    void filesOutsideTheFolderAreNotPartOfIt() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("out"));
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            g.write(dir.resolve("labels.npy"), out -> out.write(1));
            g.write(tmp.resolve("report.html"), out -> out.write(2));
            ResultManifest m = g.commitFolder(dir, "test", () -> { });
            assertEquals(1, m.files().size());
        }
        assertTrue(Files.exists(tmp.resolve("report.html")));
        assertEquals(ResultFolder.Status.COMPLETE, ResultFolder.verify(dir).status());
    }

    @Test
    void withoutAManifestTheFolderIsIncomplete() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("out"));
        Files.writeString(dir.resolve("labels.npy"), "x");
        ResultFolder.Verdict v = ResultFolder.verify(dir);
        assertEquals(ResultFolder.Status.INCOMPLETE, v.status());
        assertNull(v.manifest());
        assertTrue(v.message().contains(ResultFolder.MANIFEST), v.message());
        var absent = assertThrows(org.sylva.data.InvalidInputException.class, () -> ResultFolder.verify(tmp.resolve("absent")));
        assertTrue(absent.getMessage().endsWith("absent: no such folder"), absent.getMessage());
        var file = assertThrows(org.sylva.data.InvalidInputException.class,
                () -> ResultFolder.verify(dir.resolve("labels.npy")));
        assertTrue(file.getMessage().endsWith("labels.npy: is a file, not a result folder (give the folder a run wrote"
                + " with --out)"), file.getMessage());
    }

    @Test
    void anyChangeAfterTheRunIsAMismatchNamingTheFile() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("out"));
        publish(dir, "a.npy", "abc", "b.npy", "def");
        Files.writeString(dir.resolve("b.npy"), "deF");   // same size, other content
        ResultFolder.Verdict v = ResultFolder.verify(dir);
        assertEquals(ResultFolder.Status.MISMATCH, v.status());
        assertEquals(dir.resolve("b.npy"), v.file());
        assertTrue(v.detail().contains("SHA-256"), v.detail());
        // a folder given relative to the working directory is named relative, as given
        Path relative = Path.of("").toAbsolutePath().relativize(dir);
        assertTrue(ResultFolder.verify(relative).message().startsWith("mismatch: " + relative.resolve("b.npy") + ": "),
                ResultFolder.verify(relative).message());

        Files.writeString(dir.resolve("b.npy"), "longer");
        assertTrue(ResultFolder.verify(dir).detail().contains("6 bytes, but the manifest says 3"));
        Files.delete(dir.resolve("b.npy"));
        assertTrue(ResultFolder.verify(dir).detail().startsWith("missing"));
        Files.createDirectory(dir.resolve("b.npy"));
        assertEquals("not a regular file", ResultFolder.verify(dir).detail());
    }

    @Test
    void aDamagedOrForeignManifestIsAMismatchNeverTrusted() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("out"));
        Path mf = dir.resolve(ResultFolder.MANIFEST);
        for (String text : List.of("", "{", "[]", "{\"format\": \"other\"}",
                "{\"format\": \"sylva-run\", \"version\": 3, \"command\": \"x\", \"run_id\": \"r\", \"files\": []}",
                "{\"format\": \"sylva-run\", \"version\": 2, \"command\": \"x\", \"run_id\": \"r\", \"run\": [], \"files\": []}",
                "{\"format\": \"sylva-run\", \"version\": 1, \"command\": \"x\", \"run_id\": \"r\", \"files\": [1]}",
                "{\"format\": \"sylva-run\", \"version\": 1, \"command\": \"hdbscan\", \"run_id\": \"r\", \"files\": []}",
                "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]")) {
            Files.writeString(mf, text);
            ResultFolder.Verdict v = ResultFolder.verify(dir);
            assertEquals(ResultFolder.Status.MISMATCH, v.status(), text);
            assertEquals(mf, v.file());
        }
        Files.writeString(mf, new ResultManifest(1, "x", "r", Map.of(), List.of(new ResultManifest.Entry("../escape", 0,
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))).toJson());
        Files.writeString(tmp.resolve("escape"), "");
        ResultFolder.Verdict v = ResultFolder.verify(dir);
        assertEquals(ResultFolder.Status.MISMATCH, v.status());
        assertTrue(v.detail().contains("outside the folder"), v.detail());
        Files.write(mf, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 'x'});
        assertEquals("is not UTF-8 text, as every manifest Sylva writes is", ResultFolder.verify(dir).detail());
    }

    /**
     * A name that reaches out of the folder through a symbolic link in it ({@code up -> ..}, then {@code up/victim}), or
     * that no file can have (a NUL character, an element over 255 bytes), is an edited manifest: a mismatch naming it,
     * and the next run into the folder neither reads nor removes what it names.
     */
    @Test
    void aNameThroughALinkOrNoFileNameIsAMismatchAndNeverRemoved() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("out"));
        ResultManifest m = publish(dir, "labels.npy", "abc");
        Files.writeString(tmp.resolve("victim"), "precious");
        Files.createSymbolicLink(dir.resolve("up"), Path.of(".."));
        String sha = "157fc55121ab2c59852c35d78aca98d840047e5d9668c423e4d3b146e1577901";   // victim's: the entry describes it exactly
        java.util.Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("up/victim", "names up/victim, through the symbolic link up, outside the folder");
        cases.put("up/../up/victim", "names up/../up/victim, through the symbolic link up, outside the folder");
        cases.put("x" + (char) 0 + "y", "names x" + (char) 0 + "y, not a file name on this system");
        cases.put("n".repeat(256), "names " + "n".repeat(256) + ", not a file name on this system (an element longer "
                + "than 255 bytes)");
        for (var c : cases.entrySet()) {
            m = publish(dir, "labels.npy", "abc");
            List<ResultManifest.Entry> files = new java.util.ArrayList<>(m.files());
            files.add(new ResultManifest.Entry(c.getKey(), 8, sha));
            Files.writeString(dir.resolve(ResultFolder.MANIFEST), new ResultManifest(m.version(), m.command(), m.runId(),
                    m.run(), files).toJson());
            ResultFolder.Verdict v = ResultFolder.verify(dir);
            assertEquals(ResultFolder.Status.MISMATCH, v.status(), c.getKey());
            assertEquals(c.getValue(), v.detail());
            assertEquals(List.of("labels.npy"), ResultFolder.earlierOutputs(dir), "what the next run may remove");
            publish(dir, "labels.npy", "def");   // the next run: repairs the folder, touches nothing outside
            assertEquals("precious", Files.readString(tmp.resolve("victim")));
            assertEquals(ResultFolder.Status.COMPLETE, ResultFolder.verify(dir).status());
        }
        // "link/.." names the file beside the link, inside the folder, and is read there, not through the link
        Files.createDirectories(tmp.resolve("elsewhere"));
        Files.writeString(tmp.resolve("labels.npy"), "def");   // what following the link would read instead
        Files.createSymbolicLink(dir.resolve("away"), tmp.resolve("elsewhere"));
        List<ResultManifest.Entry> files = List.of(new ResultManifest.Entry("away/../labels.npy", 3,
                m.files().get(0).sha256()));
        Files.writeString(dir.resolve(ResultFolder.MANIFEST), new ResultManifest(m.version(), m.command(), m.runId(),
                m.run(), files).toJson());
        Files.writeString(dir.resolve("labels.npy"), "abc");
        assertEquals(ResultFolder.Status.COMPLETE, ResultFolder.verify(dir).status(), ResultFolder.verify(dir)::message);
    }

    /** A file a run writes through a symbolic link in the folder lies elsewhere: not listed in the folder's manifest. */
    @Test
    void aFileWrittenThroughALinkInTheFolderIsNotPartOfIt() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("out"));
        Files.createDirectories(tmp.resolve("reports"));
        Files.createSymbolicLink(dir.resolve("r"), tmp.resolve("reports"));
        ResultManifest m = publish(dir, "labels.npy", "abc", "r/report.html", "x");
        assertEquals(List.of("labels.npy"), m.files().stream().map(ResultManifest.Entry::name).toList());
        assertTrue(Files.exists(tmp.resolve("reports/report.html")));
        assertEquals(ResultFolder.Status.COMPLETE, ResultFolder.verify(dir).status());
    }

    /** A manifest that lists one file twice (edited: a run lists each once) is a mismatch, not a count of two. */
    @Test
    void aFileListedTwiceIsAMismatch() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("out"));
        ResultManifest m = publish(dir, "labels.npy", "abc", "mst.npy", "");
        ResultManifest.Entry first = m.files().get(0);
        List<ResultManifest.Entry> twice = List.of(first, m.files().get(1),
                new ResultManifest.Entry("./" + first.name(), first.bytes(), first.sha256()));
        Files.writeString(dir.resolve(ResultFolder.MANIFEST), new ResultManifest(m.version(), m.command(), m.runId(),
                m.run(), twice).toJson());
        ResultFolder.Verdict v = ResultFolder.verify(dir);
        assertEquals(ResultFolder.Status.MISMATCH, v.status());
        assertEquals("names ./labels.npy twice", v.detail());
    }

    @Test
    void theManifestTextRoundTripsAnyName() {
        ResultManifest m = new ResultManifest(1, "hdbscan", "00ff", List.of(
                new ResultManifest.Entry("a \"quoted\" \\ name\n\t\u0001é.npy", 12, "ab"),
                new ResultManifest.Entry("sub/report.html", 0, "cd"),
                new ResultManifest.Entry("mine.model", 7, "ef", true)));
        assertEquals(m, ResultManifest.parse(m.toJson()));
        assertTrue(m.toJson().contains("\"sha256\": \"ef\", \"chosen\": true}"), m.toJson());
        assertTrue(!m.toJson().contains("\"sha256\": \"cd\", \"chosen\""), "only a chosen name says so");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ResultManifest.parse(m.toJson().replace("\"chosen\": true", "\"chosen\": \"yes\"")));
        assertTrue(e.getMessage().contains("chosen"), e.getMessage());
    }

    /** What a run was made from is written with its files, read back as written, and verified with them. */
    @Test
    void theRunsDescriptionRoundTrips() throws IOException {
        Map<String, Object> parameters = new java.util.LinkedHashMap<>();
        parameters.put("min_cluster_size", 20);
        parameters.put("alpha", 1.0);
        parameters.put("cluster_selection_epsilon", 1.5e-7);
        parameters.put("max_cluster_size", null);
        parameters.put("allow_single_cluster", false);
        parameters.put("far", Double.POSITIVE_INFINITY);
        Map<String, Object> run = new java.util.LinkedHashMap<>();
        run.put("sylva_version", "0.1.0");
        run.put("arguments", List.of("hdbscan", "a \"b\".npy"));
        run.put("inputs", List.of(Map.of("path", "a.npy", "bytes", 128L, "sha256", "ab")));
        run.put("parameters", parameters);
        Path dir = Files.createDirectories(tmp.resolve("described"));
        ResultManifest written;
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            g.write(dir.resolve("a.npy"), out -> out.write(1));
            written = g.commitFolder(dir, "hdbscan", run, () -> { });
        }
        String text = Files.readString(dir.resolve(ResultFolder.MANIFEST));
        assertTrue(text.contains("\"version\": 2,"), text);
        assertTrue(text.contains("\"alpha\": 1.0, \"cluster_selection_epsilon\": 1.5E-7, \"max_cluster_size\": null"), text);
        assertTrue(text.contains("\"far\": \"inf\""), text);
        ResultManifest read = ResultManifest.parse(text);
        assertEquals(written, read);
        assertEquals(20L, ((Map<?, ?>) read.run().get("parameters")).get("min_cluster_size"));
        assertEquals(1.5e-7, ((Map<?, ?>) read.run().get("parameters")).get("cluster_selection_epsilon"));
        assertEquals(ResultFolder.Status.COMPLETE, ResultFolder.verify(dir).status());
        // a version 1 manifest (no run) is still read; a value that is not JSON is refused before any file moves
        ResultManifest old = ResultManifest.parse(text.replace("\"version\": 2", "\"version\": 1")
                .replaceAll("\"run\": \\{.*\\},\n", ""));
        assertEquals(1, old.version());
        assertEquals(Map.of(), old.run());
        Path other = Files.createDirectories(tmp.resolve("refused"));
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            g.write(other.resolve("a.npy"), out -> out.write(1));
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> g.commitFolder(other, "x", Map.of("when", java.time.Instant.EPOCH), () -> { }));
        }
        assertTrue(!Files.exists(other.resolve("a.npy")) && !Files.exists(other.resolve(ResultFolder.MANIFEST)));
        for (String number : List.of("1.", "-", "1e", "2.5e+", "1e999")) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> ResultManifest.parse(text.replace("1.5E-7", number)), number);
        }
    }

    /** A later run removes what the earlier manifest lists under Sylva's names, and keeps what the user named. */
    @Test
    void aFileWhoseNameTheUserChoseOutlivesTheNextRun() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("chosen"));
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            g.write(dir.resolve("a.npy"), out -> out.write(1));
            g.writeChosen(dir.resolve("mine.model"), out -> out.write(2));
            g.commitFolder(dir, "x", () -> { });
        }
        assertEquals(List.of("a.npy", "mine.model"),
                ResultFolder.verify(dir).manifest().files().stream().map(ResultManifest.Entry::name).toList());
        assertEquals(List.of("a.npy"), ResultFolder.earlierOutputs(dir));
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            g.write(dir.resolve("b.npy"), out -> out.write(3));
            g.commitFolder(dir, "y", () -> { });
            assertEquals(List.of(dir.resolve("a.npy").toAbsolutePath().normalize()), g.removedEarlier());
        }
        assertTrue(Files.exists(dir.resolve("mine.model")) && !Files.exists(dir.resolve("a.npy")));
    }

    /** An earlier run's file that changed since it was written (its size or SHA-256) stays, and is named as kept. */
    @Test
    void anEarlierFileChangedSinceStays() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("changed"));
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            g.write(dir.resolve("a.npy"), out -> out.write(1));
            g.write(dir.resolve("b.npy"), out -> out.write(2));
            g.write(dir.resolve("c.npy"), out -> out.write(3));
            g.commitFolder(dir, "x", () -> { });
        }
        Files.write(dir.resolve("a.npy"), new byte[] {9});   // same size, another SHA-256
        Files.write(dir.resolve("b.npy"), new byte[] {2, 2});   // another size
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            g.write(dir.resolve("d.npy"), out -> out.write(4));
            g.commitFolder(dir, "y", () -> { });
            assertEquals(List.of(dir.resolve("c.npy").toAbsolutePath().normalize()), g.removedEarlier());
            assertEquals(List.of(dir.resolve("a.npy").toAbsolutePath().normalize(),
                    dir.resolve("b.npy").toAbsolutePath().normalize()), g.keptEarlier());
        }
        assertTrue(Files.exists(dir.resolve("a.npy")) && Files.exists(dir.resolve("b.npy")));
        assertTrue(!Files.exists(dir.resolve("c.npy")) && Files.exists(dir.resolve("d.npy")));
    }

    @Test
    void theEarlierManifestGoesFirstAndTheNewOneComesAfterEveryFileAndTheLastStep() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("out"));
        publish(dir, "a.npy", "old", "old.csv", "old");
        Path mf = dir.resolve(ResultFolder.MANIFEST);
        try (AtomicOutput.Group g = AtomicOutput.group()) {
            g.write(dir.resolve("a.npy"), out -> out.write("new".getBytes(StandardCharsets.UTF_8)));
            g.commitFolder(dir, "test", () -> {
                assertFalse(Files.exists(mf), "the earlier manifest is gone before the last step");
                assertEquals("new", Files.readString(dir.resolve("a.npy")), "the files are in place before it");
                Files.delete(dir.resolve("old.csv"));
            });
        }
        ResultFolder.Verdict v = ResultFolder.verify(dir);
        assertEquals(ResultFolder.Status.COMPLETE, v.status());
        assertEquals(1, v.manifest().files().size());
        assertFalse(Files.exists(dir.resolve("old.csv")));
    }
}
