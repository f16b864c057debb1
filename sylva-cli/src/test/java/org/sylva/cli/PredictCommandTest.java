package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.predict.Membership;
import org.sylva.hdbscan.predict.Prediction;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.io.NpyDtype;

/**
 * {@code sylva hdbscan --save-model} and {@code sylva predict} end to end: the saved model is the
 * library's, predictions written are the library's answers value for value, and every bad input (model
 * file, new points, option) is one error line with exit 2 and nothing written.
 */
class PredictCommandTest {
    @TempDir
    static Path shared;
    static Path clipsNpy, freshNpy, model, fitDir;
    static PointSet clips, fresh;

    @BeforeAll
    static void fit() throws IOException {
        clips = TestData.clips(400);
        fresh = TestData.clips(150 + 400).select(range(400, 550));
        clipsNpy = TestData.writeNpy(clips, shared.resolve("clips.npy"));
        freshNpy = TestData.writeNpy(fresh, shared.resolve("fresh.npy"));
        fitDir = shared.resolve("fit");
        model = shared.resolve("clips.model");
        Cli.Result r = Cli.run("hdbscan", clipsNpy.toString(), "--min-cluster-size", "10", "--out", fitDir.toString(),
                "--save-model", model.toString(), "--threads", "2").assertOk();
        // the folder's eight arrays are counted, the model outside it is named
        assertTrue(r.err().contains("wrote 8 files to " + fitDir.toAbsolutePath() + ", and " + model), r.err());
    }

    static int[] range(int from, int to) {
        int[] r = new int[to - from];
        for (int i = 0; i < r.length; i++) r[i] = from + i;
        return r;
    }

    @Test
    void theSavedModelIsTheLibrarysModelOfTheFit() throws IOException {
        HdbscanModel m = HdbscanModel.load(model);
        assertArrayEquals(Npy.read(fitDir.resolve("condensed_tree.npy")).toFloat64(), m.condensedTree().toMatrix());
        assertEquals(10, m.parameters().minClusterSize());
        assertEquals(61, m.dimensions());
        assertTrue(m.clusterCount() >= 3, "clusters: " + m.clusterCount());
        List<String> names = Cli.list(fitDir);
        assertFalse(names.stream().anyMatch(n -> n.endsWith(".part")), "no temporaries: " + names);
    }

    @Test
    void predictWritesTheLibrarysAnswers(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("assigned");
        Cli.Result r = Cli.run("predict", model.toString(), freshNpy.toString(), "--out", out.toString(), "--threads", "2")
                .assertOk();
        List<String> want = new ArrayList<>();
        for (String o : PredictCommand.OUTPUTS) want.add(o + ".npy");
        assertEquals(Cli.withManifest(want), Cli.list(out));
        HdbscanModel m = HdbscanModel.load(model);
        Prediction p = m.approximatePredict(fresh);
        Membership soft = m.membershipVector(fresh);
        NpyArray labels = Npy.read(out.resolve("labels.npy"));
        assertEquals(NpyDtype.INT32, labels.dtype());
        assertArrayEquals(p.labels(), labels.toInt32());
        assertArrayEquals(p.probabilities(), Npy.read(out.resolve("probabilities.npy")).toFloat64());
        assertArrayEquals(p.outlierScores(), Npy.read(out.resolve("outlier_scores.npy")).toFloat64());
        NpyArray mv = Npy.read(out.resolve("membership.npy"));
        assertArrayEquals(new int[] {150, m.clusterCount()}, mv.shape());
        assertArrayEquals(soft.values(), mv.toFloat64());
        assertTrue(r.err().contains("150 new points x 61 dims"), r.err());
        assertTrue(r.err().contains("wrote 4 files to"), r.err());
        int noise = 0;
        for (int l : p.labels()) if (l < 0) noise++;
        assertTrue(r.err().contains(noise + " noise"), r.err());

        Cli.Result j = Cli.run("predict", model.toString(), freshNpy.toString(), "--out", out.toString(), "--json", "-q")
                .assertOk();
        assertEquals("", j.err());
        assertTrue(j.out().startsWith("{\"sylva_version\"") && j.out().contains("\"n_points\": 150")
                && j.out().contains("\"n_noise\": " + noise), j.out());
    }

