package org.sylva.gpu;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;

import java.lang.foreign.Arena;
import java.util.Objects;
import org.sylva.balltree.engine.TreeEngine;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.PointSet;
import org.sylva.gpu.cuda.CudaBackend;
import org.sylva.gpu.opencl.OpenClBackend;
import org.sylva.parallel.Execution;

/**
 * The GPU ball-tree engine: Erwin's perfect binary ball trees (and Erwin's partitions) built on a
 * {@link GpuBackend} (OpenCL or CUDA: one kernel source, {@code balltree.cl.inc}, and one host code,
 * {@link DeviceTree}), byte-identical to {@link org.sylva.balltree.engine.CpuTreeEngine}'s. Every batch
 * is processed at once, level by level: per node the first dimension with the strictly largest float64
 * spread, a radix selection of the {@code floor(m/2)}-th point by {@code (coordinate, row)}, and a
 * partition around it; {@code O(n)} work and a fixed number of launches per level, no host round trip
 * per node. The host checks the input as the CPU engine does (non-finite coordinates are refused naming
 * the first row, before any device work); the builder checks the batch ids. Progress is reported and
 * cancellation checked between levels ({@link DeviceTree#run}).
 *
 * <p>Points already on the device: {@link #buildOnDevice} takes a buffer of the backend's session and
 * leaves the tree in device memory.
 *
 * <pre>{@code
 * BallTree t = new BallTreeBuilder().engine(GpuTreeEngine.openCl()).build(points, batchIds);
 * }</pre>
 */
public final class GpuTreeEngine implements TreeEngine {
    private final GpuBackend backend;
    private final boolean localSubtrees;

    /** An engine on {@code backend}. */
    public GpuTreeEngine(GpuBackend backend) {
        this(backend, true);
    }

    /**
     * An engine on {@code backend} that finishes nodes of at most {@link DeviceTree#smallCutoff(int)} points
     * in local memory, one work-group each ({@code localSubtrees}, the default), or splits every level with
     * the global kernels (for tests and comparisons; the trees are the same).
     */
    public GpuTreeEngine(GpuBackend backend, boolean localSubtrees) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.localSubtrees = localSubtrees;
    }

    /** The engine on the OpenCL device {@code --backend opencl} uses (a GPU before a CPU device); a {@link GpuException} naming why none is usable. */
    public static GpuTreeEngine openCl() {
        return new GpuTreeEngine(OpenClBackend.preferred());
    }

    /** The engine on the first CUDA device; a {@link GpuException} naming why there is none. */
    public static GpuTreeEngine cuda() {
        return new GpuTreeEngine(CudaBackend.first());
    }

    /** The engine of a GPU API by name ({@code opencl} or {@code cuda}, as {@link GpuEngines#APIS}). */
    public static GpuTreeEngine open(String api) {
        return switch (GpuEngines.api(api)) {
            case "opencl" -> openCl();
            default -> cuda();
        };
    }

    @Override
    public String name() {
        return "gpu/" + backend.name();
    }

    /** The backend this engine runs on. */
    public GpuBackend backend() {
        return backend;
    }

    @Override
    public TreeArrays buildTree(PointSet points, BatchLayout layout, Execution execution) {
        if (points.size() == 0) return new TreeArrays(new int[0], new byte[0]);
        try (DeviceTree t = upload(points, layout, DeviceTree.treeDepths(layout), true)) {
            t.run(execution);
            return new TreeArrays(t.downloadTreeIdx(), t.downloadMask());
        }
    }

    @Override
    public int[] partition(PointSet points, BatchLayout layout, int targetLevel, Execution execution) {
        if (points.size() == 0) return new int[0];
        try (DeviceTree t = upload(points, layout, DeviceTree.partitionDepths(layout, targetLevel), false)) {
            t.run(execution);
            return t.downloadPartition();
        }
    }

    /** Checks the points as the CPU engine does, then uploads them into a new session's build. */
    private DeviceTree upload(PointSet points, BatchLayout layout, int[] depths, boolean tree) {
        points.requireFiniteFloat32("the ball tree");
        int n = points.size(), d = points.dimensions();
        DeviceSession s = backend.treeSession();
        DeviceBuffer coords;
        try {
            DeviceMemory.check(s, "the ball tree", new String[] {"coordinates (n x d float32)"}, new long[] {4L * n * d});
            coords = s.allocate(4L * n * d);
            try (Arena a = Arena.ofConfined()) {
                s.upload(coords, a.allocateFrom(JAVA_FLOAT, points.coordinates()));
            }
        } catch (RuntimeException | Error e) {
            s.close();
            throw e;
        }
        return new DeviceTree(s, coords, n, d, d, layout, depths, tree, localSubtrees ? DeviceTree.smallCutoff(d) : 0);
    }

    /**
     * A tree of points that are already in device memory: {@code n} rows of {@code stride} float32 values
     * (the first {@code d} used) in {@code coords}, a buffer of {@code session} (a session of this
     * engine's backend, {@link GpuBackend#treeSession()}; on CUDA any device pointer of the primary
     * context, such as a PyTorch tensor's, given as {@code new DeviceBuffer(pointer, bytes)}). Returns the
     * built tree, its slots and mask in device memory ({@link DeviceTree#treeIdx()}, {@link DeviceTree#mask()},
     * int32 and uint8, laid out as {@code BallTree}'s); closing it closes the session. The coordinates must
     * be finite: unlike the host API, this one does not read them back to check.
     */
    public static DeviceTree buildOnDevice(DeviceSession session, DeviceBuffer coords, int n, int d, int stride,
                                           BatchLayout layout, Execution execution) {
        DeviceTree t = new DeviceTree(session, coords, n, d, stride, layout, DeviceTree.treeDepths(layout), true);
        try {
            if (n > 0) t.run(execution);
            return t;
        } catch (RuntimeException | Error e) {
            t.close();
            throw e;
        }
    }

    /**
     * Build times with the points already on the device and the tree left there, in milliseconds, sorted:
     * the points are uploaded and the build's buffers allocated once, then {@link DeviceTree#run} is timed
     * {@code repeat} times after {@code warmup} untimed runs (each run rebuilds from the coordinates;
     * every launch is waited for, so a run's time is the device's). A caller that builds every step of a
     * training loop keeps one {@link DeviceTree} and re-runs it, as here.
     */
    public double[] timeOnDevice(PointSet points, BatchLayout layout, int warmup, int repeat) {
        if (repeat < 1) throw new IllegalArgumentException("repeat must be >= 1, got " + repeat);
        double[] ms = new double[repeat];
        if (points.size() == 0) return ms;
        try (DeviceTree t = upload(points, layout, DeviceTree.treeDepths(layout), true)) {
            for (int i = 0; i < warmup; i++) t.run(Execution.sequential());
            for (int i = 0; i < repeat; i++) {
                long t0 = System.nanoTime();
                t.run(Execution.sequential());
                ms[i] = (System.nanoTime() - t0) / 1e6;
            }
        }
        java.util.Arrays.sort(ms);
        return ms;
    }
}
