package org.sylva.gpu.opencl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sylva.gpu.GpuDevice;

/** Which device {@code --backend opencl} takes when a machine lists several (PoCL's CPU device and a GPU, say). */
class OpenClDevicesTest {
    private static ClDevice device(String name, boolean cpu, String unusable) {
        return new ClDevice(MemorySegment.NULL, MemorySegment.NULL,
                new GpuDevice("opencl", cpu ? "Portable Computing Language" : "NVIDIA CUDA", name, "OpenCL 3.0", 1L << 30,
                        48 * 1024, unusable), 1024, 16, cpu, 1L << 28);
    }

    @Test
    void aGpuIsTakenBeforeACpuDeviceListedFirst() {
        // the order the H200 machine listed them: PoCL's CPU device, then NVIDIA's GPU
        ClDevice pocl = device("cpu-skylake-avx512", true, null);
        ClDevice h200 = device("NVIDIA H200", false, null);
        assertEquals(Optional.of(h200), OpenClDevices.preferred(List.of(pocl, h200)));
        assertEquals(Optional.of(h200), OpenClDevices.preferred(List.of(h200, pocl)));
    }

    @Test
    void anUnusableGpuLeavesTheCpuDeviceAndNothingUsableLeavesNothing() {
        ClDevice pocl = device("cpu-skylake-avx512", true, null);
        ClDevice noFp64 = device("a GPU without float64", false, "no float64 support (cl_khr_fp64)");
        assertEquals(Optional.of(pocl), OpenClDevices.preferred(List.of(noFp64, pocl)));
        assertEquals(Optional.empty(), OpenClDevices.preferred(List.of(noFp64)));
        ClDevice second = device("second GPU", false, null);
        assertEquals(Optional.of(second), OpenClDevices.preferred(List.of(pocl, noFp64, second, device("third GPU", false, null))));
    }

    @Test
    void whyNoneNamesEachUnusableDeviceWithoutRepeatingTheApi() {
        ClDevice noFp64 = device("a GPU without float64", false, "no float64 support (cl_khr_fp64)");
        // the refusal reads "no usable OpenCL device: " + this: the API is named once
        assertEquals("a GPU without float64 (NVIDIA CUDA, OpenCL 3.0, 1.0 GiB): not usable: no float64 support "
                + "(cl_khr_fp64)", new OpenClDevices(List.of(noFp64), List.of()).whyNone());
        assertEquals("no OpenCL device found", new OpenClDevices(List.of(), List.of()).whyNone());
    }

    @Test
    void aPlatformListingNoDeviceIsNamed() throws Exception {
        // PoCL lists no device when told to offer only a device type it does not have: the scan must say so, or
        // `sylva devices` says nothing about OpenCL and a fit's refusal names no platform
        assumeTrue(OpenClDevices.scan().devices().stream().anyMatch(d -> d.info().platform().contains("Portable")),
                "no PoCL platform here");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), WhyNone.class.getName()).redirectErrorStream(true);
        pb.environment().put("POCL_DEVICES", "no-such-device-type");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out");
        assertTrue(out.contains("OpenCL platform Portable Computing Language lists no device"), out);
    }

    @Test
    void aBrokenOpenClLibraryIsReportedWithTheLoadersReasonAndNoPackageHint(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws Exception {
        Path empty = java.nio.file.Files.createFile(tmp.resolve("libOpenCL.so.1"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Dsylva.opencl.library=" + empty,
                "-cp", System.getProperty("java.class.path"), WhyNone.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out");
        assertTrue(out.contains("could not be loaded (" + empty + ": file too short)"), out);
        assertTrue(!out.contains("apt-get"), "the library is there: installing it is not the remedy: " + out);
    }

    /** Prints why no OpenCL device is usable, for the tests above. */
    static final class WhyNone {
        public static void main(String[] args) {
            System.out.println(OpenClDevices.scan().whyNone());
        }
    }
}
