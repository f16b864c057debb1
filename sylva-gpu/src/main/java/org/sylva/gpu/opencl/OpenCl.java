package org.sylva.gpu.opencl;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.sylva.data.InsufficientMemoryException;
import org.sylva.gpu.GpuException;

/**
 * The OpenCL 1.2 host API through the FFM API ({@code java.lang.foreign}): the few calls the engine
 * needs (platforms, devices, context, queue, program build with its log, buffers, kernel arguments,
 * NDRange launch, finish, release), each checked, a failure an {@link OpenClException} naming the call
 * and the error. Loaded once per JVM from {@code libOpenCL.so.1} (the ICD loader; the system property
 * {@code sylva.opencl.library} names another); {@link #get()} throws a {@link GpuException} with the
 * reason when the library cannot be loaded, and {@link #loadFailure()} gives that reason without
 * throwing. Handles ({@code cl_context}, {@code cl_mem}, ...) are plain {@link MemorySegment} addresses.
 *
 * <pre>{@code
 * OpenCl cl = OpenCl.get();
 * for (MemorySegment platform : cl.platforms()) System.out.println(cl.platformInfo(platform, OpenCl.PLATFORM_NAME));
 * }</pre>
 */
@SuppressWarnings("restricted")   // FFM bindings: restricted calls by design; the launchers allow native access
public final class OpenCl {
    /** Error codes that mean memory ran out (see {@link #check}). */
    static final int MEM_OBJECT_ALLOCATION_FAILURE = -4;
    static final int OUT_OF_HOST_MEMORY = -6;
    public static final int PLATFORM_VERSION = 0x0901;
    public static final int PLATFORM_NAME = 0x0902;
    public static final long DEVICE_TYPE_ALL = 0xFFFFFFFFL;
    public static final int DEVICE_TYPE = 0x1000;
    public static final long DEVICE_TYPE_CPU = 2;
    public static final int DEVICE_MAX_COMPUTE_UNITS = 0x1002;
    public static final int DEVICE_MAX_WORK_GROUP_SIZE = 0x1004;
    public static final int DEVICE_MAX_MEM_ALLOC_SIZE = 0x1010;
    public static final int DEVICE_GLOBAL_MEM_SIZE = 0x101F;
    public static final int DEVICE_LOCAL_MEM_SIZE = 0x1023;
    public static final int DEVICE_AVAILABLE = 0x1027;
    public static final int DEVICE_COMPILER_AVAILABLE = 0x1028;
    public static final int DEVICE_NAME = 0x102B;
    public static final int DEVICE_VERSION = 0x102F;
    public static final int DEVICE_DOUBLE_FP_CONFIG = 0x1032;
    public static final int PROGRAM_BUILD_LOG = 0x1183;
    public static final long MEM_READ_WRITE = 1, MEM_WRITE_ONLY = 2, MEM_READ_ONLY = 4;
    private static final int DEVICE_NOT_FOUND = -1;

    private static final Object LOCK = new Object();
    private static volatile OpenCl instance;
    private static volatile String failure;

    private final MethodHandle getPlatformIDs, getPlatformInfo, getDeviceIDs, getDeviceInfo, createContext,
            createCommandQueue, createProgramWithSource, buildProgram, getProgramBuildInfo, createKernel,
            createBuffer, enqueueWriteBuffer, enqueueReadBuffer, setKernelArg, enqueueNDRangeKernel, finish,
            releaseMemObject, releaseKernel, releaseProgram, releaseCommandQueue, releaseContext;

