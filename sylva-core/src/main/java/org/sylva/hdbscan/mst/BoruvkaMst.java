package org.sylva.hdbscan.mst;

import org.sylva.kernels.KernelProvider;
import org.sylva.kernels.DistanceKernel;
import org.sylva.parallel.ParallelWork;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.index.ProjectedIndex;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The minimum spanning tree of the mutual-reachability graph, {@code w(a, b) = max(core_a, core_b,
 * ||a - b|| / alpha)}, by Borůvka's algorithm: each round finds, for every component, its cheapest
 * outgoing edge under the unique {@link EdgeOrder} (weight, lower index, higher index), then merges the
 * components along those edges. Because the order is total the tree is unique, so the result is the same
 * for every thread count, backend and scan order. At most {@code ceil(log2 n) + 1} rounds run; a round
 * that adds no edge is a bug and raises {@link IllegalStateException}.
 *
 * <p>Two exact shortcuts, on by default ({@link Builder#pruning(boolean)}), use the core-distance stage's
 * nearest lists. <b>Neighbour edges:</b> every weight from {@code p} is at least {@code core_p}; if
 * {@code p}'s list is provably complete (its last entry is strictly beyond {@code core_p}) and holds a
 * point {@code q} of another component with {@code core_q <= core_p} and {@code d(p, q) / alpha <= core_p},
 * then {@code p}'s cheapest edge weighs exactly {@code core_p} and goes to the lowest such {@code q}; no
 * scan. <b>Component bound:</b> every neighbour edge into another component is a real edge, so the
 * lightest one bounds the component's cheapest edge; a point whose core distance strictly exceeds it
 * cannot improve it; no scan. <b>One component left out:</b> the component with the most points still to
 * scan adds no edge of its own that round, and its points are not scanned; the others' edges still join it
 * ({@link BoruvkaComponents#leaveOutLargest}). The remaining points are scanned leaf by leaf over a {@link PointIndex},
 * skipping balls that lie inside the point's own component and balls whose lower bound
 * {@code max(min core, distance bound / alpha)} strictly exceeds the best edge found so far for the
 * component (a real edge, shared between threads); every skip is strict, so the true cheapest edge is
 * never skipped and the per-component minimum is exact whatever the scan order.
 *
 * <pre>{@code
 * DistanceKernel b = KernelProvider.get().bestDistance();
 * CoreDistances cd = CoreDistances.compute(points, 20, b, 2, ProgressListener.NONE, CancellationToken.NEVER);
 * SpanningTree t = BoruvkaMst.builder().alpha(1.0).threads(2).backend(b).pruning(true).build()
 *         .compute(points, cd, ProgressListener.NONE, CancellationToken.NEVER);
 * }</pre>
 */
public final class BoruvkaMst {
    /** Prefix of the stage names reported to progress listeners: {@code "spanning tree round k"} (k from 1). */
    public static final String STAGE_PREFIX = "spanning tree round ";

    private final double alpha;
    private final int threads;
    private final DistanceKernel backend;
    private final boolean shortcuts;
    private final boolean boundPruning;
    private final boolean axisBounds;

    private BoruvkaMst(Builder b) {
        this.alpha = b.alpha;
        this.threads = b.threads;
        this.backend = b.backend;
        this.shortcuts = b.shortcuts;
        this.boundPruning = b.boundPruning;
        this.axisBounds = b.axisBounds;
    }

    public static Builder builder() {
        return new Builder();
    }

    public double alpha() {
        return alpha;
    }

    public int threads() {
        return threads;
    }

    public DistanceKernel backend() {
        return backend;
    }

    /** Builds the tree of {@code points} (indexed here) with their core distances. */
    public SpanningTree compute(PointSet points, CoreDistances cd, ProgressListener progress, CancellationToken cancel) {
        return compute(PointIndex.build(points, backend), cd, progress, cancel);
    }

    /** Builds the tree over an index made for this builder's backend (e.g. the one the core distances used). */
    public SpanningTree compute(PointIndex index, CoreDistances cd, ProgressListener progress, CancellationToken cancel) {
        if (cd.size() != index.size()) {
            throw new InvalidInputException("core distances are for " + cd.size() + " points, the data has "
                    + index.size());
        }
        if (!backend.readsBlockWidth(index.blockWidth())) {
            throw new IllegalArgumentException("index built for block width " + index.blockWidth() + ", backend "
                    + backend.name() + " reads " + backend.blockWidth());
        }
        int n = index.size();
        if (n <= 1) return SpanningTree.wrap(n, new int[0], new int[0], new double[0]);
        ParallelWork work = new ParallelWork(threads);
        BoruvkaRun run = new BoruvkaRun(index, cd, backend, alpha, shortcuts, boundPruning, axisBounds, work);
        return run.run(progress, cancel);
    }

    /**
     * Parameters of {@link BoruvkaMst}. Defaults: alpha 1.0, 1 thread, {@link KernelProvider#bestDistance()}, pruning on.
     *
     * <pre>{@code
     * BoruvkaMst mst = BoruvkaMst.builder().threads(2).build();
     * }</pre>
     */
    public static final class Builder {
        private double alpha = 1.0;
        private int threads = 1;
        private DistanceKernel backend = KernelProvider.get().bestDistance();
        private boolean shortcuts = true;
        private boolean boundPruning = true;
        private boolean axisBounds = true;

        private Builder() {
        }

        /** The mutual-reachability scale: distances are divided by {@code alpha} (> 0; 1.0 = no division). */
        public Builder alpha(double alpha) {
            if (!(alpha > 0) || Double.isInfinite(alpha)) {
                throw new InvalidInputException("alpha must be a finite number > 0, got " + alpha);
            }
            this.alpha = alpha;
            return this;
        }

        public Builder threads(int threads) {
            if (threads < 1) throw new InvalidInputException("threads must be >= 1, got " + threads);
            this.threads = threads;
            return this;
        }

        public Builder backend(DistanceKernel backend) {
            if (backend == null) throw new InvalidInputException("backend is null");
            this.backend = backend;
            return this;
        }

        /**
         * Exact pruning on (default) or off. Off means every point is compared with every point of the
         * other components in every round (no neighbour edges, no bounds): slow, for proving the pruned
         * tree identical.
         */
        public Builder pruning(boolean on) {
            this.shortcuts = on;
            this.boundPruning = on;
            return this;
        }

        /**
         * Whether the scans may also bound distances along a few principal axes ({@link ProjectedIndex};
         * default on, and only with pruning on). The tree is the same either way; the axes cut the work of
         * the last rounds, where the components are whole clusters, but building them and compiling their
         * code is a cost of its own in a fresh JVM, so the CPU engine leaves them off for small
         * inputs in a one-shot run.
         */
        public Builder axisBounds(boolean on) {
            this.axisBounds = on;
            return this;
        }

        /** Only the two neighbour-list shortcuts on or off (tests). */
        Builder shortcuts(boolean on) {
            this.shortcuts = on;
            return this;
        }

        /** Only the ball/bound skipping of the scan on or off (tests). */
        Builder boundPruning(boolean on) {
            this.boundPruning = on;
            return this;
        }

        public BoruvkaMst build() {
            return new BoruvkaMst(this);
        }
    }
}
