package org.sylva.hdbscan.core;

/**
 * The exact nearest lists of one slice of an index's leaves: what one task of a distributed engine
 * computes ({@link CoreDistances#slice}) and the driver puts together again
 * ({@link CoreDistances#fromSlices}). Each list holds {@code k} entries ordered by (distance, original
 * index), the same lists {@link CoreDistances#compute} keeps for those points, so slices assembled over
 * any split of the leaves give bitwise the same core distances.
 *
 * <pre>{@code
 * NearestSlice s = CoreDistances.slice(index, 20, kernel, 0, index.leaves() / 2, 1, CancellationToken.NEVER);
 * int first = s.points()[0];   // an original point index; its list is neighbours()[0 .. k-1]
 * }</pre>
 *
 * @param k entries per list
 * @param points the original indices of the slice's points, one per list
 * @param neighbours {@code points.length * k} original indices, row-major
 * @param distances {@code points.length * k} distances, row-major
 */
public record NearestSlice(int k, int[] points, int[] neighbours, double[] distances) {
    public NearestSlice {
        if (k < 0 || (long) points.length * k != neighbours.length || neighbours.length != distances.length) {
            throw new IllegalArgumentException("nearest slice: " + points.length + " points of " + k
                    + " entries, got " + neighbours.length + " and " + distances.length);
        }
    }
}
