package org.sylva.cli.serve;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sylva.balltree.BallTree;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.progress.CancellationToken;

/**
 * The {@code balltree} and {@code partition} requests: Erwin's perfect binary ball tree of the
 * request's float32 {@code points} in the batches of {@code batch_idx} (the arrays {@code sylva
 * balltree} writes, as the same bytes: {@code tree_idx} int64, {@code mask} bool, {@code offsets} int64,
 * {@code levels} int32), or its rotated-tree partition at {@code level} ({@code perm} int64). One
 * builder serves every request, so its working memory is reused from one tree to the next; requests
 * never overlap (the engine runs one at a time). The scalar code runs unless a request asks for
 * {@code "kernels": "vector"}: the Vector API kernels are faster once the JIT has compiled them, but
 * until then (some tens of builds) each build is many times slower, so they pay only for a caller that builds many trees, such as a training loop.
 */
final class BallTreeHandler implements Handler {
    private final boolean partition;
    /** Replaced by {@link #release()}: its engine keeps the last build's working memory for the next one. */
    private BallTreeBuilder builder = new BallTreeBuilder();

    private BallTreeHandler(boolean partition) {
        this.partition = partition;
    }

    /** The handler of {@code balltree} requests. */
    static BallTreeHandler tree() {
        return new BallTreeHandler(false);
    }

    /** The handler of {@code partition} requests. */
    static BallTreeHandler partition() {
        return new BallTreeHandler(true);
    }

    /**
     * Lets go of the last build's working memory (about {@code (d + 2) * 4} bytes a point), which the builder keeps for
     * the next tree: a request of another kind must not find the heap taken by a tree already answered.
     */
    @Override
    public void release() {
        builder = new BallTreeBuilder();
    }

    /** The builder of the next request (tests). */
    BallTreeBuilder builder() {
        return builder;
    }

    @Override
    public Frame handle(Frame request, CancellationToken cancel) {
        Params p = new Params(request.params(), partition ? List.of("level", "threads", "kernels")
                : List.of("threads", "kernels"));
        RequestArrays.only(request, List.of("points", "batch_idx"));
        builder.threads(p.integer("threads", Runtime.getRuntime().availableProcessors()))
                .vectorKernels(p.choice("kernels", "scalar", "scalar", "vector").equals("vector"))
                .cancellation(cancel);
        if (partition && !p.has("level")) throw InvalidInputException.forParameter("level", "partition needs 'level'");
        int level = p.integer("level", 0);
        WireArray points = RequestArrays.points(request);
        if (!(points.data() instanceof float[] coords)) {
            throw new InvalidInputException("the ball tree takes float32 points (as Erwin's float32 tensors); got "
                    + points.dtype().wireName());
        }
        int n = (int) points.dim(0);
        PointSet pts = PointSet.unchecked(n, (int) points.dim(1), coords);   // the builder refuses non-finite rows
        BatchLayout layout = RequestArrays.layout(request, n);
        Map<String, Object> out = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        if (partition) {
            int[] perm = builder.partition(pts, layout, level);
            out.put("compute_seconds", (System.nanoTime() - t0) / 1e9);
            long[] p64 = new long[perm.length];
            for (int i = 0; i < perm.length; i++) p64[i] = perm[i];
            return new Frame("ok", out, List.of(WireArray.of("perm", p64, p64.length)));
        }
        BallTree tree = builder.build(pts, layout);
        out.put("compute_seconds", (System.nanoTime() - t0) / 1e9);
        int[] so = layout.slotOffsets();
        long[] offsets = new long[so.length];
        for (int i = 0; i < so.length; i++) offsets[i] = so[i];
        int[] levels = layout.levels();
        return new Frame("ok", out, List.of(
                WireArray.of("tree_idx", tree.indicesAsLong(), tree.size()),
                WireArray.of("mask", tree.mask(), tree.size()),
                WireArray.of("offsets", offsets, offsets.length),
                WireArray.of("levels", levels, levels.length)));
    }
}
