package org.sylva.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

import org.apache.spark.TaskContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.hdbscan.predict.Prediction;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * What runs in the tasks of {@link SylvaHdbscanModel#predict}: a task reads its partition's rows in chunks of {@link
 * #CHUNK} rows, refuses a bad row by its partition and position there ({@link RowPlaces}), and assigns each chunk with
 * the library's {@link HdbscanModel#approximatePredict} on its slots' cores ({@code spark.task.cpus}), checking
 * Spark's kill flag between chunks of the library's work. Every point's answer is its own (the fitted points only are
 * its neighbours), so the answers do not depend on the partitioning, the chunks or the thread count. The model travels
 * as the bytes of its model file in a broadcast, read once per executor JVM and kept for the prediction's other tasks
 * (one model at a time, softly: a later prediction's model replaces it, and an executor short of memory drops it).
 *
 * <pre>{@code
 * Broadcast<byte[]> b = sc.broadcast(model.toBytes());
 * JavaRDD<Row> out = rdd.mapPartitionsWithIndex((p, it) -> PredictionTasks.predict(p, it, column, b), true);
 * }</pre>
 */
final class PredictionTasks {
    /** Rows assigned at a time: bounds a task's memory whatever its partition's size. */
    static final int CHUNK = 1 << 16;

    private static final Object LOCK = new Object();
    /**
     * The bytes the cached model was read from, as the broadcast gave them. Not the broadcast's id: ids start again
     * at 0 in each SparkContext, so a JVM that stops Spark and starts it again would take a new model's id for the
     * old one's. The executor keeps one array per live broadcast, so the same array means the same model; weak, so
     * that the cache never keeps a finished broadcast's bytes.
     */
    private static WeakReference<byte[]> cachedBytes = new WeakReference<>(null);
    /** Soft: an executor short of memory drops the model, and the next task reads it again. */
    private static SoftReference<HdbscanModel> cached = new SoftReference<>(null);

    private PredictionTasks() {
    }

    /**
     * The rows of partition {@code partition}, each with the label, probability and outlier score of its prediction
     * appended.
     */
    static Iterator<Row> predict(int partition, Iterator<Row> rows, FeatureColumn column, Broadcast<byte[]> model) {
        if (!rows.hasNext()) return Collections.emptyIterator();
        HdbscanModel m = model(model);
        TaskContext tc = TaskContext.get();
        Execution execution = new Execution(tc == null ? 1 : Math.max(1, tc.cpus()), ProgressListener.NONE,
                tc == null ? CancellationToken.NEVER : CancellationToken.polling(tc::isInterrupted));
        return new Iterator<>() {
            private Iterator<Row> chunk = Collections.emptyIterator();
            private long position;   // of the partition's next row to read

            @Override
            public boolean hasNext() {
                // a chunk is never empty, so one refill is enough
                if (!chunk.hasNext() && rows.hasNext()) {
                    List<Row> in = new ArrayList<>();
                    chunk = nextChunk(rows, in, partition, position, column, m, execution);
                    position += in.size();
                }
                return chunk.hasNext();
            }

            @Override
            public Row next() {
                if (!hasNext()) throw new NoSuchElementException();
                return chunk.next();
            }
        };
    }

    /**
     * The next chunk of at most {@link #CHUNK} rows of {@code rows} (read into {@code in}; the first at position
     * {@code first} of partition {@code partition}), predicted; {@code rows} has a next row.
     */
    private static Iterator<Row> nextChunk(Iterator<Row> rows, List<Row> in, int partition, long first,
                                          FeatureColumn column, HdbscanModel m, Execution execution) {
        int d = m.inputDimensions();
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i < CHUNK && rows.hasNext(); i++) {
            Row row = rows.next();
            points.add(read(column, row, partition, first + i, d));
            in.add(row);
        }
        int n = in.size();
        double[] packed = new double[Math.multiplyExact(n, d)];
        for (int i = 0; i < n; i++) System.arraycopy(points.get(i), 0, packed, i * d, d);
        Prediction p = m.approximatePredict(PointSet.uncheckedFloat64(n, d, packed), execution);
        // the record's accessors copy its arrays: once per chunk, not per row
        int[] labels = p.labels();
        double[] probabilities = p.probabilities();
        double[] scores = p.outlierScores();
        List<Row> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(FeatureColumn.withFitOutputs(in.get(i), labels, probabilities, scores, i));
        return out.iterator();
    }

    /**
     * The coordinates of row {@code position} of partition {@code partition}, refused with the row's name
     * ({@link RowPlaces#describe}, made only then) when it is not a point the model can assign: a null, a
     * non-finite or too large coordinate, another number of coordinates.
     */
    static double[] read(FeatureColumn column, Row row, int partition, long position, int d) {
        double[] x;
        try {
            x = column.read(row, "");
        } catch (InvalidInputException e) {   // its message names no row: ": column 'features' is null"
            throw new InvalidInputException(RowPlaces.describe(partition, position) + e.getMessage());
        }
        if (x.length != d) {
            throw new InvalidInputException(RowPlaces.describe(partition, position) + ": column '" + column.name()
                    + "' has " + x.length + (x.length == 1 ? " value" : " values") + "; the model was fitted on points of "
                    + d);
        }
        return x;   // finite and within +-1e150 (FeatureColumn.read)
    }

    /** The broadcast's model, read from its bytes once per JVM. */
    static HdbscanModel model(Broadcast<byte[]> b) {
        synchronized (LOCK) {
            HdbscanModel m = cached.get();
            byte[] bytes = b.value();
            if (m != null && cachedBytes.get() == bytes) return m;
            try {
                m = HdbscanModel.fromBytes(bytes, "the broadcast model");
            } catch (IOException e) {
                throw new UncheckedIOException("reading the broadcast model: " + e.getMessage(), e);
            }
            cached = new SoftReference<>(m);
            cachedBytes = new WeakReference<>(bytes);
            return m;
        }
    }
}
