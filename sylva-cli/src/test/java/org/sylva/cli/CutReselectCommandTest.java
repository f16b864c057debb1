package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.io.Npy;

/**
 * {@code sylva cut} and {@code sylva reselect} on a saved model: the cut is the library's, a reselect
 * writes the same bytes as {@code sylva hdbscan} with the other parameters, bad and version 1 models are
 * one error line with exit 2 and nothing written.
 */
class CutReselectCommandTest {
    @TempDir
    static Path shared;
    static Path clipsNpy, model;
    static PointSet clips;

    @BeforeAll
    static void fit() throws IOException {
        clips = TestData.clips(400);
        clipsNpy = TestData.writeNpy(clips, shared.resolve("clips.npy"));
        model = shared.resolve("clips.model");
        Cli.run("hdbscan", clipsNpy.toString(), "--min-cluster-size", "10", "--min-samples", "8",
                "--out", shared.resolve("fit").toString(), "--save-model", model.toString(), "--threads", "2").assertOk();
    }

    @Test
    void reselectWritesWhatAFitWithTheOtherParametersWrites(@TempDir Path tmp) throws IOException {
        String[][] others = {
            {"--method", "leaf"},
            {"--min-cluster-size", "5"},
            {"--min-cluster-size", "20", "--method", "leaf"},
            {"--cluster-selection-epsilon", "0.5"},
            {"--max-cluster-size", "100"},
            {"--min-cluster-size", "300", "--allow-single-cluster"}};
        for (String[] o : others) {
            String what = String.join(" ", o);
            Path re = tmp.resolve("re" + what.hashCode()), fit = tmp.resolve("fit" + what.hashCode());
            Path saved = tmp.resolve("re" + what.hashCode() + ".model");
            List<String> args = new ArrayList<>(List.of("reselect", model.toString(), "--out", re.toString(),
                    "--save-model", saved.toString()));
            args.addAll(List.of(o));
            Cli.Result done = Cli.run(args.toArray(String[]::new)).assertOk();
            // the count is of --out's files; the model saved beside it is named on its own
            assertTrue(done.err().contains("wrote " + ReselectCommand.OUTPUTS.size() + " files to " + re.toAbsolutePath()
                    + ", and " + saved), done.err());
            List<String> fitArgs = new ArrayList<>(List.of("hdbscan", clipsNpy.toString(), "--min-samples", "8",
                    "--out", fit.toString(), "--threads", "2"));
            fitArgs.addAll(List.of(o));
            if (!fitArgs.contains("--min-cluster-size")) fitArgs.addAll(List.of("--min-cluster-size", "10"));
            Cli.run(fitArgs.toArray(String[]::new)).assertOk();
            List<String> want = new ArrayList<>();
            for (String f : ReselectCommand.OUTPUTS) want.add(f + ".npy");
            assertEquals(Cli.withManifest(want), Cli.list(re), what);
            for (String f : ReselectCommand.OUTPUTS) {
                assertArrayEquals(Files.readAllBytes(fit.resolve(f + ".npy")), Files.readAllBytes(re.resolve(f + ".npy")),
                        what + ": " + f);
            }
            // the saved reselected model is the fresh fit's clusters
            assertArrayEquals(Npy.read(fit.resolve("labels.npy")).toInt32(), HdbscanModel.load(saved).labels(), what);
        }
    }

    /** A model of another metric than Euclidean keeps its metric: the reselect is the fit with that metric. */
    @Test
    void reselectOfAModelOfAnotherMetricWritesThatMetricsFit(@TempDir Path tmp) throws IOException {
        for (String metric : List.of("manhattan", "cosine")) {
            Path m = tmp.resolve(metric + ".model");
            Cli.run("hdbscan", clipsNpy.toString(), "--metric", metric, "--min-cluster-size", "10", "--min-samples", "8",
                    "--out", tmp.resolve(metric).toString(), "--save-model", m.toString(), "-q").assertOk();
            Path leaf = tmp.resolve(metric + "-leaf"), re = tmp.resolve(metric + "-re");
            Cli.run("hdbscan", clipsNpy.toString(), "--metric", metric, "--min-cluster-size", "10", "--min-samples", "8",
                    "--method", "leaf", "--out", leaf.toString(), "-q").assertOk();
            Cli.run("reselect", m.toString(), "--method", "leaf", "--out", re.toString(), "-q").assertOk();
            for (String f : ReselectCommand.OUTPUTS) {
                assertArrayEquals(Files.readAllBytes(leaf.resolve(f + ".npy")), Files.readAllBytes(re.resolve(f + ".npy")),
                        metric + ": " + f);
            }
        }
    }

