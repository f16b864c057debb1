package org.sylva.hdbscan.metric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sylva.kernels.KernelProvider;
import org.sylva.kernels.MetricKernel;

class TiledRowsTest {
    /** Rows with repeats, signed zeros and a zero row, so cosine's and the self-distance's cases come up. */
    private static double[] rows(int n, int d, long seed) {
        Random r = new Random(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) {
            x[i] = r.nextInt(4) == 0 ? (r.nextBoolean() ? 0.0 : -0.0) : r.nextGaussian() * 3;
        }
        System.arraycopy(x, 0, x, d, d);                    // row 1 repeats row 0
        for (int j = 0; j < d; j++) x[2 * d + j] = 0.0;     // row 2 all zero
        return x;
    }

    @Test
    void everyPointMeetsEveryRowOnceInOrderWithBetweensValues() {
        KernelProvider kp = KernelProvider.get();
        for (MetricKernel kernel : new MetricKernel[] {kp.scalarMetric(), kp.bestMetric()}) {
            for (Metric m : new Metric[] {Metric.euclidean(), Metric.manhattan(), Metric.chebyshev(), Metric.cosine()}) {
                for (int[] shape : new int[][] {{3, 1}, {37, 3}, {70, 5}}) {
                    int n = shape[0], d = shape[1];
                    PairDistances pairs = m.pairs(rows(n, d, n * 31L + d), n, d);
                    for (int tileBlocks : new int[] {1, 2, 1000}) {
                        TiledRows tiled = new TiledRows(pairs, kernel, tileBlocks);
                        for (int[] range : new int[][] {{0, n}, {1, Math.min(n, 7)}, {n - 1, n}}) {
                            int start = range[0], end = range[1];
                            int[] next = new int[n];   // per point, the row it expects next: every row once, in order
                            String what = kernel.getClass().getSimpleName() + " " + m.name() + " " + n + "×" + d
                                    + " tiles of " + tileBlocks + ", points " + start + ".." + end;
                            tiled.scan(start, end, new int[MetricKernel.MAX_QUERIES], tiled.newTile(),
                                    (point, values, at, first, count) -> {
                                        assertTrue(point >= start && point < end, what);
                                        assertEquals(next[point], first, what + ": rows out of order for " + point);
                                        for (int c = 0; c < count; c++) {
                                            assertEquals(Double.doubleToRawLongBits(pairs.between(point, first + c)),
                                                    Double.doubleToRawLongBits(values[at + c]),
                                                    what + ": " + point + " to " + (first + c));
                                        }
                                        next[point] = first + count;
                                    });
                            for (int p = start; p < end; p++) assertEquals(n, next[p], what + ": rows seen by " + p);
                        }
                    }
                }
            }
        }
    }

    @Test
    void refusesWhatItCannotScan() {
        PairDistances minkowski = Metric.minkowski(3).pairs(rows(5, 2, 1), 5, 2);
        MetricKernel kernel = KernelProvider.get().scalarMetric();
        assertThrows(NullPointerException.class, () -> new TiledRows(minkowski, kernel, 4));
        TiledRows tiled = new TiledRows(Metric.manhattan().pairs(rows(5, 2, 1), 5, 2), kernel, 4);
        assertThrows(IllegalArgumentException.class,
                () -> tiled.scan(2, 6, new int[MetricKernel.MAX_QUERIES], tiled.newTile(), (p, v, a, f, c) -> { }));
        assertThrows(IllegalArgumentException.class, () -> new TiledRows(Metric.manhattan().pairs(rows(5, 2, 1), 5, 2),
                kernel, 0));
    }
}
