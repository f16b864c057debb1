package org.sylva.gpu;

/**
 * One argument of a kernel launch, in the order the kernel declares them: a device buffer, a 32-bit
 * integer or a float64. Each API lays them out its own way (OpenCL: {@code clSetKernelArg}; CUDA: an
 * array of pointers to the values), so the fit ({@link KernelFit}) names them once for both.
 *
 * <pre>{@code
 * session.launch("core_lists", count, KernelArg.of(points), KernelArg.of(n), KernelArg.of(1.0));
 * }</pre>
 */
public sealed interface KernelArg {
    /** A device buffer argument ({@code GLOBAL T*}). */
    record Buffer(DeviceBuffer buffer) implements KernelArg {
    }

    /** An {@code int} argument. */
    record Int(int value) implements KernelArg {
    }

    /** A {@code double} argument. */
    record Real(double value) implements KernelArg {
    }

    static KernelArg of(DeviceBuffer b) {
        return new Buffer(b);
    }

    static KernelArg of(int v) {
        return new Int(v);
    }

    static KernelArg of(double v) {
        return new Real(v);
    }
}
