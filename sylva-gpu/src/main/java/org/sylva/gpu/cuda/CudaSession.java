package org.sylva.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sylva.gpu.DeviceBuffer;
import org.sylva.gpu.DeviceSession;
import org.sylva.gpu.KernelArg;

/**
 * The {@link DeviceSession} of a CUDA device: buffers from {@code cuMemAlloc}, synchronous copies, and
 * launches on the backend's stream followed by {@code cuStreamSynchronize}, so each call returns when
 * the device is done and a kernel fault surfaces at the launch that caused it. The backend's primary
 * context is made current on every call, because a CUDA context is current per thread and the caller's
 * thread is not known in advance. Created by {@link CudaBackend}, which holds its lock until
 * {@link #close()}.
 *
 * <pre>{@code
 * Kernels ks = backend.kernels(21);
 * Map<String, MemorySegment> fns = Map.of("core_lists", ks.coreLists(), "cheapest_edges", ks.cheapestEdges());
 * try (DeviceFit f = new KernelFit(new CudaSession(backend, fns), points, 21)) { ... }
 * }</pre>
 */
final class CudaSession implements DeviceSession {
    private final CudaBackend b;
    private final CudaDriver cu;
    /** The module's kernels by name. */
    private final Map<String, MemorySegment> ks;
    private final List<Long> buffers = new ArrayList<>();
    private boolean closed;

    CudaSession(CudaBackend b, Map<String, MemorySegment> ks) {
        this.b = b;
        this.cu = b.cu;
        this.ks = ks;
    }

    @Override
    public String deviceName() {
        return b.device().name();
    }

    @Override
    public long memoryBytes() {
        cu.setCurrent(b.context);
        return cu.freeMemory();
    }

    /** CUDA has no limit per allocation below the device's memory: the free memory, as {@link #memoryBytes()}. */
    @Override
    public long largestAllocationBytes() {
        return memoryBytes();
    }

    @Override
    public int groupSize() {
        return CudaBackend.BLOCK;
    }

    @Override
    public int width(String kernel) {
        MemorySegment fn = ks.get(kernel);
        if (fn == null) throw new IllegalArgumentException("no kernel " + kernel);
        return b.width(fn);
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        cu.setCurrent(b.context);
        long p = cu.alloc(bytes);
        buffers.add(p);
        return new DeviceBuffer(p, bytes);
    }

    @Override
    public void upload(DeviceBuffer buffer, long offset, MemorySegment host) {
        cu.setCurrent(b.context);
        cu.copyToDevice(buffer.handle() + offset, host);
    }

    @Override
    public void download(DeviceBuffer buffer, long offset, MemorySegment host) {
        cu.setCurrent(b.context);
        cu.copyToHost(host, buffer.handle() + offset);
    }

    @Override
    public void launch(String kernel, int items, KernelArg... args) {
        launchQueued(kernel, items, args);
        finish();
    }

    @Override
    public void launchQueued(String kernel, int items, KernelArg... args) {
        if (items <= 0) return;
        MemorySegment fn = ks.get(kernel);
        if (fn == null) throw new IllegalArgumentException("no kernel " + kernel);
        cu.setCurrent(b.context);
        try (Arena a = Arena.ofConfined()) {
            // cuLaunchKernel takes an array of pointers, one to each argument's value (copied at the call)
            MemorySegment params = a.allocate(ADDRESS, args.length);
            for (int i = 0; i < args.length; i++) params.setAtIndex(ADDRESS, i, value(a, args[i]));
            int grid = (int) (((long) items + CudaBackend.BLOCK - 1) / CudaBackend.BLOCK);
            cu.launch(fn, grid, CudaBackend.BLOCK, b.stream, params);
        }
    }

    @Override
    public void finish() {
        cu.setCurrent(b.context);
        cu.synchronize(b.stream);
    }

    private static MemorySegment value(Arena a, KernelArg arg) {
        return switch (arg) {
            case KernelArg.Buffer x -> a.allocateFrom(JAVA_LONG, x.buffer().handle());
            case KernelArg.Int x -> a.allocateFrom(JAVA_INT, x.value());
            case KernelArg.Real x -> a.allocateFrom(JAVA_DOUBLE, x.value());
        };
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            cu.setCurrent(b.context);
            for (long p : buffers) cu.free(p);
        } finally {
            b.lock.release();
        }
    }
}
