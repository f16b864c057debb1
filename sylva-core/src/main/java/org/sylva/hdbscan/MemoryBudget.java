package org.sylva.hdbscan;

import java.util.Locale;
import org.sylva.data.InsufficientMemoryException;
import org.sylva.hdbscan.core.CoreDistances;

/**
 * Estimates the heap a fit needs before it starts and refuses up front, with the figures, when the
 * JVM cannot hold it — instead of an OutOfMemoryError deep inside a stage.
 *
 * <p>The estimate is the largest of the CPU engine's phases, each the sum of the arrays alive in it
 * (counted from the code, for the worst case: a float32 copy of the coordinates with the float32 pre-filter,
 * which keeps a second, approximate neighbour list per point). {@code P} is the index's positions (the
 * points plus the padding of each leaf to the vector width, at most {@code n / 8} more here) and
 * {@code k = min(n, minSamples + 1)}:
 * <ul>
 *   <li>index build: the builder's two working copies of the rows ({@code 16 n d}), the blocked float64
 *       and float32 coordinates ({@code 12 P d}), node centres and per-point work arrays;</li>
 *   <li>neighbour search: the index, the exact lists ({@code 12 n k}: an int and a double per entry) and
 *       the approximate lists ({@code 8 P (k + 12)}: a float and an int per entry; above 64 entries a
 *       quarter more, the buffer they fill, {@link CoreDistances#approximateSlotsPerPoint});</li>
 *   <li>the reorder before the tree ({@code PointIndex.withLeavesOrderedBy}): the index, its reordered copy of
 *       the blocks and position maps ({@code 12 P d + 8 P}) and the exact lists;</li>
 *   <li>spanning tree: the index, the exact lists and Borůvka's per-point arrays;</li>
 *   <li>hierarchy: the trees and the per-point outputs;</li>
 * </ul>
 * plus, throughout, the float64 copy of the rows the fit clusters when it makes one (float32 input, or
 * rows left out by the non-finite policy). Measured against the smallest {@code -Xmx} a fit completes in
 * (BENCHMARKS.md, issue 24).
 */
final class MemoryBudget {
    private MemoryBudget() {
    }

    /** Bytes beyond the input a fit of {@code n} points in {@code d} dimensions needs (rows copied to float64). */
    static long estimateBytes(long n, int d, int minSamples) {
        return estimateBytes(n, d, minSamples, true);
    }

    /**
     * Bytes beyond the input a fit of {@code n} points in {@code d} dimensions needs; {@code copiesRows}:
     * the fit clusters a float64 copy of the rows (float32 input, or rows left out) rather than the
     * caller's float64 array.
     */
    static long estimateBytes(long n, int d, int minSamples, boolean copiesRows) {
        long k = Math.min(n, minSamples + 1L);
        long positions = n + n / 8 + 8;
        long nodes = n / 8 + 1;                          // the builder's node capacity (the index keeps fewer)
        long rows = copiesRows ? 8 * n * d : 0;
        long duplicates = 4 * n;                         // each point's group, kept through the fit
        long indexKept = 12 * positions * d + nodes * (8L * d + 44) + 8 * positions;
        long indexBuild = 16 * n * d + 12 * positions * d + nodes * (8L * d + 44) + 24 * n + 8 * positions
                + 24 * n;                                // + the duplicate search's hash table, freed before
        long exactLists = 12 * n * k;
        long neighbours = indexKept + exactLists
                + 8 * positions * CoreDistances.approximateSlotsPerPoint((int) Math.min(k, Integer.MAX_VALUE - 4096))
                + 24 * positions + 4 * positions;   // + the limits rounded up to float32 (ApproximateLists.limitUp)
        // the leaves reordered by core distance: a second copy of the blocks and position maps, briefly
        long reorder = indexKept + 12 * positions * d + 8 * positions + exactLists + 8 * n;
        long spanningTree = indexKept + exactLists + 128 * n + 21 * positions;
        long hierarchy = 220 * n;
        long peak = Math.max(Math.max(Math.max(indexBuild, neighbours), Math.max(spanningTree, hierarchy)), reorder);
        return rows + duplicates + peak;
    }

    static void check(long n, int d, int minSamples) {
        check(n, d, minSamples, true);
    }

    /** Refuses, with the figures, a fit that needs more heap than the JVM has left ({@code copiesRows}: as above). */
    static void check(long n, int d, int minSamples, boolean copiesRows) {
        require(n, d, " at min_samples " + minSamples, estimateBytes(n, d, minSamples, copiesRows));
    }

