package org.sylva.gpu;

/**
 * The shapes the kernels are launched with, shared by every API: how many candidate points a
 * work-group's local-memory tile holds ({@code TILE_DOUBLES} coordinates and at most
 * {@code TILE_ROWS_MAX} points, as {@code hdbscan.cl.inc} defines them). The device memory a fit takes
 * is {@link KernelFit}'s list of buffers, checked by {@link DeviceMemory}.
 *
 * <pre>{@code
 * int rows = TileShape.rowsPerTile(61);   // 33
 * }</pre>
 */
public final class TileShape {
    /** Coordinates a tile holds: {@code TILE_DOUBLES} in the kernel source. */
    public static final int TILE_DOUBLES = 2048;
    /** Points a tile holds at most: {@code TILE_ROWS_MAX} in the kernel source. */
    public static final int TILE_ROWS_MAX = 256;

    private TileShape() {
    }

    /**
     * Points per tile for {@code d} coordinates; {@code d} beyond {@link #TILE_DOUBLES} is refused as the input's
     * fault ({@link org.sylva.data.InvalidInputException}), not the device's.
     */
    public static int rowsPerTile(int d) {
        if (d > TILE_DOUBLES) {
            throw new org.sylva.data.InvalidInputException("the GPU engine handles at most " + TILE_DOUBLES + " coordinates per point, got " + d
                    + "; the CPU engine takes any number (no GPU backend), or reduce them first (principal components: "
                    + "sylva hdbscan --pca K)");
        }
        return Math.min(TILE_ROWS_MAX, TILE_DOUBLES / d);
    }
}
