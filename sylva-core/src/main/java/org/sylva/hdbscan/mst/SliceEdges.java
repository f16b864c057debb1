package org.sylva.hdbscan.mst;

/**
 * The cheapest edges one scan task found in a Borůvka round: at most one per component, the lightest under
 * {@link EdgeOrder} among the task's points of that component. Because the order is total, keeping the
 * lightest per component inside a task and again across tasks gives the same edge whatever the split.
 *
 * <pre>{@code
 * SliceEdges e = scanner.scan(state, from, to, cancel);
 * for (int i = 0; i < e.size(); i++) driver.offer(e.points()[i], e.weights()[i], e.others()[i]);
 * }</pre>
 *
 * @param points the edge's endpoint inside the component
 * @param weights the edge's mutual-reachability weight
 * @param others the endpoint in another component
 */
public record SliceEdges(int[] points, double[] weights, int[] others) {
    public SliceEdges {
        if (points.length != weights.length || points.length != others.length) {
            throw new IllegalArgumentException("slice edges: " + points.length + ", " + weights.length + ", "
                    + others.length);
        }
    }

    /** Number of edges. */
    public int size() {
        return points.length;
    }
}
