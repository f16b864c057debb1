package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.engine.CpuHdbscanEngine;
import org.sylva.hdbscan.engine.FittedPoints;
import org.sylva.hdbscan.engine.MutualReachabilityMst;
import org.sylva.hdbscan.Backend;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * The GPU engine (OpenCL) against the CPU engine, byte for byte, on the edges: one coordinate, 200
 * coordinates, all points identical, alpha != 1, scales near float64's underflow and the largest accepted, launches of
 * 1, a prime and all points, shortcuts on and off on clip-like data with duplicates; too few points refused as the CPU refuses; a cancel
 * between launches.
 */
class GpuEdgeCaseTest {
    static double[] clipLike(int n, int d, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[] x = new double[n * d];
        int centres = 6;
        for (int i = 0; i < n; i++) {
            int c = r.nextInt(centres);
            boolean dup = i > 0 && r.nextInt(8) == 0;   // exact duplicates of an earlier point: ties everywhere
            int src = dup ? r.nextInt(i) : -1;
            for (int j = 0; j < d; j++) {
                x[i * d + j] = dup ? x[src * d + j]
                        : (float) (Math.sin(c * 1.3 + j * 0.2) * 50 + r.nextGaussian() * 6);   // float32 values, as clips
            }
        }
        return x;
    }

    private static void same(double[] x, int n, int d, int mcs, int ms, double alpha, LaunchPolicy policy,
            boolean shortcuts) {
        Hdbscan cpu = Hdbscan.builder().minClusterSize(mcs).minSamples(ms).alpha(alpha).build();
        Hdbscan gpu = cpu.toBuilder().engine(TestDevice.engine(policy, shortcuts)).build();
        HdbscanResult a = cpu.fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanResult b = gpu.fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
        SameBytes.assertSame(a, b);
    }

    @Test
    void oneCoordinate() {
        same(clipLike(400, 1, 1), 400, 1, 5, 6, 1.0, LaunchPolicy.DEFAULT, true);
    }

    @Test
    void twoHundredCoordinates() {
        same(clipLike(180, 200, 2), 180, 200, 5, 4, 1.0, LaunchPolicy.DEFAULT, true);
    }

    @Test
    void tinyAndHugeScales() {
        // squared differences near underflow (1e-155: subnormal squares) and the largest coordinates a fit
        // takes (below 1e150): the tile bounds must skip nothing they cannot prove
        for (double scale : new double[] {1e-155, 1e-150, 1e-140, 1e147}) {
            double[] x = clipLike(700, 8, 7);
            for (int i = 0; i < x.length; i++) x[i] *= scale;
            same(x, 700, 8, 5, 5, 1.0, LaunchPolicy.DEFAULT, true);
        }
    }

    @Test
    void randomShapesTiesAndAlphas() {
        // the tile skips against the CPU on many shapes: sizes around the tile lengths, 1 to 61
        // coordinates, grids (equal distances everywhere) and blobs, alpha on both sides of 1
        SplittableRandom r = new SplittableRandom(2026);
        int[] dims = {1, 2, 3, 5, 17, 61};
        for (int c = 0; c < 12; c++) {
            int n = 40 + r.nextInt(900), d = dims[r.nextInt(dims.length)];
            boolean grid = r.nextBoolean();
            double[] x = grid ? new double[n * d] : clipLike(n, d, 100 + c);
            if (grid) for (int i = 0; i < x.length; i++) x[i] = r.nextInt(4);
            int ms = 1 + r.nextInt(12);
            double alpha = new double[] {1.0, 0.5, 1.7}[r.nextInt(3)];
            same(x, n, d, 2 + r.nextInt(8), ms, alpha, LaunchPolicy.DEFAULT, r.nextBoolean());
        }
    }

    @Test
    void allPointsIdentical() {
        double[] x = new double[12 * 3];
        java.util.Arrays.fill(x, 2.5);
        same(x, 12, 3, 2, 3, 1.0, LaunchPolicy.DEFAULT, true);
    }

    /**
     * An alpha so small that distances divided by it overflow: the spanning tree needs edges of weight +inf, which
     * the device reports as edges (it once reported them as none, and the fit failed as a device error).
     */
    @Test
    void edgesOfInfiniteWeightAreEdges() {
        double[] four = {0, 0, 0.5, 0, 10, 0, 10.5, 0};
        same(four, 4, 2, 2, 1, 1e-308, LaunchPolicy.DEFAULT, true);
        same(clipLike(400, 3, 11), 400, 3, 5, 4, 1e-310, LaunchPolicy.DEFAULT, true);
        double[] blobs = clipLike(200, 2, 12);
        for (int i = 100; i < 200; i++) blobs[2 * i] += 10;
        same(blobs, 200, 2, 5, 3, 1e-308, LaunchPolicy.DEFAULT, false);
    }

