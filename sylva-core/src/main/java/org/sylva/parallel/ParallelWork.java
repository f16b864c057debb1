package org.sylva.parallel;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * Runs a pass of independent, bounded work units on a fixed number of worker threads: the calling
 * thread and the others from the shared {@link Pools} (the calling thread alone for one thread). Workers claim units
 * in increasing order; between units they check the cancellation token, and about every 100 ms one of
 * them reports progress. Each worker has a stable id in {@code [0, threads)}, so per-thread scratch can
 * be allocated once and reused across passes. The units must write disjoint results (or combine them
 * order-independently), so the output never depends on the number of threads. Interrupting the calling
 * thread cancels the pass as the token does: the workers stop at their next unit and the pass throws
 * {@link CancelledException}, with the thread's interrupt status kept set.
 *
 * <pre>{@code
 * ParallelWork work = new ParallelWork(2);
 * work.run(units, "core distances", listener, token, (worker, unit) -> process(scratch[worker], unit));
 * }</pre>
 */
public final class ParallelWork {
    private static final long REPORT_NANOS = 100_000_000L;

    /** One unit of work, run by worker {@code worker}. */
    @FunctionalInterface
    public interface Unit {
        void run(int worker, int unit);
    }

    /** A loop over the elements {@code from .. to-1} of a range, each element written by this loop only. */
    @FunctionalInterface
    public interface Range {
        void run(int from, int to);
    }

    private final int threads;
    private final ForkJoinPool pool;

    /** A runner with {@code threads >= 1} workers. */
    public ParallelWork(int threads) {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        this.threads = threads;
        this.pool = threads == 1 ? null : Pools.get(threads);
    }

    public int threads() {
        return threads;
    }

    /**
     * Runs {@code range} over {@code 0 .. count-1} in consecutive pieces of {@code chunk} elements, each piece a
     * unit of a pass on the workers; on this thread alone, as one piece, when there is one worker or one
     * piece. For loops whose elements are independent (so the pieces may run in any order); no progress is
     * reported. Throws {@link CancelledException} as {@link #run(int, String, ProgressListener,
     * CancellationToken, Unit)} does.
     *
     * <pre>{@code
     * work.ranges(n, 8192, token, (from, to) -> { for (int i = from; i < to; i++) out[i] = f(i); });
     * }</pre>
     */
    public void ranges(int count, int chunk, CancellationToken token, Range range) {
        if (chunk < 1) throw new IllegalArgumentException("chunk must be >= 1, got " + chunk);
        int units = (int) ((count + (long) chunk - 1) / chunk);
        if (units < 2 || threads == 1) {
            token.throwIfCancelled();
            range.run(0, count);
            return;
        }
        run(units, "ranges", ProgressListener.NONE, token,
                (worker, u) -> range.run(u * chunk, (int) Math.min(count, (long) (u + 1) * chunk)));
    }

    /**
     * Runs {@code task} for every unit {@code 0 .. units-1}; reports {@code (stage, done, units)} to
     * {@code listener} (at least once, at the end) and throws {@link CancelledException} if the token was
     * cancelled before every unit ran.
     */
    public void run(int units, String stage, ProgressListener listener, CancellationToken token, Unit task) {
        run(units, stage, 0, units, listener, token, task);
    }

    /**
     * As {@link #run(int, String, ProgressListener, CancellationToken, Unit)} for one pass of a stage made
     * of several: progress is reported as {@code (stage, offset + done, total)}.
     */
    public void run(int units, String stage, long offset, long total, ProgressListener listener,
                    CancellationToken token, Unit task) {
        run(units, stage, offset, total, null, listener, token, task);
    }

