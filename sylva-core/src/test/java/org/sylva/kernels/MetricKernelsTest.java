package org.sylva.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.hdbscan.metric.PairDistances;

/**
 * The metric kernels: both give, for every form, bitwise the distance {@link PairDistances#between} gives (the
 * metric's reference arithmetic), for one to four queries, any run of blocks, integer grids full of ties,
 * repeated rows, signed zeros and values from 1e-300 to 1e300; and the blocked rows keep each position's row
 * as it is moved.
 */
class MetricKernelsTest {
    private static List<MetricKernel> kernels() {
        assertTrue(KernelProvider.get().bestMetric() instanceof VectorMetricKernel, "surefire adds the vector module");
        return List.of(KernelProvider.get().scalarMetric(), KernelProvider.get().bestMetric());
    }

    private static Metric metric(MetricKernel.Form form) {
        return switch (form) {
            case EUCLIDEAN -> Metric.euclidean();
            case MANHATTAN -> Metric.manhattan();
            case CHEBYSHEV -> Metric.chebyshev();
            case COSINE -> Metric.cosine();
        };
    }

    /** Rows of one of four kinds: Gaussian, small integers (ties, repeats, zero rows), mixed scales, signed zeros. */
    private static double[] rows(int kind, int n, int d, Random r) {
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) {
            x[i] = switch (kind) {
                case 0 -> r.nextGaussian() * 100;
                case 1 -> r.nextInt(3) - 1;
                case 2 -> r.nextGaussian() * Math.pow(10, r.nextInt(7) * 100 - 300);
                default -> r.nextBoolean() ? -0.0 : r.nextInt(2) * 1e-320;
            };
        }
        if (n > 10) System.arraycopy(x, 0, x, 5 * d, d);   // row 5 repeats row 0
        return x;
    }

    @Test
    void everyValueIsBitwiseTheMetricsDistance() {
        Random r = new Random(7);
        for (MetricKernel.Form form : MetricKernel.Form.values()) {
            for (int d : new int[] {1, 3, 4, 17, 61}) {
                for (int kind = 0; kind < 4; kind++) {
                    if (kind == 2 && form == MetricKernel.Form.EUCLIDEAN) continue;   // squares of 1e300 overflow
                    int n = 101;
                    double[] x = rows(kind, n, d, r);
                    PairDistances dist = metric(form).pairs(x, n, d);
                    assertEquals(form, dist.kernelForm());
                    double[] q = dist.preparedRows();
                    for (MetricKernel k : kernels()) {
                        int w = k.blockWidth();
                        BlockedRows blocked = BlockedRows.of(q, 0, n, d, w);
                        for (int nq = 1; nq <= MetricKernel.MAX_QUERIES; nq++) {
                            int[] at = new int[nq], off = new int[nq];
                            for (int i = 0; i < nq; i++) {
                                at[i] = r.nextInt(n);
                                off[i] = at[i] * d;
                            }
                            int from = r.nextInt(blocked.blockCount());
                            int to = Math.min(blocked.blockCount(), from + 1 + r.nextInt(4));
                            int stride = (to - from) * w;
                            double[] out = new double[nq * stride];
                            k.distances(form, q, off, nq, blocked, from, to, out);
                            for (int i = 0; i < nq; i++) {
                                for (int p = from * w; p < Math.min(n, to * w); p++) {
                                    if (p == at[i]) continue;   // between(a, a) is 0 by definition, not by arithmetic
                                    double want = dist.between(at[i], p), got = out[i * stride + p - from * w];
                                    assertEquals(Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(got),
                                            () -> k.name() + " " + form + " d " + d + ": " + want + " vs " + got);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void movedRowsKeepTheirCoordinates() {
        int n = 37, d = 3;
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = i;
        BlockedRows b = BlockedRows.of(x, 2, n - 2, d, 8);
        assertEquals(n - 2, b.count());
        assertEquals(5, b.blockCount());
        b.move(34, 1);   // position 34 holds row 36
        b.move(9, 33);   // position 9 holds row 11
        for (int p = 0; p < n - 2; p++) {
            int row = p == 1 ? 36 : p == 33 ? 11 : p + 2;
            for (int j = 0; j < d; j++) assertEquals(x[row * d + j], b.blocks()[(p / 8) * d * 8 + j * 8 + p % 8], "position " + p);
        }
        assertThrows(IllegalArgumentException.class, () -> BlockedRows.of(x, 30, 10, d, 8));
    }

    @Test
    void theVectorKernelReadsOnlyItsWidth() {
        MetricKernel v = KernelProvider.get().bestMetric();
        BlockedRows narrow = BlockedRows.of(new double[] {1, 2, 3}, 0, 3, 1, v.blockWidth() / 2);
        assertThrows(IllegalArgumentException.class, () -> v.distances(MetricKernel.Form.MANHATTAN, new double[] {0}, new int[] {0}, 1,
                narrow, 0, 1, new double[64]));
        assertTrue(KernelProvider.get().describe().contains("metric:        vector"), KernelProvider.get().describe());
    }
}
