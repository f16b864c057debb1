package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.PointSet;
import org.sylva.io.Npy;

/**
 * Which inputs get waveform panels in the {@code sylva hdbscan} report: only clips (3-D .npy, or rows
 * declared clips with --waveforms / --channels, or a second file with --waveforms-from), never pixel
 * or feature tables; and every bad value of these options is one error line naming the option.
 */
class ReportWaveformOptionsTest {
    static final int N = 300, SAMPLES = 61;

    @TempDir
    static Path shared;
    /** 4-channel clips, channel-major rows of 244 values; the same clips as (n, 4, 61) and (n, 61, 4). */
    static Path flat, cnS, nSc, pixels, letters;

    @BeforeAll
    static void data() throws IOException {
        PointSet one = TestData.clips(N);
        float[] rows = new float[N * 4 * SAMPLES];
        float[] sampleMajor = new float[rows.length];
        float[] gain = {1f, 0.5f, 2f, -1f};
        for (int i = 0; i < N; i++) {
            for (int c = 0; c < 4; c++) {
                for (int s = 0; s < SAMPLES; s++) {
                    float v = gain[c] * one.get(i, s);
                    rows[i * 4 * SAMPLES + c * SAMPLES + s] = v;
                    sampleMajor[i * 4 * SAMPLES + s * 4 + c] = v;
                }
            }
        }
        flat = shared.resolve("clips4.npy");
        Npy.writeFloat32(flat, rows, N, 4 * SAMPLES);
        cnS = shared.resolve("clips_c_s.npy");
        Npy.writeFloat32(cnS, rows, N, 4, SAMPLES);
        nSc = shared.resolve("clips_s_c.npy");
        Npy.writeFloat32(nSc, sampleMajor, N, SAMPLES, 4);
        // MNIST-like: 784 pixels (uint8) of a few noisy prototypes; letter-like: 16 small integer features
        SplittableRandom rng = new SplittableRandom(9);
        byte[] px = new byte[N * 784];
        float[] feat = new float[N * 16];
        for (int i = 0; i < N; i++) {
            int proto = i % 3;
            for (int j = 0; j < 784; j++) {
                double base = (j * 7 + proto * 131) % 5 == 0 ? 200 : 20;
                px[i * 784 + j] = (byte) Math.max(0, Math.min(255, base + 40 * (rng.nextDouble() - 0.5)));
            }
            for (int j = 0; j < 16; j++) feat[i * 16 + j] = (float) Math.round(4 * proto + j % 3 + rng.nextDouble());
        }
        pixels = shared.resolve("pixels.npy");
        Npy.writeUint8(pixels, px, N, 784);
        letters = shared.resolve("letters.npy");
        Npy.writeFloat32(letters, feat, N, 16);
    }

    static String report(Path tmp, String... args) throws IOException {
        Path out = tmp.resolve("out");
        String[] all = new String[args.length + 8];
        System.arraycopy(args, 0, all, 1, args.length);
        all[0] = "hdbscan";
        System.arraycopy(new String[] {"--min-cluster-size", "10", "--out", out.toString(), "--report",
                out.resolve("report.html").toString(), "-q"}, 0, all, args.length + 1, 7);
        Cli.run(all).assertOk();
        return Files.readString(out.resolve("report.html"), StandardCharsets.UTF_8);
    }

    static int panels(String html) {
        return HdbscanCommandTest.count(html, "class=\"channel-panel\"");
    }

    @Test
    void pixelAndFeatureTablesGetNoWaveformPanels(@TempDir Path tmp) throws IOException {
        String mnist = report(tmp.resolve("a"), pixels.toString());
        assertFalse(mnist.contains("id=\"waveforms\""), "784 pixel columns are not a clip");
        assertTrue(mnist.contains("condensed-tree-plot") && mnist.contains("projection-plot"));
        assertFalse(report(tmp.resolve("b"), letters.toString()).contains("id=\"waveforms\""), "16 features");
        assertFalse(report(tmp.resolve("c"), flat.toString()).contains("id=\"waveforms\""), "2-D: only when asked");
    }