    /**
     * A file of no new points (a recording with no new spikes in a batch of files) gives empty outputs, as the
     * Python functions and an empty ball tree do; its width is still checked.
     */
    @Test
    void noNewPointsGiveEmptyOutputs(@TempDir Path tmp) throws IOException {
        Path none = tmp.resolve("none.npy");
        Npy.writeFloat32(none, new float[0], 0, 61);
        Path out = tmp.resolve("o");
        Cli.Result r = Cli.run("predict", model.toString(), none.toString(), "--out", out.toString()).assertOk();
        assertArrayEquals(new int[] {0}, Npy.read(out.resolve("labels.npy")).shape());
        assertArrayEquals(new int[] {0, HdbscanModel.load(model).clusterCount()},
                Npy.read(out.resolve("membership.npy")).shape());
        assertTrue(r.err().contains("0 new points x 61 dims"), r.err());
        assertEquals("complete", Cli.run("verify", out.toString()).out().split(":")[0].strip());
        Path narrow = tmp.resolve("narrow.npy");
        Npy.writeFloat32(narrow, new float[0], 0, 3);
        Cli.run("predict", model.toString(), narrow.toString(), "--out", tmp.resolve("n").toString())
                .assertError("narrow.npy", "points of 3 coordinates");
    }

    /**
     * Several files of new points: the model read once, each file into --out/NAME byte for byte as a separate
     * run writes it, a JSON line per file; a bad later file leaves the folders before it complete and says so.
     */
    @Test
    void severalFilesOfNewPointsEachGetTheFolderASeparateRunWrites(@TempDir Path tmp) throws IOException {
        Path second = TestData.writeNpy(TestData.clips(700).select(range(550, 700)), tmp.resolve("later.npy"));
        Path out = tmp.resolve("assigned");
        Cli.Result r = Cli.run("predict", model.toString(), freshNpy.toString(), second.toString(), "--out",
                out.toString(), "--json").assertOk();
        assertEquals(List.of("fresh", "later"), Cli.list(out));
        List<String> lines = r.out().lines().toList();
        assertEquals(2, lines.size(), r.out());
        for (Path in : List.of(freshNpy, second)) {
            String name = InputBatch.folderName(in);
            Path single = tmp.resolve("single-" + name);
            Cli.run("predict", model.toString(), in.toString(), "--out", single.toString(), "-q").assertOk();
            for (String o : PredictCommand.OUTPUTS) {
                assertArrayEquals(Files.readAllBytes(single.resolve(o + ".npy")),
                        Files.readAllBytes(out.resolve(name).resolve(o + ".npy")), name + "/" + o);
            }
            Cli.run("verify", out.resolve(name).toString()).assertOk();
            assertTrue(lines.get(name.equals("fresh") ? 0 : 1).contains("\"input\": \"" + in + "\""), r.out());
        }
        Path wide = TestData.writeNpy(TestData.blob(20, 3, 4), tmp.resolve("wide.npy"));
        Path out2 = tmp.resolve("assigned2");
        String line = Cli.run("predict", model.toString(), freshNpy.toString(), wide.toString(), second.toString(),
                "--out", out2.toString(), "-q").assertError(wide + ": points of 3 coordinates");
        assertTrue(line.endsWith("; input 2 of 3; the input before it is done, its folder in " + out2 + " complete; "
                + "the input after it was not run"), line);
        assertEquals(List.of("fresh"), Cli.list(out2));
        Cli.run("predict", model.toString(), freshNpy.toString(), freshNpy.toString(), "--out", out2.toString())
                .assertError("would both write into");
    }

    /** A model whose tree never splits labels every new point noise, as the package's does, and says so. */
    @Test
    void aModelThatCannotLabelAnythingSaysSo(@TempDir Path tmp) throws IOException {
        Path blob = TestData.writeNpy(TestData.blob(300, 2, 5), tmp.resolve("blob.npy"));
        Path m = tmp.resolve("one.model");
        Cli.run("hdbscan", blob.toString(), "--allow-single-cluster", "--min-cluster-size", "200", "--out",
                tmp.resolve("fit").toString(), "--save-model", m.toString(), "-q").assertOk();
        assertEquals(1, HdbscanModel.load(m).clusterCount());
        Cli.Result r = Cli.run("predict", m.toString(), blob.toString(), "--out", tmp.resolve("p").toString()).assertOk();
        assertTrue(r.err().contains("sylva: warning: the model's condensed tree never splits (its fit found 1 cluster, "
                + "the root), so every new point is labelled noise"), r.err());
        assertTrue(Arrays.stream(Npy.read(tmp.resolve("p").resolve("labels.npy")).toInt32()).allMatch(l -> l == -1));
        Cli.Result fine = Cli.run("predict", model.toString(), freshNpy.toString(), "--out", tmp.resolve("q").toString());
        assertTrue(!fine.assertOk().err().contains("warning"), fine.err());
    }

