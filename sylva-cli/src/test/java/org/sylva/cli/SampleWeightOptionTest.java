package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.SampleWeights;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.predict.Prediction;
import org.sylva.io.Npy;

/**
 * {@code sylva hdbscan --sample-weight}: the outputs are the library's weighted fit (labels per row, the
 * trees over the copies, {@code fitted_rows} mapping them back), from a NumPy file (whatever its name) or a text
 * file alike;
 * a later unweighted run removes {@code fitted_rows} as stale; the model it saves predicts, cuts and
 * reselects as the library's; bad weight files and combinations are refused before anything is written,
 * naming the option.
 */
class SampleWeightOptionTest {
    static int[] weights(int n) {
        int[] w = new int[n];
        for (int i = 0; i < n; i++) w[i] = (i * 7) % 4;   // 0..3
        w[5] = 25;
        return w;
    }

    @Test
    void writesTheLibrarysWeightedFit(@TempDir Path tmp) throws IOException {
        PointSet p = TestData.clips(300);
        Path in = TestData.writeNpy(p, tmp.resolve("clips.npy"));
        int[] w = weights(p.size());
        Path wNpy = tmp.resolve("w.npy");
        Npy.writeInt32(wNpy, w, w.length);
        Path wTxt = tmp.resolve("w.txt");
        StringBuilder sb = new StringBuilder();
        for (int v : w) sb.append(v).append(".0\n");
        Files.writeString(wTxt, sb.append("\n"));
        Path wBom = tmp.resolve("w-bom.txt");   // as an editor on Windows saves it: a byte order mark, CRLF
        Files.writeString(wBom, "\uFEFF" + sb.toString().replace("\n", "\r\n"));
        Path wUpper = Files.copy(wNpy, tmp.resolve("W.NPY"));   // a NumPy file is told by its magic, not its name
        Path wBare = Files.copy(wNpy, tmp.resolve("counts"));
        Path wNamedText = Files.copy(wNpy, tmp.resolve("npy-named.txt"));
        Path wHeader = tmp.resolve("w.csv");   // pandas' to_csv(index=False): a header row, then the column
        Files.writeString(wHeader, "count\n" + sb);
        HdbscanResult want = Hdbscan.builder().minClusterSize(10).threads(2).build().fit(p, SampleWeights.of(w));

        for (Path wf : new Path[] {wNpy, wTxt, wBom, wUpper, wBare, wNamedText, wHeader}) {
            Path out = tmp.resolve("out-" + wf.getFileName());
            Cli.Result r = Cli.run("hdbscan", in.toString(), "--min-cluster-size", "10", "--out", out.toString(),
                    "--sample-weight", wf.toString(), "--threads", "2", "--json").assertOk();
            assertArrayEquals(want.labels(), Npy.read(out.resolve("labels.npy")).toInt32());
            assertArrayEquals(want.probabilities(), Npy.read(out.resolve("probabilities.npy")).toFloat64());
            assertArrayEquals(want.fittedRows(), Npy.read(out.resolve("fitted_rows.npy")).toInt32());
            assertArrayEquals(want.spanningTree().toMatrix(), Npy.read(out.resolve("mst.npy")).toFloat64());
            long total = Arrays.stream(w).asLongStream().sum();
            assertTrue(r.out().contains("\"n_weighted_points\": " + total), r.out());
            assertTrue(r.err().contains("weighted as " + total + " points"), r.err());
        }

        Path out = tmp.resolve("out-w.npy");
        Cli.run("hdbscan", in.toString(), "--min-cluster-size", "10", "--out", out.toString(), "--threads", "2")
                .assertOk();
        assertFalse(Files.exists(out.resolve("fitted_rows.npy")), "fitted_rows of the weighted run is stale");
    }

