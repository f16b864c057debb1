package org.sylva.spark;

import java.io.Serializable;

/**
 * The points of one distributed fit as they are broadcast to the executors: row-major float64
 * coordinates and an id that names the fit in the executors' caches ({@link ExecutorTasks}).
 *
 * <p>A class, not a record: broadcasts and task results go through Spark's configured serializer, and
 * Kryo (a common {@code spark.serializer}) cannot build records. The same holds for {@link RoundMessage},
 * {@link TaskResults} and {@link GroupKey}'s values ({@code KryoRoundTripTest}).
 */
final class FitData implements Serializable {
    private static final long serialVersionUID = 1L;
    private final String fitId;
    private final double[] rows;
    private final int n;
    private final int d;

    FitData(String fitId, double[] rows, int n, int d) {
        this.fitId = fitId;
        this.rows = rows;
        this.n = n;
        this.d = d;
    }

    String fitId() {
        return fitId;
    }

    double[] rows() {
        return rows;
    }

    int n() {
        return n;
    }

    int d() {
        return d;
    }
}
