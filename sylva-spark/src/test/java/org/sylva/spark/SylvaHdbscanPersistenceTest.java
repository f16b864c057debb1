package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sylva.testsupport.SameResult.assertSameResult;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.Params;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanParameters;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.NonFinitePolicy;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.hdbscan.mst.OracleData;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * Saving and loading with Spark ML's persistence: the estimator keeps its params, the model its params and its
 * whole result (bitwise), alone and inside a pipeline; the model's data is the library's model file, checked on
 * reading; and the model's output-column setters.
 */
class SylvaHdbscanPersistenceTest {
    @TempDir
    Path dir;

    private static OracleData.Array data(String name) {
        return OracleData.read(OracleData.dir().resolve(name + "_X.npy"));
    }

    /** {@code id} and one double column per coordinate, {@code x0 .. x(d-1)}, rows in order. */
    private static Dataset<Row> columns(OracleData.Array x, int partitions) {
        List<String> cols = new ArrayList<>(List.of("id"));
        for (int j = 0; j < x.cols(); j++) cols.add("features[" + j + "] AS x" + j);
        return LocalSpark.points(x.values(), x.rows(), x.cols(), partitions).selectExpr(cols.toArray(String[]::new));
    }

    /** The same params set, the same values (set or default), the same uid. */
    private static void assertSameParams(Params expected, Params actual) {
        assertEquals(expected.uid(), actual.uid());
        assertEquals(expected.params().length, actual.params().length);
        for (Param<?> p : expected.params()) {
            @SuppressWarnings("unchecked")
            Param<Object> mine = (Param<Object>) p;
            Param<Object> theirs = actual.getParam(p.name());
            assertEquals(expected.isSet(mine), actual.isSet(theirs), p.name());
            assertEquals(expected.getOrDefault(mine), actual.getOrDefault(theirs), p.name());
        }
    }

