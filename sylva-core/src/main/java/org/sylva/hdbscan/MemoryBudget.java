package org.sylva.hdbscan;

import java.util.Locale;
import org.sylva.data.InvalidInputException;

/**
 * Estimates the heap a fit needs before it starts and refuses up front, with the figures, when the
 * JVM cannot hold it — instead of an OutOfMemoryError deep inside a stage.
 */
final class MemoryBudget {
    private MemoryBudget() {
    }

    /**
     * Bytes beyond the input a fit of {@code n} points in {@code d} dimensions needs: the float64 point
     * index (rows padded to the vector width), the neighbour lists ({@code minSamples + 1} entries of an
     * int and a double per point), Borůvka's per-point arrays, the spanning, single-linkage and condensed
     * trees and the per-point outputs.
     */
    static long estimateBytes(long n, int d, int minSamples) {
        long paddedD = ((d + 7L) / 8) * 8;
        long index = n * paddedD * 8 + n * 16;
        long knn = n * (minSamples + 1L) * 12 + n * 8;
        long boruvka = n * 48;
        long trees = n * (24 + 32 + 2 * 24);
        long outputs = n * 40;
        return index + knn + boruvka + trees + outputs;
    }

    static void check(long n, int d, int minSamples) {
        require(n, d, estimateBytes(n, d, minSamples));
    }

    /**
     * The brute-force engine's needs: its per-point arrays, the trees and outputs, and for cosine a
     * normalised copy of the rows.
     */
    static void checkBruteForce(long n, int d, boolean copiesRows) {
        require(n, d, n * (64 + 24 + 32 + 2 * 24 + 40) + (copiesRows ? n * d * 8 : 0));
    }

    private static void require(long n, int d, long need) {
        Runtime rt = Runtime.getRuntime();
        long available = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (need > available) {
            throw new InvalidInputException(String.format(Locale.ROOT,
                    "a fit of %d points x %d dimensions needs about %.1f GiB of heap beyond the input, but only "
                            + "%.1f GiB is available (raise -Xmx, e.g. SYLVA_JAVA_OPTS=-Xmx%dg)",
                    n, d, need / 1073741824.0, available / 1073741824.0,
                    (long) Math.ceil((need + (rt.totalMemory() - rt.freeMemory())) / 1073741824.0) + 1));
        }
    }
}
