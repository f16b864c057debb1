package org.sylva.gpu.cuda;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.sylva.gpu.GpuDevice;
import org.sylva.gpu.TileShape;

/**
 * The CUDA devices of this machine, through the driver API ({@link CudaDriver}): name, memory, compute
 * capability, shared memory per block. Never throws: a missing driver or a failing call is a reason in
 * {@link #problems()}. A device is usable when its blocks have the shared memory the kernels' tiles
 * take and something compiles the kernels (NVRTC or stamped PTX files, {@link CudaPtx#whyNone()}); in the
 * list, device {@code i} is CUDA ordinal {@code i}.
 *
 * <pre>{@code
 * CudaDevices c = CudaDevices.scan();
 * c.devices().forEach(d -> System.out.println(d.describe()));
 * }</pre>
 *
 * @param devices every CUDA device found, by ordinal
 * @param problems why the driver gave no devices
 */
public record CudaDevices(List<GpuDevice> devices, List<String> problems) {
    /** Shared memory the kernels' tiles take per block (the tile and its per-row values). */
    static final long SHARED_NEEDED = 8L * TileShape.TILE_DOUBLES + 12L * TileShape.TILE_ROWS_MAX;

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

    private static CudaDevices scanNow() {
        List<GpuDevice> found = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Optional<CudaDriver> driver = CudaDriver.load();
        if (driver.isEmpty()) {
            problems.add(CudaDriver.loadFailure());
            return new CudaDevices(found, problems);
        }
        CudaDriver cu = driver.get();
        String noCompiler;   // the kernels need NVRTC or stamped PTX files: without either no device is usable
        try {
            noCompiler = CudaPtx.find().whyNone();
        } catch (RuntimeException e) {
            noCompiler = e.getMessage() != null ? e.getMessage() : e.toString();
        }
        try {
            cu.init();
            int dv = cu.driverVersion();
            int n = cu.deviceCount();
            if (n == 0) problems.add("the CUDA driver reports no device");
            for (int i = 0; i < n; i++) {
                int dev = cu.device(i);
                int major = cu.attribute(dev, CudaDriver.ATTR_CC_MAJOR), minor = cu.attribute(dev, CudaDriver.ATTR_CC_MINOR);
                long shared = cu.attribute(dev, CudaDriver.ATTR_SHARED_PER_BLOCK);
                String unusable = shared < SHARED_NEEDED
                        ? "blocks have " + shared + " bytes of shared memory, the kernels need " + SHARED_NEEDED : noCompiler;
                found.add(new GpuDevice("cuda", "CUDA driver " + dv / 1000 + "." + dv % 1000 / 10, cu.deviceName(dev),
                        "compute capability " + major + "." + minor, cu.totalMemory(dev), shared, unusable));
            }
        } catch (RuntimeException e) {
            problems.add("CUDA driver query failed: " + e.getMessage());
        }
        return new CudaDevices(found, problems);
    }
}
