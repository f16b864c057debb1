package org.sylva.gpu;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sylva.balltree.BallTree;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * The GPU ball-tree engine (OpenCL; PoCL in CI) against the CPU engine, byte for byte, on generated
 * input: batch sizes from 1 to 70 000, d from 1 to 16, heavy duplicates, all-equal points, signed
 * zeros, many small batches and one large batch, partitions at several levels; the host checks; the
 * device-buffer API; cancellation.
 */
class GpuTreeEngineTest {
    private static GpuTreeEngine engine() {
        return new GpuTreeEngine(TestDevice.openCl());
    }

    /** Coordinates of one kind: 0 uniform, 1 few distinct values (heavy duplicates), 2 all equal, 3 signed zeros and ties. */
    private static float[] points(SplittableRandom r, int n, int d, int kind) {
        float[] x = new float[n * d];
        for (int i = 0; i < x.length; i++) {
            x[i] = switch (kind) {
                case 0 -> (float) (r.nextDouble() * 2 - 1);
                case 1 -> r.nextInt(5) * 0.25f;
                case 2 -> 3.5f;
                default -> r.nextBoolean() ? (r.nextBoolean() ? 0.0f : -0.0f) : r.nextInt(3) - 1;
            };
        }
        return x;
    }

    private static int[] evenIds(int batches, int size) {
        int[] sizes = new int[batches];
        Arrays.fill(sizes, size);
        return ids(sizes);
    }

    private static int[] ids(int[] sizes) {
        int n = Arrays.stream(sizes).sum();
        int[] ids = new int[n];
        int at = 0;
        for (int b = 0; b < sizes.length; b++) {
            Arrays.fill(ids, at, at + sizes[b], b);
            at += sizes[b];
        }
        return ids;
    }

    /** Both ways of the GPU engine: small nodes in local memory (the default), and every level global. */
    private static GpuTreeEngine[] engines() {
        return new GpuTreeEngine[] {engine(), new GpuTreeEngine(TestDevice.openCl(), false)};
    }

    private static void sameAsCpu(float[] x, int d, int[] ids, String what) {
        PointSet pts = PointSet.of(x.length / d, d, x);
        BallTree want = new BallTreeBuilder().threads(1).build(pts, ids);
        for (GpuTreeEngine e : engines()) {
            BallTree got = new BallTreeBuilder().engine(e).build(pts, ids);
            assertArrayEquals(want.indices(), got.indices(), what + ": tree_idx");
            assertArrayEquals(want.maskBytes(), got.maskBytes(), what + ": mask");
            assertEquals(want, got, what);
        }
    }

    @Test
    void randomBatchesOfEveryKindAndDimension() {
        SplittableRandom r = new SplittableRandom(22);
        int[] singles = {1, 2, 3, 4, 5, 7, 8, 9, 17, 31, 33, 100, 255, 256, 257, 1000, 4097};
        for (int i = 0; i < singles.length; i++) {
            int d = 1 + i % 16;
            sameAsCpu(points(r, singles[i], d, i % 4), d, null, "n " + singles[i] + " d " + d + " kind " + i % 4);
        }
        for (int trial = 0; trial < 12; trial++) {
            int d = 1 + r.nextInt(16);
            int[] sizes = new int[1 + r.nextInt(6)];
            for (int b = 0; b < sizes.length; b++) sizes[b] = 1 + r.nextInt(r.nextBoolean() ? 40 : 3000);
            int kind = trial % 4;
            sameAsCpu(points(r, Arrays.stream(sizes).sum(), d, kind), d, ids(sizes),
                    "batches " + Arrays.toString(sizes) + " d " + d + " kind " + kind);
        }
    }

    @Test
    void batchesUpTo70000Points() {
        SplittableRandom r = new SplittableRandom(70000);
        int[] sizes = {70000, 1, 2, 12345, 3};
        sameAsCpu(points(r, Arrays.stream(sizes).sum(), 3, 0), 3, ids(sizes), "70 000 and others, uniform");
        sameAsCpu(points(r, 70000, 2, 1), 2, null, "70 000 heavy duplicates");
    }

    @Test
    void manySmallBatches() {
        SplittableRandom r = new SplittableRandom(4096);
        int[] sizes = new int[4096];
        for (int b = 0; b < sizes.length; b++) sizes[b] = 2 + r.nextInt(299);
        sameAsCpu(points(r, Arrays.stream(sizes).sum(), 3, 0), 3, ids(sizes), "4 096 batches of 2-300");
    }

