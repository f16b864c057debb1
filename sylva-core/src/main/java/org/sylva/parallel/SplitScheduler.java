package org.sylva.parallel;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * Runs one job of a binary recursion (split a range, run both halves) on {@code threads} threads taken
 * from the shared {@link Pools}. Two regimes:
 * <ul>
 *   <li>A <b>large job</b> is handed to a pool of {@code threads} workers as a whole, which balance the work
 *       by stealing to the end; the hand-over's cost is nothing at that size.</li>
 *   <li>A <b>small job</b> cannot afford the hand-over and waking the caller at the end, so the calling
 *       thread works as one of the threads and the pool supplies the other {@code threads - 1}. Every
 *       thread splits work the same way ({@link #both}): it offers the right half (to the pool, which
 *       wakes a worker, and in this job's queue, where a waiting thread of the job finds it), runs the
 *       left half, then runs the right half too unless another thread claimed it meanwhile; if one did,
 *       it helps with other offered work until that thread is done. The queue matters because the
 *       caller is not a pool worker: without it, a caller that finished first could only wait.</li>
 * </ul>
 * A failure on any thread reaches the caller (the original exception, see {@link Failures}); no call
 * returns while another thread still runs a part of the job. The results never depend on the regime or
 * on which thread ran what, as long as every part writes only its own data.
 *
 * <pre>{@code
 * SplitScheduler s = new SplitScheduler(2, n < (1 << 17));
 * s.run(() -> s.forEach(0, groups, g -> build(g)));
 * }</pre>
 */
public final class SplitScheduler {
    /** Rounds of helping (a poll or a spin each) before a waiting thread blocks. */
    static final int HELP_ROUNDS = 1 << 14;

    private final ForkJoinPool pool;
    private final boolean callerWorks;
    /**
     * Set when the calling thread is interrupted before or while it waits for a large job: waiting clears
     * the thread's flag until the job ends (it is set again then), so the job's own cancellation checks,
     * which run on the workers, read this instead.
     */
    private volatile boolean callerInterrupted;
    /** Work offered by the threads of a small job, for any of them to claim while it waits. */
    private final ConcurrentLinkedDeque<Offered> offers = new ConcurrentLinkedDeque<>();

    /**
     * A scheduler for one job on {@code threads >= 1} threads; {@code callerWorks} selects the small-job
     * regime (the calling thread works too). One thread: everything runs on the calling thread.
     */
    public SplitScheduler(int threads, boolean callerWorks) {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        this.callerWorks = callerWorks;
        this.pool = threads == 1 ? null : Pools.get(callerWorks ? threads - 1 : threads);
    }

    /**
     * True once the thread that called {@link #run} was interrupted (before the job or while waiting for
     * it): for the job's cancellation checks, since the waiting caller's own flag reads false meanwhile.
     */
    public boolean callerInterrupted() {
        return callerInterrupted;
    }

    /** True when more than one thread works (otherwise {@link #both} runs left then right). */
    public boolean parallel() {
        return pool != null;
    }

    /** Runs the job's root: on the calling thread (one thread, or a small job), else inside the pool. */
    public void run(Runnable job) {
        // A caller that is itself a worker of the pool (a progress listener calling back into the library from a
        // worker) runs the job where it is: handing it over and blocking would take that worker from the pool, and
        // with every worker so blocked the jobs queued behind them never ran (a hang no cancel could end, and the
        // pool left without workers for good). On a worker, the job's forks and joins work inside the pool as they
        // would after the hand-over.
        if (pool == null || callerWorks || ForkJoinTask.getPool() == pool) {
            job.run();
            return;
        }
        boolean interrupted = Thread.currentThread().isInterrupted();
        callerInterrupted = interrupted;
        // Waited for on a latch, not with ForkJoinTask.get(): get() consumes an interrupt that arrives as the
        // task completes and returns normally without setting the flag again, so the interrupt was lost.
        // The latch either throws (the flag consumed, recorded here) or leaves the flag set.
        CountDownLatch finished = new CountDownLatch(1);
        Throwable[] failure = new Throwable[1];
        pool.execute(() -> {
            try {
                job.run();
            } catch (Throwable t) {
                failure[0] = t;
            } finally {
                finished.countDown();
            }
        });
        // A worker of another pool waits as a managed block: its pool may start a spare worker meanwhile, so that
        // callbacks between two pools (a listener on a worker of one calling the library with the other's thread
        // count, and back) cannot leave every worker of both waiting on work queued behind them.
        LatchBlocker blocker = Thread.currentThread() instanceof ForkJoinWorkerThread ? new LatchBlocker(finished) : null;
        for (int attempt = 0; attempt < Integer.MAX_VALUE; attempt++) {
            try {
                if (blocker != null) {
                    ForkJoinPool.managedBlock(blocker);
                } else {
                    finished.await();
                }
                break;
            } catch (InterruptedException e) {
                // The job cannot stop while its workers write into its data; it stops at its own checks.
                interrupted = true;
                callerInterrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        if (failure[0] != null) throw Failures.rethrow(Failures.original(failure[0]));
    }

    /** Waiting for a latch as a fork-join pool's managed block. */
    private record LatchBlocker(CountDownLatch latch) implements ForkJoinPool.ManagedBlocker {
        @Override
        public boolean block() throws InterruptedException {
            latch.await();
            return true;
        }

        @Override
        public boolean isReleasable() {
            return latch.getCount() == 0;
        }
    }

    /** Runs {@code body} for every index of {@code [from, to)}, halving the range and sharing the halves. */
    public void forEach(int from, int to, IntConsumer body) {
        if (to - from <= 0) return;
        if (pool == null) {
            for (int i = from; i < to; i++) body.accept(i);
            return;
        }
        forkEach(from, to, body);
    }

    private void forkEach(int from, int to, IntConsumer body) {
        if (to - from == 1) {
            body.accept(from);
            return;
        }
        int mid = (from + to) >>> 1;
        both(new RangeTask(from, mid, body), new RangeTask(mid, to, body));
    }

    private final class RangeTask extends RecursiveAction {
        private final int from, to;
        private final IntConsumer body;

        RangeTask(int from, int to, IntConsumer body) {
            this.from = from;
            this.to = to;
            this.body = body;
        }

        @Override
        protected void compute() {
            forkEach(from, to, body);
        }
    }

    /** Runs {@code left} and {@code right}, in parallel where a thread is free (see the class comment). */
    public void both(RecursiveAction left, RecursiveAction right) {
        if (pool == null) {
            left.invoke();
            right.invoke();
            return;
        }
        if (!callerWorks) {
            // Not invokeAll: when the left half fails it would cancel the right half and return while
            // a right half already running goes on. Wait for it, then rethrow the first failure.
            right.fork();
            try {
                left.invoke();
            } catch (RuntimeException | Error e) {
                right.quietlyJoin();
                throw e;
            }
            right.join();
            return;
        }
        Offered offered = new Offered(right);
        offers.addLast(offered);
        pool.execute(offered);
        try {
            left.invoke();
        } catch (RuntimeException | Error e) {
            // Do not return while another thread may still write into the job's data.
            offered.claimOrAwait();
            throw e;
        }
        if (offered.claim()) {
            offered.runClaimed();
        } else {
            awaitHelping(offered);
        }
    }

    /**
     * Waits until {@code mine} (claimed by another thread) is done, running other offered tasks of this
     * job meanwhile, oldest (largest) first; rethrows its failure. Spins between attempts for a bounded
     * number of rounds, then blocks.
     */
    private void awaitHelping(Offered mine) {
        for (int round = 0; round < HELP_ROUNDS && !mine.isFinished(); round++) {
            Offered other = offers.pollFirst();
            if (other == null) {
                Thread.onSpinWait();
            } else if (other.claim()) {
                try {
                    other.runClaimed();
                } catch (RuntimeException | Error e) {
                    // Recorded in the task: its owner rethrows it.
                }
            }
        }
        mine.awaitFinished();
    }

    /**
     * A task offered to the job's other threads that whoever claims first runs: a pool worker, a thread
     * of the job that waits for its own offered task, or the offering thread itself. Its completion is
     * signalled by {@link #finished}, not by the fork/join status, since a thread outside the pool may
     * run it.
     */
    private static final class Offered extends RecursiveAction {
        private final RecursiveAction body;
        private final AtomicBoolean taken = new AtomicBoolean();
        private final CountDownLatch finished = new CountDownLatch(1);
        private volatile Throwable failure;

        Offered(RecursiveAction body) {
            this.body = body;
        }

        boolean claim() {
            return taken.compareAndSet(false, true);
        }

        /** Runs the body after a successful {@link #claim()}; records and rethrows its failure. */
        void runClaimed() {
            try {
                body.invoke();
            } catch (RuntimeException | Error e) {
                failure = e;
                throw e;
            } finally {
                finished.countDown();
            }
        }

        boolean isFinished() {
            return finished.getCount() == 0;
        }

        /** Blocks until the thread that claimed it is done; rethrows its failure. */
        void awaitFinished() {
            boolean interrupted = false;
            for (int attempt = 0; attempt < Integer.MAX_VALUE; attempt++) {
                try {
                    finished.await();
                    break;
                } catch (InterruptedException e) {
                    // The job cannot stop while another thread writes into its data.
                    interrupted = true;
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
            Throwable f = failure;
            if (f != null) throw Failures.rethrow(f);
        }

        /** Claims it (so nobody will start it) or waits until the thread running it is done. */
        void claimOrAwait() {
            if (!claim()) {
                try {
                    awaitFinished();
                } catch (RuntimeException | Error ignored) {
                    // The caller is already failing with its own exception.
                }
            }
        }

        @Override
        protected void compute() {
            if (claim()) {
                try {
                    runClaimed();
                } catch (RuntimeException | Error e) {
                    // Recorded in the task: its owner rethrows it.
                }
            }
        }
    }
}
