package org.sylva.cli;

import java.util.concurrent.Callable;
import org.sylva.gpu.GpuEngines;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code sylva devices}: the GPU devices found (OpenCL and CUDA), each with whether the GPU engine can
 * use it and why not, and why an API found none. Exit status 0 when a device is usable, 1 when none is (a script
 * can ask {@code sylva devices >/dev/null && ...}): the listing itself never fails.
 *
 * <pre>{@code
 * $ sylva devices
 * opencl: pthread-skylake-avx512 (Portable Computing Language, OpenCL 3.0 PoCL, 7.6 GiB): usable
 * cuda: CUDA driver library libcuda.so.1 could not be loaded (no NVIDIA driver)
 * }</pre>
 */
final class DevicesCommand implements Callable<Integer> {
    CommandSpec spec;

    /** This command's picocli model, bound to this object ({@link CommandModel}). */
    CommandSpec model() {
        CommandModel m = new CommandModel("devices", this)
                .description("List the GPU devices (OpenCL, CUDA) that sylva hdbscan and sylva balltree --backend "
                        + "opencl|cuda can use, and why one cannot be used. Exit status 0 when one is usable, 1 "
                        + "when none is.")
                .footer("",
                        "Examples:",
                        "  sylva devices   # GPUs for --backend opencl or cuda",
                        "  sylva hdbscan clips.npy --min-cluster-size 20 --backend opencl --out result/");
        spec = m.spec();
        return spec;
    }

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        GpuEngines.DeviceScan scan = GpuEngines.scanDevices();
        for (String line : scan.lines()) out.println(line);
        out.flush();
        return scan.anyUsable() ? ExitStatus.OK : ExitStatus.NO_DEVICE;
    }
}
