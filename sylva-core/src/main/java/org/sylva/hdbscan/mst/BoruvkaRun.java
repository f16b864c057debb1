package org.sylva.hdbscan.mst;

import java.util.Arrays;

import org.sylva.kernels.ApproximationBound;
import org.sylva.kernels.DistanceKernel;
import org.sylva.parallel.ParallelWork;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.index.ProjectedIndex;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * One execution of {@link BoruvkaMst} on the CPU: the round loop ({@link #run}) and each round's
 * preparation for the scan (which leaves are active, the component bounds the scanning threads share).
 * The components, the two exact shortcuts, the component a round leaves out, the merge and the final edge order are
 * {@link BoruvkaComponents}, which every engine shares; the scan of the remaining points is
 * {@link CheapestEdgeScan}. Arrays indexed by original point index unless named
 * {@code pos*} (by index position) or {@code node*} (by partition node).
 */
final class BoruvkaRun {

    final PointIndex idx;
    final CoreDistances cd;
    final DistanceKernel backend;
    final double alpha;
    final boolean divide;
    final boolean shortcuts;
    final boolean boundPruning;
    /** Whether the scans may use the principal-axis bounds ({@link ProjectedIndex}). */
    private final boolean axisBounds;
    /** The principal-axis bounds, built before the first scan; null when off or when they cannot help. */
    ProjectedIndex axes;
    private boolean axesTried;
    private final ParallelWork work;
    private final int n;
    private final int k;

    final double[] core;
    /** Components, cheapest edges, the shortcuts and the merge: shared with every engine. */
    final BoruvkaComponents components;

    final double[] posCore;
    /**
     * True when every leaf holds its points by ascending core distance
     * ({@link PointIndex#withLeavesOrderedBy}): a scan then reads only the prefix of a leaf whose core
     * distances are within its queries' bounds.
     */
    final boolean leavesByCore;
    final int[] posComp;
    final boolean[] posActive;
    /** Per point: whether this round scans it (the shortcuts and the left-out component decide). */
    private final boolean[] pointScan;
    final double[] nodeMinCore;
    /** The lowest original index under each node: with a tied weight, the earliest endpoints an edge into it may have. */
    final int[] nodeMinOrig;
    final int[] nodeComp;

    /** Per component (id = root): its cheapest edge so far, as a bound shared by the scanning threads. */
    final ComponentBounds compBound;

    private final int[] activeLeaves;
    private int activeLeafCount;

    private final CheapestEdgeScan scan;
    final boolean filtered;
    final double approxFactor;
    final double approxAbs;

    BoruvkaRun(PointIndex idx, CoreDistances cd, DistanceKernel backend, double alpha, boolean shortcuts,
               boolean boundPruning, ParallelWork work) {
        this(idx, cd, backend, alpha, shortcuts, boundPruning, boundPruning, work);
    }

    BoruvkaRun(PointIndex idx, CoreDistances cd, DistanceKernel backend, double alpha, boolean shortcuts,
               boolean boundPruning, boolean axisBounds, ParallelWork work) {
        this.idx = idx;
        this.cd = cd;
        this.backend = backend;
        this.alpha = alpha;
        this.divide = alpha != 1.0;
        this.shortcuts = shortcuts;
        this.boundPruning = boundPruning;
        this.axisBounds = boundPruning && axisBounds;
        this.work = work;
        this.n = idx.size();
        this.k = cd.k();
        core = cd.coreDistances();
        components = new BoruvkaComponents(core, BoruvkaComponents.listsOf(cd), alpha);
        int positions = idx.positions();
        posCore = new double[positions];
        posComp = new int[positions];
        posActive = new boolean[positions];
        pointScan = new boolean[n];
        Arrays.fill(posCore, Double.POSITIVE_INFINITY);
        Arrays.fill(posComp, -2);
        for (int p = 0; p < positions; p++) {
            int o = idx.original(p);
            if (o >= 0) posCore[p] = core[o];
        }
        boolean byCore = true;
        for (int leaf = 0; leaf < idx.leaves() && byCore; leaf++) {
            int s = idx.leafStart(leaf), c = idx.leafCount(leaf);
            for (int p = s + 1; p < s + c; p++) {
                if (posCore[p] < posCore[p - 1]) {
                    byCore = false;
                    break;
                }
            }
        }
        leavesByCore = byCore;
        int nodes = idx.nodes();
        nodeMinCore = new double[nodes];
        nodeMinOrig = new int[nodes];
        nodeComp = new int[nodes];
        for (int node = nodes - 1; node >= 0; node--) {
            int leaf = idx.leafOf(node);
            if (leaf >= 0) {
                double m = Double.POSITIVE_INFINITY;
                int mo = Integer.MAX_VALUE;
                int s = idx.leafStart(leaf), c = idx.leafCount(leaf);
                for (int p = s; p < s + c; p++) {   // a leaf's count covers its real points only
                    m = Math.min(m, posCore[p]);
                    mo = Math.min(mo, idx.original(p));
                }
                nodeMinCore[node] = m;
                nodeMinOrig[node] = mo;
            } else {
                nodeMinCore[node] = Math.min(nodeMinCore[idx.left(node)], nodeMinCore[idx.right(node)]);
                nodeMinOrig[node] = Math.min(nodeMinOrig[idx.left(node)], nodeMinOrig[idx.right(node)]);
            }
        }
        compBound = new ComponentBounds(n);
        activeLeaves = new int[idx.leaves()];
        filtered = boundPruning && backend.approximates() && idx.hasFloat32();
        ApproximationBound bound = ApproximationBound.of(idx.dimensions(), idx.float32Rounding());
        approxFactor = bound.factor();
        approxAbs = bound.absolute();
        scan = new CheapestEdgeScan(this, work.threads());
    }

    /** Tiles the scans left to the principal-axis screen so far (tests). */
    long screenedTiles() {
        return scan.screenedTiles();
    }

    /** Each point's cheapest edge found by the last scan: weight, or infinity when none was found. */
    double bestWeight(int p) {
        return components.bestW[p];
    }

    /** The other endpoint of {@link #bestWeight}'s edge, or {@link BoruvkaComponents#NONE}. */
    int bestOther(int p) {
        return components.bestQ[p];
    }

    SpanningTree run(ProgressListener progress, CancellationToken cancel) {
        int left = n;   // components
        int maxRounds = 33 - Integer.numberOfLeadingZeros(n - 1); // ceil(log2 n) + 1
        for (int round = 1; round <= maxRounds && left > 1; round++) {
            cancel.throwIfCancelled();
            prepareRound(cancel);
            String stage = BoruvkaMst.STAGE_PREFIX + round;
            scanPrepared(stage, progress, cancel);
            int added = components.merge();
            if (added == 0) throw new IllegalStateException("Borůvka round " + round + " added no edge with "
                    + left + " components left");
            left -= added;
        }
        if (left > 1) {
            throw new IllegalStateException("Borůvka did not finish in " + maxRounds + " rounds (" + left
                    + " components left)");
        }
        return components.tree();
    }

    // ------------------------------------------- round preparation (the lists and the per-point loops on the workers)

    private void prepareRound(CancellationToken cancel) {
        components.startRound();
        boolean[] resolved = shortcuts ? components.neighbourEdges(work, cancel) : null;
        work.ranges(n, PREPARE_CHUNK, cancel, (from, to) -> {
            for (int o = from; o < to; o++) pointScan[o] = !shortcuts || components.needsScan(o, resolved);
        });
        if (shortcuts) components.leaveOutLargest(pointScan);
        work.ranges(idx.positions(), PREPARE_CHUNK, cancel, (from, to) -> {
            for (int p = from; p < to; p++) {
                int o = idx.original(p);
                if (o < 0) continue;
                posComp[p] = components.component(o);
                posActive[p] = pointScan[o];
            }
        });
        work.ranges(n, PREPARE_CHUNK, cancel, (from, to) -> {
            for (int c = from; c < to; c++) {
                if (boundPruning) {
                    compBound.set(c, components.componentWeight(c), components.componentEndpoints(c));
                } else {
                    compBound.set(c, Double.POSITIVE_INFINITY, EdgeOrder.NO_ENDPOINTS);
                }
            }
        });
        prepareLeaves(0, idx.leaves());
    }

    /** Elements per unit of the preparation's parallel loops. */
    static final int PREPARE_CHUNK = 8192;

    /**
     * Prepares a round whose components, bounds and active points were decided elsewhere (a distributed
     * engine's driver, {@link DistributedBoruvka}), scanning only leaves {@code leafFrom .. leafTo-1}.
     */
    void prepareSlice(BoruvkaRoundState state, int leafFrom, int leafTo) {
        components.startRound();
        int[] comps = state.components();
        boolean[] active = state.active();
        int positions = idx.positions();
        for (int p = 0; p < positions; p++) {
            int o = idx.original(p);
            if (o < 0) continue;
            posComp[p] = comps[o];
            posActive[p] = active[o];
        }
        double[] weights = state.componentWeights();
        long[] endpoints = state.componentEndpoints();
        for (int c = 0; c < n; c++) {
            if (boundPruning) {
                compBound.set(c, weights[c], endpoints[c]);
            } else {
                compBound.set(c, Double.POSITIVE_INFINITY, EdgeOrder.NO_ENDPOINTS);
            }
        }
        prepareLeaves(leafFrom, leafTo);
    }

    /** Scans the active leaves chosen by the last preparation on this run's workers. */
    void scanPrepared(String stage, ProgressListener progress, CancellationToken cancel) {
        if (axisBounds && !axesTried && activeLeafCount > 0) {
            axes = ProjectedIndex.of(idx, work, cancel);
            axesTried = true;
            scan.useAxes(axes);
        }
        work.run(activeLeafCount, stage, progress, cancel, (worker, unit) -> scan.scanLeaf(worker, activeLeaves[unit]));
    }

    /** Node components (all nodes) and the active leaves among {@code leafFrom .. leafTo-1}. */
    private void prepareLeaves(int leafFrom, int leafTo) {
        int nodes = idx.nodes();
        activeLeafCount = 0;
        for (int node = nodes - 1; node >= 0; node--) {
            int leaf = idx.leafOf(node);
            if (leaf >= 0) {
                int s = idx.leafStart(leaf), cnt = idx.leafCount(leaf);
                int c0 = posComp[s];
                for (int p = s; p < s + cnt; p++) {
                    if (posComp[p] != c0) c0 = -1;
                }
                nodeComp[node] = c0;
            } else {
                int l = nodeComp[idx.left(node)], r = nodeComp[idx.right(node)];
                nodeComp[node] = l == r ? l : -1;
            }
        }
        for (int leaf = leafFrom; leaf < leafTo; leaf++) {
            int s = idx.leafStart(leaf), cnt = idx.leafCount(leaf);
            for (int p = s; p < s + cnt; p++) {
                if (posActive[p]) {
                    activeLeaves[activeLeafCount++] = leaf;
                    break;
                }
            }
        }
    }
}
