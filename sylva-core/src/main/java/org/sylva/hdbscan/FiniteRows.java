package org.sylva.hdbscan;

import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;

/**
 * Which input rows take part in a fit, and as how many points. Under {@link NonFinitePolicy#REJECT} all
 * rows take part (after checking that every coordinate is finite); under {@link NonFinitePolicy#SKLEARN}
 * the finite ones, with the labels scikit-learn gives the others (-2 for a row with an infinity, -3 for a
 * row with NaN). scikit-learn tells them apart by each row's sum, so a row with both +inf and -inf, whose
 * sum is NaN, is a NaN row too. With {@link SampleWeights}, a row of weight {@code w} takes part as {@code w} consecutive
 * points (those of {@code np.repeat(X, w, axis=0)}) and a row of weight 0 not at all (label -1).
 *
 * <p>The trees of a result index the <em>points</em>; per-row outputs are read from each taking row's
 * first point (its copies agree: see {@link Hdbscan#fit(PointSet, SampleWeights,
 * org.sylva.progress.ProgressListener, org.sylva.progress.CancellationToken)}).
 */
final class FiniteRows {
    /** Label of a finite row left out by a weight of 0. */
    static final byte ZERO_WEIGHT = -1;

    /** Input row of each taking row, strictly increasing; null means every row takes part. */
    private final int[] taking;
    /** Points of each taking row; null means one each. */
    private final int[] copies;
    /** Per input row: 0 = takes part, -1 = weight 0, -2 = infinite, -3 = NaN. Null means all take part. */
    private final byte[] excludedLabel;
    /** Number of points: the taking rows' copies summed. */
    private final int points;

    private FiniteRows(int[] taking, int[] copies, byte[] excludedLabel, int points) {
        this.taking = taking;
        this.copies = copies;
        this.excludedLabel = excludedLabel;
        this.points = points;
    }

    static FiniteRows all(int n) {
        return new FiniteRows(null, null, null, n);
    }

    static FiniteRows of(PointSet points, NonFinitePolicy policy) {
        int n = points.size(), d = points.dimensions();
        if (policy == NonFinitePolicy.REJECT) {
            points.requireFinite();
            return all(n);
        }
        if (points.firstNonFinite() < 0) return all(n);
        float[] c = points.coordinates();
        byte[] label = new byte[n];
        for (int i = 0; i < n; i++) {
            boolean nan = false, plus = false, minus = false;
            for (int j = 0; j < d; j++) {
                float v = c[i * d + j];
                nan |= Float.isNaN(v);
                plus |= v == Float.POSITIVE_INFINITY;
                minus |= v == Float.NEGATIVE_INFINITY;
            }
            label[i] = label(nan, plus, minus);
        }
        return fromLabels(label, null);
    }

    static FiniteRows of(double[] c, int n, int d, NonFinitePolicy policy) {
        byte[] label = null;
        for (int i = 0; i < n; i++) {
            boolean nan = false, plus = false, minus = false;
            for (int j = 0; j < d; j++) {
                double v = c[i * d + j];
                nan |= Double.isNaN(v);
                plus |= v == Double.POSITIVE_INFINITY;
                minus |= v == Double.NEGATIVE_INFINITY;
            }
            if (!nan && !plus && !minus) continue;
            if (policy == NonFinitePolicy.REJECT) {
                int j = 0;
                while (j < d - 1 && Double.isFinite(c[i * d + j])) j++;
                throw new InvalidInputException("point " + i + ", coordinate " + j + " is " + c[i * d + j]
                        + " (NaN and infinite coordinates are not allowed)");
            }
            if (label == null) label = new byte[n];
            label[i] = label(nan, plus, minus);
        }
        return label == null ? all(n) : fromLabels(label, null);
    }

    /**
     * A row's label under scikit-learn's rule, which sums the row: -3 when the sum is NaN (a NaN, or both
     * infinities), -2 when it is infinite, 0 for a finite row.
     */
    private static byte label(boolean nan, boolean plus, boolean minus) {
        return (byte) (nan || plus && minus ? -3 : plus || minus ? -2 : 0);
    }

    /**
     * The rows of a fit that took the input rows {@code fittedRows} (strictly increasing, one point each) of
     * {@code total}; {@code rowLabels} gives, per input row, the label of each row left out (-2 infinity, -3 NaN).
     * For a result rebuilt from a model ({@link HdbscanResult#of(org.sylva.hdbscan.predict.HdbscanModel,
     * org.sylva.parallel.Execution)}).
     */
    static FiniteRows leavingOut(int total, int[] fittedRows, int[] rowLabels) {
        return leavingOut(total, fittedRows, rowLabels, null);
    }

    /**
     * As {@link #leavingOut(int, int[], int[])} after a weighted fit: {@code weights} holds one weight per input
     * row (0 for the rows left out, whose labels may then be -1 too); null: unweighted.
     */
    static FiniteRows leavingOut(int total, int[] fittedRows, int[] rowLabels, SampleWeights weights) {
        if (fittedRows.length == total && weights == null) return all(total);
        byte[] label = new byte[total];
        if (fittedRows.length < total) {
            for (int i = 0; i < total; i++) label[i] = (byte) rowLabels[i];
        }
        for (int r : fittedRows) label[r] = 0;
        return fromLabels(label, weights);
    }

