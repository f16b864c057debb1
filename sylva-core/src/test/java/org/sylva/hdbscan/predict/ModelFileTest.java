package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.features.PrincipalComponents;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.NonFinitePolicy;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.io.Npy;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** Saving and loading a model: the round trip changes no answer; damaged or foreign files are refused. */
class ModelFileTest {
    @TempDir
    Path dir;

    private static HdbscanModel model(boolean leaveRowsOut) {
        int n = 400;
        double[] x = HdbscanModelTest.blobs(n, 21);
        if (leaveRowsOut) {
            x[2 * 3] = Double.NaN;
            x[2 * 50 + 1] = Double.NEGATIVE_INFINITY;
        }
        HdbscanResult r = Hdbscan.builder().minClusterSize(12).minSamples(7).clusterSelectionMethod(SelectionMethod.LEAF)
                .clusterSelectionEpsilon(0.05).alpha(1.5).nonFinite(NonFinitePolicy.SKLEARN).threads(2).build()
                .fit(x, n, 2, ProgressListener.NONE, CancellationToken.NEVER);
        return legacy(HdbscanModel.of(r, PointSet.uncheckedFloat64(n, 2, x)));
    }

    /**
     * {@code m} as loaded from the file a Sylva before format version 7 wrote (without its index's partition), which
     * it writes again as such: the older layouts these tests take apart.
     */
    static HdbscanModel legacy(HdbscanModel m) {
        try {
            return HdbscanModel.fromBytes(m.toBytesWithoutLeafOrder(), "legacy");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Path saved(HdbscanModel m) throws IOException {
        Path f = dir.resolve("m.model");
        m.save(f);
        return f;
    }

    @Test
    void aLoadedModelAnswersExactlyAsTheSavedOne() throws IOException {
        for (boolean leaveOut : new boolean[] {false, true}) {
            HdbscanModel m = model(leaveOut);
            Path f = saved(m);
            assertEquals(List.of("m.model"), Files.list(dir).map(p -> p.getFileName().toString()).toList(),
                    "no temporary left beside the model");
            HdbscanModel back = HdbscanModel.load(f);
            PointSet fresh = PointSet.ofFloat64(300, 2, HdbscanModelTest.blobs(300, 22));
            assertEquals(m.parameters(), back.parameters());
            assertEquals(m.size(), back.size());
            assertArrayEquals(m.fittedRows(), back.fittedRows());
            assertEquals(m.condensedTree(), back.condensedTree());
            assertArrayEquals(m.predictionCoreDistances(), back.predictionCoreDistances());
            assertEquals(m.clusterCount(), back.clusterCount());
            for (int l = 0; l < m.clusterCount(); l++) assertArrayEquals(m.exemplars(l), back.exemplars(l));
            assertEquals(m.approximatePredict(fresh), back.approximatePredict(fresh));
            assertEquals(m.membershipVector(fresh), back.membershipVector(fresh));
            assertEquals(m.allPointsMembershipVectors(), back.allPointsMembershipVectors());
            assertEquals(m.spanningTree().orElseThrow(), back.spanningTree().orElseThrow());
            assertArrayEquals(m.labels(), back.labels());
            assertArrayEquals(m.probabilities(), back.probabilities());
            assertArrayEquals(m.outlierScores(), back.outlierScores());
            assertArrayEquals(m.dbscanClustering(0.3, 5), back.dbscanClustering(0.3, 5));
            // the format is deterministic: saving the loaded model writes the same bytes
            Path again = dir.resolve("again.model");
            back.save(again);
            assertArrayEquals(Files.readAllBytes(f), Files.readAllBytes(again));
            Files.delete(again);
            assertEquals(ModelFile.VERSION, ByteBuffer.wrap(Files.readAllBytes(f), 12, 4).order(ByteOrder.LITTLE_ENDIAN)
                    .getInt());
            assertEquals(Files.size(f), ModelFile.HEADER + 4
                    + ModelFile.payloadLength(m.fittedSize(), m.dimensions(), m.condensedTree().rows())
                    + ModelFile.treeLength(m.size(), m.fittedSize(), m.fittedSize()));
        }
    }

    /**
     * Arrays far larger than the reader's and writer's 64 KiB buffer, at offsets that straddle its ends: the
     * points in the file are the model's, value for value at the documented offset, and come back bitwise.
     */
    @Test
    void arraysLargerThanTheBufferRoundTrip() throws IOException {
        int n = 7001, d = 3;
        SplittableRandom rng = new SplittableRandom(5);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = (i / d % 7) * 10 + rng.nextDouble();
        HdbscanResult r = Hdbscan.builder().minClusterSize(15).threads(2).build()
                .fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel m = legacy(HdbscanModel.of(r, PointSet.uncheckedFloat64(n, d, x)));
        Path f = saved(m);
        byte[] bytes = Files.readAllBytes(f);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int points = ModelFile.HEADER + 42 + 4 * n;   // after the parameters and the fitted rows (version 2)
        for (int i = 0; i < n * d; i++) assertEquals(x[i], b.getDouble(points + 8 * i), "coordinate " + i);
        for (int i = 0; i < n; i++) assertEquals(i, b.getInt(ModelFile.HEADER + 42 + 4 * i), "fitted row " + i);
        for (HdbscanModel back : List.of(HdbscanModel.load(f), ModelFile.read("bytes", bytes))) {
            assertArrayEquals(x, back.rowsShared());
            assertArrayEquals(m.predictionCoreDistances(), back.predictionCoreDistances());
            assertArrayEquals(m.fittedRows(), back.fittedRows());
            assertEquals(m.condensedTree(), back.condensedTree());
            assertEquals(m.spanningTree().orElseThrow(), back.spanningTree().orElseThrow());
            Path again = dir.resolve("again.model");
            back.save(again);
            assertArrayEquals(bytes, Files.readAllBytes(again));
            Files.delete(again);
        }
    }

    /**
     * A model whose fitted coordinates are all float32 values (a float32 fit) is saved as version 6, its points as
     * float32 at their documented offset, half their float64 bytes, with its row shape; it loads bitwise and answers
     * alike, and saves to the same bytes again. A float32 NaN among its points is refused as a float64 one is.
     */
    @Test
    void float32PointsAreStoredAsFloat32() throws IOException {
        PointSet clips = org.sylva.demo.ClipLikeData.generate(1500, 31).points();
        int n = clips.size(), d = clips.dimensions();
        HdbscanResult r = Hdbscan.builder().minClusterSize(10).threads(2).build().fit(clips);
        HdbscanModel m = legacy(HdbscanModel.of(r, clips)).withRowShape(new RowShape(1, d));
        byte[] bytes = m.toBytes();
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(ModelFile.VERSION_6, b.getInt(12));
        assertEquals(ModelFile.HEADER + 4 + ModelFile.payloadLength(n, d, m.condensedTree().rows()) - 4L * n * d
                + ModelFile.version5Length(n, false) + ModelFile.treeLength(n, n, n) + ModelFile.ROW_SHAPE_LENGTH,
                bytes.length);
        int points = ModelFile.HEADER + 42 + 14 + 4 * n;   // after the parameters, version 5's fields, the fitted rows
        float[] c = clips.coordinates();
        for (int i = 0; i < n * d; i++) assertEquals(c[i], b.getFloat(points + 4 * i), "coordinate " + i);

        HdbscanModel back = HdbscanModel.fromBytes(bytes, "clips");
        assertArrayEquals(m.rowsShared(), back.rowsShared());
        assertArrayEquals(m.predictionCoreDistances(), back.predictionCoreDistances());
        assertEquals(m.condensedTree(), back.condensedTree());
        assertEquals(new RowShape(1, d), back.rowShape().orElseThrow());
        PointSet later = org.sylva.demo.ClipLikeData.generate(300, 32).points();
        assertEquals(m.approximatePredict(later), back.approximatePredict(later));
        assertEquals(m.membershipVector(later), back.membershipVector(later));
        assertArrayEquals(bytes, back.toBytes());

        byte[] bad = bytes.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putFloat(points + 4 * (3 * d + 2), Float.NaN);
        assertMentions(refusal(resealed(bad)), "fitted point 3, coordinate 2 is NaN");
    }

    /**
     * Version 7: a model made from a fit stores the partition of the fit's index (its points in leaf order and its
     * cut width) after the prediction core distances, its points as float32 or float64 as its width byte says; the
     * loaded model builds its index from that order (the fit's partition, not split again) and answers as the model
     * saved and as one whose index is split anew (an older file's); it saves to the same bytes again. An order that is
     * not a permutation, a bad width byte and a bad cut width are refused, naming them.
     */
    @Test
    void version7StoresTheFitsPartition() throws IOException {
        PointSet clips = org.sylva.demo.ClipLikeData.generate(2500, 41).points();
        double[] blobs = HdbscanModelTest.blobs(1200, 43);
        for (PointSet points : List.of(clips, PointSet.ofFloat64(1200, 2, blobs))) {
            int n = points.size(), d = points.dimensions();
            boolean narrow = points == clips;
            HdbscanResult r = Hdbscan.builder().minClusterSize(10).threads(2).build().fit(points);
            HdbscanModel m = HdbscanModel.of(r, points);
            byte[] bytes = m.toBytes();
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(ModelFile.VERSION_7, b.getInt(12));
            assertEquals(ModelFile.HEADER + 4 + ModelFile.payloadLength(n, d, m.condensedTree().rows())
                    - (narrow ? 4L * n * d : 0) + ModelFile.version5Length(n, false) + ModelFile.version7Length(n)
                    + ModelFile.treeLength(n, n, n) + ModelFile.ROW_SHAPE_LENGTH, bytes.length);
            int width = ModelFile.HEADER + 42 + 14;   // after the parameters and version 5's fields
            assertEquals(narrow ? 4 : 8, bytes[width]);
            int[] fitOrder = r.fittedLeafOrder().orElseThrow().points();
            assertEquals(r.fittedLeafOrder().orElseThrow().cutWidth(), b.getInt(width + 1));
            int order = width + 5 + 4 * n + (narrow ? 4 : 8) * n * d + 8 * n;   // after the rows, points and cores
            for (int i = 0; i < n; i++) assertEquals(fitOrder[i], b.getInt(order + 4 * i), "order entry " + i);

            HdbscanModel back = HdbscanModel.fromBytes(bytes, "v7");
            HdbscanModel split = legacy(m);
            PointSet later = narrow ? org.sylva.demo.ClipLikeData.generate(400, 42).points()
                    : PointSet.ofFloat64(400, 2, HdbscanModelTest.blobs(400, 44));
            Prediction want = m.approximatePredict(later);
            assertEquals(want, back.approximatePredict(later));
            assertEquals(want, split.approximatePredict(later));
            assertEquals(m.membershipVector(later), back.membershipVector(later));
            assertArrayEquals(fitOrder, back.fittedSearch().builtSearch().index().leafOrder().points(),
                    "the loaded model's index is the fit's partition");
            assertArrayEquals(bytes, back.toBytes());

            // another valid partition (the order reversed, cut by 7): the same answers, the same bytes saved again
            byte[] other = bytes.clone();
            ByteBuffer o = ByteBuffer.wrap(other).order(ByteOrder.LITTLE_ENDIAN);
            o.putInt(width + 1, 7);
            for (int i = 0; i < n; i++) o.putInt(order + 4 * i, fitOrder[n - 1 - i]);
            other = resealed(other);
            HdbscanModel reordered = HdbscanModel.fromBytes(other, "reordered");
            assertEquals(want, reordered.approximatePredict(later));
            assertEquals(m.membershipVector(later), reordered.membershipVector(later));
            assertArrayEquals(other, reordered.toBytes());
            if (!narrow) {
                // float64 points that are all float32 values: Sylva writes those as float32, so such a file is refused
                byte[] wide = bytes.clone();
                ByteBuffer w = ByteBuffer.wrap(wide).order(ByteOrder.LITTLE_ENDIAN);
                int at = width + 5 + 4 * n;
                for (int i = 0; i < n * d; i++) w.putDouble(at + 8 * i, (float) w.getDouble(at + 8 * i));
                assertMentions(refusal(resealed(wide)), "float64 points that are all float32 values");
            }

            byte[] twice = bytes.clone();
            ByteBuffer.wrap(twice).order(ByteOrder.LITTLE_ENDIAN).putInt(order + 4 * 5, fitOrder[9]);
            assertMentions(refusal(resealed(twice)), "the index order's entry", "named twice");
            byte[] badWidth = bytes.clone();
            badWidth[width] = 5;
            assertMentions(refusal(resealed(badWidth)), "bad point width byte (5)");
            byte[] otherNan = bytes.clone();   // p, a NaN of other bits: named by its bits, not as if NaN were wrong
            otherNan[ModelFile.HEADER + 43] = (byte) 0xFF;
            assertMentions(refusal(resealed(otherNan)), "bad p (NaN of bits 0x7ff80000000000ff) for the metric euclidean "
                    + "(which stores the NaN of bits 0x7ff8000000000000)");
            byte[] badCut = bytes.clone();
            ByteBuffer.wrap(badCut).order(ByteOrder.LITTLE_ENDIAN).putInt(width + 1, 0);
            assertMentions(refusal(resealed(badCut)), "cut width is 0");
        }
    }

    /** A fit on the scores of {@code n} clips' first {@code input} samples on {@code k} components. */
    private record Projected(float[] x, PrincipalComponents pc, HdbscanModel plain) {
        static Projected fit(int n, int input, int k, long seed) {
            PointSet clips = org.sylva.demo.ClipLikeData.generate(n, seed).points();
            float[] x = new float[n * input];
            for (int i = 0; i < n; i++) System.arraycopy(clips.coordinates(), i * clips.dimensions(), x, i * input, input);
            PrincipalComponents pc = PrincipalComponents.fit(x, n, input, k);
            double[] scores = pc.project(x, n);
            HdbscanResult r = Hdbscan.builder().minClusterSize(10).threads(2).build()
                    .fit(scores, n, k, ProgressListener.NONE, CancellationToken.NEVER);
            return new Projected(x, pc, legacy(HdbscanModel.of(r, PointSet.ofFloat64(n, k, scores))));
        }
    }

    /**
     * A fit on principal-component scores, saved with its projection (version 3): the loaded model takes new
     * points in the input's coordinates and answers as the saved one, bitwise, and as the model without the
     * projection answers the new points' scores; saving it again writes the same bytes.
     */
    @Test
    void aModelWithAProjectionRoundTripsAndProjectsNewPoints() throws IOException {
        int n = 500, input = 20, k = 3;
        Projected fit = Projected.fit(n, input, k, 5);
        float[] x = fit.x();
        PrincipalComponents pc = fit.pc();
        HdbscanModel plain = fit.plain();
        HdbscanModel m = plain.withProjection(pc);
        assertTrue(m.clusterCount() > 1, "clusters: " + m.clusterCount());
        // the new points' scores are the fit's, bitwise, from float32 and from (widened) float64 input
        double[] wide = new double[x.length];
        for (int i = 0; i < x.length; i++) wide[i] = x[i];
        Execution two = new Execution(2, ProgressListener.NONE, CancellationToken.NEVER);
        assertArrayEquals(m.rowsShared(), NewPoints.rows(PointSet.of(n, input, x), k, pc, two));
        assertArrayEquals(m.rowsShared(), NewPoints.rows(PointSet.ofFloat64(n, input, wide), k, pc, two));
        assertEquals(input, m.inputDimensions());
        assertEquals(k, m.dimensions());
        Path f = saved(m);
        byte[] bytes = Files.readAllBytes(f);
        assertEquals(ModelFile.VERSION_3, ByteBuffer.wrap(bytes, 12, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
        assertEquals(bytes.length, ModelFile.HEADER + 4 + ModelFile.payloadLength(n, k, m.condensedTree().rows())
                + ModelFile.treeLength(n, n, n) + ModelFile.projectionLength(input, k));
        HdbscanModel back = HdbscanModel.load(f);
        assertEquals(pc, back.projection().orElseThrow());
        assertArrayEquals(bytes, back.toBytes());

        PointSet later = org.sylva.demo.ClipLikeData.generate(200, 6).points();
        float[] y = new float[200 * input];
        for (int i = 0; i < 200; i++) System.arraycopy(later.coordinates(), i * later.dimensions(), y, i * input, input);
        PointSet raw = PointSet.of(200, input, y);
        PointSet projected = PointSet.ofFloat64(200, k, pc.project(y, 200));
        assertEquals(plain.approximatePredict(projected), back.approximatePredict(raw));
        assertEquals(plain.membershipVector(projected), back.membershipVector(raw));
        assertEquals(m.approximatePredict(raw), back.approximatePredict(raw));
        // the fitted points project onto their own scores: each connects to itself
        Prediction own = back.approximatePredict(PointSet.of(n, input, x));
        for (int i = 0; i < n; i++) assertEquals(i, own.connectingPoints()[i], "fitted point " + i);
        // a reselected model keeps the projection
        HdbscanModel leaf = back.reselect(back.parameters().toBuilder().clusterSelectionMethod(SelectionMethod.LEAF).build().parameters());
        assertEquals(input, leaf.inputDimensions());

        InvalidInputException wrong = assertThrows(InvalidInputException.class, () -> back.approximatePredict(projected));
        assertMentions(wrong.getMessage(), "new points have 3 coordinates", "projects points of 20 coordinates",
                "3 principal components");
        assertMentions(assertThrows(InvalidInputException.class, () -> m.withProjection(pc)).getMessage(), "already");
        PrincipalComponents twoComponents = PrincipalComponents.fit(x, n, input, 2);
        assertMentions(assertThrows(InvalidInputException.class, () -> plain.withProjection(twoComponents)).getMessage(),
                "2 components", "3 coordinates");
        // a stored coordinate count that differs from what the projection's bytes hold is refused, CRC or not
        int at = bytes.length - 4 - (int) ModelFile.projectionLength(input, k);
        for (int lie : new int[] {1, input - 1, input + 1, 700_000_000}) {
            byte[] bad = bytes.clone();
            ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(at, lie);
            assertMentions(refusal(resealed(bad)), "the projection says " + lie + " input coordinates",
                    "its bytes hold " + input);
        }
    }

    /**
     * A model of clips records their axes (format version 4), with or without a projection; the oldest version
     * that holds a model is still written for the others, so an older Sylva reads them.
     */
    @Test
    void aModelWithARowShapeRoundTripsWithAndWithoutAProjection() throws IOException {
        HdbscanModel plain = model(true);
        assertTrue(plain.rowShape().isEmpty());
        assertEquals(ModelFile.VERSION, version(plain.toBytes()));
        HdbscanModel shaped = plain.withRowShape(new RowShape(1, 2));
        byte[] bytes = shaped.toBytes();
        assertEquals(ModelFile.VERSION_4, version(bytes));
        assertEquals(plain.toBytes().length + ModelFile.ROW_SHAPE_LENGTH, bytes.length);
        HdbscanModel back = HdbscanModel.fromBytes(bytes, "shaped.model");
        assertEquals(new RowShape(1, 2), back.rowShape().orElseThrow());
        assertTrue(back.projection().isEmpty());
        assertArrayEquals(bytes, back.toBytes());
        PointSet fresh = PointSet.ofFloat64(300, 2, HdbscanModelTest.blobs(300, 23));
        assertEquals(plain.approximatePredict(fresh), back.approximatePredict(fresh));
        assertEquals(new RowShape(1, 2), back.reselect(back.parameters().toBuilder().minClusterSize(20).build()
                .parameters()).rowShape().orElseThrow(), "a reselected model keeps the shape");
        assertMentions(assertThrows(InvalidInputException.class, () -> plain.withRowShape(new RowShape(3, 1))).getMessage(),
                "shape (3, 1)", "input rows have 2");

        // with a projection: 20 input coordinates as (4, 5) arrays, scored on 3 components
        int n = 300, input = 20, k = 3;
        Projected fit = Projected.fit(n, input, k, 8);
        PrincipalComponents pc = fit.pc();
        HdbscanModel projected = fit.plain().withProjection(pc);
        HdbscanModel both = projected.withRowShape(new RowShape(4, 5));
        byte[] b = both.toBytes();
        assertEquals(ModelFile.VERSION_4, version(b));
        assertEquals(projected.toBytes().length + ModelFile.ROW_SHAPE_LENGTH, b.length);
        HdbscanModel again = HdbscanModel.fromBytes(b, "both.model");
        assertEquals(pc, again.projection().orElseThrow());
        assertEquals(new RowShape(4, 5), again.rowShape().orElseThrow());
        assertArrayEquals(b, again.toBytes());
        assertMentions(assertThrows(InvalidInputException.class, () -> projected.withRowShape(new RowShape(1, 3)))
                .getMessage(), "input rows have 20");

        // a stored shape that does not hold the input coordinates is refused, CRC or not
        int at = (int) (ModelFile.HEADER + ModelFile.payloadLength(n, k, both.condensedTree().rows())
                + ModelFile.treeLength(n, n, n));
        byte[] bad = b.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(at, 3);
        assertMentions(refusal(resealed(bad)), "the row shape (3, 5) does not hold the model's 20 input coordinates");
        bad = b.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(at + 4, -5);
        assertMentions(refusal(resealed(bad)), "the row shape (4, -5)");
    }

    private static int version(byte[] model) {
        return ByteBuffer.wrap(model, 12, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    private String refusal(byte[] content) throws IOException {
        Path f = dir.resolve("bad.model");
        Files.write(f, content);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> HdbscanModel.load(f));
        assertTrue(e.getMessage().startsWith("model file " + f + ": "), e.getMessage());
        return e.getMessage();
    }

    private static void assertMentions(String message, String... parts) {
        for (String p : parts) assertTrue(message.contains(p), "'" + p + "' missing from: " + message);
    }

    @Test
    void theBytesInMemoryAreTheFileAndAreCheckedAlike() throws IOException {
        HdbscanModel m = model(true);
        byte[] bytes = m.toBytes();
        assertArrayEquals(Files.readAllBytes(saved(m)), bytes);
        assertArrayEquals(bytes, HdbscanModel.fromBytes(bytes, "kept bytes").toBytes());
        byte[] altered = bytes.clone();
        altered[altered.length / 2] ^= 4;
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> HdbscanModel.fromBytes(altered, "kept bytes"));
        assertMentions(e.getMessage(), "kept bytes", "checksum");
    }

    /** A FIFO (as a shell's {@code <(cat m.model)} gives) is read once: its model, or what is wrong with its bytes. */
    @Test
    void aModelFromAPipeIsReadOnce() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(new ProcessBuilder("mkfifo", "--version").start().waitFor() == 0,
                "no mkfifo here");
        HdbscanModel m = model(true);
        byte[] good = Files.readAllBytes(saved(m));
        for (int len : new int[] {good.length, good.length / 2, 20, good.length + 1}) {
            Path fifo = dir.resolve("pipe" + len);
            assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    Files.write(fifo, Arrays.copyOf(good, len));
                } catch (IOException e) {
                    // a reader that stops at the model's end may close the pipe before the extra byte: fine
                }
            });
            if (len == good.length) {
                HdbscanModel back = HdbscanModel.load(fifo);
                assertArrayEquals(m.labels(), back.labels());
                assertEquals(m.condensedTree(), back.condensedTree());
            } else {
                InvalidInputException e = assertThrows(InvalidInputException.class, () -> HdbscanModel.load(fifo));
                assertMentions(e.getMessage(), len > good.length
                        ? "more bytes follow the end of the model (the header says " + good.length + " bytes)"
                        : len < ModelFile.HEADER ? "truncated: " + len + " bytes, shorter than a model file's header"
                        : "truncated: " + len + " bytes, the header says " + good.length);
            }
            writer.join();
        }
        // an endless device is refused by its first bytes, not read into the heap
        Path zero = Path.of("/dev/zero");
        if (Files.exists(zero)) {
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> HdbscanModel.load(zero));
            assertMentions(e.getMessage(), "not a Sylva model file");
        }
        InvalidInputException dash = assertThrows(InvalidInputException.class, () -> HdbscanModel.load(Path.of("-")));
        assertEquals("model file -: a model is read from a file, not from '-' (new points may come from '-'; a model "
                + "piped in can be given as /dev/stdin)", dash.getMessage());
    }

    @Test
    void truncatedFilesAreRefused() throws IOException {
        byte[] good = Files.readAllBytes(saved(model(false)));
        for (int len : new int[] {0, 5, 10, 20, 27, 28, 100, good.length / 2, good.length - 4, good.length - 1}) {
            String m = refusal(Arrays.copyOf(good, len));
            assertMentions(m, len == 0 ? "empty" : "truncated");
        }
        assertMentions(refusal(Arrays.copyOf(good, good.length + 3)), "3 bytes after the end");
        // a payload length near 2^64 is named as the header states it, not wrapped around
        for (long payload : new long[] {-1L, -32L, Long.MAX_VALUE}) {
            byte[] lying = good.clone();
            ByteBuffer.wrap(lying).order(ByteOrder.LITTLE_ENDIAN).putLong(16, payload);
            CRC32 c = new CRC32();
            c.update(lying, 0, 24);
            ByteBuffer.wrap(lying).order(ByteOrder.LITTLE_ENDIAN).putInt(24, (int) c.getValue());
            String says = new java.math.BigInteger(Long.toUnsignedString(payload)).add(java.math.BigInteger.valueOf(32))
                    .toString();
            assertMentions(refusal(lying), "truncated: " + good.length + " bytes, the header says " + says);
        }
        assertMentions(refusal(Arrays.copyOf(good, good.length + 1)), "1 byte after the end");
    }

    @Test
    void alteredFilesAreRefused() throws IOException {
        byte[] good = Files.readAllBytes(saved(model(true)));
        for (int at : new int[] {ModelFile.HEADER, ModelFile.HEADER + 60, good.length / 2, good.length - 5,
            good.length - 1}) {
            byte[] bad = good.clone();
            bad[at] ^= 0x10;
            assertMentions(refusal(bad), "checksum mismatch", "altered or corrupted");
        }
        // fields the parse refuses by themselves (the method byte, the fitted-row count, a fitted row's input
        // row): the checksum, summed as the parse reads, still names what happened to the file
        for (int at : new int[] {ModelFile.HEADER + 28, ModelFile.HEADER + 37, ModelFile.HEADER + 45}) {
            byte[] bad = good.clone();
            bad[at] = 0x7f;
            assertMentions(refusal(bad), "checksum mismatch", "altered or corrupted");
        }
        byte[] bad = good.clone();
        bad[17] ^= 1;   // the payload length
        assertMentions(refusal(bad), "damaged header");
    }

    @Test
    void foreignAndNewerFilesAreRefused() throws IOException {
        byte[] good = Files.readAllBytes(saved(model(false)));
        Path npy = dir.resolve("x.npy");
        Npy.writeFloat64(npy, new double[] {1, 2, 3, 4}, 2, 2);
        assertMentions(refusal(Files.readAllBytes(npy)), "not a Sylva model file", "NumPy .npy");
        assertMentions(refusal("labels,probabilities\n1,0.5\n".getBytes()), "not a Sylva model file");

        byte[] kind = good.clone();
        kind[8] = 'B';
        assertMentions(refusal(kind), "kind 'BDBM'", "not an HDBSCAN model");

        byte[] newer = withVersion(good, 8, true);
        assertMentions(refusal(newer), "format version 8", "newer Sylva", "reads versions 1 to 7");
        // a version 2 file called version 7 or 6 lacks the metric too
        assertMentions(refusal(withVersion(good, 7, true)), "bad p", "for the metric euclidean");
        assertMentions(refusal(withVersion(good, 6, true)), "bad p", "for the metric euclidean");
        // a version 2 file called version 5 lacks the metric: its first fitted rows read as one
        assertMentions(refusal(withVersion(good, 5, true)), "bad p", "for the metric euclidean");
        // a version 2 file called version 4 lacks the row shape
        assertMentions(refusal(withVersion(good, 4, true)), "payload bytes");
        // a version 2 file called version 3 lacks the projection
        assertMentions(refusal(withVersion(good, 3, true)), "projection", "payload bytes");
        // a newer version is named as such even when the rest of its header is laid out differently
        assertMentions(refusal(withVersion(good, 9, false)), "format version 9", "newer Sylva");
        assertMentions(refusal(withVersion(good, 0, true)), "unknown format version 0");

        Path sub = Files.createDirectory(dir.resolve("sub.model"));
        assertMentions(assertThrows(InvalidInputException.class, () -> HdbscanModel.load(sub)).getMessage(),
                "is a directory");
        assertThrows(NoSuchFileException.class, () -> HdbscanModel.load(dir.resolve("missing.model")));
    }

    @Test
    void aConsistentChecksumOverBadContentIsStillRefused() throws IOException {
        HdbscanModel m = model(false);
        byte[] good = Files.readAllBytes(saved(m));
        byte[] bad = good.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(ModelFile.HEADER, 1);   // min_cluster_size 1
        assertMentions(refusal(resealed(bad)), "min_cluster_size must be at least 2");

        // the first child id of the condensed tree: pointing it at the root breaks the tree
        int n = m.fittedSize(), d = m.dimensions(), rows = m.condensedTree().rows();
        int childAt = ModelFile.HEADER + 46 + 12 * n + 8 * n * d + 4 * rows;
        bad = good.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(childAt, n);
        assertMentions(refusal(resealed(bad)), "condensed tree row 0");

        // a NaN coordinate
        bad = good.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putDouble(ModelFile.HEADER + 42 + 4 * n, Double.NaN);
        assertMentions(refusal(resealed(bad)), "fitted point 0, coordinate 0 is NaN");

        // one input row more than the file holds: the sizes it gives are named with the bytes they take
        int total = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN).getInt(ModelFile.HEADER + 30);
        bad = good.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(ModelFile.HEADER + 30, total + 1);
        long payload = good.length - ModelFile.HEADER - 4;
        assertMentions(refusal(resealed(bad)), "its sizes (" + (total + 1) + " input rows, " + n + " fitted rows of " + d
                + " coordinates, " + rows + " condensed-tree rows) take " + (payload + 1) + " payload bytes, but the "
                + "payload has " + payload);

        // a payload shorter than the fixed fields, length and both checksums made to agree: the read stops at its end
        // (never taking the trailer for a field) and names the file once
        for (int p : new int[] {0, 20, 41}) {
            byte[] shortFile = new byte[ModelFile.HEADER + p + 4];
            System.arraycopy(good, 0, shortFile, 0, ModelFile.HEADER + p);
            ByteBuffer.wrap(shortFile).order(ByteOrder.LITTLE_ENDIAN).putLong(16, p);
            String message = refusal(resealed(withVersion(shortFile, 2, true)));
            assertMentions(message, "its payload of " + p + " bytes ends inside a field");
            assertEquals(message.indexOf("model file"), message.lastIndexOf("model file"), message);
        }
    }

    /**
     * A version 1 file (as Sylva wrote before storing the spanning tree) made from {@code m}'s version 2
     * bytes: the tree and the left-out labels dropped, version, length and both checksums rewritten.
     */
    static byte[] asVersion1(HdbscanModel m) {
        byte[] v2 = m.toBytes();
        long payload = ModelFile.payloadLength(m.fittedSize(), m.dimensions(), m.condensedTree().rows());
        byte[] b = new byte[(int) (ModelFile.HEADER + payload + 4)];
        System.arraycopy(v2, 0, b, 0, (int) (ModelFile.HEADER + payload));
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(16, payload);
        return resealed(withVersion(b, 1, true));
    }

    @Test
    void version1FilesAreStillReadAndRefuseWhatNeedsTheTree() throws IOException {
        for (boolean leaveOut : new boolean[] {false, true}) {
            HdbscanModel m = model(leaveOut);
            Path f = dir.resolve("v1.model");
            Files.write(f, asVersion1(m));
            HdbscanModel v1 = HdbscanModel.load(f);
            assertTrue(v1.spanningTree().isEmpty());
            assertEquals(m.condensedTree(), v1.condensedTree());
            PointSet fresh = PointSet.ofFloat64(300, 2, HdbscanModelTest.blobs(300, 22));
            assertEquals(m.approximatePredict(fresh), v1.approximatePredict(fresh));
            assertEquals(m.allPointsMembershipVectors(), v1.allPointsMembershipVectors());
            int[] labels = m.labels(), v1Labels = v1.labels();
            for (int i = 0; i < labels.length; i++) {
                assertEquals(labels[i] < -1 ? -2 : labels[i], v1Labels[i], "row " + i);   // v1 did not store why
            }
            String cut = assertThrows(InvalidInputException.class, () -> v1.dbscanClustering(0.3, 5)).getMessage();
            assertMentions(cut, "spanning tree", "format version 1", "--save-model");
            String re = assertThrows(InvalidInputException.class, () -> v1.reselect(m.parameters())).getMessage();
            assertMentions(re, "reselect", "format version 1");
            // a model without a tree is written as version 1 again, byte for byte
            assertArrayEquals(Files.readAllBytes(f), v1.toBytes());
        }
    }

    @Test
    void aVersion2TreeThatIsNoSpanningTreeIsRefused() throws IOException {
        HdbscanModel m = model(true);
        byte[] good = m.toBytes();
        int n = m.fittedSize(), e = n - 1;
        int treeAt = (int) (ModelFile.HEADER + ModelFile.payloadLength(n, m.dimensions(), m.condensedTree().rows()));
        int fromAt = treeAt + 4, toAt = fromAt + 4 * e, weightAt = toAt + 4 * e, leftAt = weightAt + 8 * e;

        byte[] bad = good.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(treeAt, e + 1);
        assertMentions(refusal(resealed(bad)), "spanning-tree edges for " + n);

        bad = good.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(toAt, n);
        assertMentions(refusal(resealed(bad)), "spanning-tree edge 0");

        bad = good.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putDouble(weightAt, 1e9);
        assertMentions(refusal(resealed(bad)), "out of edge order");

        bad = good.clone();   // the second edge made a copy of the first: a cycle (or out of order)
        ByteBuffer bb = ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN);
        bb.putInt(fromAt + 4, bb.getInt(fromAt));
        bb.putInt(toAt + 4, bb.getInt(toAt));
        bb.putDouble(weightAt + 8, bb.getDouble(weightAt));
        refusal(resealed(bad));

        bad = good.clone();
        bad[leftAt] = 5;
        assertMentions(refusal(resealed(bad)), "left-out row 0");

        // truncated inside the tree (the header's length no longer holds)
        assertMentions(refusal(Arrays.copyOf(good, weightAt + 3)), "truncated");
    }

    @Test
    void aCondensedTreeThatItsSpanningTreeDoesNotGiveIsRefused() throws IOException {
        HdbscanModel m = model(true);
        byte[] good = m.toBytes();
        int n = m.fittedSize(), d = m.dimensions(), rows = m.condensedTree().rows(), e = n - 1;
        int parentAt = ModelFile.HEADER + 46 + 12 * n + 8 * n * d, lambdaAt = parentAt + 8 * rows;
        int treeAt = (int) (ModelFile.HEADER + ModelFile.payloadLength(n, d, rows));
        int weightAt = treeAt + 4 + 8 * e;
        String lie = "the condensed tree is not the one its spanning tree gives at min_cluster_size ";

        // a point's lambda halved: still a well-formed condensed tree, but not this spanning tree's
        int pointRow = 0;
        while (m.condensedTree().child(pointRow) >= n) pointRow++;   // ends: every point is the child of a row
        double lambda = m.condensedTree().lambda(pointRow);
        byte[] bad = good.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putDouble(lambdaAt + 8 * pointRow, lambda / 2);
        assertMentions(refusal(resealed(bad)), lie + "12", "row " + pointRow + " is (parent", "lambda " + lambda / 2,
                "the spanning tree gives (parent", "lambda " + lambda + ",", "altered after it was written");

        // the heaviest edge made heavier (still in edge order): the root splits at another lambda
        bad = good.clone();
        ByteBuffer bb = ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN);
        bb.putDouble(weightAt + 8 * (e - 1), bb.getDouble(weightAt + 8 * (e - 1)) * 2);
        assertMentions(refusal(resealed(bad)), lie + "12");

        // min_cluster_size edited: the stored tree was condensed at 12, not 13
        bad = good.clone();
        ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN).putInt(ModelFile.HEADER, 13);
        assertMentions(refusal(resealed(bad)), lie + "13");

        // the untouched bytes still load, to the same model
        assertArrayEquals(good, HdbscanModel.fromBytes(good, "good").toBytes());
    }

    /**
     * A load with a listener tells the bytes it reads (one pass: the checksum is summed as the parse reads) as a
     * count of the file's size that never goes back and ends whole, and reads the same model; a cancelled token
     * stops it.
     */
    @Test
    void aLoadTellsItsBytesAndStopsWhenCancelled() throws IOException {
        int n = 9000, d = 16;   // about 1.6 MB: the read tells a megabyte on its way
        java.util.SplittableRandom rng = new java.util.SplittableRandom(8);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = rng.nextGaussian() + (i / d % 3) * 5;
        HdbscanResult r = Hdbscan.builder().minClusterSize(20).threads(2).build()
                .fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel m = legacy(HdbscanModel.of(r, PointSet.uncheckedFloat64(n, d, x)));
        Path f = saved(m);
        long size = Files.size(f);
        assertTrue(size > (1 << 20) + ModelFile.HEADER, size + " bytes");
        List<long[]> seen = new java.util.ArrayList<>();
        HdbscanModel back = HdbscanModel.load(f, (stage, done, total) -> {
            assertEquals(HdbscanModel.READ_STAGE, stage);
            seen.add(new long[] {done, total});
        }, new CancellationToken());
        assertArrayEquals(m.toBytes(), back.toBytes());
        long last = 0;
        boolean between = false;
        for (long[] p : seen) {
            assertEquals(size, p[1]);
            assertTrue(p[0] >= last && p[0] <= p[1], p[0] + " after " + last);
            between |= p[0] > 0 && p[0] < p[1];
            last = p[0];
        }
        assertTrue(between, "no report between the start and the end: " + seen.size() + " reports");
        assertEquals(size, last);

        CancellationToken cancelled = new CancellationToken();
        cancelled.cancel();
        assertThrows(org.sylva.progress.CancelledException.class, () -> HdbscanModel.load(f, ProgressListener.NONE, cancelled));
    }

    /** {@code file} with its version field set; {@code seal}: with the header checksum recomputed. */
    private static byte[] withVersion(byte[] file, int version, boolean seal) {
        byte[] b = file.clone();
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(12, version);
        if (seal) {
            CRC32 c = new CRC32();
            c.update(b, 0, 24);
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(24, (int) c.getValue());
        }
        return b;
    }

    /** {@code file} with the payload checksum recomputed (an edit that keeps the file "valid"). */
    static byte[] resealed(byte[] file) {
        CRC32 c = new CRC32();
        c.update(file, ModelFile.HEADER, file.length - ModelFile.HEADER - 4);
        byte[] b = file.clone();
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(b.length - 4, (int) c.getValue());
        return b;
    }
}
