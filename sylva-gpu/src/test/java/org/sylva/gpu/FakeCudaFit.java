package org.sylva.gpu;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.sylva.gpu.cuda.CudaBackend;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The child process of {@code CudaFakeDriverTest}: with {@code -Dsylva.cuda.library} naming the fake
 * driver (which runs the kernel source on host threads), fits clip-like data on the CUDA engine and on
 * the CPU and requires the same bytes, for launches of 97 points with the shortcuts on and timed
 * launches with them off and alpha 0.7. Prints one line with the engine, its compiler and the number of
 * launches the fake driver ran. A separate JVM because the driver library is loaded once per JVM.
 */
@SuppressWarnings("restricted")   // FFM bindings: restricted calls by design; the launchers allow native access
final class FakeCudaFit {
    private FakeCudaFit() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length > 0 && args[0].equals("no-compiler")) {
            // neither NVRTC nor PTX files: the device is listed as not usable and the engine refuses to open
            GpuEngines.deviceLines().forEach(System.out::println);
            try {
                GpuEngines.open("cuda");
                System.out.println("opened");
            } catch (GpuException e) {
                System.out.println("refused: " + e.getMessage());
            }
            System.out.println("fake launches " + counter("sylvaFakeLaunches"));
            return;
        }
        int n = 700, d = 61;
        double[] x = GpuEdgeCaseTest.clipLike(n, d, 11);
        if (args.length > 0 && args[0].equals("out-of-memory")) {
            // the fake driver refuses large allocations as a full device does: a memory error, not a driver error
            Hdbscan gpu = Hdbscan.builder().minClusterSize(10).minSamples(20).engine(GpuEngines.open("cuda")).build();
            try {
                gpu.fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
                System.out.println("fitted");
            } catch (RuntimeException e) {
                System.out.println("refused: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            return;
        }
        GpuHdbscanEngine cuda = GpuEngines.open("cuda");
        Object[][] runs = {{LaunchPolicy.fixed(97), true, 1.0}, {LaunchPolicy.DEFAULT, false, 0.7}};
        for (Object[] r : runs) {
            Hdbscan cpu = Hdbscan.builder().minClusterSize(10).minSamples(20).alpha((double) r[2]).build();
            Hdbscan gpu = cpu.toBuilder().engine(new GpuHdbscanEngine(cuda.backend(), (LaunchPolicy) r[0], (boolean) r[1])).build();
            HdbscanResult a = cpu.fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
            HdbscanResult b = gpu.fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
            SameBytes.assertSame(a, b);
        }
        // the ball-tree kernels on the same backend: a tree and a partition, the CPU engine's bytes
        GpuTreeEngine tree = new GpuTreeEngine(cuda.backend());
        java.util.SplittableRandom rng = new java.util.SplittableRandom(5);
        float[] pts = new float[300 * 3];
        for (int i = 0; i < pts.length; i++) pts[i] = rng.nextInt(40) / 8f;
        int[] ids = new int[300];
        for (int i = 0; i < 300; i++) ids[i] = i < 200 ? 0 : i < 201 ? 1 : i < 203 ? 2 : 3;
        org.sylva.data.PointSet ps = org.sylva.data.PointSet.of(300, 3, pts);
        org.sylva.balltree.BallTree want = new org.sylva.balltree.BallTreeBuilder().threads(1).build(ps, ids);
        org.sylva.balltree.BallTree got = new org.sylva.balltree.BallTreeBuilder().engine(tree).build(ps, ids);
        if (!java.util.Arrays.equals(want.indices(), got.indices()) || !java.util.Arrays.equals(want.maskBytes(), got.maskBytes())) {
            throw new AssertionError("the CUDA ball tree differs from the CPU engine's");
        }
        if (!java.util.Arrays.equals(new org.sylva.balltree.BallTreeBuilder().threads(1).partition(ps, ids, 3),
                new org.sylva.balltree.BallTreeBuilder().engine(tree).partition(ps, ids, 3))) {
            throw new AssertionError("the CUDA partition differs from the CPU engine's");
        }
        System.out.println("ball tree: same bytes on " + tree.name());
        // the device's width per kernel: 2 multiprocessors x the fake's blocks per multiprocessor x 64 threads
        try (DeviceFit f = cuda.backend().open(new org.sylva.hdbscan.engine.FittedPoints(x, n, d), 21)) {
            System.out.println("widths " + f.coreListsWidth() + " " + f.cheapestEdgesWidth());
        }
        int launches = counter("sylvaFakeLaunches"), compiles = counter("sylvaFakeCompiles");
        GpuEngines.deviceLines().forEach(System.out::println);
        System.out.println("same bytes on " + cuda.name() + " compiled by " + ((CudaBackend) cuda.backend()).compiler()
                + "; fake compiles " + compiles + "; fake launches " + launches);
    }

    private static int counter(String name) throws Throwable {
        return (int) Linker.nativeLinker().downcallHandle(
                SymbolLookup.libraryLookup(Path.of(System.getProperty("sylva.cuda.library")), Arena.global())
                        .find(name).orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT)).invoke();
    }
}
