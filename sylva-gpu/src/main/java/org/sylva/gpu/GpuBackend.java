package org.sylva.gpu;

import org.sylva.hdbscan.engine.FittedPoints;

/**
 * One device of one API, opened and ready to take fits: it compiles the kernel source (once per list
 * length, cached for the process) and allocates each fit's buffers ({@link #open}). Fits on one backend
 * run one at a time (one queue); thread-safe.
 *
 * <pre>{@code
 * GpuBackend b = OpenClBackend.preferred();
 * try (DeviceFit f = b.open(points, 21)) { ... }
 * }</pre>
 */
public interface GpuBackend {
    /** The kernels of {@code balltree.cl.inc}, which {@link #treeSession()} can launch. */
    java.util.List<String> TREE_KERNELS = java.util.List.of("bt_init", "bt_reset", "bt_minmax", "bt_pick", "bt_hist",
            "bt_digit", "bt_part", "bt_advance", "bt_leaves", "bt_small_list", "bt_small");

    /** The API and the device, for logs: {@code opencl: NVIDIA H200}. */
    String name();

    /** The device's description. */
    GpuDevice device();

    /**
     * True when the device is the processor itself (an OpenCL CPU device, as PoCL's): the kernels then run on the
     * cores the CPU engine would use, without its pruning and vector kernels, so the CPU engine is faster there.
     */
    default boolean runsOnProcessor() {
        return false;
    }

    /**
     * Uploads {@code points} and allocates the buffers of a fit with lists of {@code k} entries; a
     * {@link GpuException} naming the figure when the device memory cannot hold them.
     */
    DeviceFit open(FittedPoints points, int k);

    /** The ball-tree kernels of a compiled program or module, by name, each found by {@code lookup}. */
    static java.util.Map<String, java.lang.foreign.MemorySegment> treeKernels(
            java.util.function.Function<String, java.lang.foreign.MemorySegment> lookup) {
        java.util.Map<String, java.lang.foreign.MemorySegment> m = new java.util.HashMap<>();
        for (String name : TREE_KERNELS) m.put(name, lookup.apply(name));
        return java.util.Map.copyOf(m);
    }

    /**
     * A session on the ball-tree kernels ({@code balltree.cl.inc}, compiled on first use), for one build;
     * the backend is held until the session is closed.
     */
    DeviceSession treeSession();
}
