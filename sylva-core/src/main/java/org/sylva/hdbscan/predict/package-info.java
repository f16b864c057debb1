/**
 * Prediction and soft clustering for a fitted HDBSCAN, with the semantics of the {@code hdbscan}
 * package's prediction module (0.8.43), and the saved model. {@link org.sylva.hdbscan.predict.HdbscanModel}
 * is the public face: made from a result and its points (or a condensed tree computed elsewhere), it
 * answers {@code approximatePredict} ({@link org.sylva.hdbscan.predict.Prediction}), {@code membershipVector}
 * and {@code allPointsMembershipVectors} ({@link org.sylva.hdbscan.predict.Membership}), and saves and
 * loads itself ({@code ModelFile}). Behind it, one class per step: {@code NewPoints} (checked, projected where
 * the model holds principal components, and ordered by leaf) → {@code NeighbourSearch} (exact k nearest
 * fitted points of a new point, each leaf's distances from the index's distance kernel) → {@code Connector}
 * (its connecting point and lambda) →
 * {@code HardAssignment} (label, probability, outlier score) and {@code SoftAssignment} (membership
 * vectors, with {@code Exemplars} and {@link org.sylva.numeric.NumpySum}), all reading the condensed tree through
 * {@code ClusterTree}.
 *
 * <pre>{@code
 * HdbscanModel model = HdbscanModel.of(Hdbscan.builder().minClusterSize(20).build().fit(points), points);
 * Prediction p = model.approximatePredict(newPoints);
 * }</pre>
 */
package org.sylva.hdbscan.predict;