    @Test
    void oneLargeBatch() {
        SplittableRandom r = new SplittableRandom(17);
        sameAsCpu(points(r, 1 << 17, 3, 0), 3, null, "2^17 uniform");
    }

    @Test
    void partitionsAtSeveralLevels() {
        SplittableRandom r = new SplittableRandom(5);
        int[] sizes = {1000, 1, 2, 77, 513};
        for (int kind = 0; kind < 4; kind++) {
            int d = 1 + 5 * kind;
            PointSet pts = PointSet.of(Arrays.stream(sizes).sum(), d, points(r, Arrays.stream(sizes).sum(), d, kind));
            for (int level : new int[] {0, 1, 3, 6, 10, 30}) {
                int[] want = new BallTreeBuilder().threads(1).partition(pts, ids(sizes), level);
                for (GpuTreeEngine e : engines()) {
                    int[] got = new BallTreeBuilder().engine(e).partition(pts, ids(sizes), level);
                    assertArrayEquals(want, got, "kind " + kind + " level " + level);
                }
            }
        }
    }

    @Test
    void theHostChecksAreTheCpuEngines() {
        float[] x = {0, 0, 1, 1, Float.NaN, 2, 3, 3};
        PointSet pts = PointSet.unchecked(4, 2, x);
        InvalidInputException want = assertThrows(InvalidInputException.class, () -> new BallTreeBuilder().build(pts));
        InvalidInputException got = assertThrows(InvalidInputException.class,
                () -> new BallTreeBuilder().engine(engine()).build(pts));
        assertEquals(want.getMessage(), got.getMessage());
        InvalidInputException ids = assertThrows(InvalidInputException.class,
                () -> new BallTreeBuilder().engine(engine()).build(PointSet.of(3, 1, new float[] {1, 2, 3}), new int[] {0, 2, 2}));
        assertEquals(assertThrows(InvalidInputException.class,
                () -> new BallTreeBuilder().build(PointSet.of(3, 1, new float[] {1, 2, 3}), new int[] {0, 2, 2})).getMessage(),
                ids.getMessage());
        BallTree empty = new BallTreeBuilder().engine(engine()).build(PointSet.of(0, 3, new float[0]));
        assertEquals(0, empty.size());
    }

    @Test
    void pointsAlreadyOnTheDevice() {
        SplittableRandom r = new SplittableRandom(9);
        int n = 5000, d = 3, stride = 4;
        float[] rows = points(r, n, stride, 0);
        float[] packed = new float[n * d];
        for (int i = 0; i < n; i++) System.arraycopy(rows, i * stride, packed, i * d, d);
        int[] sizes = {2000, 1, 2999};
        BallTree want = new BallTreeBuilder().threads(1).build(PointSet.of(n, d, packed), ids(sizes));
        GpuBackend b = TestDevice.openCl();
        DeviceSession s = b.treeSession();
        DeviceBuffer coords = s.allocate(4L * n * stride);
        try (Arena a = Arena.ofConfined()) {
            s.upload(coords, a.allocateFrom(JAVA_FLOAT, rows));
        }
        BatchLayout layout = BatchLayout.of(n, ids(sizes));
        try (DeviceTree t = GpuTreeEngine.buildOnDevice(s, coords, n, d, stride, layout, Execution.sequential())) {
            assertEquals(want.size(), t.slots());
            assertArrayEquals(want.indices(), t.downloadTreeIdx());
            assertArrayEquals(want.maskBytes(), t.downloadMask());
        }
        DeviceSession none = b.treeSession();
        try (DeviceTree t = GpuTreeEngine.buildOnDevice(none, none.allocate(4), 0, 3, 3, BatchLayout.single(0),
                Execution.sequential())) {
            assertEquals(0, t.slots());
            assertEquals(0, t.downloadTreeIdx().length);
        }
    }

    @Test
    void aCancelledBuildStopsAndFreesTheDevice() {
        SplittableRandom r = new SplittableRandom(3);
        PointSet pts = PointSet.of(20000, 3, points(r, 20000, 3, 0));
        CancellationToken token = new CancellationToken();
        token.cancel();
        GpuTreeEngine e = engine();
        assertThrows(CancelledException.class,
                () -> e.buildTree(pts, BatchLayout.single(20000), new Execution(1, ProgressListener.NONE, token)));
        assertArrayEquals(new BallTreeBuilder().threads(1).build(pts).indices(),
                new BallTreeBuilder().engine(e).build(pts).indices());
    }