    @Test
    void onPixelDataTheSelectedClustersTakeMostOfTheTreesHeight(@TempDir Path tmp) throws IOException {
        String html = report(tmp, pixels.toString());
        double top = Double.POSITIVE_INFINITY, bottom = Double.NEGATIVE_INFINITY;
        Matcher m = Pattern.compile("class=\"node selected\"[^>]* d=\"([^\"]+)\"").matcher(html);
        while (m.find()) {
            Matcher y = Pattern.compile("[MV]([-0-9.]+)(?: ([-0-9.]+))?").matcher(m.group(1));
            while (y.find()) {
                double v = Double.parseDouble(y.group(2) != null ? y.group(2) : y.group(1));
                top = Math.min(top, v);
                bottom = Math.max(bottom, v);
            }
        }
        double share = (bottom - top) / (600 - 16 - 74);
        assertTrue(share > 0.5, "the selected clusters span " + share + " of the plot height");
        assertTrue(html.contains("log scale") || html.contains("by rank"), "the axis names its scale");
    }

    @Test
    void rowsDeclaredClipsAreDrawnPerChannel(@TempDir Path tmp) throws IOException {
        String one = report(tmp.resolve("a"), flat.toString(), "--waveforms");
        assertTrue(one.contains("id=\"waveform-plot\""));
        assertFalse(one.contains("class=\"channel-label\""), "one channel of 244 samples");
        String four = report(tmp.resolve("b"), flat.toString(), "--channels", "4");
        assertEquals(0, panels(four) % 4);
        assertTrue(panels(four) >= 8, "4 panels per cluster: " + panels(four));
        assertTrue(four.contains(">ch 3</text>"));
        assertTrue(four.contains("4 channels x 61 samples per clip"), "the parameters name the clip shape");
    }

    @Test
    void aThreeDimensionalNpyIsClipsWithoutBeingTold(@TempDir Path tmp) throws IOException {
        String a = report(tmp.resolve("a"), cnS.toString());
        String b = report(tmp.resolve("b"), nSc.toString());
        String c = report(tmp.resolve("c"), flat.toString(), "--channels", "4");
        assertTrue(a.contains("4 channels x 61 samples per clip") && b.contains("4 channels x 61 samples per clip"));
        assertEquals(panels(c), panels(a));
        assertEquals(panels(c), panels(b));
        // (n, 4, 61) is clustered as its rows of 244 values, exactly as the 2-D file
        assertArrayEquals(HdbscanCommandTest.labels(tmp.resolve("c").resolve("out")),
                HdbscanCommandTest.labels(tmp.resolve("a").resolve("out")));
        assertFalse(report(tmp.resolve("d"), cnS.toString(), "--no-waveforms").contains("id=\"waveforms\""));
        assertTrue(report(tmp.resolve("e"), cnS.toString(), "--channels", "61").contains(">ch 60</text>"),
                "--channels picks the other axis");
    }

    @Test
    void squareClipsAreAmbiguousUntilTold(@TempDir Path tmp) throws IOException {
        Path square = tmp.resolve("square.npy");
        PointSet p = TestData.blob(N, 64, 4);
        Npy.writeFloat32(square, p.coordinates(), N, 8, 8);
        Path out = tmp.resolve("out");
        Cli.Result r = Cli.run("hdbscan", square.toString(), "--out", out.toString(), "--report",
                out.resolve("r.html").toString()).assertOk();
        assertTrue(r.err().contains("cannot tell the channels from the samples") && r.err().contains("--channels 8"),
                r.err());
        assertFalse(Files.readString(out.resolve("r.html")).contains("id=\"waveforms\""));
        assertTrue(report(tmp.resolve("b"), square.toString(), "--waveforms").contains(">ch 7</text>"));
    }

