package org.sylva.hdbscan.predict;

import org.sylva.data.InvalidInputException;

/**
 * How the points of a weighted fit map to the rows a model stores: stored row {@code r} of weight
 * {@code w} stands for {@code w} consecutive points of the fit's trees (those of
 * {@code np.repeat(rows, w, axis=0)}), so a model keeps each row's coordinates once while its condensed and
 * spanning trees number every copy. Because the copies of a row are consecutive and the rows are in order,
 * the order (distance, point) of a neighbour list over the copies is the order (distance, row) of the rows,
 * each row's copies in a run: {@link Connector} expands a list of rows into a list of points that way.
 * Everything a model reports per row is read from the row's first copy (the copies of a row agree: they
 * join each other before anything else and leave their clusters together).
 *
 * <pre>{@code
 * PointCopies c = PointCopies.of(new int[] {2, 1, 3});    // points 0-1: row 0, point 2: row 1, points 3-5: row 2
 * int r = c.rowOf(4);                                      // 2
 * int first = c.first(2);                                  // 3
 * }</pre>
 */
final class PointCopies {
    /** Per row: its first point; {@code start[rows]} is the number of points. */
    private final int[] start;
    /** Per point: its row. */
    private final int[] rowOf;

    private PointCopies(int[] start, int[] rowOf) {
        this.start = start;
        this.rowOf = rowOf;
    }

    /**
     * The copies of rows of the given weights (each at least 1, summing to at most {@code Integer.MAX_VALUE}).
     *
     * @throws InvalidInputException for a weight below 1 or a sum beyond an int
     */
    static PointCopies of(int[] weights) {
        int[] start = new int[weights.length + 1];
        long sum = 0;
        for (int r = 0; r < weights.length; r++) {
            if (weights[r] < 1) {
                throw new InvalidInputException("stored row " + r + " has weight " + weights[r] + " (at least 1 expected)");
            }
            sum += weights[r];
            if (sum > Integer.MAX_VALUE - 8) throw new InvalidInputException("the weights sum to more than an array holds");
            start[r + 1] = (int) sum;
        }
        int[] rowOf = new int[(int) sum];
        for (int r = 0; r < weights.length; r++) java.util.Arrays.fill(rowOf, start[r], start[r + 1], r);
        return new PointCopies(start, rowOf);
    }

    /** Number of rows. */
    int rows() {
        return start.length - 1;
    }

    /** Number of points: the weights summed. */
    int points() {
        return start[start.length - 1];
    }

    /** The row of point {@code p}. */
    int rowOf(int p) {
        return rowOf[p];
    }

    /** The first point of row {@code r}. */
    int first(int r) {
        return start[r];
    }

    /** The weight of row {@code r}: its number of points. */
    int weight(int r) {
        return start[r + 1] - start[r];
    }

    /** The weight of each row (a fresh array). */
    int[] weights() {
        int[] w = new int[rows()];
        for (int r = 0; r < w.length; r++) w[r] = weight(r);
        return w;
    }

    /** One value per row from one per point: each row's first point's. */
    int[] firstOf(int[] perPoint) {
        int[] out = new int[rows()];
        for (int r = 0; r < out.length; r++) out[r] = perPoint[start[r]];
        return out;
    }

    /** One value per row from one per point: each row's first point's. */
    double[] firstOf(double[] perPoint) {
        double[] out = new double[rows()];
        for (int r = 0; r < out.length; r++) out[r] = perPoint[start[r]];
        return out;
    }

    /** One value per point from one per row: each copy takes its row's. */
    double[] expand(double[] perRow) {
        double[] out = new double[points()];
        for (int r = 0; r < perRow.length; r++) java.util.Arrays.fill(out, start[r], start[r + 1], perRow[r]);
        return out;
    }
}