    /** The labels, probabilities and outlier scores of the rows, bitwise, and every other column equal. */
    private static void assertSameRows(List<Row> expected, List<Row> actual, String label, String prob, String score) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            Row e = expected.get(i), a = actual.get(i);
            assertEquals(e, a, "row " + i);
            assertEquals(e.<Integer>getAs(label), a.<Integer>getAs(label), "row " + i);
            assertEquals(Double.doubleToRawLongBits(e.<Double>getAs(prob)), Double.doubleToRawLongBits(a.<Double>getAs(prob)),
                    "row " + i);
            assertEquals(Double.doubleToRawLongBits(e.<Double>getAs(score)),
                    Double.doubleToRawLongBits(a.<Double>getAs(score)), "row " + i);
        }
    }

    private static Path dataFile(Path modelDir) {
        return modelDir.resolve("data").resolve("hdbscan.model");
    }

    @Test
    void aPipelineSavedAndLoadedTransformsTheDatasetAsBefore() throws IOException {
        OracleData.Array x = data("blobs2000noise");
        Dataset<Row> df = columns(x, 2);
        String[] inputs = new String[x.cols()];
        for (int j = 0; j < inputs.length; j++) inputs[j] = "x" + j;
        SylvaHdbscan estimator = new SylvaHdbscan().setFeaturesCol("vec").setMinClusterSize(10).setMinSamples(4)
                .setAlpha(0.8).setClusterSelectionEpsilon(0.3).setClusterSelectionMethod("leaf").setNumSlices(3)
                .setLabelCol("cluster").setOutlierScoreCol("glosh");
        Pipeline pipeline = new Pipeline().setStages(new PipelineStage[] {
            new VectorAssembler().setInputCols(inputs).setOutputCol("vec"), estimator});
        PipelineModel fitted = pipeline.fit(df);
        List<Row> before = fitted.transform(df).collectAsList();

        Path saved = dir.resolve("pipeline-model");
        fitted.write().save(saved.toString());
        PipelineModel loaded = PipelineModel.load(saved.toString());
        assertSameRows(before, loaded.transform(df).collectAsList(), "cluster", "probability", "glosh");

        SylvaHdbscanModel original = (SylvaHdbscanModel) fitted.stages()[1];
        SylvaHdbscanModel back = assertInstanceOf(SylvaHdbscanModel.class, loaded.stages()[1]);
        assertSameParams(original, back);
        assertEquals("cluster", back.getOrDefault(back.labelCol()));
        assertSameResult(original.result(), back.result());
        // and the single-machine fit of the same rows
        HdbscanResult local = Hdbscan.builder().minClusterSize(10).minSamples(4).alpha(0.8).clusterSelectionEpsilon(0.3)
                .clusterSelectionMethod(SelectionMethod.LEAF).threads(2).build()
                .fit(x.values(), x.rows(), x.cols(), ProgressListener.NONE, CancellationToken.NEVER);
        assertSameResult(local, back.result());
        assertTrue(original.hasFitStats());
        assertFalse(back.hasFitStats(), "fit statistics are not saved");
        IllegalStateException none = assertThrows(IllegalStateException.class, back::fitStats);
        assertTrue(none.getMessage().contains("loaded"), none.getMessage());

        // the model's data is the library's own model file
        List<Path> files;
        try (Stream<Path> all = Files.walk(saved)) {
            files = all.filter(p -> p.getFileName().toString().equals("hdbscan.model")).toList();
        }
        assertEquals(1, files.size(), files.toString());
        HdbscanModel file = HdbscanModel.load(files.get(0));
        assertArrayEquals(local.labels(), file.labels());
        assertArrayEquals(x.values(), file.fittedCoordinates());

        // the unfitted pipeline too: its estimator keeps every param
        Path unfitted = dir.resolve("pipeline");
        pipeline.write().save(unfitted.toString());
        Pipeline again = Pipeline.load(unfitted.toString());
        assertSameParams(estimator, assertInstanceOf(SylvaHdbscan.class, again.getStages()[1]));
    }

    @Test
    void theEstimatorAloneKeepsEveryParam() throws IOException {
        SylvaHdbscan full = new SylvaHdbscan().setFeaturesCol("f").setLabelCol("l").setProbabilityCol("p")
                .setOutlierScoreCol("s").setMinClusterSize(7).setMinSamples(3).setClusterSelectionEpsilon(0.25)
                .setMaxClusterSize(90).setAlpha(1.5).setClusterSelectionMethod("leaf").setAllowSingleCluster(true)
                .setNumSlices(5).setTransformMode("predict");
        assertEquals(13, full.params().length);
        for (Param<?> p : full.params()) assertTrue(full.isSet(p), p.name() + " is set in this test");
        full.write().save(dir.resolve("full").toString());
        SylvaHdbscan back = SylvaHdbscan.load(dir.resolve("full").toString());
        assertSameParams(full, back);
        assertEquals(full.settings(), back.settings(), "the params reach the fit");
        assertEquals(5, (int) back.getOrDefault(back.numSlices()));

        SylvaHdbscan defaults = new SylvaHdbscan();
        defaults.save(dir.resolve("defaults").toString());
        SylvaHdbscan plain = SylvaHdbscan.read().load(dir.resolve("defaults").toString());
        assertSameParams(defaults, plain);
        for (Param<?> p : plain.params()) assertFalse(plain.isSet(p), p.name() + " stays unset");
    }

    @Test
    void aModelAloneRoundTripsAndIsSavedAgainByteForByte() throws IOException {
        OracleData.Array x = data("blobs500");
        Dataset<Row> df = LocalSpark.points(x.values(), x.rows(), x.cols(), 3);
        SylvaHdbscanModel model = new SylvaHdbscan().setMinClusterSize(8).fit(df).setProbabilityCol("strength");
        Path saved = dir.resolve("model");
        model.save(saved.toString());
        assertEquals(List.of("hdbscan.model"), list(saved.resolve("data")), "no temporary left beside the model file");
        byte[] first = Files.readAllBytes(dataFile(saved));

        SylvaHdbscanModel back = SylvaHdbscanModel.load(saved.toString());
        assertSameParams(model, back);
        assertSameResult(model.result(), back.result());
        assertSameRows(model.transform(df).collectAsList(), back.transform(df).collectAsList(), "label", "strength",
                "outlier_score");
        assertSameResult(model.result(), SylvaHdbscanModel.read().load(saved.toString()).result());
        SylvaHdbscanModel copy = back.copy(ParamMap.empty());
        assertSame(back.result(), copy.result());
        assertFalse(copy.hasFitStats());

        // Spark's rule: an existing directory is kept unless overwrite() is asked for
        assertThrows(IOException.class, () -> back.write().save(saved.toString()));
        back.write().overwrite().save(saved.toString());
        assertArrayEquals(first, Files.readAllBytes(dataFile(saved)), "a loaded model writes the same bytes");
        assertSameResult(model.result(), SylvaHdbscanModel.load(saved.toString()).result());

        // a model's directory given to the estimator's reader: the class it holds is named
        Exception wrong = assertThrows(IllegalArgumentException.class, () -> SylvaHdbscan.load(saved.toString()));
        assertTrue(wrong.getMessage().contains("Expected class name " + SylvaHdbscan.class.getName()
                + " but found class name " + SylvaHdbscanModel.class.getName()), wrong.getMessage());
    }

    @Test
    void theModelHasTheEstimatorsParamsWhichDescribeItsFitThroughCopiesAndLoading() throws IOException {
        OracleData.Array x = data("blobs500");
        Dataset<Row> df = LocalSpark.points(x.values(), x.rows(), x.cols(), 2);
        SylvaHdbscan estimator = new SylvaHdbscan().setMinClusterSize(12).setAlpha(0.9).setClusterSelectionEpsilon(0.1)
                .setMaxClusterSize(400).setClusterSelectionMethod("leaf").setAllowSingleCluster(true).setNumSlices(3);
        SylvaHdbscanModel model = estimator.fit(df);
        assertEquals(13, model.params().length);
        assertSameParams(estimator, model);
        HdbscanParameters fitted = model.result().parameters();
        assertEquals(fitted.minClusterSize(), model.getMinClusterSize());
        assertEquals(0, model.getMinSamples(), "unset, as the estimator had it");
        assertEquals(12, fitted.minSamples());
        assertEquals(fitted.alpha(), model.getAlpha());
        assertEquals(fitted.clusterSelectionEpsilon(), model.getClusterSelectionEpsilon());
        assertEquals(fitted.maxClusterSize(), model.getMaxClusterSize());
        assertEquals(SelectionMethod.LEAF, fitted.method());
        assertEquals("leaf", model.getClusterSelectionMethod());
        assertEquals(fitted.allowSingleCluster(), model.getAllowSingleCluster());
        assertEquals(3, model.getNumSlices());
        assertTrue(model.explainParams().contains("minClusterSize: smallest cluster size (>= 2) (default: 5, current: 12)"),
                model.explainParams());

        // a tuning tool's transform(dataset, map) copies the model with the map it fitted with: the same values pass
        ParamMap same = new ParamMap().put(estimator.minClusterSize(), 12).put(estimator.minSamples(), 12)
                .put(estimator.alpha(), 0.9).put(estimator.labelCol(), "c");
        SylvaHdbscanModel copied = model.copy(same);
        assertEquals("c", copied.getLabelCol());
        assertEquals(12, copied.getMinSamples(), "the map's value: the same fit as the unset 0");
        assertSame(model.result(), copied.result());
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                () -> model.copy(new ParamMap().put(model.minClusterSize(), 30)));
        assertEquals("minClusterSize: the model was fitted with 12; a copy cannot give it 30 (fit again with that value)",
                other.getMessage());
        IllegalArgumentException viaTransform = assertThrows(IllegalArgumentException.class,
                () -> model.transform(df, new ParamMap().put(estimator.minSamples(), 5)));
        assertTrue(viaTransform.getMessage().startsWith(
                "minSamples: the model was fitted with 0 (that is, minClusterSize: 12); a copy cannot give it 5"),
                viaTransform.getMessage());

        Path saved = dir.resolve("model");
        model.save(saved.toString());
        assertSameParams(model, SylvaHdbscanModel.load(saved.toString()));

        // Params.set is public: a fit param changed on a model is refused when saving, before anything is removed
        SylvaHdbscanModel changed = model.copy(ParamMap.empty());
        changed.set(changed.minClusterSize(), 50);
        IllegalStateException notSaved = assertThrows(IllegalStateException.class,
                () -> changed.write().overwrite().save(saved.toString()));
        assertEquals("minClusterSize is 50 on this model, but its fit had 12: the fit's params describe the fit (set them "
                + "on the estimator and fit again); the model was not saved", notSaved.getMessage());
        assertSameParams(model, SylvaHdbscanModel.load(saved.toString()));
        // nor does it transform or predict, which would pair the fit's labels with params it did not have
        for (java.util.function.Supplier<?> use : List.<java.util.function.Supplier<?>>of(() -> changed.transform(df),
                () -> changed.predict(df), () -> changed.transformSchema(df.schema()))) {
            IllegalStateException notUsed = assertThrows(IllegalStateException.class, use::get);
            assertEquals("minClusterSize is 50 on this model, but its fit had 12: the fit's params describe the fit (set "
                    + "them on the estimator and fit again); the model does not transform or predict", notUsed.getMessage());
        }
        // nor is a fitted model Java-serialized without its fit: refused, naming what to send instead
        java.io.NotSerializableException javaSerialized = assertThrows(java.io.NotSerializableException.class,
                () -> new java.io.ObjectOutputStream(java.io.OutputStream.nullOutputStream()).writeObject(model));
        assertTrue(javaSerialized.getMessage().contains("a fitted model is not Java-serializable"),
                javaSerialized.getMessage());

        // a directory whose metadata lacks the fit's params (as the model's first writer wrote it): the model file
        // gives them
        Path meta;
        try (Stream<Path> files = Files.list(saved.resolve("metadata"))) {
            meta = files.filter(f -> f.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
        }
        String json = Files.readString(meta);
        String fitParams = "minClusterSize|minSamples|clusterSelectionEpsilon|maxClusterSize|alpha"
                + "|clusterSelectionMethod|allowSingleCluster";
        String stripped = json.replaceAll("\"(" + fitParams + ")\":(\"[^\"]*\"|[^,}]*),?", "").replace(",}", "}");
        assertFalse(stripped.contains("minClusterSize"), stripped);
        writeMetadata(meta, stripped);
        SylvaHdbscanModel old = SylvaHdbscanModel.load(saved.toString());
        assertEquals(12, old.getMinClusterSize());
        assertEquals(12, old.getMinSamples());
        assertEquals(0.9, old.getAlpha());
        assertEquals(0.1, old.getClusterSelectionEpsilon());
        assertEquals(400, old.getMaxClusterSize());
        assertEquals("leaf", old.getClusterSelectionMethod());
        assertTrue(old.getAllowSingleCluster());
        assertEquals(3, old.getNumSlices());
        assertSameResult(model.result(), old.result());

        // metadata that gives another value than the model file's fit is refused, naming both
        assertTrue(json.contains("\"minClusterSize\":12"), json);
        writeMetadata(meta, json.replace("\"minClusterSize\":12", "\"minClusterSize\":13"));
        assertRefused(saved, InvalidInputException.class, "its metadata gives minClusterSize 13",
                "its model file " + dataFile(saved) + " was fitted with 12");
        writeMetadata(meta, json.replace("\"clusterSelectionMethod\":\"leaf\"", "\"clusterSelectionMethod\":\"eom\""));
        assertRefused(saved, InvalidInputException.class, "clusterSelectionMethod eom", "fitted with leaf");
        // minSamples 12 and the unset 0 are the same fit
        assertTrue(json.contains("\"minSamples\":0"), json);
        writeMetadata(meta, json.replace("\"minSamples\":0", "\"minSamples\":12"));
        assertEquals(12, SylvaHdbscanModel.load(saved.toString()).getMinSamples());
        writeMetadata(meta, json.replace("\"minSamples\":0", "\"minSamples\":7"));
        assertRefused(saved, InvalidInputException.class, "its metadata gives minSamples 7, but", "fitted with 12");
    }

    /** Replaces a metadata file, with the checksum beside it that Hadoop's local file system would check. */
    private static void writeMetadata(Path meta, String json) throws IOException {
        Files.writeString(meta, json);
        Files.deleteIfExists(meta.resolveSibling("." + meta.getFileName() + ".crc"));
    }

    private static List<String> list(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void damagedOrMissingModelDataIsRefusedWithTheFileNamed() throws IOException {
        OracleData.Array x = data("blobs500");
        SylvaHdbscanModel model = new SylvaHdbscan().fit(LocalSpark.points(x.values(), x.rows(), x.cols(), 2));
        Path saved = dir.resolve("model");
        model.save(saved.toString());
        Path file = dataFile(saved);
        byte[] good = Files.readAllBytes(file);

        Files.write(file, Arrays.copyOf(good, good.length / 2));
        assertRefused(saved, InvalidInputException.class, file.toString(), "truncated");
        Files.write(file, Arrays.copyOf(good, good.length - 1));
        assertRefused(saved, InvalidInputException.class, file.toString(), "truncated");
        byte[] flipped = good.clone();
        flipped[good.length / 2] ^= 0x20;
        Files.write(file, flipped);
        assertRefused(saved, InvalidInputException.class, file.toString(), "checksum mismatch", "altered or corrupted");
        Files.write(file, new byte[0]);
        assertRefused(saved, InvalidInputException.class, file.toString(), "empty");
        Files.delete(file);
        UncheckedIOException missing = assertRefused(saved, UncheckedIOException.class, file.toString(), "does not exist");
        assertInstanceOf(FileNotFoundException.class, missing.getCause());

        // a library model file that no SylvaHdbscan fit writes: a row left out for its NaN
        double[] withNan = x.values().clone();
        withNan[3] = Double.NaN;
        HdbscanResult sklearn = Hdbscan.builder().nonFinite(NonFinitePolicy.SKLEARN).threads(2).build()
                .fit(withNan, x.rows(), x.cols(), ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel.of(sklearn, PointSet.uncheckedFloat64(x.rows(), x.cols(), withNan)).save(file);
        assertRefused(saved, InvalidInputException.class, file.toString(), "not a SylvaHdbscanModel's data",
                "1 of its " + x.rows() + " rows left out of the fit");
        // nor a fit with another metric
        PointSet pts = PointSet.uncheckedFloat64(x.rows(), x.cols(), x.values());
        HdbscanModel.of(Hdbscan.builder().metric(org.sylva.hdbscan.metric.Metric.manhattan()).threads(2).build().fit(pts),
                pts).save(file);
        assertRefused(saved, InvalidInputException.class, file.toString(), "not a SylvaHdbscanModel's data",
                "the manhattan metric");

        Files.write(file, good);
        assertSameResult(model.result(), SylvaHdbscanModel.load(saved.toString()).result());
    }

    private static <T extends Exception> T assertRefused(Path saved, Class<T> type, String... parts) {
        T e = assertThrows(type, () -> SylvaHdbscanModel.load(saved.toString()));
        for (String p : parts) assertTrue(e.getMessage().contains(p), "'" + p + "' missing from: " + e.getMessage());
        return e;
    }

    /**
     * On a file system other than the local one (here Hadoop's raw local file system, which is not
     * {@code LocalFileSystem}), the file is streamed under a temporary name and renamed, and read back whole with the
     * library's checks, its errors naming the file by its qualified path.
     */
    @Test
    void onAnotherFileSystemTheModelFileIsStreamedRenamedAndChecked() throws IOException {
        OracleData.Array x = data("blobs500");
        int n = x.rows(), d = x.cols();
        HdbscanResult r = Hdbscan.builder().threads(2).build().fit(x.values(), n, d, ProgressListener.NONE,
                CancellationToken.NEVER);
        HdbscanModel lib = HdbscanModel.of(r, PointSet.ofFloat64(n, d, x.values()));
        try (RawLocalFileSystem raw = new RawLocalFileSystem()) {
            raw.initialize(URI.create("file:///"), new Configuration());
            org.apache.hadoop.fs.Path file = ModelData.file(dir.resolve("remote").toString());
            ModelData.write(lib, file, raw);
            Path local = dataFile(dir.resolve("remote"));
            assertEquals(List.of("hdbscan.model"), list(local.getParent()), "only the model file, renamed into place");
            assertArrayEquals(lib.toBytes(), Files.readAllBytes(local));
            assertArrayEquals(lib.toBytes(), ModelData.read(file, raw).toBytes());
            long size = Files.size(local);
            assertArrayEquals(lib.toBytes(), ModelData.read(file, raw, size).toBytes());
            IOException big = assertThrows(IOException.class, () -> ModelData.read(file, raw, size - 1));
            assertTrue(big.getMessage().contains(local.toString()) && big.getMessage().contains("copy the model directory"),
                    big.getMessage());

            byte[] good = Files.readAllBytes(local);
            Files.write(local, Arrays.copyOf(good, good.length - 9));
            InvalidInputException cut = assertThrows(InvalidInputException.class, () -> ModelData.read(file, raw));
            assertTrue(cut.getMessage().contains("model file file:" + local) && cut.getMessage().contains("truncated"),
                    cut.getMessage());
            Files.delete(local);
            FileNotFoundException gone = assertThrows(FileNotFoundException.class, () -> ModelData.read(file, raw));
            assertTrue(gone.getMessage().contains(local.toString()), gone.getMessage());
        }
    }

    @Test
    void theModelsColumnSettersNameWhatTransformReadsAndWrites() {
        OracleData.Array x = data("blobs500");
        int n = x.rows();
        Dataset<Row> df = LocalSpark.points(x.values(), n, x.cols(), 2);
        SylvaHdbscanModel model = new SylvaHdbscan().fit(df);
        HdbscanResult r = model.result();
        assertSame(model, model.setLabelCol("c").setProbabilityCol("p").setOutlierScoreCol("s").setFeaturesCol("pts"));
        Dataset<Row> renamed = df.withColumnRenamed("features", "pts");
        Dataset<Row> out = model.transform(renamed);
        assertArrayEquals(new String[] {"id", "pts", "c", "p", "s"}, out.columns());
        List<Row> rows = out.collectAsList();
        for (int i = 0; i < n; i++) {
            Row row = rows.get(i);
            assertEquals(i, row.getInt(0));
            assertEquals(r.labels()[i], row.<Integer>getAs("c"));
            assertEquals(r.probabilities()[i], row.<Double>getAs("p"));
            assertEquals(r.outlierScores()[i], row.<Double>getAs("s"));
        }
        InvalidInputException noColumn = assertThrows(InvalidInputException.class, () -> model.transform(df));
        assertTrue(noColumn.getMessage().contains("no column 'pts'"), noColumn.getMessage());
        InvalidInputException taken = assertThrows(InvalidInputException.class,
                () -> model.setFeaturesCol("features").setLabelCol("id").transform(df));
        assertTrue(taken.getMessage().contains("output column 'id' already exists"), taken.getMessage());
        SylvaHdbscanModel copy = model.copy(ParamMap.empty());
        assertNotSame(model, copy);
        assertEquals("id", copy.getOrDefault(copy.labelCol()), "a copy keeps the columns set");
    }
}