    /**
     * As {@link #check(long, int, int, boolean)} for {@code rows} weighted rows standing for {@code points}
     * points: the search runs over the rows, the expanded tree and the hierarchy over the points.
     */
    static void check(long rows, long points, int d, int minSamples, boolean copiesRows) {
        if (points <= rows) {
            check(rows, d, minSamples, copiesRows);
            return;
        }
        require(rows, d, " (" + points + " points with their sample weights) at min_samples " + minSamples,
                estimateBytes(rows, d, minSamples, copiesRows) + expandedBytes(points - rows));
    }

    /**
     * Bytes for {@code extra} more points than rows: the expanded tree's edges and their sorted copy
     * ({@code 2 x 16}), the per-point core distances, then the hierarchy's trees and outputs.
     */
    static long expandedBytes(long extra) {
        return extra * (32 + 8 + 220);
    }

    /**
     * The brute-force engine's needs: its per-point arrays, the trees and outputs, for cosine a normalised
     * copy of the rows, and where a metric kernel computes the distances ({@code kernelRows}) its copy of the
     * rows and Prim's rows made ahead ({@link #kernelRowsBytes}).
     */
    static void checkBruteForce(long n, int d, boolean copiesRows, boolean kernelRows) {
        require(n, d, "", n * (64 + 24 + 32 + 2 * 24 + 40) + (copiesRows ? n * d * 8 : 0)
                + (kernelRows ? kernelRowsBytes(n, d) : 0));
    }

    /** The rows in the kernel's blocks (8 d bytes a point), Prim's 32 rows made ahead and its state by position. */
    static long kernelRowsBytes(long n, int d) {
        return n * (8L * d + 8L * 32 + 24);
    }

    /**
     * The k-d tree engine's needs ({@link org.sylva.hdbscan.metric.KdTreeEngine}): the brute-force engine's
     * per-point arrays, trees and outputs, plus the rows in tree order and the nodes' boxes (at most
     * {@code n / 4} nodes of {@code 2 d} bounds, so {@code 12 d} bytes a point together) and Borůvka's
     * per-point edges and component arrays, and what the brute-force engine's kernel adds where the probe hands
     * the fit to it.
     */
    static void checkKdTree(long n, int d) {
        require(n, d, "", n * (64 + 24 + 32 + 2 * 24 + 40) + n * (12L * d + 72) + kernelRowsBytes(n, d));
    }

    /**
     * A fit on a sparse distance matrix ({@link org.sylva.hdbscan.metric.GraphSpanningTree}): 32 bytes per edge
     * (each stored pair once: its weight and ends, and the sort's second copy of both), the core distances'
     * scratch (a row as wide as the widest per thread), and the per-point arrays, trees and outputs.
     */
    static void checkGraph(long n, long storedEntries, long widestRow, int threads) {
        require(String.format(Locale.ROOT, "a fit of a sparse distance matrix of %d points and %d stored entries", n,
                storedEntries), 16 * storedEntries + 8 * widestRow * threads + n * (8 + 4 + 32 + 220));
    }

    private static void require(long n, int d, String at, long need) {
        require(String.format(Locale.ROOT, "a fit of %d points x %d dimensions%s", n, d, at), need);
    }

    private static void require(String what, long need) {
        Runtime rt = Runtime.getRuntime();
        long available = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (need > available) {
            // The heap in use counts garbage not yet collected (the arrays of an earlier fit in a long-lived
            // process): collect it before refusing, so a fit is refused only for what is really held.
            System.gc();
            available = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        }
        if (need > available) {
            long gib = (long) Math.ceil((need + (rt.totalMemory() - rt.freeMemory())) / 1073741824.0) + 1;
            throw new InsufficientMemoryException(String.format(Locale.ROOT,
                    "%s needs about %s of heap beyond the "
                            + "input, but only %s is available (give the JVM -Xmx%dg or more; through the sylva "
                            + "launcher: SYLVA_JAVA_OPTS=-Xmx%dg)",
                    what, size(need, true), size(Math.max(available, 0), false), gib, gib));
        }
    }

    /**
     * {@code bytes} in GiB to one decimal from 1 GiB, else in MiB; rounded up for a need and down for what is
     * available, so that a need above the available never prints as the same figure.
     */
    static String size(long bytes, boolean up) {
        double unit = bytes >= 1L << 30 ? 1073741824.0 / 10 : 1048576.0;
        double v = up ? Math.ceil(bytes / unit) : Math.floor(bytes / unit);
        return bytes >= 1L << 30 ? String.format(Locale.ROOT, "%.1f GiB", v / 10) : String.format(Locale.ROOT, "%.0f MiB", v);
    }
}
