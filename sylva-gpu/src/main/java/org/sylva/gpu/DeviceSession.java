package org.sylva.gpu;

import java.lang.foreign.MemorySegment;

/**
 * The small device interface the GPU engine needs from an API, for one fit: allocate buffers, copy to
 * and from them, and launch one of the compiled kernels over a number of items (one work-item or
 * thread per item, in groups of {@link #groupSize()}), each call returning when the device is done.
 * The host algorithm ({@link KernelFit}, {@link GpuBoruvka}, {@link LaunchedPass}) is written once
 * against it; OpenCL and CUDA each implement it. Closing frees every buffer still held and lets the
 * backend's next fit start.
 *
 * <pre>{@code
 * DeviceBuffer b = session.allocate(8L * n);
 * session.upload(b, hostDoubles);
 * session.launch("core_lists", n, KernelArg.of(b), KernelArg.of(n));
 * }</pre>
 */
public interface DeviceSession extends AutoCloseable {
    /** The device's name, for messages. */
    String deviceName();

    /** Device memory this fit may use, in bytes (free memory where the API says it, else total). */
    long memoryBytes();

    /**
     * The largest single buffer the device allows, in bytes: OpenCL's {@code CL_DEVICE_MAX_MEM_ALLOC_SIZE}
     * (often a quarter of the memory); CUDA sets no limit per allocation below its memory, so there
     * {@link #memoryBytes()}.
     */
    long largestAllocationBytes();

    /** Work-items (threads) per group of a launch. */
    int groupSize();

    /**
     * The device's width for {@code kernel}: the work-items it runs at once (groups resident on all its
     * compute units times {@link #groupSize()}). A launch of fewer items leaves part of the device idle;
     * {@link LaunchPolicy} launches whole multiples of it.
     */
    int width(String kernel);

    /** A new buffer of {@code bytes} (at least 1); beyond {@link #largestAllocationBytes()} a {@link GpuException}. */
    DeviceBuffer allocate(long bytes);

    /** Copies all of {@code host} into {@code buffer} from byte {@code offset} on. */
    void upload(DeviceBuffer buffer, long offset, MemorySegment host);

    /** Copies {@code host.byteSize()} bytes of {@code buffer} from byte {@code offset} on into {@code host}. */
    void download(DeviceBuffer buffer, long offset, MemorySegment host);

    /** Copies all of {@code host} to the start of {@code buffer}. */
    default void upload(DeviceBuffer buffer, MemorySegment host) {
        upload(buffer, 0, host);
    }

    /** Copies the first {@code host.byteSize()} bytes of {@code buffer} into {@code host}. */
    default void download(DeviceBuffer buffer, MemorySegment host) {
        download(buffer, 0, host);
    }

    /** Runs {@code kernel} over {@code items} work-items (rounded up to whole groups); waits for it. */
    void launch(String kernel, int items, KernelArg... args);

    /**
     * Queues {@code kernel} over {@code items} work-items behind everything queued before, without waiting
     * for it ({@link #finish()} waits); the arguments are copied at the call. The default waits, as
     * {@link #launch} does.
     */
    default void launchQueued(String kernel, int items, KernelArg... args) {
        launch(kernel, items, args);
    }

    /** Waits until everything queued is done; a failure of a queued launch is reported here. */
    default void finish() {
    }

    /** Frees the buffers and ends the session; idempotent. */
    @Override
    void close();
}
