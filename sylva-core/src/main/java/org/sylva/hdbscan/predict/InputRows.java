package org.sylva.hdbscan.predict;

import java.util.Arrays;

/**
 * How a model's points and fitted rows map back to the rows of the input it was fitted on: the identity,
 * unless the non-finite policy or a sample weight of 0 left rows out, whose labels (-1 for a weight of 0,
 * -2 for an infinity, -3 for NaN) are kept in row order; and, after a weighted fit, each fitted row stands
 * for as many points of the trees as its weight ({@link PointCopies}) and reports its first point's
 * values. Everything a model reports per input row goes through here, so the rules for left-out rows and
 * copies live in one place.
 *
 * <pre>{@code
 * InputRows r = new InputRows(5, 4, new int[] {0, 1, 3, 4}, new int[] {-3}, null);
 * int[] labels = r.labels(new int[] {0, 0, 1, -1});   // {0, 0, -3, 1, -1}
 * }</pre>
 */
final class InputRows {
    private final int total;
    private final int n;
    /** The input row of each fitted row, strictly increasing; null for the identity. */
    private final int[] fittedRows;
    /** The label (-1 weight 0, -2 infinity, -3 NaN) of each left-out input row, in row order; null when none or unknown. */
    private final int[] leftOut;
    /** The points of each fitted row after a weighted fit; null when each fitted row is one point. */
    private final PointCopies copies;

    /** Takes the arrays as they are (callers pass fresh ones); {@code copies}: null unless the fit was weighted. */
    InputRows(int total, int n, int[] fittedRows, int[] leftOut, PointCopies copies) {
        this.total = total;
        this.n = n;
        this.fittedRows = fittedRows;
        this.leftOut = leftOut;
        this.copies = copies;
    }

    /** The copies of the fitted rows after a weighted fit, or null. */
    PointCopies copies() {
        return copies;
    }

    /** Number of input rows. */
    int total() {
        return total;
    }

    /** The input row of fitted row {@code fitted}. */
    int inputRow(int fitted) {
        return fittedRows == null ? fitted : fittedRows[fitted];
    }

    /** The input row of point {@code p} of the trees (its fitted row's, after a weighted fit). */
    int inputRowOfPoint(int p) {
        return inputRow(copies == null ? p : copies.rowOf(p));
    }

    /** Input row of each fitted row (a fresh array). */
    int[] fittedRows() {
        if (fittedRows != null) return fittedRows.clone();
        int[] r = new int[n];
        for (int i = 0; i < n; i++) r[i] = i;
        return r;
    }

    /** The mapping as held (null for the identity), for a model derived from this one. */
    int[] fittedRowsShared() {
        return fittedRows;
    }

    /** Labels of the rows left out (-1 / -2 / -3), in row order; null when none or unknown. */
    int[] leftOutShared() {
        return leftOut;
    }

    /**
     * One label per input row from one per point of the trees: the fitted rows' labels (their first points'),
     * -1 / -2 / -3 for the rows left out (-2 when unknown); {@code points} itself when no row was left out or
     * repeated.
     */
    int[] labels(int[] points) {
        int[] fitted = copies == null ? points : copies.firstOf(points);
        if (fittedRows == null) return fitted;
        int[] out = new int[total];
        int k = 0;
        for (int i = 0, f = 0; i < total; i++) {
            if (f < n && fittedRows[f] == i) out[i] = fitted[f++];
            else out[i] = leftOut == null ? -2 : leftOut[k++];
        }
        return out;
    }

    /**
     * One value per input row from one per point of the trees: the fitted rows' values (their first points'),
     * NaN for rows left out for NaN, {@code otherValue} for the other rows left out (an infinity, a weight of 0).
     */
    double[] values(double[] points, double otherValue) {
        double[] fitted = copies == null ? points : copies.firstOf(points);
        if (fittedRows == null) return fitted;
        double[] out = new double[total];
        int k = 0;
        for (int i = 0, f = 0; i < total; i++) {
            if (f < n && fittedRows[f] == i) out[i] = fitted[f++];
            else out[i] = leftOut != null && leftOut[k++] == -3 ? Double.NaN : otherValue;
        }
        return out;
    }

    /** {@code k} values per input row from {@code k} per fitted row (not per point), NaN for the rows left out ({@code fitted} itself when no row was). */
    double[] rowsOf(double[] fitted, int k) {
        if (fittedRows == null) return fitted;
        double[] all = new double[total * k];
        Arrays.fill(all, Double.NaN);
        for (int i = 0; i < n; i++) System.arraycopy(fitted, i * k, all, fittedRows[i] * k, k);
        return all;
    }
}
