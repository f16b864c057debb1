package org.sylva.gpu.opencl;

import java.lang.foreign.MemorySegment;
import org.sylva.gpu.GpuDevice;

/**
 * An OpenCL device found by {@link OpenClDevices#scan()}: its handle, its platform's, and its description.
 *
 * <pre>{@code
 * ClDevice d = OpenClDevices.scan().firstUsable().orElseThrow();
 * }</pre>
 *
 * @param platform the {@code cl_platform_id}
 * @param device the {@code cl_device_id}
 * @param info what it is and whether it is usable
 * @param maxWorkGroup the largest work-group it accepts
 * @param computeUnits its compute units ({@code CL_DEVICE_MAX_COMPUTE_UNITS}: cores of a CPU device,
 *        multiprocessors of a GPU)
 * @param cpu whether it is a CPU device ({@code CL_DEVICE_TYPE_CPU}, as PoCL's), which runs one work-group
 *        per compute unit at a time
 * @param maxAllocation the largest single buffer it allows ({@code CL_DEVICE_MAX_MEM_ALLOC_SIZE}), in bytes
 */
public record ClDevice(MemorySegment platform, MemorySegment device, GpuDevice info, long maxWorkGroup,
        long computeUnits, boolean cpu, long maxAllocation) {
}
