package org.sylva.gpu.cuda;

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
import org.sylva.hdbscan.engine.FittedPoints;

/**
 * The GPU engine's kernels on a CUDA device through the driver API: the device's primary context and
 * one stream, held for the life of the process (the primary context is the one the CUDA runtime of any
 * other library in the process shares, so retaining it costs nothing extra); the kernels compiled once
 * per list length {@code K} ({@link CudaPtx}: NVRTC, or stamped PTX files) and loaded as a module; each
 * fit's buffers in a {@link CudaSession}, driven by {@link KernelFit}, the same host code as OpenCL's.
 * Fits on one backend run one after the other.
 *
 * <pre>{@code
 * GpuBackend cu = CudaBackend.first();   // the first CUDA device, or a GpuException saying why none
 * }</pre>
 */
public final class CudaBackend implements GpuBackend {
    /** Threads per block: the OpenCL work-group size, so both APIs tile alike. */
    static final int BLOCK = 64;

    private static final Map<Integer, CudaBackend> OPEN = new HashMap<>();

    final CudaDriver cu;
    final MemorySegment context;
    final MemorySegment stream;
    final DeviceLock lock = new DeviceLock();
    private final GpuDevice info;
    private final int computeCapability;
    private final int multiprocessors;
    /** Each kernel's width (work-items resident at once on the device), by function, found on first use. */
    private final Map<MemorySegment, Integer> widths = new HashMap<>();
    private final CudaPtx compiler;
    private final Map<Integer, Kernels> modules = new HashMap<>();
    /** The ball-tree module's kernels by name, loaded on first use. */
    private Map<String, MemorySegment> treeKernels;

    /** A loaded module's two kernels. */
    record Kernels(MemorySegment module, MemorySegment coreLists, MemorySegment cheapestEdges) {
    }

    private CudaBackend(CudaDriver cu, int ordinal, GpuDevice info) {
        this.cu = cu;
        this.info = info;
        int dev = cu.device(ordinal);
        this.computeCapability = 10 * cu.attribute(dev, CudaDriver.ATTR_CC_MAJOR) + cu.attribute(dev, CudaDriver.ATTR_CC_MINOR);
        this.multiprocessors = cu.attribute(dev, CudaDriver.ATTR_MULTIPROCESSORS);
        this.compiler = CudaPtx.find();
        this.context = cu.retainPrimaryContext(dev);
        cu.setCurrent(context);
        this.stream = cu.createStream();
    }

    /** The first CUDA device's backend; a {@link GpuException} naming why there is none. */
    public static CudaBackend first() {
        CudaDevices s = CudaDevices.scan();
        for (int i = 0; i < s.devices().size(); i++) {
            if (s.devices().get(i).usable()) return of(i);
        }
        String why = s.devices().isEmpty() ? "no CUDA device (" + String.join("; ", s.problems()) + ")"
                : "no usable CUDA device: " + s.devices().get(0).unusable();
        throw new GpuException("CUDA backend unavailable: " + why + "; the opencl backend runs the same kernels"
                + " where an OpenCL driver is installed");
    }

    /** The backend of device {@code ordinal}, opened once per process. */
    public static CudaBackend of(int ordinal) {
        CudaDevices s = CudaDevices.scan();
        if (ordinal < 0 || ordinal >= s.devices().size()) throw new GpuException("no CUDA device " + ordinal);
        GpuDevice info = s.devices().get(ordinal);
        if (!info.usable()) throw new GpuException("CUDA device " + info.name() + " is not usable: " + info.unusable());
        CudaDriver cu = CudaDriver.load().orElseThrow(() -> new GpuException(CudaDriver.loadFailure()));
        synchronized (OPEN) {
            return OPEN.computeIfAbsent(ordinal, o -> new CudaBackend(cu, o, info));
        }
    }

    @Override
    public String name() {
        return "cuda: " + info.name();
    }

    @Override
    public GpuDevice device() {
        return info;
    }

    /** Compute capability as {@code 10 * major + minor} (90 for an H200). */
    public int computeCapability() {
        return computeCapability;
    }

    /**
     * The work-items of {@code function} the device runs at once: its multiprocessors times the blocks of
     * {@link #BLOCK} threads one holds ({@code cuOccupancyMaxActiveBlocksPerMultiprocessor}) times
     * {@link #BLOCK}; at least one block.
     */
    int width(MemorySegment function) {
        synchronized (widths) {
            Integer w = widths.get(function);
            if (w == null) {
                cu.setCurrent(context);
                long blocks = (long) Math.max(1, multiprocessors) * Math.max(1, cu.blocksPerMultiprocessor(function, BLOCK));
                w = (int) Math.min(1 << 24, blocks * BLOCK);
                widths.put(function, w);
            }
            return w;
        }
    }

    /** What compiles the kernels (NVRTC and its path, or the PTX directory). */
    public String compiler() {
        return compiler.describe();
    }

    /** The kernels for lists of {@code k} entries, compiled and loaded on first use. */
    Kernels kernels(int k) {
        synchronized (modules) {
            Kernels ks = modules.get(k);
            if (ks == null) {
                long t0 = System.nanoTime();
                String ptx = compiler.ptx(k, computeCapability);
                GpuTrace.step("compile (cuda)", t0, "k=" + k + " by " + compiler.describe());
                t0 = System.nanoTime();
                cu.setCurrent(context);
                MemorySegment m;
                try {
                    m = cu.loadModule(ptx);
                } catch (GpuException e) {
                    // the usual cause: PTX from a toolkit newer than the driver (UNSUPPORTED_PTX_VERSION)
                    throw new GpuException("the CUDA driver could not load the kernels made by " + compiler.describe()
                            + ": " + e.getMessage(), e);
                }
                ks = new Kernels(m, cu.function(m, "core_lists"), cu.function(m, "cheapest_edges"));
                GpuTrace.step("load module", t0, "k=" + k);
                modules.put(k, ks);
            }
            return ks;
        }
    }

    @Override
    public DeviceFit open(FittedPoints points, int k) {
        Kernels ks = kernels(k);
        lock.acquire();
        // the session unlocks on close; KernelFit closes it when its own set-up fails
        return new KernelFit(new CudaSession(this, Map.of("core_lists", ks.coreLists(),
                "cheapest_edges", ks.cheapestEdges())), points, k);
    }

    @Override
    public DeviceSession treeSession() {
        Map<String, MemorySegment> ks;
        synchronized (modules) {
            if (treeKernels == null) {
                String ptx = compiler.treePtx(computeCapability);
                cu.setCurrent(context);
                MemorySegment m;
                try {
                    m = cu.loadModule(ptx);
                } catch (GpuException e) {
                    throw new GpuException("the CUDA driver could not load the ball-tree kernels made by "
                            + compiler.describe() + ": " + e.getMessage(), e);
                }
                MemorySegment module = m;
                treeKernels = GpuBackend.treeKernels(name -> cu.function(module, name));
            }
            ks = treeKernels;
        }
        lock.acquire();
        return new CudaSession(this, ks);
    }
}