    @Test
    void alphaDividesTheDistances() {
        same(clipLike(300, 8, 3), 300, 8, 5, 5, 0.7, LaunchPolicy.DEFAULT, true);
    }

    @Test
    void launchSizesOneAPrimeAndWhole() {
        int n = 257, d = 12;
        double[] x = clipLike(n, d, 4);
        for (LaunchPolicy p : new LaunchPolicy[] {LaunchPolicy.fixed(1), LaunchPolicy.fixed(97), LaunchPolicy.fixed(n)}) {
            same(x, n, d, 5, 5, 1.0, p, true);
        }
    }

    @Test
    void shortcutsAreExact() {
        int n = 1500, d = 20;
        double[] x = clipLike(n, d, 5);
        FittedPoints pts = new FittedPoints(x, n, d);
        MutualReachabilityMst on = TestDevice.engine(LaunchPolicy.DEFAULT, true).spanningTree(pts, 10, 1.0,
                Execution.sequential());
        MutualReachabilityMst off = TestDevice.engine(LaunchPolicy.DEFAULT, false).spanningTree(pts, 10, 1.0,
                Execution.sequential());
        MutualReachabilityMst cpu = new CpuHdbscanEngine(Backend.SCALAR).spanningTree(pts, 10, 1.0,
                Execution.sequential());
        SameBytes.assertBits(cpu.coreDistances(), on.coreDistances(), "core distances");
        assertEquals(cpu.tree(), on.tree());
        assertEquals(on.tree(), off.tree());
        same(x, n, d, 20, 10, 1.0, LaunchPolicy.DEFAULT, false);
    }

    @Test
    void listsBeyondAJavaArrayAreRefusedBeforeTheDevicePass() {
        // 2 200 000 points x 1 001 list entries > 2^31: refused up front, not after the whole core pass
        int n = 2_200_000;
        double[] rows = new double[n];
        for (int i = 0; i < n; i++) rows[i] = i * 0.5;
        org.sylva.data.InvalidInputException e = org.junit.jupiter.api.Assertions.assertThrows(
                org.sylva.data.InvalidInputException.class, () -> TestDevice.engine(LaunchPolicy.DEFAULT, true)
                        .spanningTree(new FittedPoints(rows, n, 1), 1000, 1.0, Execution.sequential()));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("2200000 x 1001 nearest neighbours"),
                e.getMessage());
    }

    @Test
    void fewerPointsThanMinSamplesIsRefusedAsOnTheCpu() {
        double[] x = clipLike(5, 3, 6);
        Hdbscan cpu = Hdbscan.builder().minClusterSize(2).minSamples(9).build();
        Hdbscan gpu = cpu.toBuilder().engine(TestDevice.engine(LaunchPolicy.DEFAULT, true)).build();
        String a = assertThrows(InvalidInputException.class,
                () -> cpu.fit(x, 5, 3, ProgressListener.NONE, CancellationToken.NEVER)).getMessage();
        String b = assertThrows(InvalidInputException.class,
                () -> gpu.fit(x, 5, 3, ProgressListener.NONE, CancellationToken.NEVER)).getMessage();
        assertEquals(a, b);
    }

    @Test
    void aCancelIsAnsweredBeforeTheNextLaunch() {
        int n = 300, d = 4;
        FittedPoints pts = new FittedPoints(clipLike(n, d, 7), n, d);
        CancellationToken token = new CancellationToken();
        AtomicInteger launches = new AtomicInteger();
        ProgressListener cancelAfterFirst = (stage, done, total) -> {
            launches.incrementAndGet();
            token.cancel();
        };
        GpuHdbscanEngine e = TestDevice.engine(LaunchPolicy.fixed(7), true);
        assertThrows(CancelledException.class, () -> e.spanningTree(pts, 5, 1.0, new Execution(1, cancelAfterFirst, token)));
        assertEquals(1, launches.get(), "one launch ran, the cancel stopped the next");
        // the device is free again: a later fit on the same backend runs
        assertEquals(n - 1, e.spanningTree(pts, 5, 1.0, Execution.sequential()).tree().edges());
    }
}