    /** A model that left non-finite rows out: its condensed tree numbers the finite rows, fitted_rows maps them. */
    @Test
    void reselectOfAModelWithRowsLeftOutWritesFittedRowsAsAFit(@TempDir Path tmp) throws IOException {
        float[] x = clips.coordinates().clone();
        int d = clips.dimensions();
        x[3 * d + 2] = Float.NaN;
        x[77 * d] = Float.POSITIVE_INFINITY;
        Path holes = tmp.resolve("holes.npy");
        Npy.writeFloat32(holes, x, clips.size(), d);
        Path m = tmp.resolve("holes.model");
        Cli.run("hdbscan", holes.toString(), "--min-cluster-size", "10", "--min-samples", "8", "--non-finite", "sklearn",
                "--out", tmp.resolve("fit").toString(), "--save-model", m.toString(), "-q").assertOk();
        Cli.run("hdbscan", holes.toString(), "--min-cluster-size", "10", "--min-samples", "8", "--non-finite", "sklearn",
                "--method", "leaf", "--out", tmp.resolve("leaf").toString(), "-q").assertOk();
        Path re = tmp.resolve("re");
        Cli.run("reselect", m.toString(), "--method", "leaf", "--out", re.toString(), "-q").assertOk();
        for (String f : List.of("labels.npy", "condensed_tree.npy", "fitted_rows.npy")) {
            assertArrayEquals(Files.readAllBytes(tmp.resolve("leaf").resolve(f)), Files.readAllBytes(re.resolve(f)), f);
        }
        assertEquals(clips.size() - 2, Npy.read(re.resolve("fitted_rows.npy")).size());
    }

