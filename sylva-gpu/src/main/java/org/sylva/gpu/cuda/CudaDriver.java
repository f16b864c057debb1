package org.sylva.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.sylva.gpu.GpuException;

/**
 * The CUDA driver API ({@code libcuda.so.1}, or the library the system property
 * {@code sylva.cuda.library} names) through the FFM API: the calls the engine needs (init, devices and
 * their attributes, the primary context, modules from PTX, memory, a stream, launches), each checked;
 * a failure is a {@link GpuException} naming the call and the error ({@code cuGetErrorName}, then
 * {@code cuGetErrorString}). The {@code _v2} symbols are bound where CUDA renamed a call. Loaded once
 * per JVM; {@link #load()} is empty with the reason in {@link #loadFailure()} when the driver is absent.
 * Handles ({@code CUcontext}, {@code CUmodule}, ...) are {@link MemorySegment} addresses and device
 * pointers are {@code long}s.
 *
 * <pre>{@code
 * CudaDriver cu = CudaDriver.load().orElseThrow(() -> new GpuException(CudaDriver.loadFailure()));
 * cu.init();
 * int n = cu.deviceCount();
 * }</pre>
 */
@SuppressWarnings("restricted")   // FFM bindings: restricted calls by design; the launchers allow native access
public final class CudaDriver {
    /** {@code CUDA_ERROR_OUT_OF_MEMORY}: an allocation the device could not satisfy. */
    static final int OUT_OF_MEMORY = 2;
    /** {@code CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR} and {@code _MINOR}. */
    public static final int ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76;
    /** {@code CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK}. */
    public static final int ATTR_SHARED_PER_BLOCK = 8;
    /** {@code CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK}. */
    public static final int ATTR_MAX_THREADS = 1;
    /** {@code CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT}. */
    public static final int ATTR_MULTIPROCESSORS = 16;

    private static final Object LOCK = new Object();
    private static volatile CudaDriver instance;
    private static volatile String failure;

    private final MethodHandle init, driverVersion, deviceGetCount, deviceGet, deviceGetName, deviceGetAttribute,
            deviceTotalMem, primaryCtxRetain, primaryCtxRelease, ctxSetCurrent, moduleLoadData, moduleGetFunction,
            memAlloc, memFree, memcpyHtoD, memcpyDtoH, memGetInfo, streamCreate, streamSynchronize, launchKernel,
            occupancy, getErrorName, getErrorString;

