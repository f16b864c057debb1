package org.sylva.gpu;

import java.util.Locale;

/**
 * Where a GPU fit's time goes, one line per step on standard error, when the system property
 * {@code sylva.gpu.trace} is {@code true}; nothing otherwise (the check is one constant). For the device
 * check's comparisons: a fit's stage times say how long the core distances and the spanning tree took,
 * these lines say how much of that was compiling the kernels, the host's order and copies, the launches,
 * and each round. Public for the API packages only; not a stable interface.
 *
 * <pre>{@code
 * long t = System.nanoTime();
 * SpatialOrder.of(rows, n, d);
 * GpuTrace.step("spatial order", t, "n=" + n);   // sylva-gpu: spatial order   0.0812 s  n=200000
 * }</pre>
 */
public final class GpuTrace {
    /** Whether the lines are printed: {@code -Dsylva.gpu.trace=true}. */
    public static final boolean ON = Boolean.getBoolean("sylva.gpu.trace");

    private GpuTrace() {
    }

    /** Prints {@code step}, the seconds since {@code startNanos} and {@code detail}, when tracing. */
    public static void step(String step, long startNanos, String detail) {
        if (ON) {
            System.err.printf(Locale.ROOT, "sylva-gpu: %-18s %9.4f s  %s%n", step, (System.nanoTime() - startNanos) / 1e9,
                    detail);
        }
    }
}
