package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.io.Npy;
import org.sylva.io.ResultFolder;
import org.sylva.io.ResultManifest;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Every command that writes a result folder says in its manifest what the run was made from ({@link RunRecord}): the
 * command line as given, each file it read with its size and SHA-256 (computed here independently), and where the
 * command has them, the parameters in effect with their defaults.
 */
class RunRecordTest {
    @TempDir
    Path tmp;

    @Test
    void eachCommandRecordsItsArgumentsInputsAndParameters() throws Exception {
        PointSet clips = TestData.clips(300);
        Path points = TestData.writeNpy(clips, tmp.resolve("clips.npy"));
        Path weights = tmp.resolve("w.npy");
        int[] w = new int[300];
        java.util.Arrays.fill(w, 1);
        w[7] = 3;
        Npy.writeInt32(weights, w, w.length);
        Path model = tmp.resolve("clips.model");
        String[] fit = {"hdbscan", points.toString(), "--min-cluster-size", "15", "--sample-weight", weights.toString(),
            "--out", tmp.resolve("fit").toString(), "--save-model", model.toString(), "-q"};
        Cli.run(fit).assertOk();
        Map<String, Object> run = run(tmp.resolve("fit"), "hdbscan");
        assertEquals(List.of(fit), run.get("arguments"));
        assertEquals(SylvaCommand.version(), run.get("sylva_version"));
        assertEquals(Path.of("").toAbsolutePath().toString(), run.get("working_directory"));
        assertEquals(List.of(file("points", points), file("sample_weight", weights)), run.get("inputs"));
        Map<?, ?> parameters = (Map<?, ?>) run.get("parameters");
        assertEquals(15L, parameters.get("min_cluster_size"));
        assertEquals(15L, parameters.get("min_samples"));   // the default filled in
        assertEquals(1.0, parameters.get("alpha"));
        assertEquals("eom", parameters.get("cluster_selection_method"));
        java.util.Map<String, Object> options = new java.util.LinkedHashMap<>();
        options.put("non_finite", "reject");
        options.put("pca", null);
        options.put("centers", null);
        assertEquals(options, run.get("options"), "Sylva's own choices that shape the outputs, as --json names them");

        String[] predict = {"predict", model.toString(), points.toString(), "--out", tmp.resolve("predicted").toString(),
            "-q"};
        // an argument file's words are recorded, not its name: the record stays whole when the file changes
        Path words = Files.writeString(tmp.resolve("args.txt"), model + "\n" + points + "\n");
        Cli.run("predict", "@" + words, "--out", tmp.resolve("predicted").toString(), "-q").assertOk();
        run = run(tmp.resolve("predicted"), "predict");
        assertEquals(List.of(predict), run.get("arguments"));
        // a name that starts with @, typed @@NAME, is recorded so: run again, the record reads the same file
        assertEquals(List.of("predict", "@@clips.npy", "a.model", "@"), RunRecord.asTyped(List.of("predict", "@clips.npy",
                "a.model", "@")));
        assertEquals(List.of(file("model", model), file("points", points)), run.get("inputs"));
        assertFalse(run.containsKey("parameters"), "the model holds them");

        Cli.run("reselect", model.toString(), "--method", "leaf", "--out",
                tmp.resolve("leaf").toString(), "-q").assertOk();
        run = run(tmp.resolve("leaf"), "reselect");
        assertEquals(List.of(file("model", model)), run.get("inputs"));
        assertEquals("leaf", ((Map<?, ?>) run.get("parameters")).get("cluster_selection_method"));

        Cli.run("cut", model.toString(), "--distance", "0.5", "--out", tmp.resolve("cut").toString(), "-q").assertOk();
        assertEquals(List.of(file("model", model)), run(tmp.resolve("cut"), "cut").get("inputs"));

        Path batch = tmp.resolve("batch.npy");
        long[] ids = new long[300];
        for (int i = 150; i < 300; i++) ids[i] = 1;
        Npy.writeInt64(batch, ids, ids.length);
        Cli.run("balltree", points.toString(), "--batch", batch.toString(), "--out", tmp.resolve("tree").toString(), "-q")
                .assertOk();
        assertEquals(List.of(file("points", points), file("batch", batch)), run(tmp.resolve("tree"), "balltree").get("inputs"));
    }

