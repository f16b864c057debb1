/**
 * How work runs on threads: {@link org.sylva.parallel.Execution} (threads, progress, cancellation of
 * one job), the shared fork-join pools ({@link org.sylva.parallel.Pools}) and the two schedulers the
 * engines use ({@link org.sylva.parallel.ParallelWork}, {@link org.sylva.parallel.SplitScheduler}).
 * Results never depend on the thread count: work is split into fixed units whose results are combined
 * in a fixed order.
 *
 * <p>{@code Execution} is part of the API (methods that take one); the rest is internal, public for
 * Sylva's other modules, with no compatibility promise across versions.
 */
package org.sylva.parallel;