    @Test
    void csvOutputAndCsvInput(@TempDir Path tmp) throws IOException {
        Path csv = TestData.writeCsv(fresh, tmp.resolve("fresh.csv"), ',', true);
        Path out = tmp.resolve("o");
        Cli.run("predict", model.toString(), csv.toString(), "--out", out.toString(), "--format", "csv", "-q").assertOk();
        List<String> labels = Files.readAllLines(out.resolve("labels.csv"));
        int[] want = HdbscanModel.load(model).approximatePredict(fresh).labels();
        assertEquals(Arrays.stream(want).mapToObj(Integer::toString).toList(), labels);
        assertEquals(150, Files.readAllLines(out.resolve("membership.csv")).size());
    }

    @Test
    void badModelsAreOneErrorLine(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("o");
        Cli.run("predict", clipsNpy.toString(), freshNpy.toString(), "--out", out.toString())
                .assertError("clips.npy", "not a Sylva model file", "NumPy .npy");
        byte[] good = Files.readAllBytes(model);
        Path cut = Files.write(tmp.resolve("cut.model"), Arrays.copyOf(good, good.length - 100));
        Cli.run("predict", cut.toString(), freshNpy.toString(), "--out", out.toString())
                .assertError("cut.model", "truncated");
        byte[] flipped = good.clone();
        flipped[flipped.length / 2] ^= 1;
        Path altered = Files.write(tmp.resolve("altered.model"), flipped);
        Cli.run("predict", altered.toString(), freshNpy.toString(), "--out", out.toString())
                .assertError("altered.model", "checksum mismatch");
        Cli.run("predict", tmp.resolve("missing.model").toString(), freshNpy.toString(), "--out", out.toString())
                .assertError("no such file", "missing.model");
        Cli.assertNothingWritten(out);
    }

    @Test
    void badNewPointsAreOneErrorLine(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("o");
        Path narrow = TestData.writeNpy(TestData.blob(20, 3, 1), tmp.resolve("narrow.npy"));
        Cli.run("predict", model.toString(), narrow.toString(), "--out", out.toString())
                .assertError("narrow.npy", "3 coordinates", "fitted on points of 61", "clips.model");
        Path nan = TestData.writeNpy(TestData.with(fresh, 4, 7, Float.NaN), tmp.resolve("nan.npy"));
        Cli.run("predict", model.toString(), nan.toString(), "--out", out.toString())
                .assertError("nan.npy", "row 4, column 7", "NaN");
        Cli.run("predict", model.toString(), tmp.resolve("none.npy").toString(), "--out", out.toString())
                .assertError("none.npy");
        Cli.assertNothingWritten(out);
    }