    /** A distance matrix and a second file of waveforms are recorded in their roles. */
    @Test
    void aDistanceMatrixAndWaveformsAreRecordedInTheirRoles() throws Exception {
        PointSet p = TestData.blob(60, 2, 6);
        double[] matrix = new double[60 * 60];
        for (int a = 0; a < 60; a++) {
            for (int b = 0; b < 60; b++) {
                double dx = p.getDouble(a, 0) - p.getDouble(b, 0), dy = p.getDouble(a, 1) - p.getDouble(b, 1);
                matrix[a * 60 + b] = Math.sqrt(dx * dx + dy * dy);
            }
        }
        Path distances = tmp.resolve("d.npy");
        Npy.writeFloat64(distances, matrix, 60, 60);
        Cli.run("hdbscan", distances.toString(), "--metric", "precomputed", "--out", tmp.resolve("pre").toString(), "-q")
                .assertOk();
        assertEquals(List.of(file("distances", distances)), run(tmp.resolve("pre"), "hdbscan").get("inputs"));

        Path points = TestData.writeNpy(p, tmp.resolve("p.npy"));
        Path waves = TestData.writeNpy(TestData.clips(60), tmp.resolve("w.npy"));
        Cli.run("hdbscan", points.toString(), "--waveforms-from", waves.toString(), "--report",
                tmp.resolve("r.html").toString(), "--out", tmp.resolve("waves").toString(), "-q").assertOk();
        assertEquals(List.of(file("points", points), file("waveforms", waves)),
                run(tmp.resolve("waves"), "hdbscan").get("inputs"));
    }

    /** Standard input is named as such, without a size or digest; the demo reads no file. */
    @Test
    void standardInputAndTheDemoReadNoNamedFile() throws Exception {
        byte[] npy = Files.readAllBytes(TestData.writeNpy(TestData.clips(200), tmp.resolve("c.npy")));
        Cli.runWithStdin(npy, "hdbscan", "-", "--out", tmp.resolve("stdin").toString(), "-q").assertOk();
        Map<?, ?> input = (Map<?, ?>) ((List<?>) run(tmp.resolve("stdin"), "hdbscan").get("inputs")).get(0);
        assertEquals(Map.of("role", "points", "path", "-"), input);
        assertNull(input.get("sha256"));

        Cli.run("demo", "--points", "2000", "--out", tmp.resolve("demo").toString(), "-q").assertOk();
        Map<String, Object> demo = run(tmp.resolve("demo"), "demo");
        assertEquals(List.of(), demo.get("inputs"));
        assertEquals(20L, ((Map<?, ?>) demo.get("parameters")).get("min_cluster_size"));
    }

    /** {@code sylva verify --inputs} checks the recorded inputs too: changed or gone is a mismatch naming it. */
    @Test
    void verifyWithInputsTellsWhetherTheInputsAreStillThoseTheRunRead() throws Exception {
        Path points = TestData.writeNpy(TestData.clips(200), tmp.resolve("clips.npy"));
        Path out = tmp.resolve("fit");
        Cli.run("hdbscan", points.toString(), "--out", out.toString(), "-q").assertOk();
        Cli.Result same = Cli.run("verify", "--inputs", out.toString());
        assertEquals(ExitStatus.OK, same.code());
        assertEquals("complete: " + out + " (8 files of a hdbscan run, id "
                + ResultFolder.verify(out).manifest().runId() + "); its input is as the run read it", same.out().trim());
        assertEquals(ExitStatus.OK, Cli.run("verify", out.toString()).code());

        byte[] bytes = Files.readAllBytes(points);
        bytes[bytes.length - 1] ^= 1;   // the same size, another last coordinate
        Files.write(points, bytes);
        Cli.Result changed = Cli.run("verify", "--inputs", out.toString());
        assertEquals(ExitStatus.MISMATCH, changed.code());
        org.junit.jupiter.api.Assertions.assertTrue(changed.out().startsWith("mismatch: " + out
                + ": the inputs changed since the run: points " + points + ": its SHA-256 is "), changed.out());
        assertEquals(ExitStatus.OK, Cli.run("verify", out.toString()).code(), "without --inputs the folder alone");
        Files.delete(points);
        org.junit.jupiter.api.Assertions.assertTrue(Cli.run("verify", "--inputs", out.toString()).out()
                .contains("points " + points + ": no longer there"));

        // standard input has nothing to check; the folder is still complete
        byte[] npy = Files.readAllBytes(TestData.writeNpy(TestData.clips(200), tmp.resolve("c.npy")));
        Cli.runWithStdin(npy, "hdbscan", "-", "--out", tmp.resolve("stdin").toString(), "-q").assertOk();
        Cli.Result none = Cli.run("verify", "--inputs", tmp.resolve("stdin").toString());
        assertEquals(ExitStatus.OK, none.code());
        org.junit.jupiter.api.Assertions.assertTrue(none.out().trim().endsWith("; no input file recorded to check; 1 "
                + "input read from standard input or a pipe, not checked"), none.out());
    }