    /**
     * As {@link #run(int, String, long, long, ProgressListener, CancellationToken, Unit)}, unit {@code u}
     * counting {@code weight[u]} towards the progress (its expected share of the work; {@code null}: 1
     * each), so that a pass whose units cost unequal amounts reports a steady rate: progress is
     * {@code (stage, offset + the weights of the units done, total)}.
     */
    public void run(int units, String stage, long offset, long total, long[] weight, ProgressListener listener,
                    CancellationToken token, Unit task) {
        token.throwIfCancelled();
        if (weight != null && weight.length < units) {
            throw new IllegalArgumentException(weight.length + " weights for " + units + " units");
        }
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicLong doneWeight = new AtomicLong();
        AtomicLong lastReport = new AtomicLong(System.nanoTime());
        AtomicBoolean failed = new AtomicBoolean();
        if (pool == null || units <= 1) {
            // the calling thread works alone: it notices its own interrupt between units
            work(0, units, next, done, weight, doneWeight, lastReport, failed, stage, offset, total, listener, token,
                    task, Thread.currentThread());
        } else {
            // The calling thread is worker 0 and starts at once; workers 1.. come from the pool. A pool
            // worker that has not started by the time the caller runs out of units never will: the caller
            // takes its seat instead of waiting for it to wake (on a pass of a few short units the caller
            // often does them all first), so a small pass costs no thread hand-off on its critical path.
            int helpers = Math.min(threads, units) - 1;
            Thread caller = Thread.currentThread();
            AtomicBoolean[] seat = new AtomicBoolean[helpers];   // helper h is worker h + 1
            // Each started helper is waited for on its latch, not with Future.get(): a fork-join task's get()
            // consumes an interrupt that arrives as the task completes and returns without setting it again.
            CountDownLatch[] finished = new CountDownLatch[helpers];
            Throwable[] helperFailure = new Throwable[helpers];
            for (int h = 0; h < helpers; h++) {
                int id = h + 1, slot = h;
                AtomicBoolean taken = new AtomicBoolean();
                seat[h] = taken;
                CountDownLatch end = new CountDownLatch(1);
                finished[h] = end;
                pool.execute(() -> {
                    if (!taken.compareAndSet(false, true)) return;
                    try {
                        work(id, units, next, done, weight, doneWeight, lastReport, failed, stage, offset, total,
                                listener, token, task, caller);
                    } catch (Throwable t) {
                        helperFailure[slot] = t;
                    } finally {
                        end.countDown();
                    }
                });
            }
            Throwable failure = null;
            try {
                work(0, units, next, done, weight, doneWeight, lastReport, failed, stage, offset, total, listener,
                        token, task, caller);
            } catch (RuntimeException | Error e) {
                failure = e;
            }
            boolean interrupted = false;
            // The workers belong to shared pools: never return while one of them still runs a unit of
            // this pass. An interrupt stops them at their next unit; then wait for the unit in hand.
            for (int h = 0; h < helpers; h++) {
                if (seat[h].compareAndSet(false, true)) continue;   // never started: it will not run any unit
                for (int attempt = 0; attempt < Integer.MAX_VALUE; attempt++) {
                    try {
                        finished[h].await();
                        break;
                    } catch (InterruptedException e) {
                        interrupted = true;
                        failed.set(true);
                    }
                }
                if (failure == null && helperFailure[h] != null) failure = Failures.original(helperFailure[h]);
            }
            if (interrupted) Thread.currentThread().interrupt();
            if (failure != null) throw Failures.rethrow(failure);
        }
        token.throwIfCancelled();
        // An interrupt is a request to stop, as the token is; the caller sees the library's exception.
        if (Thread.currentThread().isInterrupted() && done.get() != units) throw new CancelledException();
        if (done.get() != units) throw new IllegalStateException(stage + ": " + done.get() + " of " + units + " units ran");
        listener.progress(stage, offset + (weight == null ? units : doneWeight.get()), total);
    }

    /** One worker's loop; {@code caller} (or null) is the thread to watch for an interrupt. */
    private static void work(int id, int units, AtomicInteger next, AtomicInteger done, long[] weight,
                             AtomicLong doneWeight, AtomicLong lastReport, AtomicBoolean failed, String stage,
                             long offset, long total, ProgressListener listener, CancellationToken token, Unit task,
                             Thread caller) {
        for (int it = 0; it < units; it++) {
            // A failed unit stops the other workers at their next unit: the failure surfaces once, promptly.
            if (token.isCancelled() || failed.get()) return;
            if (caller != null && caller.isInterrupted()) return;
            int u = next.getAndIncrement();
            if (u >= units) return;
            try {
                task.run(id, u);
            } catch (RuntimeException | Error e) {
                failed.set(true);
                throw e;
            }
            int dn = done.incrementAndGet();
            long dw = weight == null ? dn : doneWeight.addAndGet(weight[u]);
            long now = System.nanoTime();
            long last = lastReport.get();
            if (now - last >= REPORT_NANOS && dn < units && lastReport.compareAndSet(last, now)) {
                listener.progress(stage, offset + dw, total);
            }
        }
    }
}
