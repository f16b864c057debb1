package org.sylva.bench.hdbscan;

import java.util.Random;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;

/**
 * The pre-filter tiles the kernel benchmarks time: an index of 20 000 clip-like points (61 dimensions,
 * seed 42) for the best vector kernel, and {@code tiles} tiles, each of {@code queries} consecutive query
 * positions against the blocks of one leaf, both leaves drawn by a fixed seed (7), so every benchmark and
 * every case times the same pairs.
 *
 * <pre>{@code
 * ClipTiles t = ClipTiles.of(64, 32);
 * t.kernel().approximateSquaredDistances(t.index(), t.rows()[0], 32, t.blockFrom()[0], t.blockTo()[0], out);
 * }</pre>
 */
record ClipTiles(DistanceKernel kernel, PointIndex index, int[][] rows, int[] blockFrom, int[] blockTo) {
    /** Points of the index. */
    static final int POINTS = 20_000;

    static ClipTiles of(int tiles, int queries) {
        DistanceKernel kernel = KernelProvider.get().bestDistance();
        if (!kernel.approximates()) throw new IllegalStateException("no float32 pre-filter in this JVM: " + kernel);
        int d = 61;
        PointIndex index = PointIndex.build(ClipLikeData.generate(POINTS, 42).points().coordinates64(), POINTS, d, kernel);
        int w = index.blockWidth(), leaves = index.leaves();
        int[][] rows = new int[tiles][queries];
        int[] blockFrom = new int[tiles], blockTo = new int[tiles];
        Random rnd = new Random(7);
        for (int t = 0; t < tiles; t++) {
            int leaf = rnd.nextInt(leaves);
            int start = index.leafStart(leaf);
            blockFrom[t] = start / w;
            blockTo[t] = (start + index.leafCount(leaf) + w - 1) / w;
            int from = index.leafStart(rnd.nextInt(leaves));
            for (int q = 0; q < queries; q++) rows[t][q] = Math.min(index.positions() - 1, from + q);
        }
        return new ClipTiles(kernel, index, rows, blockFrom, blockTo);
    }

    /** A tile buffer large enough for any of these tiles. */
    float[] newOut() {
        int w = index.blockWidth();
        return new float[kernel.tileLength(rows[0].length, (PointIndex.LEAF_SIZE + w - 1) / w + 1, index)];
    }
}
