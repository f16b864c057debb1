package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sylva.balltree.BallTree;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.PointSet;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.io.NpyDtype;

/** {@code sylva balltree} end to end: the four arrays, batches, the partition, the report, CSV output. */
class BallTreeCommandTest {
    static final int N = 300;
    @TempDir
    static Path shared;
    static PointSet cloud;
    static Path cloudNpy;
    static Path batchNpy;
    static long[] batchIds;

    @BeforeAll
    static void data() throws IOException {
        cloud = TestData.blob(N, 3, 11);
        cloudNpy = TestData.writeNpy(cloud, shared.resolve("cloud.npy"));
        batchIds = new long[N];
        for (int i = 0; i < N; i++) batchIds[i] = i < 100 ? 0 : i < 220 ? 1 : 2;
        batchNpy = shared.resolve("batch.npy");
        Npy.writeInt64(batchNpy, batchIds, N);
    }

    static void assertTreeFiles(Path out, BallTree expected, BatchLayout layout) throws IOException {
        assertEquals(Cli.withManifest(List.of("levels.npy", "mask.npy", "offsets.npy", "tree_idx.npy")), Cli.list(out));
        NpyArray idx = Npy.read(out.resolve("tree_idx.npy"));
        assertEquals(NpyDtype.INT64, idx.dtype());
        assertArrayEquals(new int[] {expected.size()}, idx.shape());
        assertArrayEquals(expected.indicesAsLong(), idx.toInt64());
        NpyArray mask = Npy.read(out.resolve("mask.npy"));
        assertEquals(NpyDtype.BOOL, mask.dtype());
        assertArrayEquals(expected.mask(), mask.toBool());
        NpyArray offsets = Npy.read(out.resolve("offsets.npy"));
        assertEquals(NpyDtype.INT64, offsets.dtype());
        long[] want = new long[layout.batchCount() + 1];
        for (int i = 0; i < want.length; i++) want[i] = layout.slotOffsets()[i];
        assertArrayEquals(want, offsets.toInt64());
        assertEquals(expected.size(), want[want.length - 1], "the last offset is the total number of slots");
        NpyArray levels = Npy.read(out.resolve("levels.npy"));
        assertEquals(NpyDtype.INT32, levels.dtype());
        assertArrayEquals(layout.levels(), levels.toInt32());
    }

    @Test
    void singleBatchTreeEqualsTheLibrary(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("tree");
        Cli.Result r = Cli.run("balltree", cloudNpy.toString(), "--out", out.toString()).assertOk();
        BatchLayout layout = BatchLayout.single(N);
        assertTreeFiles(out, new BallTreeBuilder().threads(1).build(cloud, layout), layout);
        assertTrue(r.err().contains("ball tree of " + N + " points (1 batch, "), r.err());
        assertTrue(r.err().lines().anyMatch(l -> l.startsWith("ball tree ") && l.contains("100.0%")),
                () -> "a progress line for the stage:\n" + r.err());
    }

    @Test
    void batchedTreeEqualsTheLibraryWhateverTheThreads(@TempDir Path tmp) throws IOException {
        BatchLayout layout = BatchLayout.of(N, batchIds);
        BallTree expected = new BallTreeBuilder().threads(1).build(cloud, layout);
        assertEquals(3, layout.batchCount());
        for (String threads : List.of("1", "2", "4")) {
            Path out = tmp.resolve("t" + threads);
            Cli.Result r = Cli.run("balltree", cloudNpy.toString(), "--batch", batchNpy.toString(), "--out", out.toString(),
                    "--threads", threads, "--quiet").assertOk();
            assertEquals("", r.err());
            assertTreeFiles(out, expected, layout);
        }
    }

