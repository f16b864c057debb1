package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.apache.spark.broadcast.Broadcast;
import org.junit.jupiter.api.Test;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.predict.HdbscanModel;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** The executor's model cache: one parse per broadcast, and never another broadcast's model. */
class PredictionTasksTest {
    /** A broadcast as an executor sees it: an id and the value it holds, without a SparkContext. */
    private static Broadcast<byte[]> broadcast(long id, byte[] value) {
        return new Broadcast<byte[]>(id, scala.reflect.ClassTag$.MODULE$.apply(byte[].class)) {
            @Override
            public byte[] getValue() {
                return value;
            }

            @Override
            public void doUnpersist(boolean blocking) {
            }

            @Override
            public void doDestroy(boolean blocking) {
            }
        };
    }

    /** The bytes of a model of {@code n} points in a line starting at {@code start}, spaced 1 apart. */
    private static byte[] model(int n, double start) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) x[i] = start + i;
        HdbscanResult fit = Hdbscan.builder().minClusterSize(2).threads(1).build()
                .fit(x, n, 1, ProgressListener.NONE, CancellationToken.NEVER);
        return HdbscanModel.of(fit, PointSet.ofFloat64(n, 1, x)).toBytes();
    }

    @Test
    void aNewSparkContextsBroadcastOfTheSameIdIsReadAgain() {
        // broadcast ids start again at 0 in each SparkContext: a JVM that stops Spark and starts it again gives a
        // new model the id an earlier one had
        Broadcast<byte[]> first = broadcast(0, model(10, 0));
        Broadcast<byte[]> again = broadcast(0, model(25, 1000));
        HdbscanModel a = PredictionTasks.model(first);
        assertSame(a, PredictionTasks.model(first), "the same broadcast is read once");
        assertEquals(10, a.size());
        HdbscanModel b = PredictionTasks.model(again);
        assertEquals(25, b.size(), "the second context's model, not the first's of the same id");
        assertEquals(10, PredictionTasks.model(first).size());
    }
}
