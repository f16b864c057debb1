package org.sylva.spark;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.spark.TaskContext;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.mst.BoruvkaSliceScan;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;
import org.sylva.progress.CancellationToken;

/**
 * What runs inside the executors' tasks: slice {@code s} of {@code P} covers leaves
 * {@code s * L / P .. (s + 1) * L / P - 1} of the point index, which every executor builds from the
 * broadcast rows (the build is deterministic, so all hold the same index) and keeps for the fit's later
 * rounds, until the fit ends ({@link #release}). Each task computes with its slots' cores ({@code spark.task.cpus}) and checks Spark's kill flag
 * between chunks of work, so a cancelled job stops within one chunk.
 */
final class ExecutorTasks {
    /** Test hook: this many upcoming tasks fail on their first attempt (local mode shares the JVM). */
    static final AtomicInteger FAIL_FIRST_ATTEMPTS = new AtomicInteger();
    /** Test hook: every round's scan task first waits this long (in 10 ms steps, ending early when Spark kills it). */
    static final java.util.concurrent.atomic.AtomicLong HOLD_TASKS_MS = new java.util.concurrent.atomic.AtomicLong();

    private static final Object LOCK = new Object();
    private static String cachedFit;
    private static PointIndex cachedIndex;
    private static String cachedScanKey;
    private static final ArrayDeque<BoruvkaSliceScan> IDLE_SCANNERS = new ArrayDeque<>();
    /** The fits released in this JVM, the latest {@link #ENDED_KEPT}: a late task of one caches nothing. */
    private static final java.util.LinkedHashSet<String> ENDED = new java.util.LinkedHashSet<>();
    private static final int ENDED_KEPT = 64;

    private ExecutorTasks() {
    }

    /** The nearest lists of slice {@code slice} of {@code slices}. */
    static TaskResults.Lists nearest(FitData data, int minSamples, int slice, int slices) {
        TaskContext tc = TaskContext.get();
        testHooks(tc, false);
        PointIndex index = index(data);
        int leaves = index.leaves();
        return TaskResults.Lists.of(CoreDistances.slice(index, minSamples, kernel(), from(slice, slices, leaves),
                from(slice + 1, slices, leaves), threads(tc), token(tc)));
    }

    /** The cheapest edges per component found in slice {@code slice} of {@code slices} in this round. */
    static TaskResults.Edges scan(FitData data, double[] core, double alpha, RoundMessage round, int slice,
                                  int slices) {
        TaskContext tc = TaskContext.get();
        testHooks(tc, true);
        PointIndex index = index(data);
        int leaves = index.leaves();
        String key = data.fitId() + "/" + alpha + "/" + threads(tc);
        BoruvkaSliceScan scanner = borrow(data.fitId(), key, index, core, alpha, threads(tc));
        try {
            return TaskResults.Edges.of(scanner.scan(round.state(), from(slice, slices, leaves),
                    from(slice + 1, slices, leaves), token(tc)));
        } finally {
            giveBack(data.fitId(), key, scanner);
        }
    }

    /** First leaf of slice {@code s} (the slices of one fit split the leaves evenly and in order). */
    static int from(int s, int slices, int leaves) {
        return (int) ((long) s * leaves / slices);
    }

    private static DistanceKernel kernel() {
        return KernelProvider.get().bestDistance();
    }

    private static PointIndex index(FitData data) {
        synchronized (LOCK) {
            if (data.fitId().equals(cachedFit)) return cachedIndex;
            if (!ENDED.contains(data.fitId())) {
                cachedFit = null;
                cachedIndex = null;
                cachedScanKey = null;
                IDLE_SCANNERS.clear();
                cachedIndex = PointIndex.build(data.rows(), data.n(), data.d(), kernel());
                cachedFit = data.fitId();
                return cachedIndex;
            }
        }
        // a task of a fit that has ended (killed, not yet stopped): its index is built for it alone
        return PointIndex.build(data.rows(), data.n(), data.d(), kernel());
    }

    /**
     * Drops this JVM's index and scanners if they are fit {@code fitId}'s (the fit has ended): they hold about
     * 2.5 times the fit's rows. The fit is remembered as ended, so that a task of it that runs later (one being
     * killed) does not cache them again. Returns whether anything was dropped.
     */
    static boolean release(String fitId) {
        synchronized (LOCK) {
            ENDED.add(fitId);
            if (ENDED.size() > ENDED_KEPT) ENDED.removeFirst();
            if (!fitId.equals(cachedFit)) return false;
            cachedFit = null;
            cachedIndex = null;
            cachedScanKey = null;
            IDLE_SCANNERS.clear();
            return true;
        }
    }

    /** Whether this JVM holds an index or idle scanners (tests). */
    static boolean holdsIndex() {
        synchronized (LOCK) {
            return cachedIndex != null || !IDLE_SCANNERS.isEmpty();
        }
    }

    private static BoruvkaSliceScan borrow(String fitId, String key, PointIndex index, double[] core, double alpha,
                                           int threads) {
        synchronized (LOCK) {
            if (!ENDED.contains(fitId)) {
                if (!key.equals(cachedScanKey)) {
                    IDLE_SCANNERS.clear();
                    cachedScanKey = key;
                }
                BoruvkaSliceScan s = IDLE_SCANNERS.poll();
                if (s != null) return s;
            }
        }
        return new BoruvkaSliceScan(index, core, kernel(), alpha, threads);
    }

    private static void giveBack(String fitId, String key, BoruvkaSliceScan scanner) {
        synchronized (LOCK) {
            if (!ENDED.contains(fitId) && key.equals(cachedScanKey) && IDLE_SCANNERS.size() < 64) IDLE_SCANNERS.push(scanner);
        }
    }

    private static int threads(TaskContext tc) {
        return tc == null ? 1 : Math.max(1, tc.cpus());
    }

    private static CancellationToken token(TaskContext tc) {
        return tc == null ? CancellationToken.NEVER : CancellationToken.polling(tc::isInterrupted);
    }

    private static void testHooks(TaskContext tc, boolean scan) {
        long steps = scan ? HOLD_TASKS_MS.get() / 10 : 0;
        for (long i = 0; i < steps && tc != null && !tc.isInterrupted(); i++) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        token(tc).throwIfCancelled();
        if (tc != null && tc.attemptNumber() == 0 && FAIL_FIRST_ATTEMPTS.getAndUpdate(v -> Math.max(v - 1, 0)) > 0) {
            throw new IllegalStateException("sylva: injected task failure (test hook)");
        }
    }
}
