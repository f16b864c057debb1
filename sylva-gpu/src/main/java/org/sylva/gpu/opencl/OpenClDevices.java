package org.sylva.gpu.opencl;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.sylva.gpu.GpuDevice;
import org.sylva.gpu.GpuException;

/**
 * The OpenCL devices of this machine, found without ever failing: a missing library, no platform or a
 * platform that errs is a reason kept in {@link #problems()}, not an exception (as
 * {@code KernelProvider} keeps the reason the vector kernels cannot run). A device is usable when it is
 * available, has a compiler, computes in float64 ({@code cl_khr_fp64}) and has the local memory the
 * kernels' tiles need. Scanned once per JVM.
 *
 * <pre>{@code
 * OpenClDevices s = OpenClDevices.scan();
 * s.preferred().ifPresentOrElse(d -> use(d), () -> System.err.println(s.whyNone()));
 * }</pre>
 *
 * @param devices every device found, usable or not
 * @param problems why platforms or the library gave no devices
 */
public record OpenClDevices(List<ClDevice> devices, List<String> problems) {
    /** Local memory the kernels' tiles use per work-group (see {@code hdbscan.cl.inc}). */
    public static final long LOCAL_BYTES_NEEDED = 23 * 1024;

    private static volatile OpenClDevices cached;

    public OpenClDevices {
        devices = List.copyOf(devices);
        problems = List.copyOf(problems);
    }

    /** The devices, scanned on first call. Never throws. */
    public static OpenClDevices scan() {
        OpenClDevices s = cached;
        if (s == null) {
            s = scanNow();
            cached = s;
        }
        return s;
    }

    private static OpenClDevices scanNow() {
        List<ClDevice> found = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        OpenCl cl;
        try {
            cl = OpenCl.get();
        } catch (GpuException | LinkageError e) {
            problems.add(e.getMessage());
            return new OpenClDevices(found, problems);
        }
        List<MemorySegment> platforms;
        try {
            platforms = cl.platforms();
        } catch (RuntimeException e) {
            problems.add("OpenCL platforms could not be listed: " + e.getMessage());
            return new OpenClDevices(found, problems);
        }
        if (platforms.isEmpty()) problems.add("the OpenCL loader found no platform (no driver installed, or none registered "
                + "where it looks: " + vendorsDirectory() + ")");
        for (MemorySegment p : platforms) {
            String pname = "?";
            try {
                pname = cl.platformInfo(p, OpenCl.PLATFORM_NAME);
                List<MemorySegment> devices = cl.devices(p);
                if (devices.isEmpty()) problems.add("OpenCL platform " + pname + " lists no device");
                for (MemorySegment d : devices) found.add(describe(cl, p, pname, d));
            } catch (RuntimeException e) {
                problems.add("OpenCL platform " + pname + ": " + e.getMessage());
            }
        }
        return new OpenClDevices(found, problems);
    }

    /** Where the ICD loader reads the drivers' registrations: {@code OCL_ICD_VENDORS}, else its default. */
    private static String vendorsDirectory() {
        String v = System.getenv("OCL_ICD_VENDORS");
        return v == null || v.isEmpty() ? "/etc/OpenCL/vendors" : "OCL_ICD_VENDORS=" + v;
    }

    private static ClDevice describe(OpenCl cl, MemorySegment platform, String pname, MemorySegment d) {
        String name = cl.deviceString(d, OpenCl.DEVICE_NAME);
        String version = cl.deviceString(d, OpenCl.DEVICE_VERSION);
        long global = cl.deviceNumber(d, OpenCl.DEVICE_GLOBAL_MEM_SIZE);
        long local = cl.deviceNumber(d, OpenCl.DEVICE_LOCAL_MEM_SIZE);
        long maxWg = cl.deviceNumber(d, OpenCl.DEVICE_MAX_WORK_GROUP_SIZE);
        long units = cl.deviceNumber(d, OpenCl.DEVICE_MAX_COMPUTE_UNITS);
        long maxAlloc = cl.deviceNumber(d, OpenCl.DEVICE_MAX_MEM_ALLOC_SIZE);
        boolean cpu = (cl.deviceNumber(d, OpenCl.DEVICE_TYPE) & OpenCl.DEVICE_TYPE_CPU) != 0;
        String why = null;
        if (cl.deviceNumber(d, OpenCl.DEVICE_AVAILABLE) == 0) why = "the device is not available";
        else if (cl.deviceNumber(d, OpenCl.DEVICE_COMPILER_AVAILABLE) == 0) why = "the platform has no compiler";
        else if (cl.deviceNumber(d, OpenCl.DEVICE_DOUBLE_FP_CONFIG) == 0) why = "no float64 support (cl_khr_fp64)";
        else if (local < LOCAL_BYTES_NEEDED) why = "local memory " + local + " B < " + LOCAL_BYTES_NEEDED + " B";
        else if (maxWg < 1) why = "no work-group size";
        else if (units < 1) why = "no compute unit";
        return new ClDevice(platform, d, new GpuDevice("opencl", pname, name, version, global, local, why), maxWg,
                units, cpu, maxAlloc);
    }

    /** The first usable device, if any. */
    public Optional<ClDevice> firstUsable() {
        return devices.stream().filter(d -> d.info().usable()).findFirst();
    }

    /**
     * The device {@code --backend opencl} runs on: the first usable device that is not a CPU device (a
     * GPU), else the first usable CPU device (such as PoCL's), in the order the platforms list them. A
     * machine with both PoCL and NVIDIA's OpenCL driver lists PoCL's CPU device first; taking it would
     * run the kernels on the processor.
     */
    public Optional<ClDevice> preferred() {
        return preferred(devices);
    }

    static Optional<ClDevice> preferred(List<ClDevice> devices) {
        Optional<ClDevice> gpu = devices.stream().filter(d -> d.info().usable() && !d.cpu()).findFirst();
        return gpu.isPresent() ? gpu : devices.stream().filter(d -> d.info().usable()).findFirst();
    }

    /** Why no device is usable: the problems, else each device's reason. */
    public String whyNone() {
        List<String> r = new ArrayList<>(problems);
        for (ClDevice d : devices) if (!d.info().usable()) r.add(d.info().describeDevice());
        return r.isEmpty() ? "no OpenCL device found" : String.join("; ", r);
    }
}