    @Test
    void cutWritesTheLibrarysCut(@TempDir Path tmp) throws IOException {
        HdbscanModel m = HdbscanModel.load(model);
        Path out = tmp.resolve("cut");
        double[] w = m.spanningTree().orElseThrow().weightArray();
        String cut = null;   // the largest tree weight that cuts the data into at least two clusters
        for (int i = w.length - 1; cut == null; i--) {
            if (java.util.Arrays.stream(m.dbscanClustering(w[i], 4)).max().getAsInt() >= 1) cut = Double.toString(w[i]);
        }
        Cli.Result r = Cli.run("cut", model.toString(), "--distance", cut, "--min-cluster-size", "4", "--out",
                out.toString(), "--json").assertOk();
        assertEquals(Cli.withManifest(List.of("labels.npy")), Cli.list(out));
        int[] labels = Npy.read(out.resolve("labels.npy")).toInt32();
        assertArrayEquals(m.dbscanClustering(Double.parseDouble(cut), 4), labels);
        assertTrue(java.util.Arrays.stream(labels).max().getAsInt() >= 1, "at least two clusters");
        assertTrue(java.util.Arrays.stream(labels).anyMatch(l -> l == -1), "some noise");
        assertTrue(r.out().contains("\"cut_distance\": " + cut), r.out());
        assertTrue(r.err().contains("wrote 1 file to "), r.err());
        Path csv = tmp.resolve("csv");
        Cli.run("cut", model.toString(), "--distance", cut, "--out", csv.toString(), "--format", "csv", "-q").assertOk();
        assertEquals(Cli.withManifest(List.of("labels.csv")), Cli.list(csv));
        assertEquals(clips.size(), Files.readAllLines(csv.resolve("labels.csv")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#") && !l.startsWith("label")).count());
    }

    @Test
    void badModelsAndOptionsAreOneErrorLine(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Cli.run("cut", clipsNpy.toString(), "--distance", "1", "--out", out.toString())
                .assertError("clips.npy", "not a Sylva model file");
        Cli.assertNothingWritten(out);
        Path cutShort = tmp.resolve("short.model");
        byte[] good = Files.readAllBytes(model);
        Files.write(cutShort, java.util.Arrays.copyOf(good, good.length - 10));
        Cli.run("reselect", cutShort.toString(), "--method", "leaf", "--out", out.toString()).assertError("truncated");
        Cli.assertNothingWritten(out);
        Cli.run("cut", model.toString(), "--distance", "NaN", "--out", out.toString()).assertError("--distance");
        Cli.run("reselect", model.toString(), "--min-cluster-size", "1", "--out", out.toString())
                .assertError("--min-cluster-size");
        Cli.assertNothingWritten(out);
        // a bad parameter stored in a model (a file altered, its checksum recomputed) is the file's fault: no option
        // is blamed, though the commands have one of that name
        byte[] altered = good.clone();
        ByteBuffer.wrap(altered).order(ByteOrder.LITTLE_ENDIAN).putInt(28, 1);   // the payload's min_cluster_size
        CRC32 sum = new CRC32();
        sum.update(altered, 28, altered.length - 28 - 4);
        ByteBuffer.wrap(altered).order(ByteOrder.LITTLE_ENDIAN).putInt(altered.length - 4, (int) sum.getValue());
        Path mcs1 = Files.write(tmp.resolve("mcs1.model"), altered);
        for (String[] args : List.of(new String[] {"cut", mcs1.toString(), "--distance", "1"},
                new String[] {"reselect", mcs1.toString(), "--method", "leaf"})) {
            List<String> all = new java.util.ArrayList<>(List.of(args));
            all.addAll(List.of("--out", out.toString()));
            String line = Cli.run(all.toArray(String[]::new)).assertError("model file", "mcs1.model",
                    "min_cluster_size must be at least 2; got 1");
            assertTrue(!line.contains("(option"), line);
        }
        Cli.assertNothingWritten(out);

        Path v1 = tmp.resolve("v1.model");
        Files.write(v1, asVersion1(good, HdbscanModel.load(model)));
        assertEquals(HdbscanModel.load(model).condensedTree(), HdbscanModel.load(v1).condensedTree());
        Cli.run("cut", v1.toString(), "--distance", "1", "--out", out.toString())
                .assertError("v1.model", "no spanning tree", "version 1", "--save-model");
        Cli.run("reselect", v1.toString(), "--method", "leaf", "--out", out.toString())
                .assertError("v1.model", "no spanning tree", "version 1", "sylva reselect");
        Cli.assertNothingWritten(out);
        // prediction still reads it
        Cli.run("predict", v1.toString(), clipsNpy.toString(), "--out", tmp.resolve("p").toString(), "-q").assertOk();
    }

    /**
     * The version 1 file Sylva wrote before it stored the spanning tree, made from a version 2 file, or from a
     * version 6 file (float32 points: version 5's fields dropped, the points widened to float64), or from a version 7
     * file (version 5's and 7's fields and the index's partition dropped, float32 points widened).
     */
    static byte[] asVersion1(byte[] file, HdbscanModel m) {
        int n = m.fittedSize(), d = m.dimensions(), r = m.condensedTree().rows();
        int payload = 46 + 12 * n + 8 * n * d + 20 * r;
        byte[] b = new byte[28 + payload + 4];
        ByteBuffer src = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int version = src.getInt(12);
        if (version == 6 || version == 7) {
            int width = version == 7 ? file[28 + 42 + 14] : 4;
            int rows = 28 + 42 + 14 + (version == 7 ? 5 : 0), points = rows + 4 * n, after = points + width * n * d;
            System.arraycopy(file, 0, b, 0, 28 + 42);
            System.arraycopy(file, rows, b, 28 + 42, 4 * n);
            ByteBuffer dst = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < n * d; i++) {
                dst.putDouble(28 + 42 + 4 * n + 8 * i, width == 4 ? src.getFloat(points + 4 * i) : src.getDouble(points + 8 * i));
            }
            int at = 28 + 42 + 4 * n + 8 * n * d;
            System.arraycopy(file, after, b, at, 8 * n);   // the prediction core distances
            int tree = after + 8 * n + (version == 7 ? 4 * n : 0);   // past the index's partition
            System.arraycopy(file, tree, b, at + 8 * n, 4 + 20 * r);
        } else {
            System.arraycopy(file, 0, b, 0, 28 + payload);
        }
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        bb.putInt(12, 1).putLong(16, payload);
        CRC32 h = new CRC32();
        h.update(b, 0, 24);
        bb.putInt(24, (int) h.getValue());
        CRC32 p = new CRC32();
        p.update(b, 28, payload);
        bb.putInt(28 + payload, (int) p.getValue());
        return b;
    }
}