    private CudaDriver(SymbolLookup lib) {
        Linker l = Linker.nativeLinker();
        init = h(l, lib, "cuInit", JAVA_INT);
        driverVersion = h(l, lib, "cuDriverGetVersion", ADDRESS);
        deviceGetCount = h(l, lib, "cuDeviceGetCount", ADDRESS);
        deviceGet = h(l, lib, "cuDeviceGet", ADDRESS, JAVA_INT);
        deviceGetName = h(l, lib, "cuDeviceGetName", ADDRESS, JAVA_INT, JAVA_INT);
        deviceGetAttribute = h(l, lib, "cuDeviceGetAttribute", ADDRESS, JAVA_INT, JAVA_INT);
        deviceTotalMem = h(l, lib, "cuDeviceTotalMem_v2", ADDRESS, JAVA_INT);
        primaryCtxRetain = h(l, lib, "cuDevicePrimaryCtxRetain", ADDRESS, JAVA_INT);
        // CUDA 11 renamed the release to _v2 and kept the old name; take whichever the driver has
        primaryCtxRelease = optional(l, lib, "cuDevicePrimaryCtxRelease_v2", JAVA_INT)
                .orElseGet(() -> h(l, lib, "cuDevicePrimaryCtxRelease", JAVA_INT));
        ctxSetCurrent = h(l, lib, "cuCtxSetCurrent", ADDRESS);
        moduleLoadData = h(l, lib, "cuModuleLoadData", ADDRESS, ADDRESS);
        moduleGetFunction = h(l, lib, "cuModuleGetFunction", ADDRESS, ADDRESS, ADDRESS);
        memAlloc = h(l, lib, "cuMemAlloc_v2", ADDRESS, JAVA_LONG);
        memFree = h(l, lib, "cuMemFree_v2", JAVA_LONG);
        memcpyHtoD = h(l, lib, "cuMemcpyHtoD_v2", JAVA_LONG, ADDRESS, JAVA_LONG);
        memcpyDtoH = h(l, lib, "cuMemcpyDtoH_v2", ADDRESS, JAVA_LONG, JAVA_LONG);
        memGetInfo = h(l, lib, "cuMemGetInfo_v2", ADDRESS, ADDRESS);
        streamCreate = h(l, lib, "cuStreamCreate", ADDRESS, JAVA_INT);
        streamSynchronize = h(l, lib, "cuStreamSynchronize", ADDRESS);
        launchKernel = h(l, lib, "cuLaunchKernel", ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT,
                JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        occupancy = h(l, lib, "cuOccupancyMaxActiveBlocksPerMultiprocessor", ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG);
        getErrorName = h(l, lib, "cuGetErrorName", JAVA_INT, ADDRESS);
        getErrorString = h(l, lib, "cuGetErrorString", JAVA_INT, ADDRESS);
    }

    private static MethodHandle h(Linker l, SymbolLookup lib, String name, MemoryLayout... args) {
        return optional(l, lib, name, args).orElseThrow(() -> new GpuException("libcuda has no symbol " + name));
    }

    private static Optional<MethodHandle> optional(Linker l, SymbolLookup lib, String name, MemoryLayout... args) {
        return lib.find(name).map(sym -> l.downcallHandle(sym, FunctionDescriptor.of(JAVA_INT, args)));
    }

    /** The bindings, loading the driver on first use; empty (reason: {@link #loadFailure()}) without one. */
    public static Optional<CudaDriver> load() {
        CudaDriver cu = instance;
        if (cu != null) return Optional.of(cu);
        synchronized (LOCK) {
            if (instance == null && failure == null) {
                String name = System.getProperty("sylva.cuda.library", "libcuda.so.1");
                String notALibrary = org.sylva.gpu.LoaderError.notALibrary(name);
                if (notALibrary != null) {
                    failure = "CUDA driver library could not be loaded (" + notALibrary + ")";
                } else {
                    try {
                        instance = new CudaDriver(SymbolLookup.libraryLookup(name, Arena.global()));
                    } catch (IllegalArgumentException | IllegalCallerException | GpuException e) {
                        String why = org.sylva.gpu.LoaderError.reason(name, e.getMessage());
                        boolean missing = org.sylva.gpu.LoaderError.saysMissing(why);
                        failure = "CUDA driver library " + name + " could not be loaded (" + (missing
                                ? "no NVIDIA driver: " : "") + why + ")";
                    }
                }
            }
            return Optional.ofNullable(instance);
        }
    }

    /** Why the driver could not be loaded, or {@code null} when it loads. */
    public static String loadFailure() {
        load();
        return failure;
    }

    /** {@code cuInit(0)}. */
    public void init() {
        call("cuInit", () -> (int) init.invoke(0));
    }

    /** The driver's CUDA version, as {@code 12040} for 12.4. */
    public int driverVersion() {
        return intOut("cuDriverGetVersion", out -> (int) driverVersion.invoke(out));
    }

    /** The number of devices. */
    public int deviceCount() {
        return intOut("cuDeviceGetCount", out -> (int) deviceGetCount.invoke(out));
    }

    /** The handle of device {@code ordinal}. */
    public int device(int ordinal) {
        return intOut("cuDeviceGet", out -> (int) deviceGet.invoke(out, ordinal));
    }

    /** The device's name. */
    public String deviceName(int device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(256);
            call("cuDeviceGetName", () -> (int) deviceGetName.invoke(buf, 256, device));
            return buf.getString(0, StandardCharsets.UTF_8);
        }
    }

    /** An integer attribute ({@link #ATTR_CC_MAJOR}, ...). */
    public int attribute(int device, int attribute) {
        return intOut("cuDeviceGetAttribute", out -> (int) deviceGetAttribute.invoke(out, attribute, device));
    }

    /** The device's memory in bytes. */
    public long totalMemory(int device) {
        return longOut("cuDeviceTotalMem_v2", out -> (int) deviceTotalMem.invoke(out, device));
    }

    /** Retains the device's primary context (the one the runtime API shares). */
    public MemorySegment retainPrimaryContext(int device) {
        return addressOut("cuDevicePrimaryCtxRetain", out -> (int) primaryCtxRetain.invoke(out, device));
    }

    /** Releases one retain of the device's primary context. */
    public void releasePrimaryContext(int device) {
        call("cuDevicePrimaryCtxRelease", () -> (int) primaryCtxRelease.invoke(device));
    }

    /** Makes {@code context} the calling thread's current context (CUDA contexts are per thread). */
    public void setCurrent(MemorySegment context) {
        call("cuCtxSetCurrent", () -> (int) ctxSetCurrent.invoke(context));
    }

