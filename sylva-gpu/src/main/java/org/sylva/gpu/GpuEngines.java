package org.sylva.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.sylva.gpu.cuda.CudaBackend;
import org.sylva.gpu.cuda.CudaDevices;
import org.sylva.gpu.cuda.CudaPtx;
import org.sylva.gpu.opencl.ClDevice;
import org.sylva.gpu.opencl.OpenClDevices;

/**
 * The GPU engines by API name, as the command line selects them ({@code --backend opencl|cuda}), and
 * the device list {@code sylva devices} prints. Opening an API with no usable device is a
 * {@link GpuException} that says why (library missing, no device, no float64, ...).
 *
 * <pre>{@code
 * HdbscanEngine e = GpuEngines.open("opencl");
 * GpuEngines.deviceLines().forEach(System.out::println);
 * }</pre>
 */
public final class GpuEngines {
    /** The API names {@link #open} accepts. */
    public static final List<String> APIS = List.of("opencl", "cuda");

    private GpuEngines() {
    }

    /** True when {@code name} (case ignored) names a GPU API. */
    public static boolean isGpu(String name) {
        return name != null && APIS.contains(name.trim().toLowerCase(Locale.ROOT));
    }

    /** The engine on the first usable device of {@code api}; a {@link GpuException} naming why not. */
    public static GpuHdbscanEngine open(String api) {
        return switch (api(api)) {
            case "opencl" -> GpuHdbscanEngine.openCl();
            default -> new GpuHdbscanEngine(CudaBackend.first(), LaunchPolicy.DEFAULT, true);
        };
    }

    /** {@code api} in lower case if it names a GPU API; an {@link IllegalArgumentException} otherwise. */
    static String api(String api) {
        String a = api == null ? "" : api.trim().toLowerCase(Locale.ROOT);
        if (!APIS.contains(a)) throw new IllegalArgumentException("not a GPU API: " + api + " (one of " + APIS + ")");
        return a;
    }

    /** What would compile the CUDA kernels (NVRTC and its path, or the PTX files), or why nothing can. */
    private static String cudaCompiler() {
        try {
            return CudaPtx.find().describe();
        } catch (GpuException e) {
            return "nothing: " + e.getMessage();
        }
    }

    /**
     * What a scan of both APIs found: one line per device and per reason an API gave none, and whether
     * {@code --backend opencl} or {@code --backend cuda} has a usable device.
     *
     * @param lines the lines {@link #deviceLines()} returns
     * @param anyUsable whether a device of either API is usable
     */
    public record DeviceScan(List<String> lines, boolean anyUsable) {
        public DeviceScan {
            lines = List.copyOf(lines);
        }
    }

    /** One line per device found and per reason an API gave none; never throws. */
    public static List<String> deviceLines() {
        return scanDevices().lines();
    }

    /** Both APIs' devices ({@link DeviceScan}); never throws. */
    public static DeviceScan scanDevices() {
        List<String> lines = new ArrayList<>();
        OpenClDevices cl = OpenClDevices.scan();
        ClDevice used = cl.preferred().orElse(null);
        for (ClDevice d : cl.devices()) {
            lines.add(d.info().describe() + (d == used && cl.devices().size() > 1 ? " (--backend opencl uses this one)" : ""));
        }
        for (String p : cl.problems()) lines.add("opencl: " + p);
        CudaDevices cu = CudaDevices.scan();
        for (GpuDevice d : cu.devices()) lines.add(d.describe());
        if (cu.devices().stream().anyMatch(GpuDevice::usable)) lines.add("cuda: kernels compiled by " + cudaCompiler());
        for (String p : cu.problems()) lines.add("cuda: " + p);
        return new DeviceScan(lines, used != null || cu.devices().stream().anyMatch(GpuDevice::usable));
    }
}
