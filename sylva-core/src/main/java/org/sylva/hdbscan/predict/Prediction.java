package org.sylva.hdbscan.predict;

import java.util.Arrays;
import java.util.Objects;

/**
 * What {@link HdbscanModel#approximatePredict} says about each new point: its label among the fitted
 * clusters (-1 noise), its membership probability (0 for noise), its outlier score (GLOSH of a new point,
 * negative where it is denser than every fitted point of its cluster) and the input row of the fitted
 * point it connects to: the {@code hdbscan} package's {@code approximate_predict} (with
 * {@code return_connecting_points=True}) and {@code approximate_predict_scores}. Immutable: the arrays are
 * copied in and out.
 *
 * <pre>{@code
 * Prediction p = model.approximatePredict(newPoints);
 * int label = p.labels()[0];
 * double strength = p.probabilities()[0];
 * }</pre>
 *
 * @param labels label per new point, -1 for noise
 * @param probabilities membership probability per new point in [0, 1]
 * @param outlierScores outlier score per new point, at most 1 (may be negative)
 * @param connectingPoints input row of the fitted point each new point connects to
 */
public record Prediction(int[] labels, double[] probabilities, double[] outlierScores, int[] connectingPoints) {

    /** Copies the arrays; all four must have one entry per new point. */
    public Prediction {
        Objects.requireNonNull(labels, "labels");
        Objects.requireNonNull(probabilities, "probabilities");
        Objects.requireNonNull(outlierScores, "outlierScores");
        Objects.requireNonNull(connectingPoints, "connectingPoints");
        int m = labels.length;
        if (probabilities.length != m || outlierScores.length != m || connectingPoints.length != m) {
            throw new IllegalArgumentException("prediction arrays of lengths " + m + ", " + probabilities.length
                    + ", " + outlierScores.length + ", " + connectingPoints.length);
        }
        labels = labels.clone();
        probabilities = probabilities.clone();
        outlierScores = outlierScores.clone();
        connectingPoints = connectingPoints.clone();
    }

    @Override
    public int[] labels() {
        return labels.clone();
    }

    @Override
    public double[] probabilities() {
        return probabilities.clone();
    }

    @Override
    public double[] outlierScores() {
        return outlierScores.clone();
    }

    @Override
    public int[] connectingPoints() {
        return connectingPoints.clone();
    }

    /** Number of new points. */
    public int size() {
        return labels.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Prediction p && Arrays.equals(p.labels, labels) && Arrays.equals(p.probabilities, probabilities)
                && Arrays.equals(p.outlierScores, outlierScores) && Arrays.equals(p.connectingPoints, connectingPoints);
    }

    @Override
    public int hashCode() {
        return ((Arrays.hashCode(labels) * 31 + Arrays.hashCode(probabilities)) * 31
                + Arrays.hashCode(outlierScores)) * 31 + Arrays.hashCode(connectingPoints);
    }

    @Override
    public String toString() {
        int noise = 0;
        for (int l : labels) if (l < 0) noise++;
        return "Prediction[points=" + labels.length + ", noise=" + noise + "]";
    }
}