    @Test
    void bothKernelChoicesWriteTheSameTree(@TempDir Path tmp) throws IOException {
        BatchLayout layout = BatchLayout.of(N, batchIds);
        BallTree expected = new BallTreeBuilder().threads(1).vectorKernels(false).build(cloud, layout);
        for (String kernels : List.of("scalar", "vector", "VECTOR")) {
            Path out = tmp.resolve("k" + kernels);
            Cli.run("balltree", cloudNpy.toString(), "--batch", batchNpy.toString(), "--out", out.toString(),
                    "--kernels", kernels, "-q").assertOk();
            assertTreeFiles(out, expected, layout);
        }
        Cli.Result bad = Cli.run("balltree", cloudNpy.toString(), "--out", tmp.resolve("x").toString(), "--kernels", "gpu");
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("--kernels"), bad.err());
    }

    @Test
    void vectorKernelsMissingIsAWarningNotAnError(@TempDir Path tmp) throws Exception {
        // A child JVM where the kernels are switched off stands for one without jdk.incubator.vector.
        Path out = tmp.resolve("t");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dsylva.kernels=scalar", "-cp", cp, Main.class.getName(),
                "balltree", cloudNpy.toString(), "--out", out.toString(), "--kernels", "vector")
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), output);
        assertTrue(output.contains("sylva: warning: --kernels vector: this JVM has no Vector API kernels"), output);
        // The reason is the provider's own: here the switch, not a missing module.
        assertTrue(output.contains("(-Dsylva.kernels=scalar)"), output);
        BatchLayout layout = BatchLayout.single(N);
        assertTreeFiles(out, new BallTreeBuilder().threads(1).build(cloud, layout), layout);
    }

    @Test
    void noPointsGiveAnEmptyTreeAndAnEmptyPermutation(@TempDir Path tmp) throws IOException {
        Path empty = TestData.writeNpy(PointSet.of(0, 3, new float[0]), tmp.resolve("empty.npy"));
        Path out = tmp.resolve("tree");
        Cli.Result r = Cli.run("balltree", empty.toString(), "--out", out.toString()).assertOk();
        assertTreeFiles(out, new BallTreeBuilder().build(PointSet.of(0, 3, new float[0])), BatchLayout.single(0));
        assertArrayEquals(new long[0], Npy.read(out.resolve("tree_idx.npy")).toInt64());
        assertArrayEquals(new long[] {0}, Npy.read(out.resolve("offsets.npy")).toInt64());
        assertTrue(r.err().contains("ball tree of 0 points (0 batches, 0 slots)"), r.err());
        Path part = tmp.resolve("part");
        Cli.run("balltree", empty.toString(), "--partition-level", "2", "--out", part.toString(), "-q").assertOk();
        assertArrayEquals(new long[0], Npy.read(part.resolve("perm.npy")).toInt64());
    }

    /** Any integer dtype, as a 1-D array or a column: the same tree (as sylva.build_balltree takes them). */
    @Test
    void batchIdsOfEveryIntegerDtypeAndAColumnGiveTheSameTree(@TempDir Path tmp) throws IOException {
        Path want = tmp.resolve("int64");
        Cli.run("balltree", cloudNpy.toString(), "--batch", batchNpy.toString(), "--out", want.toString(), "-q").assertOk();
        int[] asInt = new int[N];
        byte[] asByte = new byte[N];
        for (int i = 0; i < N; i++) asByte[i] = (byte) (asInt[i] = (int) batchIds[i]);
        Path int32Column = tmp.resolve("i4col.npy");
        Npy.writeInt32(int32Column, asInt, N, 1);
        Path uint8 = tmp.resolve("u1.npy");
        Npy.writeUint8(uint8, asByte, N);
        // uint32 and uint64: the same bytes as int32 and int64 for these small ids, under another descr
        Path uint32 = retyped(tmp, "i4col.npy", "u4.npy", "<i4", "<u4");
        Path int64 = tmp.resolve("i8.npy");
        Npy.writeInt64(int64, batchIds, N, 1);
        Path uint64 = retyped(tmp, "i8.npy", "u8.npy", "<i8", "<u8");
        for (Path ids : List.of(int32Column, uint8, uint32, uint64)) {
            Path out = tmp.resolve("out-" + ids.getFileName());
            Cli.run("balltree", cloudNpy.toString(), "--batch", ids.toString(), "--out", out.toString(), "-q").assertOk();
            for (String f : List.of("tree_idx.npy", "mask.npy", "offsets.npy", "levels.npy")) {
                assertArrayEquals(Files.readAllBytes(want.resolve(f)), Files.readAllBytes(out.resolve(f)), ids + ": " + f);
            }
        }
    }

    /** Batch ids of a dtype no reader takes are named as batch ids: the points' list of dtypes holds floats and bool. */
    @Test
    void batchIdsOfAnUnreadableDtypeAreToldTheyMustBeIntegers(@TempDir Path tmp) throws IOException {
        int[] ids = new int[N];
        Npy.writeInt32(tmp.resolve("i4.npy"), ids, N);
        Path strings = retyped(tmp, "i4.npy", "u4str.npy", "<i4", "<U1");   // 4 bytes a value, as '<i4'
        Cli.Result r = Cli.run("balltree", cloudNpy.toString(), "--batch", strings.toString(), "--out",
                tmp.resolve("out").toString());
        r.assertError();
        assertTrue(r.err().contains(strings + ": batch ids must have an integer dtype (e.g. int64); got descr '<U1'"),
                r.err());
        assertFalse(r.err().contains("float32"), r.err());
        // an input of no points has no batch to draw
        Path empty = TestData.writeNpy(PointSet.of(0, 3, new float[0]), tmp.resolve("empty.npy"));
        Cli.Result none = Cli.run("balltree", empty.toString(), "--out", tmp.resolve("e").toString(), "--report",
                tmp.resolve("e.html").toString(), "--report-batch", "0");
        none.assertError();
        assertTrue(none.err().contains("--report-batch 0: there are no batches (the input has no points)"), none.err());
    }

    private static Path retyped(Path dir, String from, String to, String descr, String newDescr) throws IOException {
        byte[] b = Files.readAllBytes(dir.resolve(from));
        String header = new String(b, 0, 128, java.nio.charset.StandardCharsets.ISO_8859_1);
        int at = header.indexOf("'" + descr + "'") + 1;
        assertTrue(at > 0, header);
        byte[] d = newDescr.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        System.arraycopy(d, 0, b, at, d.length);
        return Files.write(dir.resolve(to), b);
    }

    @Test
    void aOnePointBatchIsThePointTwiceWithThePaddingMasked(@TempDir Path tmp) throws IOException {
        // Batches of 2, 1 and 3 points: the middle batch is [p, p] with mask [true, false].
        PointSet pts = TestData.blob(6, 3, 5);
        Path f = TestData.writeNpy(pts, tmp.resolve("six.npy"));
        Path ids = tmp.resolve("ids.npy");
        Npy.writeInt64(ids, new long[] {0, 0, 1, 2, 2, 2}, 6);
        Path out = tmp.resolve("tree");
        Cli.Result r = Cli.run("balltree", f.toString(), "--batch", ids.toString(), "--out", out.toString()).assertOk();
        assertArrayEquals(new long[] {0, 2, 4, 8}, Npy.read(out.resolve("offsets.npy")).toInt64());
        long[] idx = Npy.read(out.resolve("tree_idx.npy")).toInt64();
        boolean[] mask = Npy.read(out.resolve("mask.npy")).toBool();
        assertArrayEquals(new long[] {2, 2}, new long[] {idx[2], idx[3]});
        assertArrayEquals(new boolean[] {true, false}, new boolean[] {mask[2], mask[3]});
        assertTrue(r.err().contains("ball tree of 6 points (3 batches, 8 slots)"), r.err());
    }

    /**
     * The largest batch has 120 points: single points from level 7 = ceil(log2 120) on, so every deeper level, up to
     * any size (as sylva.partition_balltree takes it), writes the same perm, with a note; level 6 still has pairs.
     */
    @Test
    void aPartitionLevelPastSinglePointsIsTheSameCellsWithANote(@TempDir Path tmp) throws IOException {
        assertEquals(7, BallTreeCommand.singlePointLevel(BatchLayout.of(N, batchIds)));
        byte[] singles = null;
        for (String level : List.of("6", "7", "8", "3000000000", "1000000000000000000000000000000")) {
            Path out = tmp.resolve("part" + level.length() + level.charAt(0));
            Cli.Result r = Cli.run("balltree", cloudNpy.toString(), "--batch", batchNpy.toString(), "--partition-level",
                    level, "--out", out.toString()).assertOk();
            byte[] perm = Files.readAllBytes(out.resolve("perm.npy"));
            boolean deeper = level.length() > 1 || level.charAt(0) > '7';
            assertEquals(deeper, r.err().contains("sylva: note: --partition-level " + level + " is deeper than needed: "
                    + "every batch's cells are single points from level 7 on"), level + ": " + r.err());
            if (level.equals("6")) {
                singles = perm;   // compared with level 7's, then replaced by it
            } else if (level.equals("7")) {
                assertFalse(java.util.Arrays.equals(singles, perm), "level 6 still has cells of two points");
                singles = perm;
            } else {
                assertArrayEquals(singles, perm, level);
            }
        }
        // one batch of 5 points: single points from level 3
        assertEquals(3, BallTreeCommand.singlePointLevel(BatchLayout.single(5)));
        assertEquals(0, BallTreeCommand.singlePointLevel(BatchLayout.single(1)));
        assertEquals(1, BallTreeCommand.singlePointLevel(BatchLayout.single(2)));
    }

    @Test
    void partitionLevelWritesPermOnly(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("part");
        Cli.run("balltree", cloudNpy.toString(), "--batch", batchNpy.toString(), "--partition-level", "3",
                "--out", out.toString(), "-q").assertOk();
        assertEquals(Cli.withManifest(List.of("perm.npy")), Cli.list(out));
        NpyArray perm = Npy.read(out.resolve("perm.npy"));
        assertEquals(NpyDtype.INT64, perm.dtype());
        int[] want = new BallTreeBuilder().threads(1).partition(cloud, BatchLayout.of(N, batchIds), 3);
        long[] w = new long[want.length];
        for (int i = 0; i < want.length; i++) w[i] = want[i];
        assertArrayEquals(w, perm.toInt64());
        assertEquals(N, w.length, "a permutation of the points");
    }

    @Test
    void reportIsSelfContainedHtml(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("tree");
        Path report = out.resolve("balls.html");
        Cli.run("balltree", cloudNpy.toString(), "--batch", batchNpy.toString(), "--out", out.toString(),
                "--report", report.toString(), "--report-level", "2", "-q").assertOk();
        assertEquals(Cli.withManifest(List.of("balls.html", "levels.npy", "mask.npy", "offsets.npy", "tree_idx.npy")),
                Cli.list(out));
        HdbscanCommandTest.assertSelfContainedHtml(Files.readString(report));
    }

    @Test
    void aReportLevelDeeperThanTheTreeIsNamed(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("tree");
        Path report = out.resolve("balls.html");
        Cli.Result r = Cli.run("balltree", cloudNpy.toString(), "--batch", batchNpy.toString(), "--out", out.toString(),
                "--report", report.toString(), "--report-level", "99");
        r.assertOk();
        assertTrue(r.err().contains("--report-level 99 is deeper than batch 1's tree (levels 0 to "), r.err());
        assertTrue(Files.readString(report).contains("The colours were to be those of level 99 (--report-level)"));
        Cli.Result fits = Cli.run("balltree", cloudNpy.toString(), "--batch", batchNpy.toString(), "--out", out.toString(),
                "--report", report.toString(), "--report-level", "1");
        fits.assertOk();
        assertFalse(fits.err().contains("deeper than the tree"), fits.err());
        // the default level (3) on a tree of one level: the user asked for no level, so no note names one
        Path four = TestData.writeNpy(TestData.blob(4, 2, 3), tmp.resolve("four.npy"));
        Cli.Result small = Cli.run("balltree", four.toString(), "--out", tmp.resolve("small").toString(), "--report",
                tmp.resolve("small.html").toString());
        small.assertOk();
        assertFalse(small.err().contains("--report-level"), small.err());
        Cli.Result named = Cli.run("balltree", four.toString(), "--out", tmp.resolve("small").toString(), "--report",
                tmp.resolve("small.html").toString(), "--report-level", "3");
        named.assertOk();
        assertTrue(named.err().contains("--report-level 3 is deeper than batch 0's tree (levels 0 to 1)"), named.err());
    }

    @Test
    void theReportDrawsTheLargestBatchOrTheOneNamed(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("tree");
        Path report = out.resolve("balls.html");
        // batches of 100, 120 and 80 points: batch 1 by default
        Cli.run("balltree", cloudNpy.toString(), "--batch", batchNpy.toString(), "--out", out.toString(),
                "--report", report.toString(), "-q").assertOk();
        assertTrue(Files.readString(report).contains("Batch 1 (of 3, numbered from 0) \u00b7 120 points"), "the largest batch");
        Cli.run("balltree", cloudNpy.toString(), "--batch", batchNpy.toString(), "--out", out.toString(),
                "--report", report.toString(), "--report-batch", "2", "-q").assertOk();
        assertTrue(Files.readString(report).contains("Batch 2 (of 3, numbered from 0) \u00b7 80 points"));
        Cli.Result none = Cli.run("balltree", cloudNpy.toString(), "--batch", batchNpy.toString(), "--out",
                tmp.resolve("other").toString(), "--report", tmp.resolve("r.html").toString(), "--report-batch", "3");
        none.assertError();
        assertTrue(none.err().contains("--report-batch 3: there are 3 batches (0 to 2)"), none.err());
        assertFalse(Files.exists(tmp.resolve("other")), "nothing written");
        Cli.Result alone = Cli.run("balltree", cloudNpy.toString(), "--out", tmp.resolve("o2").toString(),
                "--report-batch", "0");
        alone.assertError();
        assertTrue(alone.err().contains("give --report too"), alone.err());
    }

    @Test
    void csvFormatAndCsvInput(@TempDir Path tmp) throws IOException {
        Path csv = TestData.writeCsv(cloud, tmp.resolve("cloud.csv"), ',', false);
        Path out = tmp.resolve("tree");
        Cli.run("balltree", csv.toString(), "--format", "csv", "--out", out.toString(), "-q").assertOk();
        assertEquals(Cli.withManifest(List.of("levels.csv", "mask.csv", "offsets.csv", "tree_idx.csv")), Cli.list(out));
        BallTree expected = new BallTreeBuilder().threads(1).build(cloud, BatchLayout.single(N));
        List<String> idx = Files.readAllLines(out.resolve("tree_idx.csv"));
        assertEquals(expected.size(), idx.size());
        for (int s = 0; s < idx.size(); s++) {
            assertEquals(expected.indicesAsLong()[s], (long) Double.parseDouble(idx.get(s)), "slot " + s);
        }
    }

    @Test
    void onlyATwoDimensionalArrayIsTakenAsErwinTakesIt(@TempDir Path tmp) throws IOException {
        Path line = tmp.resolve("line.npy");
        Npy.write(line, NpyArray.ofFloat32(new float[] {1, 2, 3, 4}, 4));
        Path out = tmp.resolve("tree");
        Cli.run("balltree", line.toString(), "--out", out.toString())
                .assertError("line.npy: a ball tree takes points of shape (n, d); found shape (4,)", "shape (n, 1)");
        Cli.Result stdin = Cli.runWithStdin(Files.readAllBytes(line), "balltree", "-", "--out", out.toString());
        stdin.assertError("-: a ball tree takes points of shape (n, d); found shape (4,)");
        Path clips = tmp.resolve("clips.npy");
        Npy.write(clips, NpyArray.ofFloat32(new float[12], 2, 2, 3));
        Cli.run("balltree", clips.toString(), "--out", out.toString()).assertError("found shape (2, 2, 3)");
        Cli.assertNothingWritten(out);
        Path column = tmp.resolve("column.npy");
        Npy.write(column, NpyArray.ofFloat32(new float[] {1, 2, 3, 4}, 4, 1));
        Cli.run("balltree", column.toString(), "--out", out.toString(), "-q").assertOk();
    }

    @Test
    void textWithMoreDigitsThanFloat32HoldsIsWarnedAboutShortDecimalsAreNot(@TempDir Path tmp) throws IOException {
        Path csv = tmp.resolve("long.csv");
        Files.writeString(csv, "16777217,0\n16777216,1\n16777218,2\n0.1,3\n");
        Path out = tmp.resolve("tree");
        Cli.Result r = Cli.run("balltree", csv.toString(), "--out", out.toString(), "-q").assertOk();
        assertTrue(r.err().contains("long.csv: 1 of 8 values have more significant digits than float32 holds and were"
                + " rounded (first: 1.6777217E7 became 1.6777216E7, at row 0, column 0, counting from 0)"), r.err());
        Path tsv = tmp.resolve("short.tsv");
        Files.writeString(tsv, "0.1\t0.2\n0.3\t1e-7\n16777216\t-2.5\n123456.7\t8\n");
        r = Cli.run("balltree", tsv.toString(), "--out", tmp.resolve("tree2").toString(), "-q").assertOk();
        assertEquals("", r.err());
    }

    @Test
    void aFloat64ValueBeyondFloat32IsNamedNotCalledInfinite(@TempDir Path tmp) throws IOException {
        double[] v = {1, 2, 3, 4, 5, 6, 7, 8};
        v[5] = -1e39;
        Path npy = tmp.resolve("wide.npy");
        Npy.write(npy, NpyArray.ofFloat64(v, 4, 2));
        Path out = tmp.resolve("tree");
        String line = Cli.run("balltree", npy.toString(), "--out", out.toString())
                .assertError("wide.npy: row 2, column 1 (counting from 0) is -1.0E39, beyond float32's range");
        assertFalse(line.contains("inf"), line);
        Path csv = tmp.resolve("wide.csv");
        Files.writeString(csv, "1,2\n3,4\n5,1e39\n7,8\n");
        Cli.run("balltree", csv.toString(), "--out", out.toString())
                .assertError("wide.csv: row 2, column 1 (counting from 0; line 3 of the file) is 1.0E39, beyond float32's range");
        Cli.assertNothingWritten(out);
        v[5] = Double.POSITIVE_INFINITY;
        Npy.write(npy, NpyArray.ofFloat64(v, 4, 2));
        Cli.run("balltree", npy.toString(), "--out", out.toString())
                .assertError("row 2, column 1 (counting from 0) is +inf; a ball tree needs finite coordinates");
    }

    /** A --batch file that is missing, a folder, not .npy, or of the wrong length: the error names the option. */
    @Test
    void aBadBatchFileIsRefusedNamingTheOption(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("out");
        Path text = Files.writeString(tmp.resolve("batch.txt"), "0\n1\n");
        Path folder = Files.createDirectories(tmp.resolve("ids.npy"));
        Cli.run("balltree", cloudNpy.toString(), "--batch", tmp.resolve("missing.npy").toString(), "--out", out.toString())
                .assertError("missing.npy: no such file", "(option --batch)");
        Cli.run("balltree", cloudNpy.toString(), "--batch", text.toString(), "--out", out.toString())
                .assertError("batch.txt: batch ids are read from a .npy file", "(option --batch)");
        Cli.run("balltree", cloudNpy.toString(), "--batch", folder.toString(), "--out", out.toString())
                .assertError("is a folder", "(option --batch)");
        Path shortIds = tmp.resolve("short.npy");
        Npy.writeInt64(shortIds, new long[] {0, 1, 1}, 3);
        Cli.run("balltree", cloudNpy.toString(), "--batch", shortIds.toString(), "--out", out.toString())
                .assertError("3 batch ids for", "(option --batch)");
        assertFalse(Files.exists(out), "nothing made");
    }

    /**
     * {@code --backend simd} is refused where the vector kernels cannot run (a JVM without the Vector API module), as
     * {@code sylva hdbscan --backend simd} is; {@code --kernels vector} warns and builds with the scalar code.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES,
            threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void simdIsRefusedWhereTheVectorKernelsCannotRun(@TempDir Path tmp) throws Exception {
        Path in = TestData.writeNpy(TestData.blob(200, 3, 4), tmp.resolve("cloud.npy"));
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String[] base = {javaBin, "-cp", System.getProperty("java.class.path"), Main.class.getName(), "balltree",
            in.toString()};
        Process simd = new ProcessBuilder(concat(base, "--backend", "simd", "--out", tmp.resolve("s").toString()))
                .redirectErrorStream(true).start();
        String refused = new String(simd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(ExitStatus.ERROR, simd.waitFor(), refused);
        assertTrue(refused.contains("backend simd is not available: ") && refused.contains("jdk.incubator.vector"),
                refused);
        assertFalse(Files.exists(tmp.resolve("s")), "refused before anything is created");
        Process vector = new ProcessBuilder(concat(base, "--kernels", "vector", "--out", tmp.resolve("v").toString()))
                .redirectErrorStream(true).start();
        String warned = new String(vector.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, vector.waitFor(), warned);
        assertTrue(warned.contains("sylva: warning: --kernels vector: this JVM has no Vector API kernels"), warned);
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
