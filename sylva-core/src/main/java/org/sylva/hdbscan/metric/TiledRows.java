package org.sylva.hdbscan.metric;

import java.util.Objects;
import org.sylva.kernels.BlockedRows;
import org.sylva.kernels.MetricKernel;

/**
 * Each point of a range measured against every row of a {@link PairDistances} on a {@link MetricKernel}, a
 * tile of rows at a time: the tile stays in the core's cache while every point of the range, up to
 * {@link MetricKernel#MAX_QUERIES} per kernel call, is measured against it, so the rows are read from memory
 * once per range rather than once per few points. A point's distance to itself is handed on as 0, as
 * {@link PairDistances#between} gives it; every other value is bitwise {@code between}'s. The brute-force
 * fit's core distances and a metric model's neighbour lists of its fitted points both run here.
 *
 * <p>Immutable and safe to share between threads; each thread brings its own tile ({@link #newTile}) and
 * offsets ({@link MetricKernel#MAX_QUERIES} of them).
 *
 * <pre>{@code
 * TiledRows t = new TiledRows(pairs, kernel, 16);             // tiles of 16 blocks of rows
 * double[] tile = t.newTile();
 * int[] offsets = new int[MetricKernel.MAX_QUERIES];
 * t.scan(0, 256, offsets, tile, (point, values, at, first, count) -> {
 *     // values[at + c] is the distance from point to row first + c, c < count
 * });
 * }</pre>
 */
public final class TiledRows {
    /** What receives the distances: one call per point and tile, rows {@code first .. first + count - 1}. */
    @FunctionalInterface
    public interface Sink {
        /**
         * The distances from {@code point} to the rows {@code first + c}, {@code c < count}, at
         * {@code values[at + c]}; the array is the caller's tile, overwritten by the next kernel call.
         */
        void accept(int point, double[] values, int at, int first, int count);
    }

    private final MetricKernel kernel;
    private final MetricKernel.Form form;
    private final double[] x;
    private final BlockedRows rows;
    private final int n;
    private final int d;
    private final int width;
    private final int tileBlocks;

    /**
     * Tiles of {@code tileBlocks} blocks of {@code kernel}'s width over the rows of {@code pairs}, whose metric
     * the kernel computes ({@link PairDistances#kernelForm} not null).
     */
    public TiledRows(PairDistances pairs, MetricKernel kernel, int tileBlocks) {
        this(pairs, kernel,
                BlockedRows.of(pairs.preparedRows(), 0, pairs.size(), pairs.dimensions(), kernel.blockWidth()), tileBlocks);
    }

    /** As above, on {@code rows}: the rows of {@code pairs} already in the kernel's blocks. */
    public TiledRows(PairDistances pairs, MetricKernel kernel, BlockedRows rows, int tileBlocks) {
        this.form = Objects.requireNonNull(pairs.kernelForm(), "no metric kernel computes this metric");
        this.kernel = kernel;
        this.x = pairs.preparedRows();
        this.n = pairs.size();
        this.d = pairs.dimensions();
        this.width = kernel.blockWidth();
        if (rows.count() != n || rows.dimensions() != d || rows.width() != width) {
            throw new IllegalArgumentException("blocked rows of " + rows.count() + " × " + rows.dimensions()
                    + ", width " + rows.width() + ", for " + n + " × " + d + ", width " + width);
        }
        if (tileBlocks < 1) throw new IllegalArgumentException("tiles of " + tileBlocks + " blocks");
        this.rows = rows;
        this.tileBlocks = tileBlocks;
    }

    /** A tile for one thread: the distances of {@link MetricKernel#MAX_QUERIES} points to one tile of rows. */
    public double[] newTile() {
        return new double[MetricKernel.MAX_QUERIES * tileBlocks * width];
    }

    /**
     * Measures the points {@code start .. end - 1} against every row, tile by tile in row order and, within a
     * tile, point by point in order, handing each point's row of the tile to {@code sink}. {@code offsets}
     * ({@link MetricKernel#MAX_QUERIES} entries) and {@code tile} ({@link #newTile}) are the caller's scratch.
     */
    public void scan(int start, int end, int[] offsets, double[] tile, Sink sink) {
        if (start < 0 || end > n || start > end) {
            throw new IllegalArgumentException("points " + start + " .. " + end + " of " + n);
        }
        int q = MetricKernel.MAX_QUERIES, blocks = rows.blockCount();
        for (int from = 0; from < blocks; from += tileBlocks) {
            int to = Math.min(blocks, from + tileBlocks);
            int first = from * width, stride = (to - from) * width, count = Math.min(n, to * width) - first;
            for (int i = start; i < end; i += q) {
                int nq = Math.min(q, end - i);
                for (int r = 0; r < nq; r++) offsets[r] = (i + r) * d;
                kernel.distances(form, x, offsets, nq, rows, from, to, tile);
                for (int r = 0; r < nq; r++) {
                    int at = r * stride, self = i + r - first;
                    if (self >= 0 && self < count) tile[at + self] = 0.0;   // itself at 0, as between(a, a)
                    sink.accept(i + r, tile, at, first, count);
                }
            }
        }
    }
}
