package org.sylva.gpu.opencl;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import org.sylva.gpu.DeviceFit;
import org.sylva.gpu.DeviceLock;
import org.sylva.gpu.DeviceSession;
import org.sylva.gpu.GpuBackend;
import org.sylva.gpu.GpuDevice;
import org.sylva.gpu.GpuException;
import org.sylva.gpu.GpuTrace;
import org.sylva.gpu.KernelFit;
import org.sylva.gpu.KernelSource;
import org.sylva.hdbscan.engine.FittedPoints;

/**
 * The GPU engine's kernels on an OpenCL device: one context and in-order queue per device for the
 * process, the kernel source compiled once per list length {@code K} and kept (PoCL and the drivers
 * compile at first use, which costs a noticeable fraction of a second), and each fit's buffers
 * ({@link OpenClSession}, driven by {@link KernelFit}). Fits on one backend run one after the other.
 *
 * <pre>{@code
 * GpuBackend cl = OpenClBackend.preferred();   // a GPU before a CPU device, or a GpuException saying why none
 * }</pre>
 */
public final class OpenClBackend implements GpuBackend {
    /** Work-items per work-group (smaller where the device allows fewer). */
    static final int WORK_GROUP = 64;
    /**
     * Work-groups a GPU's compute unit is taken to hold at once. OpenCL does not say; for the kernels'
     * 64-item groups and about 120 registers per item an NVIDIA multiprocessor holds 8 (its 65 536
     * registers), and more groups than fit only make the shortest launch several waves long. A CPU
     * device (PoCL) runs one group per core at a time.
     */
    static final int GPU_GROUPS_PER_UNIT = 8;
    /** Build options: none that relax float64 (no -cl-mad-enable, no -cl-fast-relaxed-math). */
    static final String BUILD_OPTIONS = "-cl-std=CL1.2";

    private static final Map<MemorySegment, OpenClBackend> OPEN = new HashMap<>();

    final OpenCl cl;
    final ClDevice device;
    final MemorySegment context;
    final MemorySegment queue;
    final int workGroup;
    /** Work-items the device runs at once: compute units x groups per unit x {@link #workGroup}. */
    final int width;
    final DeviceLock lock = new DeviceLock();
    private final Map<Integer, Kernels> programs = new HashMap<>();
    /** The ball-tree program's kernels by name, compiled on first use. */
    private Map<String, MemorySegment> treeKernels;

    /** A built program's two kernels. */
    record Kernels(MemorySegment program, MemorySegment coreLists, MemorySegment cheapestEdges) {
    }

    private OpenClBackend(ClDevice device) {
        this.cl = OpenCl.get();
        this.device = device;
        this.context = cl.createContext(device.device());
        this.queue = cl.createQueue(context, device.device());
        this.workGroup = (int) Math.min(WORK_GROUP, device.maxWorkGroup());
        long groups = device.computeUnits() * (device.cpu() ? 1 : GPU_GROUPS_PER_UNIT);
        this.width = (int) Math.min(1 << 24, Math.max(1, groups) * workGroup);
    }

    /**
     * The backend of the device {@code --backend opencl} uses ({@link OpenClDevices#preferred()}: a GPU
     * before a CPU device); a {@link GpuException} naming why there is none.
     */
    public static OpenClBackend preferred() {
        OpenClDevices s = OpenClDevices.scan();
        ClDevice d = s.preferred().orElseThrow(() -> new GpuException("no usable OpenCL device: " + s.whyNone()));
        return of(d);
    }

    /** The backend of {@code device}, opened once per process. */
    public static OpenClBackend of(ClDevice device) {
        if (!device.info().usable()) {
            throw new GpuException("OpenCL device " + device.info().name() + " is not usable: " + device.info().unusable());
        }
        synchronized (OPEN) {
            return OPEN.computeIfAbsent(device.device(), k -> new OpenClBackend(device));
        }
    }

    @Override
    public String name() {
        return "opencl: " + device.info().name();
    }

    @Override
    public GpuDevice device() {
        return device.info();
    }

    @Override
    public boolean runsOnProcessor() {
        return device.cpu();
    }

    /** The kernels for lists of {@code k} entries, compiled on first use. */
    Kernels kernels(int k) {
        synchronized (programs) {
            Kernels ks = programs.get(k);
            if (ks == null) {
                long t0 = System.nanoTime();
                MemorySegment p = cl.buildProgram(context, device.device(),
                        KernelSource.compose(KernelSource.Api.OPENCL, k), BUILD_OPTIONS);
                ks = new Kernels(p, cl.createKernel(p, "core_lists"), cl.createKernel(p, "cheapest_edges"));
                GpuTrace.step("compile (opencl)", t0, "k=" + k);
                programs.put(k, ks);
            }
            return ks;
        }
    }

    @Override
    public DeviceFit open(FittedPoints points, int k) {
        Kernels ks = kernels(k);
        lock.acquire();
        // the session unlocks on close; KernelFit closes it when its own set-up fails
        return new KernelFit(new OpenClSession(this, Map.of("core_lists", ks.coreLists(),
                "cheapest_edges", ks.cheapestEdges())), points, k);
    }

    @Override
    public DeviceSession treeSession() {
        Map<String, MemorySegment> ks;
        synchronized (programs) {
            if (treeKernels == null) {
                MemorySegment p = cl.buildProgram(context, device.device(),
                        KernelSource.composeTree(KernelSource.Api.OPENCL), BUILD_OPTIONS);
                treeKernels = GpuBackend.treeKernels(name -> cl.createKernel(p, name));
            }
            ks = treeKernels;
        }
        lock.acquire();
        return new OpenClSession(this, ks);
    }
}
