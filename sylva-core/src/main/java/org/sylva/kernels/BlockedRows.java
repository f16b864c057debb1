package org.sylva.kernels;

/**
 * Rows of coordinates in the block layout the {@link MetricKernel}s read: coordinate {@code j} of position
 * {@code p} at {@code blocks()[(p / W) * d * W + j * W + p % W]}, {@code W} the block width, padding positions
 * zero. A vector kernel loads one coordinate of {@code W} consecutive positions at once, so it computes
 * {@code W} pairs side by side, each in its own lane, each summed in coordinate order.
 *
 * <p>Mutable in one way only, for a caller that keeps a shrinking set of points packed at the front (the
 * brute-force engine's Prim rounds): {@link #move} copies one position's coordinates onto another. Not
 * thread-safe while it is moved; reading it from many threads is safe.
 *
 * <pre>{@code
 * BlockedRows rows = BlockedRows.of(x, 1, n - 1, d, kernel.blockWidth());   // points 1 .. n-1 at positions 0 ..
 * rows.move(n - 2, 0);                                                      // the last one in place of the first
 * }</pre>
 */
public final class BlockedRows {
    private final double[] blocks;
    private final int count;
    private final int d;
    private final int width;

    private BlockedRows(double[] blocks, int count, int d, int width) {
        this.blocks = blocks;
        this.count = count;
        this.d = d;
        this.width = width;
    }

    /**
     * The rows {@code first .. first + count - 1} of the row-major {@code x} ({@code d} values per row) at
     * positions {@code 0 .. count - 1}, in blocks of {@code width} positions.
     */
    public static BlockedRows of(double[] x, int first, int count, int d, int width) {
        if (d < 1 || width < 1 || first < 0 || count < 0 || (long) (first + count) * d > x.length) {
            throw new IllegalArgumentException("rows " + first + " .. " + (first + count) + " of " + d
                    + " values in an array of " + x.length + ", width " + width);
        }
        long length = (long) ((count + width - 1) / width) * width * d;
        if (length > Integer.MAX_VALUE - 8) throw new IllegalArgumentException(count + " rows of " + d + " values do not fit one array");
        double[] blocks = new double[(int) length];
        for (int p = 0; p < count; p++) {
            int base = (p / width) * d * width + p % width;
            int row = (first + p) * d;
            for (int j = 0; j < d; j++) blocks[base + j * width] = x[row + j];
        }
        return new BlockedRows(blocks, count, d, width);
    }

    /** Copies the coordinates of position {@code from} onto position {@code to}. */
    public void move(int from, int to) {
        int a = (from / width) * d * width + from % width;
        int b = (to / width) * d * width + to % width;
        for (int j = 0; j < d; j++) blocks[b + j * width] = blocks[a + j * width];
    }

    /** The interleaved coordinates (shared). */
    public double[] blocks() {
        return blocks;
    }

    /** Positions holding a row. */
    public int count() {
        return count;
    }

    /** Blocks holding the positions {@code 0 .. count() - 1}. */
    public int blockCount() {
        return (count + width - 1) / width;
    }

    /** Coordinates per row. */
    public int dimensions() {
        return d;
    }

    /** Positions per block. */
    public int width() {
        return width;
    }
}