    @Test
    void aModelOfAPcaFitPredictsRawClips(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("o"), m = tmp.resolve("m.model");
        Cli.run("hdbscan", clipsNpy.toString(), "--pca", "4", "--out", out.toString(), "--save-model", m.toString(), "-q")
                .assertOk();
        HdbscanModel loaded = HdbscanModel.load(m);
        assertEquals(4, loaded.dimensions());
        assertEquals(clips.dimensions(), loaded.inputDimensions());
        Path pred = tmp.resolve("p");
        String said = Cli.run("predict", m.toString(), freshNpy.toString(), "--out", pred.toString()).assertOk().err();
        assertTrue(said.contains("x 61 dims (projected on the model's 4 principal components)"), said);
        Prediction want = loaded.approximatePredict(fresh);
        assertArrayEquals(want.labels(), Npy.read(pred.resolve("labels.npy")).toInt32());
        assertArrayEquals(want.probabilities(), Npy.read(pred.resolve("probabilities.npy")).toFloat64());
        // the model's fitted points are the fit's --pca scores (read from the file, docs/model-file.md), bitwise
        // the projection of the clips that new points get, from float32 and from float64 input
        assertArrayEquals(fittedPoints(m, clips.size(), 4), loaded.projection().orElseThrow().project(clips.coordinates(),
                clips.size()));
        double[] wide = new double[clips.coordinates().length];
        for (int i = 0; i < wide.length; i++) wide[i] = clips.coordinates()[i] * 1.000001;   // not float32 values
        Path wideNpy = tmp.resolve("wide.npy"), m64 = tmp.resolve("m64.model");
        Npy.writeFloat64(wideNpy, wide, clips.size(), clips.dimensions());
        Cli.run("hdbscan", wideNpy.toString(), "--pca", "4", "--out", tmp.resolve("o64").toString(), "--save-model",
                m64.toString(), "-q").assertOk();
        HdbscanModel loaded64 = HdbscanModel.load(m64);
        assertArrayEquals(fittedPoints(m64, clips.size(), 4), loaded64.projection().orElseThrow().project(wide, clips.size()));
        Cli.run("predict", m64.toString(), wideNpy.toString(), "--out", tmp.resolve("p64").toString(), "-q").assertOk();
        Prediction own = loaded64.approximatePredict(PointSet.ofFloat64(clips.size(), clips.dimensions(), wide));
        for (int i = 0; i < clips.size(); i++) assertEquals(i, own.connectingPoints()[i], "clip " + i);
        assertArrayEquals(own.labels(), Npy.read(tmp.resolve("p64").resolve("labels.npy")).toInt32());
        Path scores = TestData.writeNpy(TestData.blob(20, 4, 1), tmp.resolve("scores.npy"));
        Cli.run("predict", m.toString(), scores.toString(), "--out", tmp.resolve("q").toString())
                .assertError("scores.npy", "4 coordinates", "projects points of 61 coordinates", "4 principal components");
    }

    /**
     * The fitted points of a model file ({@code n x d} after the header, the parameters and the row map; in version 7
     * after version 5's and 7's fields too, float32 or float64 as its width byte says).
     */
    private static double[] fittedPoints(Path model, int n, int d) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(Files.readAllBytes(model)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        boolean v7 = b.getInt(12) == 7;
        int width = v7 ? b.get(28 + 42 + 14) : 8;
        int at = 28 + 42 + (v7 ? 14 + 5 : 0) + 4 * n;
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = width == 4 ? b.getFloat(at + 4 * i) : b.getDouble(at + 8 * i);
        return x;
    }

    @Test
    void float64InputIsSavedAndPredictedExactly(@TempDir Path tmp) throws IOException {
        int n = 300;
        double[] x = new double[2 * n];
        java.util.SplittableRandom rng = new java.util.SplittableRandom(4);
        for (int i = 0; i < n; i++) {
            x[2 * i] = (i % 2) * 5 + rng.nextDouble() + 1e-9 * rng.nextDouble();   // not float32-exact
            x[2 * i + 1] = rng.nextDouble();
        }
        Path f = tmp.resolve("x.npy");
        Npy.writeFloat64(f, x, n, 2);
        Path m = tmp.resolve("x.model");
        Cli.run("hdbscan", f.toString(), "--out", tmp.resolve("fit").toString(), "--save-model", m.toString(), "-q")
                .assertOk();
        Path out = tmp.resolve("o");
        Cli.run("predict", m.toString(), f.toString(), "--out", out.toString(), "-q").assertOk();
        HdbscanModel model = HdbscanModel.load(m);
        Prediction p = model.approximatePredict(PointSet.ofFloat64(n, 2, x));
        assertArrayEquals(p.probabilities(), Npy.read(out.resolve("probabilities.npy")).toFloat64());
        assertArrayEquals(p.outlierScores(), Npy.read(out.resolve("outlier_scores.npy")).toFloat64());
        // the float32 rounding of the same file would be other points: the core distances tell them apart
        PointSet rounded = PointSet.ofFloat64(n, 2, x).select(range(0, n));
        assertFalse(Arrays.equals(p.outlierScores(),
                model.approximatePredict(PointSet.of(n, 2, rounded.coordinates())).outlierScores()));
    }