    @Test
    void progressIsReportedLevelByLevelAndACancelStopsTheNextLevel() {
        SplittableRandom r = new SplittableRandom(8);
        int n = 20000;
        PointSet pts = PointSet.of(n, 3, points(r, n, 3, 0));
        BatchLayout one = BatchLayout.single(n);
        GpuTreeEngine e = engine();
        for (boolean tree : new boolean[] {true, false}) {
            java.util.List<String> seen = new java.util.ArrayList<>();
            ProgressListener record = (stage, done, total) -> seen.add(stage + " " + done + "/" + total);
            if (tree) {
                e.buildTree(pts, one, new Execution(1, record, CancellationToken.NEVER));
            } else {
                e.partition(pts, one, 10, new Execution(1, record, CancellationToken.NEVER));
            }
            String stage = tree ? "ball tree" : "partition";
            // 20 000 points: 7 global levels (nodes above 256 points), then the small nodes and the leaves
            java.util.List<String> want = new java.util.ArrayList<>();
            want.add(stage + " 0/" + n);
            int levels = 7;
            for (int l = 1; l <= levels; l++) want.add(stage + " " + (long) n * l / (levels + 1) + "/" + n);
            want.add(stage + " " + n + "/" + n);
            assertEquals(want, seen);
        }
        // a cancel from the first level's report: the build stops before the next level, and the device is free
        CancellationToken token = new CancellationToken();
        java.util.concurrent.atomic.AtomicInteger reports = new java.util.concurrent.atomic.AtomicInteger();
        ProgressListener cancelAtFirstLevel = (stage, done, total) -> {
            if (reports.incrementAndGet() == 2) token.cancel();
        };
        assertThrows(CancelledException.class, () -> e.buildTree(pts, one, new Execution(1, cancelAtFirstLevel, token)));
        assertEquals(2, reports.get());
        assertArrayEquals(new BallTreeBuilder().threads(1).build(pts).indices(),
                new BallTreeBuilder().engine(e).build(pts).indices());
    }

    @Test
    void thePlanSplitsLargeNodesGloballyAndLeavesSmallOnesToOneLaunch() {
        assertEquals(256, DeviceTree.smallCutoff(3));
        assertEquals(128, DeviceTree.smallCutoff(12));
        assertEquals(64, DeviceTree.smallCutoff(16));
        assertEquals(0, DeviceTree.smallCutoff(5000));
        BatchLayout one = BatchLayout.single(16384);
        assertArrayEquals(new long[] {6, 64}, DeviceTree.plan(one, DeviceTree.treeDepths(one), 256));
        assertArrayEquals(new long[] {13, 0}, DeviceTree.plan(one, DeviceTree.treeDepths(one), 0));
        BatchLayout many = BatchLayout.of(4096 * 256, evenIds(4096, 256));
        assertArrayEquals(new long[] {0, 4096}, DeviceTree.plan(many, DeviceTree.treeDepths(many), 256));
        // 300 = 150 + 150 at level 1 (small); 257 = 128 + 129; 1 and 2 points: leaves already (depth 0);
        // a partition to level 1: the two large batches split globally once, the 2-point batch is small
        BatchLayout mixed = BatchLayout.ofOffsets(300 + 257 + 1 + 2, new int[] {0, 300, 557, 558, 560});
        assertArrayEquals(new long[] {1, 4}, DeviceTree.plan(mixed, DeviceTree.treeDepths(mixed), 256));
        assertArrayEquals(new long[] {1, 1}, DeviceTree.plan(mixed, DeviceTree.partitionDepths(mixed, 1), 256));
    }

    @Test
    void radixPassesCoverTheKeyAndTheRowBits() {
        assertArrayEquals(new int[] {60, 56, 52, 48, 44, 40, 36, 32, 12, 8, 4, 0}, DeviceTree.shifts(16384));
        assertArrayEquals(new int[] {60, 56, 52, 48, 44, 40, 36, 32, 0}, DeviceTree.shifts(2));
        assertArrayEquals(new int[] {60, 56, 52, 48, 44, 40, 36, 32, 12, 8, 4, 0}, DeviceTree.shifts(16385));
        assertArrayEquals(new int[] {60, 56, 52, 48, 44, 40, 36, 32, 16, 12, 8, 4, 0}, DeviceTree.shifts(65537));
    }
}