    /** Loads a module from a NUL-terminated PTX image (the driver compiles it for the device). */
    public MemorySegment loadModule(String ptx) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment image = a.allocateFrom(ptx);
            return addressOut("cuModuleLoadData", out -> (int) moduleLoadData.invoke(out, image));
        }
    }

    /** A kernel of a loaded module, by its (unmangled, {@code extern "C"}) name. */
    public MemorySegment function(MemorySegment module, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = a.allocateFrom(name);
            return addressOut("cuModuleGetFunction " + name, out -> (int) moduleGetFunction.invoke(out, module, n));
        }
    }

    /**
     * Allocates {@code bytes} (at least 1) of device memory; the device pointer. A device out of memory is an
     * {@link org.sylva.data.InsufficientMemoryException} (as a fit the heap cannot hold), any other failure a
     * {@link GpuException}.
     */
    public long alloc(long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            int rc;
            try {
                rc = (int) memAlloc.invoke(out, Math.max(1L, bytes));
            } catch (Throwable t) {
                throw new GpuException("cuMemAlloc_v2 failed: " + t, t);
            }
            if (rc == OUT_OF_MEMORY) {
                GpuException cause = new GpuException("cuMemAlloc_v2 failed: " + describe(rc));
                throw new org.sylva.data.InsufficientMemoryException(String.format(java.util.Locale.ROOT,
                        "a buffer of %s did not fit in the CUDA device's free memory (%s)",
                        org.sylva.gpu.DeviceMemory.size(bytes), cause.getMessage()), cause);
            }
            if (rc != 0) throw new GpuException("cuMemAlloc_v2 failed: " + describe(rc));
            return out.get(JAVA_LONG, 0);
        }
    }

    /** Frees a device pointer from {@link #alloc}. */
    public void free(long pointer) {
        call("cuMemFree_v2", () -> (int) memFree.invoke(pointer));
    }

    /** Copies all of {@code host} to device pointer {@code dst} (synchronous). */
    public void copyToDevice(long dst, MemorySegment host) {
        call("cuMemcpyHtoD_v2", () -> (int) memcpyHtoD.invoke(dst, host, host.byteSize()));
    }

    /** Fills {@code host} from device pointer {@code src} (synchronous). */
    public void copyToHost(MemorySegment host, long src) {
        call("cuMemcpyDtoH_v2", () -> (int) memcpyDtoH.invoke(host, src, host.byteSize()));
    }

    /** The current context's free device memory in bytes. */
    public long freeMemory() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment free = a.allocate(JAVA_LONG), total = a.allocate(JAVA_LONG);
            call("cuMemGetInfo_v2", () -> (int) memGetInfo.invoke(free, total));
            return free.get(JAVA_LONG, 0);
        }
    }

    /** A new stream of the current context (blocking: ordered with the synchronous copies). */
    public MemorySegment createStream() {
        return addressOut("cuStreamCreate", out -> (int) streamCreate.invoke(out, 0));
    }

    /** Waits until {@code stream} has finished; a kernel's failure surfaces here. */
    public void synchronize(MemorySegment stream) {
        call("cuStreamSynchronize", () -> (int) streamSynchronize.invoke(stream));
    }

    /**
     * Launches {@code function} on {@code grid} blocks of {@code block} threads (1-D, static shared
     * memory only); {@code params} is the array of pointers to each argument's value.
     */
    public void launch(MemorySegment function, int grid, int block, MemorySegment stream, MemorySegment params) {
        call("cuLaunchKernel", () -> (int) launchKernel.invoke(function, grid, 1, 1, block, 1, 1, 0, stream, params,
                MemorySegment.NULL));
    }

    /**
     * Blocks of {@code block} threads of {@code function} one multiprocessor holds at once (its registers,
     * shared memory and thread limits; no dynamic shared memory).
     */
    public int blocksPerMultiprocessor(MemorySegment function, int block) {
        return intOut("cuOccupancyMaxActiveBlocksPerMultiprocessor",
                out -> (int) occupancy.invoke(out, function, block, 0L));
    }

    /** {@code CUDA_ERROR_NAME: description} of a result code; never throws. */
    public String describe(int code) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ADDRESS);
            String name = (int) getErrorName.invoke(code, p) == 0 ? cString(p) : "CUDA error " + code;
            String text = (int) getErrorString.invoke(code, p) == 0 ? cString(p) : "";
            return text.isEmpty() ? name : name + ": " + text;
        } catch (Throwable t) {
            return "CUDA error " + code;
        }
    }

    private static String cString(MemorySegment pointerToString) {
        MemorySegment s = pointerToString.get(ADDRESS, 0);
        return s.equals(MemorySegment.NULL) ? "" : s.reinterpret(4096).getString(0, StandardCharsets.UTF_8);
    }

    @FunctionalInterface
    private interface Call {
        int invoke() throws Throwable;
    }

    @FunctionalInterface
    private interface OutCall {
        int invoke(MemorySegment out) throws Throwable;
    }

    private void call(String what, Call c) {
        int rc;
        try {
            rc = c.invoke();
        } catch (Throwable t) {
            throw new GpuException(what + " failed: " + t, t);
        }
        if (rc != 0) throw new GpuException(what + " failed: " + describe(rc));
    }

    private int intOut(String what, OutCall c) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            call(what, () -> c.invoke(out));
            return out.get(JAVA_INT, 0);
        }
    }

    private long longOut(String what, OutCall c) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            call(what, () -> c.invoke(out));
            return out.get(JAVA_LONG, 0);
        }
    }

    private MemorySegment addressOut(String what, OutCall c) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ADDRESS);
            call(what, () -> c.invoke(out));
            return out.get(ADDRESS, 0);
        }
    }
}
