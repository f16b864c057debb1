package org.sylva.gpu;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.sylva.hdbscan.engine.FittedPoints;

/**
 * One fit's buffers and the launches of the two kernels of {@code hdbscan.cl.inc}, written once against
 * a {@link DeviceSession}, so OpenCL and CUDA run the same host code with the same arguments. The
 * memory a fit needs, and its largest buffer, are checked against the device before any buffer is made
 * ({@link DeviceMemory}): too large is refused with the figures.
 *
 * <pre>{@code
 * try (DeviceFit f = backend.open(points, 21)) { f.coreLists(0, points.n()); }   // a KernelFit on the backend's session
 * }</pre>
 */
public final class KernelFit implements DeviceFit {
    private final DeviceSession s;
    private final int n, d, k, rowsPerTile;
    private final DeviceBuffer pts, sq, idx, core, comp, active, outW, outQ;

    /** Uploads {@code points} and allocates the buffers on {@code session}, which this fit then owns. */
    public KernelFit(DeviceSession session, FittedPoints points, int k) {
        this.s = session;
        this.n = points.n();
        this.d = points.d();
        this.k = k;
        try {
            this.rowsPerTile = TileShape.rowsPerTile(d);
            // every buffer by name (their sum is TileShape.deviceBytes), checked before the first is made
            long[] bytes = {8L * n * d, 8L * n * k, 4L * n * k, 8L * n, 4L * n, 4L * n, 8L * n, 4L * n};
            DeviceMemory.check(session, "the fit", new String[] {"points (d x n float64, transposed)",
                    "nearest distances (n x k float64)", "nearest indices (n x k int32)", "core distances",
                    "components", "active points", "edge weights", "edge ends"}, bytes);
            pts = s.allocate(bytes[0]);
            sq = s.allocate(bytes[1]);
            idx = s.allocate(bytes[2]);
            core = s.allocate(bytes[3]);
            comp = s.allocate(bytes[4]);
            active = s.allocate(bytes[5]);
            outW = s.allocate(bytes[6]);
            outQ = s.allocate(bytes[7]);
            try (Arena a = Arena.ofConfined()) {
                s.upload(pts, transposed(points.rows(), n, d, a));
            }
        } catch (RuntimeException | Error e) {
            session.close();
            throw e;
        }
    }

    /**
     * The row-major points {@code rows} (n x d) transposed into native memory: coordinate j of point p at
     * {@code j * n + p}, the layout the kernels read (a warp's own points are adjacent at each coordinate).
     */
    static MemorySegment transposed(double[] rows, int n, int d, Arena arena) {
        MemorySegment out = arena.allocate(JAVA_DOUBLE, (long) n * d);
        for (int p = 0; p < n; p++) {
            for (int j = 0; j < d; j++) out.setAtIndex(JAVA_DOUBLE, (long) j * n + p, rows[p * d + j]);
        }
        return out;
    }

    @Override
    public int coreListsWidth() {
        return s.width("core_lists");
    }

    @Override
    public int cheapestEdgesWidth() {
        return s.width("cheapest_edges");
    }

    @Override
    public void coreLists(int first, int count) {
        s.launch("core_lists", count, KernelArg.of(pts), KernelArg.of(n), KernelArg.of(d),
                KernelArg.of(rowsPerTile), KernelArg.of(first), KernelArg.of(count), KernelArg.of(sq),
                KernelArg.of(idx));
    }

    @Override
    public void readLists(double[] squared, int[] indices) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment x = a.allocate(JAVA_DOUBLE, (long) n * k);
            MemorySegment y = a.allocate(JAVA_INT, (long) n * k);
            s.download(sq, x);
            s.download(idx, y);
            MemorySegment.copy(x, JAVA_DOUBLE, 0, squared, 0, n * k);
            MemorySegment.copy(y, JAVA_INT, 0, indices, 0, n * k);
        }
    }

    @Override
    public void setCore(double[] values) {
        try (Arena a = Arena.ofConfined()) {
            s.upload(core, a.allocateFrom(JAVA_DOUBLE, values));
        }
    }

    @Override
    public void setRound(int[] component, int[] activePoints, int activeCount) {
        try (Arena a = Arena.ofConfined()) {
            s.upload(comp, a.allocateFrom(JAVA_INT, component));
            if (activeCount > 0) {
                MemorySegment x = a.allocate(JAVA_INT, activeCount);
                MemorySegment.copy(activePoints, 0, x, JAVA_INT, 0, activeCount);
                s.upload(active, x);
            }
        }
    }

    @Override
    public void cheapestEdges(int first, int count, double alpha) {
        s.launch("cheapest_edges", count, KernelArg.of(pts), KernelArg.of(core), KernelArg.of(comp),
                KernelArg.of(active), KernelArg.of(n), KernelArg.of(d), KernelArg.of(rowsPerTile),
                KernelArg.of(first), KernelArg.of(count), KernelArg.of(alpha), KernelArg.of(alpha != 1.0 ? 1 : 0),
                KernelArg.of(outW), KernelArg.of(outQ));
    }

    @Override
    public void readEdges(int count, double[] weight, int[] other) {
        if (count == 0) return;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment w = a.allocate(JAVA_DOUBLE, count);
            MemorySegment q = a.allocate(JAVA_INT, count);
            s.download(outW, w);
            s.download(outQ, q);
            MemorySegment.copy(w, JAVA_DOUBLE, 0, weight, 0, count);
            MemorySegment.copy(q, JAVA_INT, 0, other, 0, count);
        }
    }

    @Override
    public void close() {
        s.close();
    }
}
