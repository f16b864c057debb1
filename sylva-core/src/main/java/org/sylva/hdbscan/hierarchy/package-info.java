/**
 * The HDBSCAN* hierarchy on the host, from a spanning tree to a flat clustering, reproducing
 * scikit-learn (>= 1.3) and the {@code hdbscan} package (0.8.43) bit for bit on the same tree:
 * {@link org.sylva.hdbscan.hierarchy.SingleLinkageTree} (stable sort by weight + union-find, SciPy
 * layout) -> {@link org.sylva.hdbscan.hierarchy.CondensedTree} (minimum cluster size) ->
 * {@link org.sylva.hdbscan.hierarchy.ClusterSelector} (EOM or leaf, epsilon, maximum size, single
 * cluster) -> {@link org.sylva.hdbscan.hierarchy.Clustering}, and
 * {@link org.sylva.hdbscan.hierarchy.OutlierScores} (GLOSH). Every stage is O(n) or O(n log n),
 * iterative (no recursion, safe at any depth) and immutable, so a caller re-selects with another
 * method or epsilon from one condensed tree, or re-condenses with another minimum cluster size from
 * one single-linkage tree, without recomputing the spanning tree.
 *
 * <p>Where the two Python libraries differ, Sylva follows scikit-learn for the parameters scikit-learn
 * has: EOM stabilities in float64 (the {@code hdbscan} package rounds the children's sum to float32),
 * {@code max_cluster_size} "none" written as 0. Outputs only the {@code hdbscan} package has follow it:
 * {@code cluster_persistence_} and GLOSH ({@code outlier_scores_}, subtree maximum as after its PR
 * #697). Two deliberate departures, both documented where they apply: GLOSH is 1.0 where the Python
 * formula gives NaN ({@code inf / inf}, duplicate points), and single-cluster labelling treats a case
 * where scikit-learn raises a {@code KeyError} as the {@code hdbscan} package does (noise). With fewer
 * than two points every stage is empty and every point noise; with fewer points than the minimum
 * cluster size all points are noise, except that single-cluster EOM selects the root as scikit-learn
 * does.
 *
 * <pre>{@code
 * SingleLinkageTree slt = SingleLinkageTree.of(spanningTree.orientedFrom(0));   // as a fit does: its cluster numbers
 * CondensedTree ct = CondensedTree.condense(slt, 20);
 * Clustering labels = ClusterSelector.select(ct, SelectionParameters.defaults());
 * double[] glosh = OutlierScores.of(ct).scores();
 * }</pre>
 */
package org.sylva.hdbscan.hierarchy;
