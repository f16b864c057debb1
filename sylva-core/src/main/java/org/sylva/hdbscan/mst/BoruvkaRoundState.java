package org.sylva.hdbscan.mst;

/**
 * What every scan of one Borůvka round needs to know, decided once by the round's owner
 * ({@link DistributedBoruvka}) and shipped to the tasks that scan slices of the points
 * ({@link BoruvkaSliceScan}): each point's component, each component's cheapest edge so far (after the
 * neighbour-list shortcut; a pruning bound, weight and {@link EdgeOrder#endpoints}, so that ties prune
 * too) and which points still need a scan.
 *
 * <pre>{@code
 * BoruvkaRoundState state = driver.startRound();
 * SliceEdges found = scanner.scan(state, 0, index.leaves(), CancellationToken.NEVER);
 * }</pre>
 *
 * @param components per point: its component's id (a point index)
 * @param componentWeights per component id: the weight of its cheapest edge so far (infinite when none)
 * @param componentEndpoints per component id: that edge's {@link EdgeOrder#endpoints}
 *                           ({@link EdgeOrder#NO_ENDPOINTS} when none)
 * @param active per point: true when its cheapest foreign edge must still be found by a scan
 */
public record BoruvkaRoundState(int[] components, double[] componentWeights, long[] componentEndpoints,
                                boolean[] active) {
    public BoruvkaRoundState {
        if (components.length != componentWeights.length || components.length != active.length
                || components.length != componentEndpoints.length) {
            throw new IllegalArgumentException("round state: " + components.length + " components, "
                    + componentWeights.length + " weights, " + componentEndpoints.length + " endpoints, "
                    + active.length + " flags");
        }
    }
}