    @Test
    void aWeightedFitsModelPredictsCutsAndReselects(@TempDir Path tmp) throws IOException {
        PointSet p = TestData.clips(300);
        Path in = TestData.writeNpy(p, tmp.resolve("clips.npy"));
        int[] w = weights(p.size());
        Path wNpy = tmp.resolve("w.npy");
        Npy.writeInt32(wNpy, w, w.length);
        Path model = tmp.resolve("weighted.model");
        Cli.run("hdbscan", in.toString(), "--min-cluster-size", "10", "--out", tmp.resolve("fit").toString(),
                "--sample-weight", wNpy.toString(), "--save-model", model.toString(), "-q").assertOk();
        Hdbscan h = Hdbscan.builder().minClusterSize(10).build();
        HdbscanResult want = h.fit(p, SampleWeights.of(w));
        HdbscanModel wantModel = HdbscanModel.of(want, p);
        HdbscanModel m = HdbscanModel.load(model);
        assertTrue(m.weighted());
        assertArrayEquals(w, m.sampleWeights());
        assertArrayEquals(wantModel.toBytes(), Files.readAllBytes(model));

        PointSet fresh = TestData.clips(80);
        Path freshNpy = TestData.writeNpy(fresh, tmp.resolve("fresh.npy"));
        Path out = tmp.resolve("assigned");
        Cli.run("predict", model.toString(), freshNpy.toString(), "--out", out.toString(), "-q").assertOk();
        Prediction pr = wantModel.approximatePredict(fresh);
        assertArrayEquals(pr.labels(), Npy.read(out.resolve("labels.npy")).toInt32());
        assertArrayEquals(pr.probabilities(), Npy.read(out.resolve("probabilities.npy")).toFloat64());
        assertArrayEquals(pr.outlierScores(), Npy.read(out.resolve("outlier_scores.npy")).toFloat64());
        assertArrayEquals(wantModel.membershipVector(fresh).values(), Npy.read(out.resolve("membership.npy")).toFloat64());

        Path re = tmp.resolve("re");
        Cli.run("reselect", model.toString(), "--method", "leaf", "--out", re.toString(), "-q").assertOk();
        HdbscanResult leaf = want.reselect(h.toBuilder().clusterSelectionMethod(SelectionMethod.LEAF).build());
        assertArrayEquals(leaf.labels(), Npy.read(re.resolve("labels.npy")).toInt32());
        assertArrayEquals(leaf.condensedTree().toMatrix(), Npy.read(re.resolve("condensed_tree.npy")).toFloat64());
        assertArrayEquals(want.fittedRows(), Npy.read(re.resolve("fitted_rows.npy")).toInt32());
        // an unweighted model's reselect into the same folder removes fitted_rows as stale
        Path plain = tmp.resolve("plain.model");
        Cli.run("hdbscan", in.toString(), "--min-cluster-size", "10", "--out", tmp.resolve("fit2").toString(),
                "--save-model", plain.toString(), "-q").assertOk();
        Cli.run("reselect", plain.toString(), "--method", "leaf", "--out", re.toString(), "-q").assertOk();
        assertFalse(Files.exists(re.resolve("fitted_rows.npy")), "fitted_rows of the weighted model is stale");
        double cut = want.spanningTree().weight(want.spanningTree().edges() / 2);
        Path cutOut = tmp.resolve("cut");
        Cli.run("cut", model.toString(), "--distance", Double.toString(cut), "--out", cutOut.toString(), "-q").assertOk();
        assertArrayEquals(want.dbscanClustering(cut, 10), Npy.read(cutOut.resolve("labels.npy")).toInt32());
    }

    @Test
    void badWeightsAreRefusedBeforeAnythingIsWritten(@TempDir Path tmp) throws IOException {
        PointSet p = TestData.clips(60);
        Path in = TestData.writeNpy(p, tmp.resolve("clips.npy"));
        Path out = tmp.resolve("out");
        Path shortW = tmp.resolve("short.npy");
        Npy.writeInt32(shortW, new int[59], 59);
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", shortW.toString())
                .assertError("short.npy", "59 sample weights for 60 rows", "--sample-weight");
        Path frac = tmp.resolve("frac.txt");
        Files.writeString(frac, "1\n".repeat(10) + "0.5\n" + "1\n".repeat(49));
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", frac.toString())
                .assertError("frac.txt", "sample weight of row 10 is 0.5", "whole numbers");
        Path word = tmp.resolve("word.csv");
        Files.writeString(word, "1\n1\nheavy\n");
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", word.toString())
                .assertError("word.csv", "line 3, column 1: 'heavy' is not a number");
        // the number syntax of a text input: Java's own suffixes and hexadecimal floats are not numbers
        Path suffix = tmp.resolve("java.txt");
        Files.writeString(suffix, "1\n".repeat(59) + "1d\n");
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", suffix.toString())
                .assertError("java.txt", "line 60, column 1: '1d' is not a number");
        Path hex = tmp.resolve("hex.txt");
        Files.writeString(hex, "1\n".repeat(59) + "0x1p0\n");
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", hex.toString())
                .assertError("hex.txt", "'0x1p0' is not a number");
        Path unnamed = tmp.resolve("series.csv");   // pandas' header of an unnamed Series, read as a weight
        Files.writeString(unnamed, "0\n" + "1\n".repeat(60));
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", unnamed.toString())
                .assertError("61 sample weights for 60 rows", "first line, 0, is the header pandas writes");
        Path twoColumns = tmp.resolve("two.csv");
        Files.writeString(twoColumns, "0,1\n".repeat(60));
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", twoColumns.toString())
                .assertError("two.csv", "one per line; the file has 2 values on each line");
        // binary that is not a NumPy file: refused as text, naming the file and the option
        Path binary = tmp.resolve("w.f32");
        Files.write(binary, new byte[] {0, 0, (byte) 0x80, 0x3f, 0, 0, (byte) 0x80, 0x3f, (byte) 0xe9, 0x0a});
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", binary.toString())
                .assertError("--sample-weight", "w.f32");
        Path latin1 = tmp.resolve("latin1.txt");
        Files.write(latin1, "1\n1 \u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", latin1.toString())
                .assertError("--sample-weight", "latin1.txt", "line 2");
        Path dir = Files.createDirectory(tmp.resolve("weights"));
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", dir.toString())
                .assertError("--sample-weight", "weights", "is a directory");
        // a line that never ends is refused when it passes the longest cell, not when the heap is full
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", "/dev/zero")
                .assertError("--sample-weight", "/dev/zero");
        Path twoD = tmp.resolve("twod.npy");
        Npy.writeInt32(twoD, new int[120], 60, 2);
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", twoD.toString())
                .assertError("twod.npy", "shape (n,) or (n, 1)");
        Path ones = tmp.resolve("ones.npy");
        int[] one = new int[60];
        Arrays.fill(one, 1);
        Npy.writeInt32(ones, one, 60);
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight", ones.toString(),
                "--metric", "manhattan").assertError("euclidean metric only", "--sample-weight");
        Cli.run("hdbscan", in.toString(), "--out", out.toString(), "--sample-weight",
                tmp.resolve("missing.npy").toString()).assertError("missing.npy");
        assertFalse(Files.exists(out.resolve("labels.npy")));
    }
}
