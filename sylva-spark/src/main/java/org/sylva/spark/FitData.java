package org.sylva.spark;

import java.io.Serializable;

/**
 * The points of one distributed fit as they are broadcast to the executors: row-major float64
 * coordinates and an id that names the fit in the executors' caches ({@link ExecutorTasks}).
 */
record FitData(String fitId, double[] rows, int n, int d) implements Serializable {
}
