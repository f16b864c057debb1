package org.sylva.hdbscan.mst;

import org.sylva.hdbscan.core.CoreDistances;

/**
 * The owner's side of a Borůvka run whose scans happen elsewhere (on a cluster's executors): it keeps the
 * components, applies both exact shortcuts and leaves the largest scan out ({@link BoruvkaComponents}), hands each round's
 * {@link BoruvkaRoundState} to the scanning tasks ({@link BoruvkaSliceScan}), takes their
 * {@link SliceEdges} in any order and merges. The tree is the unique minimum spanning tree under
 * {@link EdgeOrder}, so it is bitwise the CPU engine's, whatever the number and split of the tasks.
 *
 * <pre>{@code
 * DistributedBoruvka owner = new DistributedBoruvka(coreDistances, 1.0);
 * while (owner.componentsLeft() > 1) {
 *     BoruvkaRoundState state = owner.startRound();
 *     for (SliceEdges e : scanEverySlice(state)) owner.offer(e);   // on executors
 *     owner.endRound();
 * }
 * SpanningTree tree = owner.tree();
 * }</pre>
 */
public final class DistributedBoruvka {
    private final int n;
    private final BoruvkaComponents components;
    private final int maxRounds;
    private int round;
    private int left;
    private boolean inRound;

    /** A run over the points of {@code cd} (its lists feed the neighbour shortcut); distances scale as {@code d / alpha}. */
    public DistributedBoruvka(CoreDistances cd, double alpha) {
        this.n = cd.size();
        this.components = new BoruvkaComponents(cd.coreDistances(), BoruvkaComponents.listsOf(cd), alpha);
        this.left = n;
        this.maxRounds = n <= 1 ? 0 : 33 - Integer.numberOfLeadingZeros(n - 1);
    }

    /** Components not yet joined; the run is finished at 1 (or 0 for an empty input). */
    public int componentsLeft() {
        return left;
    }

    /** Rounds started so far. */
    public int round() {
        return round;
    }

    /** Starts the next round: shortcuts applied, the state every scan task needs returned. */
    public BoruvkaRoundState startRound() {
        if (inRound) throw new IllegalStateException("round " + round + " has not ended");
        if (left <= 1) throw new IllegalStateException("the spanning tree is complete");
        if (round >= maxRounds) {
            throw new IllegalStateException("Borůvka did not finish in " + maxRounds + " rounds (" + left
                    + " components left)");
        }
        round++;
        inRound = true;
        components.startRound();
        boolean[] resolved = components.neighbourEdges();
        int[] comps = new int[n];
        components.componentsInto(comps);
        double[] weights = new double[n];
        long[] endpoints = new long[n];
        boolean[] active = new boolean[n];
        for (int p = 0; p < n; p++) {
            weights[p] = components.componentWeight(p);
            endpoints[p] = components.componentEndpoints(p);
            active[p] = components.needsScan(p, resolved);
        }
        components.leaveOutLargest(active);
        return new BoruvkaRoundState(comps, weights, endpoints, active);
    }

    /** Takes one task's edges (any order, any number of tasks). */
    public void offer(SliceEdges edges) {
        if (!inRound) throw new IllegalStateException("no round in progress");
        for (int i = 0; i < edges.size(); i++) {
            int p = edges.points()[i];
            int q = edges.others()[i];
            if (p < 0 || p >= n || q < 0 || q >= n) {
                throw new IllegalArgumentException("edge " + p + "-" + q + " outside 0.." + (n - 1));
            }
            components.offerPointEdge(p, edges.weights()[i], q);
        }
    }

    /** Adds every component's cheapest edge; returns how many were added. */
    public int endRound() {
        if (!inRound) throw new IllegalStateException("no round in progress");
        inRound = false;
        int added = components.merge();
        if (added == 0) {
            throw new IllegalStateException("Borůvka round " + round + " added no edge with " + left
                    + " components left");
        }
        left -= added;
        return added;
    }

    /** The finished tree, edges in {@link EdgeOrder}. */
    public SpanningTree tree() {
        if (left > 1) throw new IllegalStateException(left + " components left");
        return components.tree();
    }
}
