package org.sylva.gpu.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.sylva.gpu.DeviceFit;
import org.sylva.gpu.GpuException;
import org.sylva.gpu.TileShape;
import org.sylva.hdbscan.engine.FittedPoints;

/**
 * One fit's buffers on an OpenCL device and the launches of its two kernels. Created by
 * {@link OpenClBackend#open}, which holds the backend's lock until {@link #close()}; every launch waits
 * for the queue to finish before returning, so the engine sees bounded steps.
 *
 * <pre>{@code
 * try (DeviceFit f = OpenClBackend.first().open(points, 21)) { f.coreLists(0, points.n()); }
 * }</pre>
 */
final class OpenClFit implements DeviceFit {
    private final OpenClBackend b;
    private final OpenCl cl;
    private final OpenClBackend.Kernels ks;
    private final int n, d, k, rowsPerTile;
    private final List<MemorySegment> buffers = new ArrayList<>();
    private final MemorySegment pts, sq, idx, core, comp, active, outW, outQ;
    private boolean closed;

    OpenClFit(OpenClBackend b, OpenClBackend.Kernels ks, FittedPoints points, int k) {
        this.b = b;
        this.cl = b.cl;
        this.ks = ks;
        this.n = points.n();
        this.d = points.d();
        this.k = k;
        this.rowsPerTile = TileShape.rowsPerTile(d);
        long need = TileShape.deviceBytes(n, d, k);
        long global = b.device.info().globalMemoryBytes();
        if (need > global) {
            throw new GpuException(String.format(java.util.Locale.ROOT,
                    "the fit needs %.1f MiB of device memory, %s has %.1f MiB", need / 1048576.0,
                    b.device.info().name(), global / 1048576.0));
        }
        try {
            pts = buffer(OpenCl.MEM_READ_ONLY, 8L * n * d);
            sq = buffer(OpenCl.MEM_READ_WRITE, 8L * n * k);
            idx = buffer(OpenCl.MEM_READ_WRITE, 4L * n * k);
            core = buffer(OpenCl.MEM_READ_ONLY, 8L * n);
            comp = buffer(OpenCl.MEM_READ_ONLY, 4L * n);
            active = buffer(OpenCl.MEM_READ_ONLY, 4L * n);
            outW = buffer(OpenCl.MEM_WRITE_ONLY, 8L * n);
            outQ = buffer(OpenCl.MEM_WRITE_ONLY, 4L * n);
            try (Arena a = Arena.ofConfined()) {
                cl.write(b.queue, pts, 0, a.allocateFrom(JAVA_DOUBLE, points.rows()));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private MemorySegment buffer(long flags, long bytes) {
        MemorySegment m = cl.createBuffer(b.context, flags, bytes);
        buffers.add(m);
        return m;
    }

    private long global(int count) {
        return ((long) count + b.workGroup - 1) / b.workGroup * b.workGroup;
    }

    @Override
    public void coreLists(int first, int count) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment kn = ks.coreLists();
            int i = 0;
            cl.setArg(kn, i++, mem(a, pts));
            cl.setArg(kn, i++, a.allocateFrom(JAVA_INT, n));
            cl.setArg(kn, i++, a.allocateFrom(JAVA_INT, d));
            cl.setArg(kn, i++, a.allocateFrom(JAVA_INT, rowsPerTile));
            cl.setArg(kn, i++, a.allocateFrom(JAVA_INT, first));
            cl.setArg(kn, i++, a.allocateFrom(JAVA_INT, count));
            cl.setArg(kn, i++, mem(a, sq));
            cl.setArg(kn, i, mem(a, idx));
            cl.launch(b.queue, kn, global(count), b.workGroup);
            cl.finish(b.queue);
        }
    }

    @Override
    public void readLists(double[] squared, int[] indices) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(JAVA_DOUBLE, (long) n * k);
            MemorySegment x = a.allocate(JAVA_INT, (long) n * k);
            cl.read(b.queue, sq, 0, s);
            cl.read(b.queue, idx, 0, x);
            MemorySegment.copy(s, JAVA_DOUBLE, 0, squared, 0, n * k);
            MemorySegment.copy(x, JAVA_INT, 0, indices, 0, n * k);
        }
    }

    @Override
    public void setCore(double[] values) {
        try (Arena a = Arena.ofConfined()) {
            cl.write(b.queue, core, 0, a.allocateFrom(JAVA_DOUBLE, values));
        }
    }

    @Override
    public void setRound(int[] component, int[] activePoints, int activeCount) {
        try (Arena a = Arena.ofConfined()) {
            cl.write(b.queue, comp, 0, a.allocateFrom(JAVA_INT, component));
            if (activeCount > 0) {
                MemorySegment s = a.allocate(JAVA_INT, activeCount);
                MemorySegment.copy(activePoints, 0, s, JAVA_INT, 0, activeCount);
                cl.write(b.queue, active, 0, s);
            }
        }
    }

    @Override
    public void cheapestEdges(int first, int count, double alpha) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment kn = ks.cheapestEdges();
            int i = 0;
            cl.setArg(kn, i++, mem(a, pts));
            cl.setArg(kn, i++, mem(a, core));
            cl.setArg(kn, i++, mem(a, comp));
            cl.setArg(kn, i++, mem(a, active));
            cl.setArg(kn, i++, a.allocateFrom(JAVA_INT, n));
            cl.setArg(kn, i++, a.allocateFrom(JAVA_INT, d));
            cl.setArg(kn, i++, a.allocateFrom(JAVA_INT, rowsPerTile));
            cl.setArg(kn, i++, a.allocateFrom(JAVA_INT, first));
            cl.setArg(kn, i++, a.allocateFrom(JAVA_INT, count));
            cl.setArg(kn, i++, a.allocateFrom(JAVA_DOUBLE, alpha));
            cl.setArg(kn, i++, a.allocateFrom(JAVA_INT, alpha != 1.0 ? 1 : 0));
            cl.setArg(kn, i++, mem(a, outW));
            cl.setArg(kn, i, mem(a, outQ));
            cl.launch(b.queue, kn, global(count), b.workGroup);
            cl.finish(b.queue);
        }
    }

    @Override
    public void readEdges(int count, double[] weight, int[] other) {
        if (count == 0) return;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment w = a.allocate(JAVA_DOUBLE, count);
            MemorySegment q = a.allocate(JAVA_INT, count);
            cl.read(b.queue, outW, 0, w);
            cl.read(b.queue, outQ, 0, q);
            MemorySegment.copy(w, JAVA_DOUBLE, 0, weight, 0, count);
            MemorySegment.copy(q, JAVA_INT, 0, other, 0, count);
        }
    }

    private static MemorySegment mem(Arena a, MemorySegment buffer) {
        MemorySegment s = a.allocate(ADDRESS);
        s.set(ADDRESS, 0, buffer);
        return s;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        for (MemorySegment m : buffers) cl.releaseBuffer(m);
        b.lock.unlock();
    }
}
