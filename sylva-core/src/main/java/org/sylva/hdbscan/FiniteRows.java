package org.sylva.hdbscan;

import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;

/**
 * Which input rows take part in a fit. Under {@link NonFinitePolicy#REJECT} all of them (after checking
 * that every coordinate is finite); under {@link NonFinitePolicy#SKLEARN} the finite ones, with the
 * labels scikit-learn gives the others (-2 for a row with an infinity, -3 for a row with NaN).
 */
final class FiniteRows {
    /** Original row index of each fitted row; null means the identity. */
    private final int[] fitted;
    /** Per original row: 0 = fitted, -2 = infinite, -3 = NaN. Null means all fitted. */
    private final byte[] excludedLabel;

    private FiniteRows(int[] fitted, byte[] excludedLabel) {
        this.fitted = fitted;
        this.excludedLabel = excludedLabel;
    }

    static FiniteRows of(PointSet points, NonFinitePolicy policy) {
        if (policy == NonFinitePolicy.REJECT) {
            points.requireFinite();
            return new FiniteRows(null, null);
        }
        if (points.firstNonFinite() < 0) return new FiniteRows(null, null);
        int n = points.size(), d = points.dimensions();
        float[] c = points.coordinates();
        byte[] label = new byte[n];
        for (int i = 0; i < n; i++) {
            boolean nan = false, inf = false;
            for (int j = 0; j < d; j++) {
                float v = c[i * d + j];
                nan |= Float.isNaN(v);
                inf |= Float.isInfinite(v);
            }
            label[i] = (byte) (nan ? -3 : inf ? -2 : 0);
        }
        return fromLabels(label);
    }

    static FiniteRows of(double[] c, int n, int d, NonFinitePolicy policy) {
        byte[] label = null;
        for (int i = 0; i < n; i++) {
            boolean nan = false, inf = false;
            for (int j = 0; j < d; j++) {
                double v = c[i * d + j];
                nan |= Double.isNaN(v);
                inf |= Double.isInfinite(v);
            }
            if (!nan && !inf) continue;
            if (policy == NonFinitePolicy.REJECT) {
                int j = 0;
                while (j < d - 1 && Double.isFinite(c[i * d + j])) j++;
                throw new InvalidInputException("point " + i + ", coordinate " + j + " is " + c[i * d + j]
                        + " (NaN and infinite coordinates are not allowed)");
            }
            if (label == null) label = new byte[n];
            label[i] = (byte) (nan ? -3 : -2);
        }
        return label == null ? new FiniteRows(null, null) : fromLabels(label);
    }

    private static FiniteRows fromLabels(byte[] label) {
        int kept = 0;
        for (byte b : label) if (b == 0) kept++;
        int[] fitted = new int[kept];
        int k = 0;
        for (int i = 0; i < label.length; i++) if (label[i] == 0) fitted[k++] = i;
        return new FiniteRows(fitted, label);
    }

    /** The fitted rows as float64, row-major (a fresh array). */
    double[] fittedRows(PointSet all) {
        float[] c = all.coordinates();
        int d = all.dimensions();
        if (fitted == null) {
            double[] r = new double[c.length];
            for (int i = 0; i < c.length; i++) r[i] = c[i];
            return r;
        }
        double[] r = new double[fitted.length * d];
        for (int k = 0; k < fitted.length; k++) {
            for (int j = 0; j < d; j++) r[k * d + j] = c[fitted[k] * d + j];
        }
        return r;
    }

    /** The fitted rows of a float64 input (the input itself when all rows take part). */
    double[] fittedRows(double[] c, int d) {
        if (fitted == null) return c;
        double[] r = new double[fitted.length * d];
        for (int k = 0; k < fitted.length; k++) System.arraycopy(c, fitted[k] * d, r, k * d, d);
        return r;
    }

    int fittedCount(int total) {
        return fitted == null ? total : fitted.length;
    }

    boolean identity() {
        return fitted == null;
    }

    /** Original row indices of the fitted rows (a fresh array). */
    int[] fittedRows(int total) {
        if (fitted != null) return fitted.clone();
        int[] r = new int[total];
        for (int i = 0; i < total; i++) r[i] = i;
        return r;
    }

    String describeCount(int total, int fittedCount) {
        if (fitted == null) return "samples in X (" + total + ")";
        return "finite samples in X (" + fittedCount + " of " + total + " rows; the others hold NaN or an infinity)";
    }

    int[] expandLabels(int[] fittedLabels, int total) {
        if (fitted == null) return fittedLabels;
        int[] out = new int[total];
        for (int i = 0; i < total; i++) out[i] = excludedLabel[i];
        for (int k = 0; k < fitted.length; k++) out[fitted[k]] = fittedLabels[k];
        return out;
    }

    /** Scatters per-fitted-row values; excluded rows get {@code infValue} (row with an infinity) or {@code nanValue}. */
    double[] expand(double[] fittedValues, int total, double infValue, double nanValue) {
        if (fitted == null) return fittedValues;
        double[] out = new double[total];
        for (int i = 0; i < total; i++) out[i] = excludedLabel[i] == -2 ? infValue : nanValue;
        for (int k = 0; k < fitted.length; k++) out[fitted[k]] = fittedValues[k];
        return out;
    }
}
