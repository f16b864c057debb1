package org.sylva.spark;

import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.sylva.progress.CancellationToken;

/**
 * How the tasks name a row without a job of their own: by its partition and its position there ("row 17 of
 * partition 3"), which a task knows as it reads, rather than by its place in the whole dataset, which
 * {@code zipWithIndex} learns by computing every partition once more before the transform returns. The row so
 * named is the 18th of partition 3 of the dataset's rows ({@code df.rdd()}, as {@code mapPartitionsWithIndex}
 * numbers the partitions). A step of a dataset's plan ({@code mapPartitions}: a transform, a prediction) knows only
 * its task's partition: where a {@code coalesce} or {@code union} applied to its result has one task read several of
 * the dataset's partitions, the name is that task's partition and the position within whichever of them the row
 * came from; the problem it states is the row's all the same.
 *
 * <pre>{@code
 * JavaRDD<Row> out = rdd.mapPartitionsWithIndex((p, it) -> RowPlaces.map(p, it, (row, where) -> f(row, where)), true);
 * }</pre>
 */
final class RowPlaces {
    private RowPlaces() {
    }

    /** "row {@code position} of partition {@code partition}", as a refusal names a row. */
    static String describe(int partition, long position) {
        return "row " + position + " of partition " + partition;
    }

    /** {@code rows} of partition {@code partition}, each mapped by {@code f} with its name, one at a time. */
    static <T, R> Iterator<R> map(int partition, Iterator<T> rows, BiFunction<T, String, R> f) {
        return numbered(rows, 0, (row, position) -> f.apply(row, describe(partition, position)));
    }

    /** A function of a row and its position. */
    @FunctionalInterface
    interface Positioned<T, R> {
        R apply(T row, long position);
    }

    /** {@code rows}, each mapped by {@code f} with its position, counted from {@code first}, one at a time. */
    static <T, R> Iterator<R> numbered(Iterator<T> rows, long first, Positioned<T, R> f) {
        return new Iterator<>() {
            private long position = first;

            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public R next() {
                return f.apply(rows.next(), position++);
            }
        };
    }

    /**
     * The dataset position of each partition's first row, and the row count last (length: partitions + 1), from
     * one job that counts each partition's rows, described as {@code description} and tagged as Sylva's jobs are
     * ({@link SparkJobs}).
     */
    static long[] starts(JavaRDD<?> rdd, String description) {
        SparkJobs jobs = new SparkJobs(JavaSparkContext.fromSparkContext(rdd.context()),
                SparkHdbscanEngine.JOB_TAG + "-" + UUID.randomUUID(), CancellationToken.NEVER);
        List<Long> sizes = jobs.collect(rdd.mapPartitions(it -> {
            long c = 0;
            while (it.hasNext()) {
                it.next();
                c++;
            }
            return List.of(c).iterator();
        }), description);
        long[] starts = new long[sizes.size() + 1];
        for (int p = 0; p < sizes.size(); p++) starts[p + 1] = starts[p] + sizes.get(p);
        return starts;
    }
}
