/**
 * The hot loops, in one home: distance kernels for HDBSCAN's neighbour search and spanning tree
 * ({@link org.sylva.kernels.DistanceKernel}) and for the other metrics ({@link org.sylva.kernels.MetricKernel}), partition and median kernels for the ball tree
 * ({@link org.sylva.kernels.PartitionKernel}, {@link org.sylva.kernels.LaneSubtrees}), each a scalar
 * class and a Vector API twin with bitwise the same results, chosen once at start-up by
 * {@link org.sylva.kernels.KernelProvider}.
 *
 * <p>Internal: public so that Sylva's other modules and its tests reach it; no compatibility promise
 * across versions. A library user chooses kernels through {@code Hdbscan.Builder.backend} and
 * {@code BallTreeBuilder.vectorKernels}.
 */
package org.sylva.kernels;
