/**
 * HDBSCAN's second stage: the minimum spanning tree of the mutual-reachability distance by Borůvka
 * rounds ({@link org.sylva.hdbscan.mst.BoruvkaMst}), under the one tie order every engine uses
 * ({@link org.sylva.hdbscan.mst.EdgeOrder}: weight, then lower row, then higher row); the exact pruning
 * rules of a round are stated in {@code BoruvkaMst}'s description. Its result,
 * {@link org.sylva.hdbscan.mst.SpanningTree}, is part of the API ({@code HdbscanResult.spanningTree()}).
 *
 * <p>The rest is internal: public for Sylva's engines (GPU, Spark) and tests; no compatibility promise
 * across versions.
 */
package org.sylva.hdbscan.mst;
