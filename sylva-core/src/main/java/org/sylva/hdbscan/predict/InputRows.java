package org.sylva.hdbscan.predict;

import java.util.Arrays;

/**
 * How a model's fitted rows map back to the rows of the input it was fitted on: the identity, unless the
 * non-finite policy left rows out, whose labels (-2 for an infinity, -3 for NaN) are kept in row order.
 * Everything a model reports per input row goes through here, so the rule for left-out rows lives in one
 * place.
 *
 * <pre>{@code
 * InputRows r = new InputRows(5, 4, new int[] {0, 1, 3, 4}, new int[] {-3});
 * int[] labels = r.labels(new int[] {0, 0, 1, -1});   // {0, 0, -3, 1, -1}
 * }</pre>
 */
final class InputRows {
    private final int total;
    private final int n;
    /** The input row of each fitted row, strictly increasing; null for the identity. */
    private final int[] fittedRows;
    /** The label (-2 infinity, -3 NaN) of each left-out input row, in row order; null when none or unknown. */
    private final int[] leftOut;

    /** Takes the arrays as they are (callers pass fresh ones). */
    InputRows(int total, int n, int[] fittedRows, int[] leftOut) {
        this.total = total;
        this.n = n;
        this.fittedRows = fittedRows;
        this.leftOut = leftOut;
    }

    /** Number of input rows. */
    int total() {
        return total;
    }

    /** The input row of fitted row {@code fitted}. */
    int inputRow(int fitted) {
        return fittedRows == null ? fitted : fittedRows[fitted];
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

    /** Labels of the rows left out (-2 / -3), in row order; null when none or unknown. */
    int[] leftOutShared() {
        return leftOut;
    }

    /** One label per input row: the fitted rows' labels, -2 / -3 for the rows left out (-2 when unknown); {@code fitted} itself when no row was. */
    int[] labels(int[] fitted) {
        if (fittedRows == null) return fitted;
        int[] out = new int[total];
        int k = 0;
        for (int i = 0, f = 0; i < total; i++) {
            if (f < n && fittedRows[f] == i) out[i] = fitted[f++];
            else out[i] = leftOut == null ? -2 : leftOut[k++];
        }
        return out;
    }

    /** One value per input row: the fitted rows' values, {@code infValue} / NaN for rows left out for an infinity / NaN. */
    double[] values(double[] fitted, double infValue) {
        if (fittedRows == null) return fitted;
        double[] out = new double[total];
        int k = 0;
        for (int i = 0, f = 0; i < total; i++) {
            if (f < n && fittedRows[f] == i) out[i] = fitted[f++];
            else out[i] = leftOut != null && leftOut[k++] == -3 ? Double.NaN : infValue;
        }
        return out;
    }

    /** {@code k} values per input row from {@code k} per fitted row, NaN for the rows left out ({@code fitted} itself when no row was). */
    double[] rowsOf(double[] fitted, int k) {
        if (fittedRows == null) return fitted;
        double[] all = new double[total * k];
        Arrays.fill(all, Double.NaN);
        for (int i = 0; i < n; i++) System.arraycopy(fitted, i * k, all, fittedRows[i] * k, k);
        return all;
    }
}