    /** Another size, a directory in the input's place and damaged entries are mismatches; a digest's case is not. */
    @Test
    void verifyWithInputsNamesEveryKindOfDifference() throws Exception {
        Path points = TestData.writeNpy(TestData.clips(200), tmp.resolve("clips.npy"));
        Path out = tmp.resolve("fit");
        Cli.run("hdbscan", points.toString(), "--out", out.toString(), "-q").assertOk();
        Path mf = out.resolve(ResultFolder.MANIFEST);
        String manifest = Files.readString(mf);
        String sha = (String) ((Map<?, ?>) ((List<?>) run(out, "hdbscan").get("inputs")).get(0)).get("sha256");
        Files.writeString(mf, manifest.replace(sha, sha.toUpperCase(java.util.Locale.ROOT)));
        assertEquals(ExitStatus.OK, Cli.run("verify", "--inputs", out.toString()).code(), "a digest in upper case");
        for (String[] edit : new String[][] {{"\"bytes\": ", "\"bytes\": \"x\", \"was\": "},
            {"\"path\": ", "\"where\": "}}) {
            Files.writeString(mf, manifest.replaceFirst(java.util.regex.Pattern.quote(edit[0]), edit[1]));
            Cli.Result r = Cli.run("verify", "--inputs", out.toString());
            assertEquals(ExitStatus.MISMATCH, r.code(), r.out());
            org.junit.jupiter.api.Assertions.assertTrue(r.out().contains("damaged"), r.out());
        }
        Files.writeString(mf, manifest);
        Files.write(points, new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
        org.junit.jupiter.api.Assertions.assertTrue(Cli.run("verify", "--inputs", out.toString()).out()
                .contains("points " + points + ": " + Files.size(points) + " bytes, but the run read "), "another size");
        Files.delete(points);
        Files.createDirectory(points);
        org.junit.jupiter.api.Assertions.assertTrue(Cli.run("verify", "--inputs", out.toString()).out()
                .contains("points " + points + ": not a regular file"));
    }

    /** Each folder of a command of several inputs records its own input alone, in the arguments too. */
    @Test
    void aFolderOfSeveralInputsRecordsItsOwnInput() throws Exception {
        Path a = TestData.writeNpy(TestData.clips(150), tmp.resolve("a.npy"));
        Path b = TestData.writeNpy(TestData.blob(150, 3, 4), tmp.resolve("b.npy"));
        Path out = tmp.resolve("many");
        Cli.run("hdbscan", a.toString(), "--min-cluster-size", "10", b.toString(), "--out", out.toString(), "-q")
                .assertOk();
        assertEquals(List.of("hdbscan", a.toString(), "--min-cluster-size", "10", "--out", out.resolve("a").toString(),
                "-q"), run(out.resolve("a"), "hdbscan").get("arguments"));
        assertEquals(List.of("hdbscan", "--min-cluster-size", "10", b.toString(), "--out", out.resolve("b").toString(),
                "-q"), run(out.resolve("b"), "hdbscan").get("arguments"));
        assertEquals(List.of(file("points", b)), run(out.resolve("b"), "hdbscan").get("inputs"));
        // the recorded command, run again, makes the same folder: byte for byte (the manifest's run id aside)
        Path labels = out.resolve("b").resolve("labels.npy");
        byte[] before = Files.readAllBytes(labels);
        @SuppressWarnings("unchecked")
        List<String> again = (List<String>) run(out.resolve("b"), "hdbscan").get("arguments");
        Files.delete(labels);
        Cli.run(again.toArray(String[]::new)).assertOk();
        assertArrayEquals(before, Files.readAllBytes(labels));
        assertEquals(again, run(out.resolve("b"), "hdbscan").get("arguments"));
        // so does predict's, with several inputs, and a model named by --save-model in each folder
        Cli.run("hdbscan", a.toString(), b.toString(), "--min-cluster-size", "10", "--out", out.toString(), "-q",
                "--save-model", "m.model").assertOk();
        assertEquals(List.of("hdbscan", b.toString(), "--min-cluster-size", "10", "--out", out.resolve("b").toString(),
                "-q", "--save-model", out.resolve("b").resolve("m.model").toString()),
                run(out.resolve("b"), "hdbscan").get("arguments"));
        Path model = out.resolve("b").resolve("m.model");
        Path c = Files.copy(b, tmp.resolve("c.npy"));
        Path predicted = tmp.resolve("predicted-many");
        Cli.run("predict", model.toString(), c.toString(), b.toString(), "--out", predicted.toString(), "-q").assertOk();
        assertEquals(List.of("predict", model.toString(), b.toString(), "--out", predicted.resolve("b").toString(), "-q"),
                run(predicted.resolve("b"), "predict").get("arguments"));
        // an input whose name starts with @ (typed @@NAME; relative, so in the working folder, removed after)
        Path odd = Path.of("@sylva-record-test-" + ProcessHandle.current().pid() + ".npy");
        try {
            Files.copy(a, odd);
            String name = odd.toString().replace(".npy", "");
            Path many = tmp.resolve("many-at");
            Cli.run("hdbscan", "@" + odd, b.toString(), "--out", many.toString(), "-q").assertOk();
            assertEquals(List.of("hdbscan", "@" + odd, "--out", many.resolve(name).toString(), "-q"),
                    run(many.resolve(name), "hdbscan").get("arguments"));
            assertEquals(List.of("hdbscan", b.toString(), "--out", many.resolve("b").toString(), "-q"),
                    run(many.resolve("b"), "hdbscan").get("arguments"));
        } finally {
            Files.deleteIfExists(odd);
        }
        // an option's value that names an input is kept: it is no positional argument
        CommandSpec spec = new HdbscanCommand(CliContext.inProcess(java.io.InputStream.nullInputStream())).model();
        assertEquals(List.of("hdbscan", "--min-cluster-size", "5", "--json", "c.npy", "--out=x", "--report", "a.npy", "--"),
                RunRecord.keepOnly(spec, List.of("hdbscan", "a.npy", "--min-cluster-size", "5", "b.npy", "--json", "c.npy",
                        "--out=x", "--report", "a.npy", "--", "d.npy"), List.of("a.npy", "b.npy", "c.npy", "d.npy"),
                        List.of("c.npy"), Map.of()));
        // the folder's own --out, --report and --save-model, written as given (--name=value or --name value)
        assertEquals(List.of("hdbscan", "c.npy", "--out=x/c", "--report", "x/c/r.html", "--save-model", "x/c/m"),
                RunRecord.keepOnly(spec, List.of("hdbscan", "b.npy", "c.npy", "--out=x", "--report", "r.html",
                        "--save-model", "m"), List.of("b.npy", "c.npy"), List.of("c.npy"),
                        Map.of("--out", "x/c", "--report", "x/c/r.html", "--save-model", "x/c/m")));
    }

    /** A FIFO is read once, by the run: recorded by its path alone, never opened again to be hashed. */
    @Test
    void aFifoInputIsRecordedWithoutADigest() throws Exception {
        Path fifo = tmp.resolve("clips.npy");
        Process mk;
        try {
            mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (IOException e) {
            org.junit.jupiter.api.Assumptions.abort("no mkfifo here");
            return;
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo failed");
        byte[] npy = Files.readAllBytes(TestData.writeNpy(TestData.clips(200), tmp.resolve("c.npy")));
        Thread writer = new Thread(() -> {
            try {
                Files.write(fifo, npy);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        writer.setDaemon(true);
        writer.start();
        Cli.run("hdbscan", fifo.toString(), "--out", tmp.resolve("fifo").toString(), "-q").assertOk();
        writer.join(10_000);
        assertEquals(List.of(Map.of("role", "points", "path", fifo.toString())), run(tmp.resolve("fifo"), "hdbscan")
                .get("inputs"));
    }

    /** The folder's manifest, complete, written by {@code command}; returns its run object. */
    private static Map<String, Object> run(Path dir, String command) throws IOException {
        ResultFolder.Verdict v = ResultFolder.verify(dir);
        assertEquals(ResultFolder.Status.COMPLETE, v.status(), v.detail());
        ResultManifest m = v.manifest();
        assertEquals(command, m.command());
        assertEquals(ResultManifest.VERSION, m.version());
        return m.run();
    }

    /** An input as the manifest records it, with a SHA-256 computed here. */
    private static Map<String, Object> file(String role, Path p) throws IOException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        String sha = HexFormat.of().formatHex(md.digest(Files.readAllBytes(p)));
        return Map.of("role", role, "path", p.toString(), "bytes", Files.size(p), "sha256", sha);
    }
}
