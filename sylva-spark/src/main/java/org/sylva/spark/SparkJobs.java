package org.sylva.spark;

import java.util.List;
import java.util.concurrent.CompletableFuture;
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
 * cancels the running job, or the input's stages that taking its RDD runs, and a job cancelled through Spark
 * ({@code sc.cancelJobsWithTag}, the caller's {@code cancelJobGroup}, the UI's kill link) ends the fit with
 * {@link CancelledException}. Spark cancels the jobs running at that moment only: between two of a fit's jobs
 * (the driver's own work) a {@code cancelJobGroup} or {@code cancelJobsWithTag} reaches nothing, where the
 * caller's {@code sc.cancelJobGroupAndFutureJobs(theirGroup)} stops the fit at its next job, and the token, which
 * the driver's own work looks at too, stops it there.
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
            job = taken(make, description).collectAsync();
        } finally {
            // the job keeps what it was submitted with; the caller's thread gets its own settings back
            sc.removeJobTag(tag);
            if (!hadCommonTag) sc.removeJobTag(SparkHdbscanEngine.JOB_TAG);
            sc.setLocalProperty(DESCRIPTION, callersDescription);
        }
        return job;
    }

    /** How many times a cancelled taking is waited for (POLL_MS each) before the fit ends without it. */
    private static final int STOP_WAITS = 20;

    /**
     * {@code make.get()}, taken on a thread of its own that inherits the caller's Spark properties (the fit's tags,
     * just set), while this thread looks at the token and its own interrupt every {@link #POLL_MS}: taking a
     * Dataset's RDD has adaptive execution run the Dataset's shuffle stages there and then, as long as the query
     * behind the input takes. A cancellation cancels the fit's jobs (those stages) and ends the fit; a stage
     * cancelled through Spark ends it as a cancelled job does.
     */
    private <T> JavaRDD<T> taken(java.util.function.Supplier<JavaRDD<T>> make, String description) {
        CompletableFuture<JavaRDD<T>> taken = new CompletableFuture<>();
        javax.security.auth.Subject subject = javax.security.auth.Subject.current();
        Thread taker = Thread.ofPlatform().daemon().name("sylva-taking-input").start(() -> {
            try {
                taken.complete(asSubject(subject, make));
            } catch (Throwable t) {
                taken.completeExceptionally(t);
            }
        });
        // bounded by the taking itself: each wait is POLL_MS, and the loop ends when the taking does
        for (;;) {
            try {
                return taken.get(POLL_MS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (cancel.isCancelled() || Thread.currentThread().isInterrupted()) throw stopped(taken, taker);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw stopped(taken, taker);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Error error) throw error;   // as the caller's own thread would have
                throw translate(e.getCause() == null ? e : e.getCause(), description);
            }
        }
    }

    /**
     * {@code make.get()} as the {@code Subject} of the calling thread ({@code subject}, null for none): Java 25 no
     * longer hands a thread's {@code Subject.callAs} identity to the threads it starts, and a driver that fits inside
     * Hadoop's {@code ugi.doAs} (a proxy user) must plan its input's query as that user.
     */
    private static <T> JavaRDD<T> asSubject(javax.security.auth.Subject subject,
                                            java.util.function.Supplier<JavaRDD<T>> make) {
        if (subject == null) return make.get();
        try {
            return javax.security.auth.Subject.callAs(subject, make::get);
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error error) throw error;
            throw e;
        }
    }

    /**
     * Cancels the fit's running jobs until the taking ends (a stage that adaptive execution submits after the first
     * cancel is cancelled by a later one), waiting at most {@link #STOP_WAITS} polls, and returns the fit's exception.
     */
    private CancelledException stopped(CompletableFuture<?> taken, Thread taker) {
        boolean interrupted = Thread.interrupted();   // waited on below; given back to the caller
        try {
            for (int i = 0; i < STOP_WAITS && !taken.isDone(); i++) {
                sc.sc().cancelJobsWithTag(tag, "the Sylva fit was cancelled while its input was taken");
                try {
                    taken.get(POLL_MS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // still running, or ended by the cancel: looked at again by the loop's condition
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
        taker.interrupt();   // a daemon thread that ends with its taking
        return new CancelledException();
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
