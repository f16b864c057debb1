/**
 * The partition tree over the points that the neighbour search and the spanning tree prune with
 * ({@link org.sylva.hdbscan.index.PointIndex}), its parallel build, and the principal-axis copy whose
 * partial sums bound distances from below.
 *
 * <p>Internal: public for Sylva's engines and tests; no compatibility promise across versions.
 */
package org.sylva.hdbscan.index;
