/**
 * Where whole engines plug in at the stage level: an {@link org.sylva.hdbscan.engine.HdbscanEngine}
 * computes core distances and the spanning tree of {@link org.sylva.hdbscan.engine.FittedPoints}, bitwise
 * as the CPU engine ({@link org.sylva.hdbscan.engine.CpuHdbscanEngine}) does; the hierarchy and the
 * selection that follow are shared. Sylva's GPU and Spark modules implement it.
 *
 * <p>A service interface for engine authors, public for those modules; no compatibility promise across
 * versions yet. A library user gives an engine to {@code Hdbscan.Builder.engine} or none.
 */
package org.sylva.hdbscan.engine;