    /** These rows with {@code weights} (one per input row): rows of weight 0 left out, the others copied. */
    FiniteRows weighted(SampleWeights weights, int total) {
        byte[] label = excludedLabel != null ? excludedLabel.clone() : new byte[total];
        for (int i = 0; i < total; i++) {
            if (label[i] == 0 && weights.weight(i) == 0) label[i] = ZERO_WEIGHT;
        }
        return fromLabels(label, weights);
    }

    private static FiniteRows fromLabels(byte[] label, SampleWeights weights) {
        int kept = 0;
        for (byte b : label) if (b == 0) kept++;
        int[] taking = new int[kept];
        int[] copies = weights == null ? null : new int[kept];
        long points = 0;
        int k = 0;
        for (int i = 0; i < label.length; i++) {
            if (label[i] != 0) continue;
            int w = weights == null ? 1 : weights.weight(i);
            if (copies != null) copies[k] = w;
            taking[k++] = i;
            points += w;
        }
        // SampleWeights caps the total, so the points fit an int
        return new FiniteRows(taking, copies, label, Math.toIntExact(points));
    }

    /** The taking rows as float64, row-major (a fresh array). */
    double[] fittedRows(PointSet all) {
        float[] c = all.coordinates();
        int d = all.dimensions();
        if (taking == null) {
            double[] r = new double[c.length];
            for (int i = 0; i < c.length; i++) r[i] = c[i];
            return r;
        }
        double[] r = new double[taking.length * d];
        for (int k = 0; k < taking.length; k++) {
            for (int j = 0; j < d; j++) r[k * d + j] = c[taking[k] * d + j];
        }
        return r;
    }

    /** The taking rows of a float64 input (the input itself when all rows take part). */
    double[] fittedRows(double[] c, int d) {
        if (taking == null) return c;
        double[] r = new double[taking.length * d];
        for (int k = 0; k < taking.length; k++) System.arraycopy(c, taking[k] * d, r, k * d, d);
        return r;
    }

    /** Number of rows that take part. */
    int takingCount(int total) {
        return taking == null ? total : taking.length;
    }

    /** Number of points the fit clusters (the taking rows' weights summed; the taking rows without weights). */
    int fittedCount(int total) {
        return taking == null ? total : points;
    }

    /** Points of each taking row (a fresh array), or null when each row is one point. */
    int[] copies() {
        return copies == null ? null : copies.clone();
    }

    /** Weight of each input row: its copies, 0 for rows left out (1 each without weights). */
    int[] rowWeights(int total) {
        int[] w = new int[total];
        if (taking == null) {
            java.util.Arrays.fill(w, 1);
            return w;
        }
        for (int k = 0; k < taking.length; k++) w[taking[k]] = copies == null ? 1 : copies[k];
        return w;
    }

    boolean isWeighted() {
        return copies != null;
    }

    /** Input row of each point (a fresh array; a weighted row repeats, once per copy). */
    int[] fittedRows(int total) {
        if (taking == null) {
            int[] r = new int[total];
            for (int i = 0; i < total; i++) r[i] = i;
            return r;
        }
        if (copies == null) return taking.clone();
        int[] r = new int[points];
        int p = 0;
        for (int k = 0; k < taking.length; k++) {
            for (int c = 0; c < copies[k]; c++) r[p++] = taking[k];
        }
        return r;
    }

    String describeCount(int total, int fittedCount) {
        if (taking == null) return "samples in X (" + total + ")";
        if (copies != null) {
            return "points (" + fittedCount + ": the sample weights summed over the " + taking.length + " rows that take part)";
        }
        return "finite samples in X (" + fittedCount + " of " + total + " rows; the others hold NaN or an infinity)";
    }

    /** One label per input row from one per point: a taking row's first point's; -1 / -2 / -3 for the others. */
    int[] expandLabels(int[] fittedLabels, int total) {
        if (taking == null) return fittedLabels;
        int[] out = new int[total];
        for (int i = 0; i < total; i++) out[i] = excludedLabel[i];
        int p = 0;
        for (int k = 0; k < taking.length; k++) {
            out[taking[k]] = fittedLabels[p];
            p += copies == null ? 1 : copies[k];
        }
        return out;
    }

    /**
     * One value per input row from one per point (a taking row's first point's); rows left out get
     * {@code zeroWeightValue} (weight 0), {@code infValue} (a row with an infinity) or {@code nanValue}.
     */
    double[] expand(double[] fittedValues, int total, double zeroWeightValue, double infValue, double nanValue) {
        if (taking == null) return fittedValues;
        double[] out = new double[total];
        for (int i = 0; i < total; i++) {
            out[i] = excludedLabel[i] == ZERO_WEIGHT ? zeroWeightValue : excludedLabel[i] == -2 ? infValue : nanValue;
        }
        int p = 0;
        for (int k = 0; k < taking.length; k++) {
            out[taking[k]] = fittedValues[p];
            p += copies == null ? 1 : copies[k];
        }
        return out;
    }
}
