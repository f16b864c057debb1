package org.sylva.spark;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

/**
 * Runs Sylva's Spark jobs: each under a job group named for the fit and a description naming the stage and
 * round (what the Spark UI shows), and cancellable both ways: a cancelled {@link CancellationToken} (or an
 * interrupted caller) cancels the running job, and a job cancelled through Spark
 * ({@code sc.cancelJobGroup}, the UI's kill link) ends the fit with {@link CancelledException}.
 */
final class SparkJobs {
    private static final long POLL_MS = 100;

    private final JavaSparkContext sc;
    private final String group;
    private final CancellationToken cancel;

    SparkJobs(JavaSparkContext sc, String group, CancellationToken cancel) {
        this.sc = sc;
        this.group = group;
        this.cancel = cancel;
    }

    /** The job group this fit's jobs run under (for {@code sc.cancelJobGroup}). */
    String group() {
        return group;
    }

    /** Collects {@code rdd} as one job described as {@code description}. */
    <T> List<T> collect(JavaRDD<T> rdd, String description) {
        cancel.throwIfCancelled();
        sc.setJobGroup(group, description, true);
        JavaFutureAction<List<T>> job;
        try {
            job = rdd.collectAsync();
        } finally {
            sc.clearJobGroup();
        }
        // bounded by the job itself: each wait is POLL_MS, and the loop ends when the job does
        for (;;) {
            try {
                return job.get(POLL_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (cancel.isCancelled() || Thread.currentThread().isInterrupted()) {
                    job.cancel(true);
                    throw new CancelledException();
                }
            } catch (InterruptedException e) {
                job.cancel(true);
                Thread.currentThread().interrupt();
                throw new CancelledException();
            } catch (ExecutionException e) {
                throw translate(e.getCause() == null ? e : e.getCause(), description);
            }
        }
    }

    private static RuntimeException translate(Throwable t, String description) {
        String m = String.valueOf(t.getMessage());
        if (m.contains("cancelled") || m.contains("canceled")) {
            CancelledException c = new CancelledException();
            c.initCause(t);
            return c;
        }
        if (t instanceof RuntimeException r) return r;
        return new IllegalStateException("sylva: Spark job '" + description + "' failed: " + m, t);
    }
}