    @Test
    void featuresClusteredWithClipsFromASecondFile(@TempDir Path tmp) throws IOException {
        String html = report(tmp, letters.toString(), "--waveforms-from", cnS.toString());
        assertTrue(html.contains("4 channels x 61 samples per clip"), "the clips of the second file");
        assertTrue(html.contains("300 points \u00d7 16 dimensions"), "the points clustered are the features");
        Path csv = tmp.resolve("one-channel.csv");
        TestData.writeCsv(TestData.clips(N), csv, ',', false);
        String fromText = report(tmp.resolve("b"), letters.toString(), "--waveforms-from", csv.toString());
        assertTrue(fromText.contains("1 channel x 61 samples per clip"));
    }

    @Test
    void aSecondFileOfTheWrongLengthIsRefusedBeforeTheFit(@TempDir Path tmp) throws IOException {
        Path fewer = tmp.resolve("fewer.npy");
        TestData.writeNpy(TestData.clips(N - 1), fewer);
        Path out = tmp.resolve("out");
        Cli.run("hdbscan", letters.toString(), "--waveforms-from", fewer.toString(), "--out", out.toString(),
                "--report", out.resolve("r.html").toString(), "-q")
                .assertError("fewer.npy has 299 rows", "letters.npy has 300 points", "(option --waveforms-from)");
        Cli.assertNothingWritten(out);
    }

    @Test
    void everyBadValueNamesItsOption(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        String o = out.toString(), r = out.resolve("r.html").toString();
        Cli.run("hdbscan", flat.toString(), "--channels", "0", "--out", o, "--report", r)
                .assertError("channels must be at least 1; got 0", "(option --channels)");
        Cli.run("hdbscan", flat.toString(), "--channels", "7", "--out", o, "--report", r)
                .assertError("7 channels do not divide the 244 values", "(option --channels)");
        Cli.run("hdbscan", cnS.toString(), "--channels", "5", "--out", o, "--report", r)
                .assertError("channels 5 is neither axis", "(n, 4, 61)", "(option --channels)");
        Cli.run("hdbscan", flat.toString(), "--channels", "x", "--out", o, "--report", r)
                .assertError("--channels", "'x'");
        Cli.run("hdbscan", cnS.toString(), "--no-waveforms", "--channels", "4", "--out", o, "--report", r)
                .assertError("--no-waveforms contradicts --channels");
        Cli.run("hdbscan", flat.toString(), "--waveforms-from", tmp.resolve("none.npy").toString(), "--out", o,
                "--report", r).assertError("none.npy: no such file", "(option --waveforms-from)");
        Cli.run("hdbscan", flat.toString(), "--waveforms-from", tmp.toString(), "--out", o, "--report", r)
                .assertError("is a directory", "(option --waveforms-from)");
        Cli.run("hdbscan", flat.toString(), "--waveforms-from", "-", "--out", o, "--report", r)
                .assertError("standard input", "(option --waveforms-from)");
        Path raw = tmp.resolve("clips.f32");
        Files.write(raw, new byte[16]);
        Cli.run("hdbscan", flat.toString(), "--waveforms-from", raw.toString(), "--out", o, "--report", r)
                .assertError("cannot tell the format", "(option --waveforms-from)");
        Cli.assertNothingWritten(out);
    }

    @Test
    void withoutAReportEachOptionIsRefusedBeforeTheRead(@TempDir Path tmp) throws IOException {
        // as sylva balltree refuses --report-level without --report: nothing is read, fitted or written
        Path out = tmp.resolve("out");
        String missing = tmp.resolve("nope.npy").toString();
        for (List<String> option : List.of(List.of("--channels", "4"), List.of("--waveforms"), List.of("--no-waveforms"),
                List.of("--waveforms-from", missing), List.of("--channels", "0"))) {
            List<String> args = new java.util.ArrayList<>(List.of("hdbscan", missing, "--out", out.toString()));
            args.addAll(option);
            Cli.run(args.toArray(String[]::new)).assertError(option.getFirst() + " chooses the waveforms --report draws; "
                    + "give --report too");
        }
        Cli.assertNothingWritten(out);
    }
}
