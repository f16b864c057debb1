package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import javax.security.auth.Subject;

import org.junit.jupiter.api.Test;
import org.sylva.progress.CancellationToken;

/** What a job's RDD is made under: the caller's identity and Spark properties, its errors as they were. */
class SparkJobsTest {
    @Test
    void theInputIsTakenAsTheCallersSubjectAndTags() {
        SparkJobs jobs = new SparkJobs(LocalSpark.context(), "sylva-hdbscan-test", CancellationToken.NEVER);
        Subject caller = new Subject();
        AtomicReference<Subject> seen = new AtomicReference<>();
        AtomicReference<String> tags = new AtomicReference<>();
        List<Integer> got = Subject.callAs(caller, () -> jobs.collect(() -> {
            seen.set(Subject.current());
            tags.set(LocalSpark.context().getLocalProperty("spark.job.tags"));
            return LocalSpark.context().parallelize(List.of(1, 2, 3));
        }, "a test job"));
        assertEquals(List.of(1, 2, 3), got);
        assertSame(caller, seen.get(), "planned as the caller (a Hadoop proxy user's doAs)");
        assertEquals(true, tags.get() != null && tags.get().contains("sylva-hdbscan-test"), String.valueOf(tags.get()));
    }

    @Test
    void anErrorWhileTheInputIsTakenIsThrownAsItself() {
        SparkJobs jobs = new SparkJobs(LocalSpark.context(), "sylva-hdbscan-test", CancellationToken.NEVER);
        StackOverflowError planning = new StackOverflowError("a deep plan");
        assertSame(planning, assertThrows(StackOverflowError.class, () -> jobs.collect(() -> {
            throw planning;
        }, "a test job")));
    }
}
