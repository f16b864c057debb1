package org.sylva.gpu;

import org.sylva.parallel.Execution;
import org.sylva.progress.CancelledException;

/**
 * Runs one pass over {@code total} items as a sequence of bounded launches ({@link LaunchPolicy}, in
 * whole waves of the kernel's width on the device), checking cancellation (the token and the thread's
 * interrupt) before each and reporting progress after each. The loop is bounded: every launch covers at
 * least one item.
 *
 * <pre>{@code
 * LaunchedPass.run(n, "core distances", policy, fit.coreListsWidth(), execution, fit::coreLists);
 * }</pre>
 */
final class LaunchedPass {
    private LaunchedPass() {
    }

    /** One launch over items {@code first .. first + count - 1}; returns when the device is done. */
    @FunctionalInterface
    interface Launch {
        void run(int first, int count);
    }

    /** Runs the pass on a device {@code width} work-items wide; returns the number of launches. */
    static int run(int total, String stage, LaunchPolicy policy, int width, Execution ex, Launch launch) {
        int launches = 0;
        int count = 0;
        double seconds = 0;
        for (int first = 0; first < total; ) {
            ex.cancel().throwIfCancelled();
            if (Thread.currentThread().isInterrupted()) throw new CancelledException();
            count = Math.min(policy.next(width, count, seconds), total - first);
            long t0 = System.nanoTime();
            launch.run(first, count);
            seconds = (System.nanoTime() - t0) / 1e9;
            first += count;
            launches++;
            ex.progress().progress(stage, first, total);
        }
        return launches;
    }
}