    private OpenCl(SymbolLookup lib) {
        Linker l = Linker.nativeLinker();
        getPlatformIDs = h(l, lib, "clGetPlatformIDs", JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
        getPlatformInfo = h(l, lib, "clGetPlatformInfo", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS);
        getDeviceIDs = h(l, lib, "clGetDeviceIDs", JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS);
        getDeviceInfo = h(l, lib, "clGetDeviceInfo", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS);
        createContext = h(l, lib, "clCreateContext", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
        createCommandQueue = h(l, lib, "clCreateCommandQueue", ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS);
        createProgramWithSource = h(l, lib, "clCreateProgramWithSource", ADDRESS, ADDRESS, JAVA_INT, ADDRESS,
                ADDRESS, ADDRESS);
        buildProgram = h(l, lib, "clBuildProgram", JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
        getProgramBuildInfo = h(l, lib, "clGetProgramBuildInfo", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG,
                ADDRESS, ADDRESS);
        createKernel = h(l, lib, "clCreateKernel", ADDRESS, ADDRESS, ADDRESS, ADDRESS);
        createBuffer = h(l, lib, "clCreateBuffer", ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS);
        enqueueWriteBuffer = h(l, lib, "clEnqueueWriteBuffer", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG,
                JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        enqueueReadBuffer = h(l, lib, "clEnqueueReadBuffer", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG,
                JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        setKernelArg = h(l, lib, "clSetKernelArg", JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS);
        enqueueNDRangeKernel = h(l, lib, "clEnqueueNDRangeKernel", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS,
                ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        finish = h(l, lib, "clFinish", JAVA_INT, ADDRESS);
        releaseMemObject = h(l, lib, "clReleaseMemObject", JAVA_INT, ADDRESS);
        releaseKernel = h(l, lib, "clReleaseKernel", JAVA_INT, ADDRESS);
        releaseProgram = h(l, lib, "clReleaseProgram", JAVA_INT, ADDRESS);
        releaseCommandQueue = h(l, lib, "clReleaseCommandQueue", JAVA_INT, ADDRESS);
        releaseContext = h(l, lib, "clReleaseContext", JAVA_INT, ADDRESS);
    }

    private static MethodHandle h(Linker l, SymbolLookup lib, String name, java.lang.foreign.MemoryLayout ret,
            java.lang.foreign.MemoryLayout... args) {
        MemorySegment sym = lib.find(name)
                .orElseThrow(() -> new GpuException("the OpenCL library has no symbol " + name));
        return l.downcallHandle(sym, FunctionDescriptor.of(ret, args));
    }

    /** The bindings, loading the library on first use; a {@link GpuException} with the reason when it cannot. */
    public static OpenCl get() {
        OpenCl cl = instance;
        if (cl != null) return cl;
        synchronized (LOCK) {
            if (instance == null && failure == null) {
                String name = System.getProperty("sylva.opencl.library", "libOpenCL.so.1");
                String notALibrary = org.sylva.gpu.LoaderError.notALibrary(name);
                if (notALibrary != null) {
                    failure = "OpenCL library could not be loaded (" + notALibrary + ")";
                } else {
                    try {
                        instance = new OpenCl(SymbolLookup.libraryLookup(name, Arena.global()));
                    } catch (IllegalArgumentException | GpuException | IllegalCallerException e) {
                        String why = org.sylva.gpu.LoaderError.reason(name, e.getMessage());
                        // the package hint where the library is missing, not where it is there but broken
                        boolean missing = org.sylva.gpu.LoaderError.saysMissing(why);
                        failure = "OpenCL library " + name + " could not be loaded (" + why + ")"
                                + (missing ? "; on Debian/Ubuntu: apt-get install ocl-icd-libopencl1 and a driver"
                                + " (pocl-opencl-icd for CPUs, the NVIDIA driver for GPUs)" : "");
                    }
                }
            }
            if (instance == null) throw new GpuException(failure);
            return instance;
        }
    }

    /** Why the library could not be loaded, or {@code null} when it loads. Never throws. */
    public static String loadFailure() {
        try {
            get();
            return null;
        } catch (GpuException e) {
            return e.getMessage();
        }
    }

    /**
     * Nothing when {@code rc} is {@code CL_SUCCESS}; else an {@link OpenClException} naming the call and the code, or,
     * for the two codes that mean memory ran out ({@code CL_MEM_OBJECT_ALLOCATION_FAILURE}, which drivers may report
     * at a buffer's first use rather than at its creation, and {@code CL_OUT_OF_HOST_MEMORY}), an
     * {@link InsufficientMemoryException} with that exception as its cause, so that a fit the device's memory cannot
     * hold fails as one the heap cannot hold does (a memory error, Python's {@code MemoryError}).
     */
    static void check(int rc, String call) {
        if (rc == 0) return;
        OpenClException e = new OpenClException(call, rc);
        if (rc == MEM_OBJECT_ALLOCATION_FAILURE || rc == OUT_OF_HOST_MEMORY) {
            throw new InsufficientMemoryException(e.getMessage() + ": the OpenCL device ran out of memory", e);
        }
        throw e;
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new GpuException("OpenCL call failed: " + t, t);
    }

    /** Every platform the ICD loader reports (none: an empty list, not an error). */
    public List<MemorySegment> platforms() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment count = a.allocate(JAVA_INT);
            int rc = (int) getPlatformIDs.invoke(0, MemorySegment.NULL, count);
            if (rc == -1001 || rc == DEVICE_NOT_FOUND) return List.of();   // no ICD installed
            check(rc, "clGetPlatformIDs");
            int n = count.get(JAVA_INT, 0);
            if (n == 0) return List.of();
            MemorySegment ids = a.allocate(ADDRESS, n);
            check((int) getPlatformIDs.invoke(n, ids, MemorySegment.NULL), "clGetPlatformIDs");
            return readAddresses(ids, n);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Every device of {@code platform} (none: an empty list). */
    public List<MemorySegment> devices(MemorySegment platform) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment count = a.allocate(JAVA_INT);
            int rc = (int) getDeviceIDs.invoke(platform, DEVICE_TYPE_ALL, 0, MemorySegment.NULL, count);
            if (rc == DEVICE_NOT_FOUND) return List.of();
            check(rc, "clGetDeviceIDs");
            int n = count.get(JAVA_INT, 0);
            if (n == 0) return List.of();
            MemorySegment ids = a.allocate(ADDRESS, n);
            check((int) getDeviceIDs.invoke(platform, DEVICE_TYPE_ALL, n, ids, MemorySegment.NULL), "clGetDeviceIDs");
            return readAddresses(ids, n);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static List<MemorySegment> readAddresses(MemorySegment ids, int n) {
        List<MemorySegment> l = new ArrayList<>(n);
        for (int i = 0; i < n; i++) l.add(ids.getAtIndex(ADDRESS, i));
        return l;
    }

    /** A string-valued platform parameter. */
    public String platformInfo(MemorySegment platform, int param) {
        return info(getPlatformInfo, "clGetPlatformInfo", platform, param);
    }

    /** A string-valued device parameter. */
    public String deviceString(MemorySegment device, int param) {
        return info(getDeviceInfo, "clGetDeviceInfo", device, param);
    }

    /** A numeric device parameter ({@code cl_ulong}, {@code size_t}, {@code cl_uint} or {@code cl_bool}, widened). */
    public long deviceNumber(MemorySegment device, int param) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(8);
            MemorySegment size = a.allocate(JAVA_LONG);
            check((int) getDeviceInfo.invoke(device, param, 8L, v, size), "clGetDeviceInfo");
            return size.get(JAVA_LONG, 0) == 4 ? Integer.toUnsignedLong(v.get(JAVA_INT, 0)) : v.get(JAVA_LONG, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static String info(MethodHandle mh, String call, MemorySegment obj, int param) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment size = a.allocate(JAVA_LONG);
            check((int) mh.invoke(obj, param, 0L, MemorySegment.NULL, size), call);
            long n = size.get(JAVA_LONG, 0);
            MemorySegment buf = a.allocate(Math.max(n, 1));
            check((int) mh.invoke(obj, param, n, buf, MemorySegment.NULL), call);
            return buf.getString(0, StandardCharsets.UTF_8).trim();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A context on one device. */
    public MemorySegment createContext(MemorySegment device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(JAVA_INT);
            MemorySegment devs = a.allocate(ADDRESS);
            devs.set(ADDRESS, 0, device);
            MemorySegment ctx = (MemorySegment) createContext.invoke(MemorySegment.NULL, 1, devs, MemorySegment.NULL,
                    MemorySegment.NULL, err);
            check(err.get(JAVA_INT, 0), "clCreateContext");
            return ctx;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** An in-order command queue. */
    public MemorySegment createQueue(MemorySegment context, MemorySegment device) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(JAVA_INT);
            MemorySegment q = (MemorySegment) createCommandQueue.invoke(context, device, 0L, err);
            check(err.get(JAVA_INT, 0), "clCreateCommandQueue");
            return q;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Compiles {@code source} with {@code options} for {@code device}; a failed build is an
     * {@link OpenClException} whose message carries the build log.
     */
    public MemorySegment buildProgram(MemorySegment context, MemorySegment device, String source, String options) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(JAVA_INT);
            MemorySegment strings = a.allocate(ADDRESS);
            strings.set(ADDRESS, 0, a.allocateFrom(source, StandardCharsets.UTF_8));
            MemorySegment program = (MemorySegment) createProgramWithSource.invoke(context, 1, strings,
                    MemorySegment.NULL, err);
            check(err.get(JAVA_INT, 0), "clCreateProgramWithSource");
            MemorySegment devs = a.allocate(ADDRESS);
            devs.set(ADDRESS, 0, device);
            int rc = (int) buildProgram.invoke(program, 1, devs, a.allocateFrom(options, StandardCharsets.UTF_8),
                    MemorySegment.NULL, MemorySegment.NULL);
            if (rc != 0) {
                String log = buildLog(program, device);
                releaseProgram.invoke(program);
                throw new OpenClException("clBuildProgram: " + ClErrors.name(rc) + " (" + rc + "); build log:\n" + log);
            }
            return program;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private String buildLog(MemorySegment program, MemorySegment device) throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment size = a.allocate(JAVA_LONG);
            int rc = (int) getProgramBuildInfo.invoke(program, device, PROGRAM_BUILD_LOG, 0L, MemorySegment.NULL, size);
            if (rc != 0) return "(no log: " + ClErrors.name(rc) + ")";
            long n = size.get(JAVA_LONG, 0);
            MemorySegment buf = a.allocate(Math.max(n, 1));
            getProgramBuildInfo.invoke(program, device, PROGRAM_BUILD_LOG, n, buf, MemorySegment.NULL);
            return buf.getString(0, StandardCharsets.UTF_8);
        }
    }

    /** The kernel {@code name} of a built program. */
    public MemorySegment createKernel(MemorySegment program, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(JAVA_INT);
            MemorySegment k = (MemorySegment) createKernel.invoke(program, a.allocateFrom(name), err);
            check(err.get(JAVA_INT, 0), "clCreateKernel(" + name + ")");
            return k;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A device buffer of {@code bytes} (at least 1). */
    public MemorySegment createBuffer(MemorySegment context, long flags, long bytes) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment err = a.allocate(JAVA_INT);
            MemorySegment b = (MemorySegment) createBuffer.invoke(context, flags, Math.max(bytes, 1L),
                    MemorySegment.NULL, err);
            check(err.get(JAVA_INT, 0), "clCreateBuffer(" + bytes + " bytes)");
            return b;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Blocking copy of {@code host} (its whole size) to {@code buffer} at {@code offset}. */
    public void write(MemorySegment queue, MemorySegment buffer, long offset, MemorySegment host) {
        try {
            check((int) enqueueWriteBuffer.invoke(queue, buffer, 1, offset, host.byteSize(), host, 0,
                    MemorySegment.NULL, MemorySegment.NULL), "clEnqueueWriteBuffer");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Blocking copy from {@code buffer} at {@code offset} into {@code host} (its whole size). */
    public void read(MemorySegment queue, MemorySegment buffer, long offset, MemorySegment host) {
        try {
            check((int) enqueueReadBuffer.invoke(queue, buffer, 1, offset, host.byteSize(), host, 0,
                    MemorySegment.NULL, MemorySegment.NULL), "clEnqueueReadBuffer");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Sets argument {@code index} to the bytes of {@code value} (a buffer handle, an int, a double). */
    public void setArg(MemorySegment kernel, int index, MemorySegment value) {
        try {
            check((int) setKernelArg.invoke(kernel, index, value.byteSize(), value), "clSetKernelArg(" + index + ")");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Enqueues a one-dimensional launch of {@code global} work-items in groups of {@code local}. */
    public void launch(MemorySegment queue, MemorySegment kernel, long global, long local) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment g = a.allocateFrom(JAVA_LONG, global);
            MemorySegment l = a.allocateFrom(JAVA_LONG, local);
            check((int) enqueueNDRangeKernel.invoke(queue, kernel, 1, MemorySegment.NULL, g, l, 0,
                    MemorySegment.NULL, MemorySegment.NULL), "clEnqueueNDRangeKernel");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Waits until everything enqueued on {@code queue} has finished. */
    public void finish(MemorySegment queue) {
        try {
            check((int) finish.invoke(queue), "clFinish");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Releases a buffer; errors are ignored (release runs on cleanup paths). */
    public void releaseBuffer(MemorySegment b) {
        release(releaseMemObject, b);
    }

    public void releaseKernel(MemorySegment k) {
        release(releaseKernel, k);
    }

    public void releaseProgram(MemorySegment p) {
        release(releaseProgram, p);
    }

    public void releaseQueue(MemorySegment q) {
        release(releaseCommandQueue, q);
    }

    public void releaseContext(MemorySegment c) {
        release(releaseContext, c);
    }

    private static void release(MethodHandle mh, MemorySegment handle) {
        if (handle == null || handle.equals(MemorySegment.NULL)) return;
        try {
            int ignored = (int) mh.invoke(handle);
        } catch (Throwable t) {
            // cleanup must not hide the failure that caused it
        }
    }
}
