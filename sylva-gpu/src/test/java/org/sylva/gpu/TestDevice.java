package org.sylva.gpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.sylva.gpu.opencl.OpenClBackend;
import org.sylva.gpu.opencl.OpenClDevices;

/**
 * The OpenCL device the GPU tests run on (PoCL in CI). Where none is usable the tests skip with the
 * reason, except under {@code CI=true}, where they fail: CI installs PoCL, so a missing device there is
 * a broken setup, not a reason to pass silently.
 */
public final class TestDevice {
    private TestDevice() {
    }

    public static OpenClBackend openCl() {
        OpenClDevices s = OpenClDevices.scan();
        if (s.firstUsable().isEmpty()) {
            String why = "no usable OpenCL device: " + s.whyNone();
            if ("true".equalsIgnoreCase(System.getenv("CI"))) throw new AssertionError(why + " (CI=true: PoCL must be installed)");
            assumeTrue(false, why);
        }
        return OpenClBackend.preferred();
    }

    static GpuHdbscanEngine engine(LaunchPolicy policy, boolean shortcuts) {
        return new GpuHdbscanEngine(openCl(), policy, shortcuts);
    }
}
