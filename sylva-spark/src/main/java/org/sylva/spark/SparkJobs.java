package org.sylva.spark;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.spark.SparkThrowable;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

/**
 * Runs Sylva's Spark jobs: each with two job tags, {@link SparkHdbscanEngine#JOB_TAG} (every Sylva fit) and
 * the fit's own, and a description naming the stage and round (what the Spark UI shows). Tags add to what
 * the caller's thread already carries: the caller's job group and tags stay in force during the fit (so
 * {@code sc.cancelJobGroup(theirGroup)} stops it too) and the caller's description comes back after each
 * job is submitted. Cancellable both ways: a cancelled {@link CancellationToken} (or an interrupted caller)
 * cancels the running job, and a job cancelled through Spark ({@code sc.cancelJobsWithTag}, the caller's
 * {@code cancelJobGroup}, the UI's kill link) ends the fit with {@link CancelledException}.
 */
final class SparkJobs {
    private static final long POLL_MS = 100;

    /** The local property Spark keeps a job's description in. */
    private static final String DESCRIPTION = "spark.job.description";

    private final JavaSparkContext sc;
    private final String tag;
    private final CancellationToken cancel;

    SparkJobs(JavaSparkContext sc, String tag, CancellationToken cancel) {
        this.sc = sc;
        this.tag = tag;
        this.cancel = cancel;
    }

    /** The fit's own job tag (for {@code sc.cancelJobsWithTag}). */
    String tag() {
        return tag;
    }

    /** Collects {@code rdd} as one job described as {@code description}. */
    <T> List<T> collect(JavaRDD<T> rdd, String description) {
        return collect(() -> rdd, description);
    }

    /**
     * As {@link #collect(JavaRDD, String)}, the RDD made by {@code make} under the fit's tags: taking a Dataset's RDD
     * has adaptive execution run the Dataset's shuffle stages there and then, and those jobs carry the tags too.
     */
    <T> List<T> collect(java.util.function.Supplier<JavaRDD<T>> make, String description) {
        JavaFutureAction<List<T>> job = submit(make, description);
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

    /** Submits the collection of {@code rdd} as one job described as {@code description}, not waiting for it. */
    <T> JavaFutureAction<List<T>> submit(JavaRDD<T> rdd, String description) {
        return submit(() -> rdd, description);
    }

    private <T> JavaFutureAction<List<T>> submit(java.util.function.Supplier<JavaRDD<T>> make, String description) {
        cancel.throwIfCancelled();
        String callersDescription = sc.getLocalProperty(DESCRIPTION);
        boolean hadCommonTag = sc.getJobTags().contains(SparkHdbscanEngine.JOB_TAG);
        sc.addJobTag(SparkHdbscanEngine.JOB_TAG);
        sc.addJobTag(tag);
        sc.setJobDescription(description);
        JavaFutureAction<List<T>> job;
        try {
            job = make.get().collectAsync();
        } finally {
            // the job keeps what it was submitted with; the caller's thread gets its own settings back
            sc.removeJobTag(tag);
            if (!hadCommonTag) sc.removeJobTag(SparkHdbscanEngine.JOB_TAG);
            sc.setLocalProperty(DESCRIPTION, callersDescription);
        }
        return job;
    }

    /** Spark's error condition of a cancelled job (its {@code SparkException}'s {@code getCondition()}). */
    static final String JOB_CANCELLED = "SPARK_JOB_CANCELLED";

    /**
     * The fit's exception for a job that ended with {@code t}: a {@link CancelledException} when Spark says the job
     * was cancelled (its error condition, not the message's wording: a task failing with "read canceled: connection
     * reset" is a failure), else {@code t} itself or, checked, wrapped.
     */
    static RuntimeException translate(Throwable t, String description) {
        if (cancelledJob(t)) {
            CancelledException c = new CancelledException();
            c.initCause(t);
            return c;
        }
        if (t instanceof RuntimeException r) return r;
        return new IllegalStateException("sylva: Spark job '" + description + "' failed: " + t.getMessage(), t);
    }

    /** True when {@code t} or one of its causes is Spark's exception for a cancelled job. */
    static boolean cancelledJob(Throwable t) {
        Throwable c = t;
        for (int depth = 0; depth < 16 && c != null; depth++, c = c.getCause()) {
            if (c instanceof SparkThrowable s && JOB_CANCELLED.equals(s.getCondition())) return true;
        }
        return false;
    }
}
