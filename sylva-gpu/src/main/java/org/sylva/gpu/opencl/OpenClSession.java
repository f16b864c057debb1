package org.sylva.gpu.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sylva.gpu.DeviceBuffer;
import org.sylva.gpu.DeviceSession;
import org.sylva.gpu.KernelArg;

/**
 * The {@link DeviceSession} of an OpenCL device: buffers are {@code cl_mem} objects of the backend's
 * context, copies and launches go through its in-order queue, and every launch waits for the queue to
 * finish ({@code clFinish}) so the engine sees bounded steps. Created by {@link OpenClBackend}, which
 * holds its lock until {@link #close()}.
 *
 * <pre>{@code
 * try (DeviceFit f = new KernelFit(new OpenClSession(backend, backend.kernels(21)), points, 21)) { ... }
 * }</pre>
 */
final class OpenClSession implements DeviceSession {
    private final OpenClBackend b;
    private final OpenCl cl;
    /** The program's kernels by name. */
    private final Map<String, MemorySegment> ks;
    private final List<MemorySegment> buffers = new ArrayList<>();
    private boolean closed;

    OpenClSession(OpenClBackend b, Map<String, MemorySegment> ks) {
        this.b = b;
        this.cl = b.cl;
        this.ks = ks;
    }

    @Override
    public String deviceName() {
        return b.device.info().name();
    }

    @Override
    public long memoryBytes() {
        return b.device.info().globalMemoryBytes();
    }

    @Override
    public long largestAllocationBytes() {
        return b.device.maxAllocation();
    }

    @Override
    public int groupSize() {
        return b.workGroup;
    }

    @Override
    public int width(String kernel) {
        return b.width;
    }

    @Override
    public DeviceBuffer allocate(long bytes) {
        if (bytes > b.device.maxAllocation()) {
            // refused here, named, rather than by clCreateBuffer's bare CL_INVALID_BUFFER_SIZE; the input's size, as
            // DeviceMemory.check refuses it
            throw new org.sylva.data.InsufficientMemoryException(String.format(Locale.ROOT,
                    "a buffer of %.1f MiB is more than the largest single buffer %s allows, %.1f MiB",
                    bytes / 1048576.0, deviceName(), b.device.maxAllocation() / 1048576.0));
        }
        MemorySegment m = cl.createBuffer(b.context, OpenCl.MEM_READ_WRITE, bytes);
        buffers.add(m);
        return new DeviceBuffer(m.address(), bytes);
    }

    @Override
    public void upload(DeviceBuffer buffer, long offset, MemorySegment host) {
        cl.write(b.queue, MemorySegment.ofAddress(buffer.handle()), offset, host);
    }

    @Override
    public void download(DeviceBuffer buffer, long offset, MemorySegment host) {
        cl.read(b.queue, MemorySegment.ofAddress(buffer.handle()), offset, host);
    }

    @Override
    public void launch(String kernel, int items, KernelArg... args) {
        launchQueued(kernel, items, args);
        cl.finish(b.queue);
    }

    @Override
    public void launchQueued(String kernel, int items, KernelArg... args) {
        MemorySegment kn = ks.get(kernel);
        if (kn == null) throw new IllegalArgumentException("no kernel " + kernel);
        try (Arena a = Arena.ofConfined()) {
            // clSetKernelArg copies the value; the enqueued launch keeps the arguments set at its call
            for (int i = 0; i < args.length; i++) cl.setArg(kn, i, value(a, args[i]));
            long global = ((long) items + b.workGroup - 1) / b.workGroup * b.workGroup;
            cl.launch(b.queue, kn, global, b.workGroup);
        }
    }

    @Override
    public void finish() {
        cl.finish(b.queue);
    }

    /** The bytes {@code clSetKernelArg} copies for one argument. */
    private static MemorySegment value(Arena a, KernelArg arg) {
        return switch (arg) {
            case KernelArg.Buffer x -> {
                MemorySegment s = a.allocate(ADDRESS);
                s.set(ADDRESS, 0, MemorySegment.ofAddress(x.buffer().handle()));
                yield s;
            }
            case KernelArg.Int x -> a.allocateFrom(JAVA_INT, x.value());
            case KernelArg.Real x -> a.allocateFrom(JAVA_DOUBLE, x.value());
        };
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            for (MemorySegment m : buffers) cl.releaseBuffer(m);
        } finally {
            b.lock.release();
        }
    }
}
