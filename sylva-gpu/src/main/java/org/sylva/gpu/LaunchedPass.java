package org.sylva.gpu;

import org.sylva.parallel.Execution;
import org.sylva.progress.CancelledException;

/**
 * Runs one pass over {@code total} items as a sequence of bounded launches ({@link LaunchPolicy}),
 * checking cancellation (the token and the thread's interrupt) before each and reporting progress after
 * each. The loop is bounded: every launch covers at least one item.
 *
 * <pre>{@code
 * LaunchedPass.run(n, "core distances", policy, execution, (first, count) -> fit.coreLists(first, count));
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

    /** Runs the pass; returns the number of launches. */
    static int run(int total, String stage, LaunchPolicy policy, Execution ex, Launch launch) {
        int launches = 0;
        int size = 0;
        double seconds = 0;
        for (int first = 0; first < total; ) {
            ex.cancel().throwIfCancelled();
            if (Thread.currentThread().isInterrupted()) throw new CancelledException();
            size = policy.next(size, seconds);
            int count = Math.min(size, total - first);
            long t0 = System.nanoTime();
            launch.run(first, count);
            seconds = (System.nanoTime() - t0) / 1e9 * size / count;   // a short last launch is scaled up
            first += count;
            launches++;
            ex.progress().progress(stage, first, total);
        }
        return launches;
    }
}
