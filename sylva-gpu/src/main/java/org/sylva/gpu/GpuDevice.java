package org.sylva.gpu;

/**
 * One device a GPU API reports, as {@code sylva devices} lists it: which API, platform and name, its
 * memory, and why the engine cannot use it ({@code null} when it can).
 *
 * <pre>{@code
 * for (GpuDevice d : CudaDevices.scan().devices()) System.out.println(d.describe());
 * }</pre>
 *
 * @param api {@code "opencl"} or {@code "cuda"}
 * @param platform the platform (OpenCL) or driver version (CUDA)
 * @param name the device's name
 * @param version the device's API version string
 * @param globalMemoryBytes device memory
 * @param localMemoryBytes shared (local) memory per work-group
 * @param unusable why the engine cannot run on it, or {@code null}
 */
public record GpuDevice(String api, String platform, String name, String version, long globalMemoryBytes,
        long localMemoryBytes, String unusable) {
    /** True when the engine can run on this device. */
    public boolean usable() {
        return unusable == null;
    }

    /** One line: {@code opencl: NAME (PLATFORM, VERSION, 8.0 GiB): usable}. */
    public String describe() {
        return api + ": " + describeDevice();
    }

    /** {@link #describe()} without the API's name, for a line that names it already. */
    public String describeDevice() {
        return name + " (" + platform + ", " + version + ", "
                + String.format(java.util.Locale.ROOT, "%.1f GiB", globalMemoryBytes / (double) (1L << 30)) + "): "
                + (usable() ? "usable" : "not usable: " + unusable);
    }
}
