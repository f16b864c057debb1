package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.mst.OracleData;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** The spark-submit entry point, run in the tests' local session. */
class SylvaSparkAppTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return SylvaSparkApp.run(LocalSpark.get(), args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void fitsAnNpyAndWritesParquetWithTheLocalLabels() {
        Path x = OracleData.dir().resolve("blobs500_X.npy");
        Path result = dir.resolve("labelled.parquet");
        assertEquals(0, run("hdbscan", "--input", x.toString(), "--output", result.toString(),
                "--min-cluster-size", "5", "--slices", "3"), err.toString());
        assertTheLocalFitsOutputs(x, result, Hdbscan.builder().minClusterSize(5).build());
        assertTrue(Files.exists(result.resolve("_SUCCESS")));
    }

    /** The Parquet table {@code result} holds {@code local}'s labels and outlier scores of the points in {@code x}. */
    private static void assertTheLocalFitsOutputs(Path x, Path result, Hdbscan local) {
        OracleData.Array a = OracleData.read(x);
        HdbscanResult r = local.fit(a.values(), a.rows(), a.cols(), ProgressListener.NONE, CancellationToken.NEVER);
        List<Row> rows = LocalSpark.get().read().parquet(result.toString()).orderBy("id").collectAsList();
        assertEquals(a.rows(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(r.labels()[i], rows.get(i).getInt(rows.get(i).fieldIndex("label")), "row " + i);
            assertEquals(r.outlierScores()[i], rows.get(i).getDouble(rows.get(i).fieldIndex("outlier_score")), "row " + i);
        }
    }

    /** A fit saves its model; predict assigns new points with it, as the library predicts them on one machine. */
    @Test
    void aSavedModelPredictsNewPointsAsTheLibraryDoes() throws Exception {
        Path x = OracleData.dir().resolve("blobs2000noise_X.npy");
        Path model = dir.resolve("blobs.model");
        assertEquals(0, run("hdbscan", "--input", x.toString(), "--output", dir.resolve("fit.parquet").toString(),
                "--min-cluster-size", "5", "--save-model", model.toString()), err.toString());
        assertTrue(out.toString().contains("and the model " + model), out.toString());
        OracleData.Array a = OracleData.read(x);
        int m = 500, d = a.cols();
        double[] q = new double[m * d];
        java.util.Random r = new java.util.Random(5);
        for (int i = 0; i < q.length; i++) q[i] = a.values()[r.nextInt(a.values().length)] + r.nextGaussian() * 0.3;
        Path newPoints = dir.resolve("new.npy");
        org.sylva.io.Npy.writeFloat64(newPoints, q, m, d);
        Path predicted = dir.resolve("predicted.parquet");
        assertEquals(0, run("predict", "--model", model.toString(), "--input", newPoints.toString(), "--output",
                predicted.toString()), err.toString());
        HdbscanResult fit = Hdbscan.builder().minClusterSize(5).build()
                .fit(a.values(), a.rows(), d, ProgressListener.NONE, CancellationToken.NEVER);
        var expected = org.sylva.hdbscan.predict.HdbscanModel.of(fit, org.sylva.data.PointSet.ofFloat64(a.rows(), d,
                a.values())).approximatePredict(org.sylva.data.PointSet.ofFloat64(m, d, q));
        List<Row> rows = LocalSpark.get().read().parquet(predicted.toString()).orderBy("id").collectAsList();
        assertEquals(m, rows.size());
        for (int i = 0; i < m; i++) {
            Row row = rows.get(i);
            assertEquals(expected.labels()[i], row.getInt(row.fieldIndex("label")), "row " + i);
            assertEquals(expected.probabilities()[i], row.getDouble(row.fieldIndex("probability")), "row " + i);
            assertEquals(expected.outlierScores()[i], row.getDouble(row.fieldIndex("outlier_score")), "row " + i);
        }
        // nothing is overwritten, and a missing model is named: one line each, before any work
        err.reset();
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", dir.resolve("fit2.parquet").toString(),
                "--save-model", model.toString()));
        assertEquals("sylva-spark: --save-model " + model + " already exists; give a new path", err.toString().strip());
        assertFalse(Files.exists(dir.resolve("fit2.parquet")));
        err.reset();
        assertEquals(2, run("predict", "--model", dir.resolve("none.model").toString(), "--input", newPoints.toString(),
                "--output", dir.resolve("p2.parquet").toString()));
        assertTrue(err.toString().strip().startsWith("sylva-spark: --model " + dir.resolve("none.model")
                + ": no such model directory"), err.toString());
        // a folder that is no model (a Parquet output, say), and an output the file system will not make
        err.reset();
        assertEquals(2, run("predict", "--model", predicted.toString(), "--input", newPoints.toString(),
                "--output", dir.resolve("p4.parquet").toString()));
        assertEquals("sylva-spark: --model " + predicted + ": not a saved model (it has no metadata folder; sylva-spark "
                + "hdbscan --save-model writes one)", err.toString().strip());
        Path aFile = Files.writeString(dir.resolve("a-file"), "not a folder");
        err.reset();
        assertEquals(2, run("predict", "--model", model.toString(), "--input", newPoints.toString(),
                "--output", aFile.resolve("deeper").resolve("p5.parquet").toString()));
        assertTrue(err.toString().strip().startsWith("sylva-spark: --output " + aFile.resolve("deeper").resolve("p5.parquet")
                + " cannot be written"), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        err.reset();
        Path fresh = dir.resolve("new-parent").resolve("p6.parquet");
        assertEquals(0, run("predict", "--model", model.toString(), "--input", newPoints.toString(),
                "--output", fresh.toString()), err.toString());
        assertTrue(Files.isDirectory(fresh));
        // a model directory without its data file: one line naming the file, nothing written
        Path data = model.resolve("data").resolve("hdbscan.model");
        Files.delete(data);
        err.reset();
        assertEquals(2, run("predict", "--model", model.toString(), "--input", newPoints.toString(),
                "--output", dir.resolve("p3.parquet").toString()));
        assertEquals("sylva-spark: --model: model file file:" + data + " does not exist: the directory holds no "
                + "SylvaHdbscanModel data (not written by SylvaHdbscanModel.save, or not completely)", err.toString().strip());
        assertFalse(Files.exists(dir.resolve("p3.parquet")));
        err.reset();
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", dir.resolve("g.parquet").toString(),
                "--group-by", "id", "--save-model", dir.resolve("g.model").toString()));
        assertTrue(err.toString().contains("--save-model saves the model of one fit"), err.toString());
    }

    /**
     * A table that already has a {@code label} column (a fit's output, say) is refused naming the option that names
     * the output columns; with the options, the columns take their names, and a saved model predicts into its fit's
     * columns unless the options name others.
     */
    @Test
    void theOutputColumnsTakeTheNamesTheOptionsGive() {
        Path x = OracleData.dir().resolve("blobs500_X.npy");
        Path labelled = dir.resolve("labelled.parquet");
        assertEquals(0, run("hdbscan", "--input", x.toString(), "--output", labelled.toString(), "--min-cluster-size",
                "5"), err.toString());
        Path again = dir.resolve("again.parquet");
        assertEquals(2, run("hdbscan", "--input", labelled.toString(), "--output", again.toString(),
                "--min-cluster-size", "5"));
        assertEquals("sylva-spark: output column 'label' already exists (option --label-col names another)",
                err.toString().strip());
        assertFalse(Files.exists(again));
        err.reset();
        Path model = dir.resolve("m.model");
        assertEquals(0, run("hdbscan", "--input", labelled.toString(), "--output", again.toString(),
                "--min-cluster-size", "5", "--label-col", "cluster", "--probability-col", "p", "--outlier-score-col",
                "s", "--save-model", model.toString()), err.toString());
        List<Row> rows = LocalSpark.get().read().parquet(again.toString()).orderBy("id").collectAsList();
        assertEquals(500, rows.size());
        for (Row r : rows) {   // the same points and parameters: the same fit, under the names given
            assertEquals(r.getInt(r.fieldIndex("label")), r.getInt(r.fieldIndex("cluster")));
            assertEquals(r.getDouble(r.fieldIndex("probability")), r.getDouble(r.fieldIndex("p")));
            assertEquals(r.getDouble(r.fieldIndex("outlier_score")), r.getDouble(r.fieldIndex("s")));
        }
        Path predicted = dir.resolve("predicted.parquet");
        assertEquals(0, run("predict", "--model", model.toString(), "--input", x.toString(), "--output",
                predicted.toString()), err.toString());
        assertEquals(List.of("id", "features", "cluster", "p", "s"),
                List.of(LocalSpark.get().read().parquet(predicted.toString()).columns()), "the model's fit's names");
        Path renamed = dir.resolve("renamed.parquet");
        assertEquals(0, run("predict", "--model", model.toString(), "--input", x.toString(), "--output",
                renamed.toString(), "--label-col", "c2", "--probability-col", "p2", "--outlier-score-col", "s2"),
                err.toString());
        assertEquals(List.of("id", "features", "c2", "p2", "s2"),
                List.of(LocalSpark.get().read().parquet(renamed.toString()).columns()));
    }

    /** A table of clouds that already has a {@code mask} column: refused naming the option, built with another name. */
    @Test
    void theBallTreesColumnsTakeTheNamesTheOptionsGive() {
        org.apache.spark.sql.types.StructType schema = new org.apache.spark.sql.types.StructType()
                .add("mask", org.apache.spark.sql.types.DataTypes.IntegerType, false)
                .add("points", org.apache.spark.sql.types.DataTypes.createArrayType(
                        org.apache.spark.sql.types.DataTypes.createArrayType(
                                org.apache.spark.sql.types.DataTypes.FloatType, false), false), true);
        List<Row> rows = new java.util.ArrayList<>();
        java.util.Random rnd = new java.util.Random(4);
        for (int c = 0; c < 3; c++) {
            List<Object> pts = new java.util.ArrayList<>();
            for (int i = 0; i < 20; i++) pts.add(LocalSpark.seq(List.of((float) rnd.nextGaussian(), (float) rnd.nextGaussian())));
            rows.add(org.apache.spark.sql.RowFactory.create(c, LocalSpark.seq(pts)));
        }
        Path clouds = dir.resolve("clouds.parquet");
        LocalSpark.get().createDataFrame(rows, schema).write().parquet(clouds.toString());
        Path trees = dir.resolve("trees.parquet");
        assertEquals(2, run("balltree", "--input", clouds.toString(), "--output", trees.toString()));
        assertEquals("sylva-spark: output column 'mask' already exists (option --mask-col names another)",
                err.toString().strip());
        assertFalse(Files.exists(trees));
        err.reset();
        assertEquals(0, run("balltree", "--input", clouds.toString(), "--output", trees.toString(), "--mask-col",
                "real", "--tree-idx-col", "slots", "--partition-level", "1", "--partition-col", "cells"), err.toString());
        assertEquals(List.of("mask", "points", "slots", "real", "cells"),
                List.of(LocalSpark.get().read().parquet(trees.toString()).columns()));
    }

    /**
     * predict reads the points from its model's fit's column unless --features names another; an output and a model
     * one inside the other are refused before any work; a .npy may be given as a file: URI, as Spark's paths are.
     */
    @Test
    void predictReadsItsModelsColumnAndNestedPathsAreRefused() {
        Path x = OracleData.dir().resolve("blobs500_X.npy");
        Path table = dir.resolve("emb.parquet");
        assertEquals(0, run("hdbscan", "--input", x.toUri().toString(), "--output", table.toString(), "--features", "emb",
                "--min-cluster-size", "5"), err.toString());
        Path again = dir.resolve("again.parquet");
        Path model = dir.resolve("emb.model");
        assertEquals(0, run("hdbscan", "--input", table.toString(), "--output", again.toString(), "--features", "emb",
                "--min-cluster-size", "5", "--label-col", "c", "--probability-col", "p", "--outlier-score-col", "s",
                "--save-model", model.toString()), err.toString());
        Path predicted = dir.resolve("predicted.parquet");
        assertEquals(0, run("predict", "--model", model.toString(), "--input", table.toString(), "--output",
                predicted.toString()), err.toString());
        assertEquals(500L, LocalSpark.get().read().parquet(predicted.toString()).count());
        err.reset();
        Path nested = dir.resolve("out.parquet");
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", nested.toString(), "--save-model",
                nested.resolve("model").toString()));
        assertTrue(err.toString().contains("are one inside the other"), err.toString());
        assertFalse(Files.exists(nested));
        err.reset();
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", dir.resolve("m3").resolve("out").toString(),
                "--save-model", dir.resolve("m3").toString()));
        assertTrue(err.toString().contains("are one inside the other"), err.toString());
        assertFalse(Files.exists(dir.resolve("m3")));
    }

    @Test
    void badParametersExitTwoWithOneLine() {
        Path x = OracleData.dir().resolve("blobs500_X.npy");
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", dir.resolve("o").toString(),
                "--min-cluster-size", "1"));
        // the option and its rule, one line, not Spark ML's uid and parameter name
        assertEquals("sylva-spark: --min-cluster-size 1: must be an integer >= 2", err.toString().strip());
        assertFalse(Files.exists(dir.resolve("o")), "no output for a refused run");
        err.reset();
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", dir.resolve("o").toString(),
                "--cluster-selection-method", "dbscan"));
        assertEquals("sylva-spark: --cluster-selection-method dbscan: must be eom or leaf", err.toString().strip());
        err.reset();
        // the library's refusal of a parameter, in the words of the option that set it
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", dir.resolve("o").toString(),
                "--min-cluster-size", "600"));
        assertEquals("sylva-spark: min_samples (600) must be at most the number of samples in X (500) (option "
                + "--min-cluster-size: --min-samples, not given, defaults to it)", err.toString().strip());
        err.reset();
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", dir.resolve("o").toString(),
                "--alpha", "Infinity"));
        assertEquals("sylva-spark: --alpha Infinity: must be a finite number > 0", err.toString().strip());
        assertFalse(Files.exists(dir.resolve("o")), "no output for a refused run");
        err.reset();
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", dir.resolve("o").toString(),
                "--alpha", "1", "--alpha", "2"));
        assertTrue(err.toString().startsWith("sylva-spark: --alpha is given twice\nusage:"), err.toString());
        err.reset();
        // help after the command: the usage, exit 0
        assertEquals(0, run("hdbscan", "--input", x.toString(), "--help"));
        assertTrue(out.toString().startsWith("usage:"), out.toString());
        err.reset();
        assertEquals(2, run("hdbscan", "--input", x.toString()));
        assertTrue(err.toString().contains("--output is required"), err.toString());
        err.reset();
        assertEquals(2, run("hdbscan", "--input", dir.resolve("missing.npy").toString(), "--output", "o2"));
        assertTrue(err.toString().contains("missing.npy: no such file"), err.toString());
        err.reset();
        assertEquals(2, run("cluster", "--input", "a", "--output", "b"));
        assertTrue(err.toString().contains("unknown option") || err.toString().contains("unknown command"), err.toString());
        err.reset();
        // an empty value names its option (a path, a column), not Hadoop's "Can not create a Path from an empty string"
        for (String option : List.of("--output", "--save-model", "--features")) {
            List<String> args = new java.util.ArrayList<>(List.of("hdbscan", "--input", x.toString(), "--output",
                    dir.resolve("o").toString()));
            if (option.equals("--output")) args.set(4, ""); else args.addAll(List.of(option, ""));
            assertEquals(2, run(args.toArray(String[]::new)), option);
            assertTrue(err.toString().startsWith("sylva-spark: " + option + " needs a value; got an empty one"),
                    err.toString());
            err.reset();
        }
        // a .npy is read as a table whose 'id' column holds the row numbers: a column of that name is refused
        for (String option : List.of("--features", "--label-col", "--outlier-score-col")) {
            String name = option.equals("--label-col") ? "ID" : "id";   // Spark's column names ignore case
            assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", dir.resolve("o").toString(), option, name));
            assertEquals("sylva-spark: " + option + " " + name + ": a .npy input is read as a table whose 'id' column "
                    + "holds the row numbers; give the column another name", err.toString().strip());
            err.reset();
        }
        assertFalse(Files.exists(dir.resolve("o")), "no output for a refused run");
        // an option that does nothing without another is refused, not ignored
        assertEquals(2, run("balltree", "--input", x.toString(), "--output", dir.resolve("o").toString(), "--partition-col",
                "cells"));
        assertEquals("sylva-spark: --partition-col names the column of the partition at --partition-level; it takes "
                + "--partition-level", err.toString().strip());
        err.reset();
    }

    /** --small-groups noise: groups too small to fit are noise; the option is checked before any work. */
    @Test
    void smallGroupsAsNoise() {
        Path x = OracleData.dir().resolve("blobs500_X.npy");
        Path o = dir.resolve("grouped");
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", o.toString(), "--small-groups", "noise"));
        assertEquals("sylva-spark: --small-groups says what becomes of a group too small to fit; it takes --group-by",
                err.toString().strip());
        err.reset();
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", o.toString(), "--group-by", "id",
                "--small-groups", "drop"));
        assertEquals("sylva-spark: --small-groups drop: must be error or noise", err.toString().strip());
        assertFalse(Files.exists(o), "no output for a refused run");
        err.reset();
        // one group per row: every group too small, every row noise
        assertEquals(0, run("hdbscan", "--input", x.toString(), "--output", o.toString(), "--group-by", "id",
                "--small-groups", "noise"), err.toString());
        List<Row> rows = LocalSpark.get().read().parquet(o.toString()).collectAsList();
        assertEquals(500, rows.size());
        for (Row r : rows) {
            assertEquals(-1, r.getInt(r.fieldIndex("label")));
            assertTrue(Double.isNaN(r.getDouble(r.fieldIndex("outlier_score"))));
        }
    }

    /** A run that fails leaves neither its output nor its model, so the same command runs again once fixed. */
    @Test
    void aFailedRunLeavesNothingBehind() throws Exception {
        Path x = OracleData.dir().resolve("blobs500_X.npy");
        Path o = dir.resolve("grouped"), m = dir.resolve("m.model");
        // one group per row: the write's job fails in the fits, after Spark made the output directory
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", o.toString(), "--group-by", "id"));
        assertTrue(err.toString().contains("at least two points; --small-groups noise makes such a group noise"),
                err.toString());
        assertFalse(Files.exists(o), "the failed output is removed");
        err.reset();
        // an output the file system refuses (its parent is a file): exit 2, and the model saved before it is removed
        Path file = Files.writeString(dir.resolve("afile"), "x");
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", file.resolve("out").toString(),
                "--save-model", m.toString()));
        assertTrue(err.toString().startsWith("sylva-spark: ") && err.toString().contains("not a directory"), err.toString());
        assertFalse(Files.exists(m), "no model for an output never written");
        err.reset();
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", m.toString(), "--save-model",
                m.toString()));
        assertTrue(err.toString().contains("--save-model and --output are the same path"), err.toString());
        assertFalse(Files.exists(m));
        // fixed, the same output path is taken
        assertEquals(0, run("hdbscan", "--input", x.toString(), "--output", o.toString(), "--save-model", m.toString()));
        assertTrue(Files.exists(o.resolve("_SUCCESS")) && Files.isDirectory(m));
    }

    @Test
    void sparksOwnRefusalsExitTwoWithOneLine() throws Exception {
        Path x = OracleData.dir().resolve("blobs500_X.npy");
        Path taken = Files.createDirectories(dir.resolve("taken.parquet"));
        assertEquals(2, run("hdbscan", "--input", x.toString(), "--output", taken.toString()));
        assertTrue(err.toString().contains("sylva-spark: ") && err.toString().contains("already exists"), err.toString());
        assertEquals(1, err.toString().lines().count(), err.toString());
        err.reset();
        assertEquals(2, run("hdbscan", "--input", dir.resolve("missing.parquet").toString(), "--output",
                dir.resolve("o3").toString()));
        assertTrue(err.toString().contains("sylva-spark: ") && err.toString().contains("missing.parquet"), err.toString());
        assertEquals(1, err.toString().lines().count(), err.toString());
    }

    @Test
    void helpAndUnknownCommandsAreAnsweredBeforeOptions() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString().startsWith("usage: SylvaSparkApp hdbscan"), out.toString());
        assertTrue(out.toString().contains("--max-cluster-size N"), out.toString());
        assertEquals(2, run("cluster"));
        assertTrue(err.toString().contains("unknown command 'cluster' (hdbscan, predict or balltree)"), err.toString());
    }

    @Test
    void anInputSparkCannotReadExitsTwoWithOneLine() throws Exception {
        Path notParquet = Files.createDirectories(dir.resolve("table.parquet"));
        Files.writeString(notParquet.resolve("part-00000.parquet"), "not a parquet file");
        assertEquals(2, run("hdbscan", "--input", notParquet.toString(), "--output", dir.resolve("o").toString()));
        assertTrue(err.toString().startsWith("sylva-spark: ") && err.toString().contains("part-00000.parquet"),
                err.toString());
        assertEquals(1, err.toString().lines().count(), err.toString());
        err.reset();
        assertEquals(2, run("balltree", "--input", notParquet.toString(), "--output", dir.resolve("t").toString()));
        assertEquals(1, err.toString().lines().count(), err.toString());
    }

    @Test
    void helpAndAnUnknownCommandStartNoSpark() {
        java.util.function.Supplier<org.apache.spark.sql.SparkSession> none = () -> {
            throw new AssertionError("Spark started");
        };
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(0, SylvaSparkApp.main(new String[] {"--help"}, none, o, e));
        assertTrue(out.toString().startsWith("usage: SylvaSparkApp hdbscan"), out.toString());
        assertEquals(2, SylvaSparkApp.main(new String[] {"cluster", "--input", "a"}, none, o, e));
        assertTrue(err.toString().startsWith("sylva-spark: unknown command 'cluster'"), err.toString());
        err.reset();
        assertEquals(2, SylvaSparkApp.main(new String[0], none, o, e));
        assertTrue(err.toString().startsWith("sylva-spark: no command given"), err.toString());
    }

    @Test
    void maxClusterSizeReachesTheFit() {
        Path x = OracleData.dir().resolve("blobs500_X.npy");
        Path result = dir.resolve("capped.parquet");
        assertEquals(0, run("hdbscan", "--input", x.toString(), "--output", result.toString(),
                "--min-cluster-size", "5", "--max-cluster-size", "60"), err.toString());
        assertTheLocalFitsOutputs(x, result, Hdbscan.builder().minClusterSize(5).maxClusterSize(60).build());
    }
}
