package org.sylva.gpu.cuda;

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
import org.sylva.gpu.GpuBackend;
import org.sylva.gpu.GpuDevice;
import org.sylva.gpu.GpuException;

/**
 * The CUDA devices of this machine, through the driver API ({@code libcuda.so.1}, or the library the
 * system property {@code sylva.cuda.library} names) by the FFM API: {@code cuInit}, the device count,
 * names and memory. Never throws: a missing driver or a failing call is a reason in {@link #problems()}.
 * Running the engine on CUDA ({@link #firstBackend()}) is not in this build yet and is refused with
 * that reason; the kernels' CUDA prelude ({@code prelude-cuda.h}) is ready for NVRTC.
 *
 * <pre>{@code
 * CudaDevices c = CudaDevices.scan();
 * c.devices().forEach(d -> System.out.println(d.describe()));
 * }</pre>
 *
 * @param devices every CUDA device found
 * @param problems why the driver gave no devices
 */
public record CudaDevices(List<GpuDevice> devices, List<String> problems) {
    /** Why the CUDA engine is refused in this build. */
    public static final String NOT_BUILT = "the CUDA engine (driver API launch, NVRTC compile) is not in this "
            + "build yet; use --backend opencl (the NVIDIA driver's OpenCL runs the same kernels)";

    private static volatile CudaDevices cached;

    public CudaDevices {
        devices = List.copyOf(devices);
        problems = List.copyOf(problems);
    }

    /** The devices, scanned on first call. Never throws. */
    public static CudaDevices scan() {
        CudaDevices s = cached;
        if (s == null) {
            s = scanNow();
            cached = s;
        }
        return s;
    }

    /** The CUDA backend; refused (a {@link GpuException} with the reason) until it is built. */
    public static GpuBackend firstBackend() {
        CudaDevices s = scan();
        String found = s.devices().isEmpty() ? "no CUDA device (" + String.join("; ", s.problems()) + ")"
                : s.devices().size() + " CUDA device(s) found";
        throw new GpuException("CUDA backend unavailable: " + found + "; " + NOT_BUILT);
    }

    private static CudaDevices scanNow() {
        List<GpuDevice> found = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String name = System.getProperty("sylva.cuda.library", "libcuda.so.1");
        SymbolLookup lib;
        try {
            lib = SymbolLookup.libraryLookup(name, Arena.global());
        } catch (IllegalArgumentException | IllegalCallerException e) {
            problems.add("CUDA driver library " + name + " could not be loaded (no NVIDIA driver)");
            return new CudaDevices(found, problems);
        }
        try (Arena a = Arena.ofConfined()) {
            Linker l = Linker.nativeLinker();
            MethodHandle init = h(l, lib, "cuInit", JAVA_INT);
            MethodHandle count = h(l, lib, "cuDeviceGetCount", ADDRESS);
            MethodHandle get = h(l, lib, "cuDeviceGet", ADDRESS, JAVA_INT);
            MethodHandle getName = h(l, lib, "cuDeviceGetName", ADDRESS, JAVA_INT, JAVA_INT);
            MethodHandle totalMem = h(l, lib, "cuDeviceTotalMem_v2", ADDRESS, JAVA_INT);
            MethodHandle driver = h(l, lib, "cuDriverGetVersion", ADDRESS);
            int rc = (int) init.invoke(0);
            if (rc != 0) {
                problems.add("cuInit failed: CUDA error " + rc);
                return new CudaDevices(found, problems);
            }
            MemorySegment v = a.allocate(JAVA_INT);
            int dv = (int) driver.invoke(v) == 0 ? v.get(JAVA_INT, 0) : 0;
            check((int) count.invoke(v), "cuDeviceGetCount");
            int n = v.get(JAVA_INT, 0);
            if (n == 0) problems.add("the CUDA driver reports no device");
            for (int i = 0; i < n; i++) {
                check((int) get.invoke(v, i), "cuDeviceGet");
                int dev = v.get(JAVA_INT, 0);
                MemorySegment buf = a.allocate(256);
                check((int) getName.invoke(buf, 256, dev), "cuDeviceGetName");
                MemorySegment mem = a.allocate(JAVA_LONG);
                check((int) totalMem.invoke(mem, dev), "cuDeviceTotalMem");
                found.add(new GpuDevice("cuda", "CUDA driver " + dv / 1000 + "." + dv % 1000 / 10,
                        buf.getString(0, StandardCharsets.UTF_8), "device " + i, mem.get(JAVA_LONG, 0), 48 * 1024,
                        NOT_BUILT));
            }
        } catch (Throwable t) {
            problems.add("CUDA driver query failed: " + t.getMessage());
        }
        return new CudaDevices(found, problems);
    }

    private static void check(int rc, String call) {
        if (rc != 0) throw new GpuException(call + ": CUDA error " + rc);
    }

    private static MethodHandle h(Linker l, SymbolLookup lib, String name, java.lang.foreign.MemoryLayout... args) {
        MemorySegment sym = lib.find(name).orElseThrow(() -> new GpuException("libcuda has no symbol " + name));
        return l.downcallHandle(sym, FunctionDescriptor.of(JAVA_INT, args));
    }
}