    /**
     * A fit on 3-D clips records their axes in the model: new clips in the same layout, or flattened, are
     * predicted alike; the same clips with their axes swapped (as many values, other coordinates) are refused.
     */
    @Test
    void newClipsInTheOtherAxisOrderAreRefused(@TempDir Path tmp) throws IOException {
        int n = 300, m = 40, samples = 61;
        PointSet one = TestData.clips(n + m);
        float[] channelMajor = new float[(n + m) * 4 * samples], sampleMajor = new float[channelMajor.length];
        for (int i = 0; i < n + m; i++) {
            for (int c = 0; c < 4; c++) {
                for (int t = 0; t < samples; t++) {
                    float v = (c + 1) * one.get(i, t);
                    channelMajor[i * 4 * samples + c * samples + t] = v;
                    sampleMajor[i * 4 * samples + t * 4 + c] = v;
                }
            }
        }
        int fitValues = n * 4 * samples;
        Path fit = tmp.resolve("fit.npy"), cs = tmp.resolve("new_c_s.npy"), sc = tmp.resolve("new_s_c.npy"),
                flat = tmp.resolve("new_flat.npy"), odd = tmp.resolve("new_2_122.npy");
        Npy.writeFloat32(fit, Arrays.copyOf(channelMajor, fitValues), n, 4, samples);
        float[] later = Arrays.copyOfRange(channelMajor, fitValues, channelMajor.length);
        Npy.writeFloat32(cs, later, m, 4, samples);
        Npy.writeFloat32(flat, later, m, 4 * samples);
        Npy.writeFloat32(odd, later, m, 2, 2 * samples);
        Npy.writeFloat32(sc, Arrays.copyOfRange(sampleMajor, fitValues, sampleMajor.length), m, samples, 4);
        Path clipModel = tmp.resolve("clips.model");
        Cli.run("hdbscan", fit.toString(), "--min-cluster-size", "10", "--out", tmp.resolve("f").toString(),
                "--save-model", clipModel.toString(), "-q").assertOk();
        assertEquals(new org.sylva.hdbscan.predict.RowShape(4, samples), HdbscanModel.load(clipModel).rowShape().orElseThrow());

        Cli.run("predict", clipModel.toString(), cs.toString(), "--out", tmp.resolve("p1").toString(), "-q").assertOk();
        Cli.run("predict", clipModel.toString(), flat.toString(), "--out", tmp.resolve("p2").toString(), "-q").assertOk();
        assertArrayEquals(Files.readAllBytes(tmp.resolve("p1/labels.npy")), Files.readAllBytes(tmp.resolve("p2/labels.npy")));
        assertArrayEquals(Files.readAllBytes(tmp.resolve("p1/membership.npy")),
                Files.readAllBytes(tmp.resolve("p2/membership.npy")));

        Path out = tmp.resolve("p3");
        Cli.run("predict", clipModel.toString(), sc.toString(), "--out", out.toString())
                .assertError(sc + ": clips of shape (61, 4), but the model " + clipModel
                        + " was fitted on clips of shape (4, 61)", "swap them first (numpy.swapaxes(x, 1, 2))");
        Cli.run("predict", clipModel.toString(), odd.toString(), "--out", out.toString())
                .assertError("clips of shape (2, 122)", "reshape them to (4, 61)");
        Cli.run("bench", "predict", clipModel.toString(), sc.toString()).assertError("swap them first");
        Cli.assertNothingWritten(out);

        // a model of flat rows recorded no shape: clips in any layout with its coordinate count are taken as given
        Path flatModel = tmp.resolve("flat.model");
        Path flatFit = tmp.resolve("fit_flat.npy");
        Npy.writeFloat32(flatFit, Arrays.copyOf(channelMajor, fitValues), n, 4 * samples);
        Cli.run("hdbscan", flatFit.toString(), "--min-cluster-size", "10", "--out", tmp.resolve("g").toString(),
                "--save-model", flatModel.toString(), "-q").assertOk();
        assertTrue(HdbscanModel.load(flatModel).rowShape().isEmpty());
        Cli.run("predict", flatModel.toString(), sc.toString(), "--out", tmp.resolve("p4").toString(), "-q").assertOk();
    }
}
