package org.sylva.gpu.cuda;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.sylva.gpu.GpuEngines;
import org.sylva.gpu.GpuException;

/**
 * Without the CUDA driver (every CI machine; the device machine is the exception) the CUDA path refuses
 * cleanly: the scan names the missing library, opening the engine is one {@link GpuException} saying why
 * and what to use instead, and nothing crashes. Skipped where a driver loads.
 */
class CudaRefusalTest {
    @Test
    void noDriverIsOneClearRefusal() {
        assumeTrue(CudaDriver.loadFailure() != null, "a CUDA driver is present here");
        CudaDevices s = CudaDevices.scan();
        assertTrue(s.devices().isEmpty());
        assertTrue(s.problems().getFirst().contains("libcuda.so.1 could not be loaded"), s.problems().toString());
        GpuException e = assertThrows(GpuException.class, () -> GpuEngines.open("cuda"));
        assertTrue(e.getMessage().startsWith("CUDA backend unavailable: no CUDA device (CUDA driver library "
                + "libcuda.so.1 could not be loaded"), e.getMessage());
        assertTrue(e.getMessage().contains("; the opencl backend runs the same kernels"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertTrue(GpuEngines.deviceLines().stream().anyMatch(l -> l.startsWith("cuda: CUDA driver library")),
                GpuEngines.deviceLines().toString());
    }
}
