/**
 * How a ball tree is built: the level-by-level passes over segments of the CPU engine
 * ({@link org.sylva.balltree.engine.CpuTreeEngine}, {@link org.sylva.balltree.engine.TreeBuild}), the
 * median selection with its tie order, and the interface a GPU engine implements
 * ({@link org.sylva.balltree.engine.TreeEngine}), bitwise the same trees.
 *
 * <p>Internal: public for Sylva's GPU module and tests; no compatibility promise across versions. A
 * library user builds trees with {@code org.sylva.balltree.BallTreeBuilder}.
 */
package org.sylva.balltree.engine;
