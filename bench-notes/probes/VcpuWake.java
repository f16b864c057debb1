import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * How long a task handed to an idle one-worker pool waits before it starts, by how long the worker (and
 * so, on an otherwise idle machine, the second vCPU) has been idle. For each idle time: 300 trials of
 * "the main thread computes for that long, then submits an empty task and keeps computing until it has
 * run"; prints the 10th, 50th, 90th and 99th percentile and the maximum of the delay, in microseconds.
 * Needs nothing from Sylva. On this project's virtual machine (Firecracker, 2 vCPUs), two runs: a worker
 * idle for about 0.2 ms started its task after 24-29 µs (median), one idle for 4.5 or 43 ms after
 * 167-230 µs (p99 1.1-1.9 ms): a halted vCPU is slow to wake.
 * <pre>
 * javac -d /tmp/probes bench-notes/probes/VcpuWake.java
 * java -cp /tmp/probes VcpuWake
 * </pre>
 */
public class VcpuWake {
    static double spin(long iterations) {
        double x = 1;
        for (long i = 0; i < iterations; i++) x = x * 1.0000001 + 1e-9 * (i & 7);
        return x;
    }

    public static void main(String[] args) {
        ForkJoinPool pool = new ForkJoinPool(1);
        double sink = 0;
        int trials = 300;
        for (long idle : new long[] {20_000L, 2_000_000L, 20_000_000L}) {
            double[] delay = new double[trials];
            long spinStart = System.nanoTime();
            for (int t = 0; t < trials; t++) {
                sink += spin(idle);
                long t0 = System.nanoTime();
                long[] started = new long[1];
                ForkJoinTask<?> task = pool.submit(() -> { started[0] = System.nanoTime(); });
                sink += spin(2_000);
                task.join();
                delay[t] = (started[0] - t0) / 1e3;
            }
            double idleUs = (System.nanoTime() - spinStart) / 1e3 / trials;
            Arrays.sort(delay);
            System.out.printf(Locale.ROOT,
                    "idle about %.0f us: start delay p10 %.1f  p50 %.1f  p90 %.1f  p99 %.1f  max %.1f us%n",
                    idleUs, delay[trials / 10], delay[trials / 2], delay[trials * 9 / 10], delay[trials * 99 / 100],
                    delay[trials - 1]);
        }
        if (sink == 42) System.out.println();
        pool.shutdown();
    }
}
