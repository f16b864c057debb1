package org.sylva.data;

/**
 * An immutable set of {@code n} points in {@code d} dimensions, float32, stored row-major
 * ({@code coords[i * d + j]} is coordinate {@code j} of point {@code i}). Every algorithm in Sylva
 * reads its input through this type; arithmetic on the coordinates is always done in float64.
 *
 * <p>The constructor does not copy: {@link #of(int, int, float[])} validates shape and finiteness and
 * takes ownership of the array, so callers must not modify it afterwards.
 *
 * <pre>{@code
 * PointSet pts = PointSet.of(3, 2, new float[] {0f, 0f, 1f, 0f, 0f, 1f});
 * float y1 = pts.get(1, 1);   // 0f
 * }</pre>
 */
public final class PointSet {
    private final int n;
    private final int d;
    private final float[] coords;

    private PointSet(int n, int d, float[] coords) {
        this.n = n;
        this.d = d;
        this.coords = coords;
    }

    /**
     * Wraps {@code coords} (row-major, length {@code n * d}) after checking shape and that every
     * coordinate is finite. Throws {@link InvalidInputException} naming the first offending row and
     * column.
     */
    public static PointSet of(int n, int d, float[] coords) {
        PointSet p = unchecked(n, d, coords);
        p.requireFinite();
        return p;
    }

    /** Wraps without the finiteness check (shape is still checked); for callers that handle NaN themselves. */
    public static PointSet unchecked(int n, int d, float[] coords) {
        if (n < 0) throw new InvalidInputException("number of points must be >= 0, got " + n);
        if (d < 1) throw new InvalidInputException("points must have at least one dimension (d = " + d + ")");
        if (coords == null) throw new InvalidInputException("coordinate array is null");
        if ((long) n * d != coords.length) {
            throw new InvalidInputException("coordinate array has " + coords.length + " values, expected n * d = "
                    + n + " * " + d + " = " + ((long) n * d));
        }
        return new PointSet(n, d, coords);
    }

    /** Builds a point set from rows (all of the same length); convenient for tests and small data. */
    public static PointSet ofRows(float[][] rows) {
        if (rows.length == 0) throw new InvalidInputException("no rows given; use PointSet.of(0, d, new float[0])");
        int d = rows[0].length;
        float[] c = new float[rows.length * d];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != d) {
                throw new InvalidInputException("row " + i + " has " + rows[i].length + " values, row 0 has " + d);
            }
            System.arraycopy(rows[i], 0, c, i * d, d);
        }
        return of(rows.length, d, c);
    }

    /** Throws {@link InvalidInputException} naming the first row and column holding NaN or an infinity. */
    public void requireFinite() {
        int bad = firstNonFinite();
        if (bad >= 0) {
            int row = bad / d, col = bad % d;
            throw new InvalidInputException("point " + row + ", coordinate " + col + " is " + coords[bad]
                    + " (NaN and infinite coordinates are not allowed)");
        }
    }

    /** Index into the flat array of the first non-finite value, or -1. */
    public int firstNonFinite() {
        for (int i = 0; i < coords.length; i++) {
            if (!Float.isFinite(coords[i])) return i;
        }
        return -1;
    }

    public int size() {
        return n;
    }

    public int dimensions() {
        return d;
    }

    public float get(int row, int col) {
        return coords[row * d + col];
    }

    /**
     * The backing row-major array, shared, not copied: treat as read-only. Hot loops use it directly
     * to avoid a copy of the whole input.
     */
    public float[] coordinates() {
        return coords;
    }

    /** A copy of one row. */
    public float[] row(int i) {
        float[] r = new float[d];
        System.arraycopy(coords, i * d, r, 0, d);
        return r;
    }

    /** Squared Euclidean distance in float64, summed sequentially over the dimensions (the reference order). */
    public double squaredDistance(int a, int b) {
        double s = 0.0;
        int oa = a * d, ob = b * d;
        for (int j = 0; j < d; j++) {
            double t = (double) coords[oa + j] - (double) coords[ob + j];
            s += t * t;
        }
        return s;
    }

    /** The points in {@code rows}, in that order, as a new point set. */
    public PointSet select(int[] rows) {
        float[] c = new float[rows.length * d];
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(coords, rows[i] * d, c, i * d, d);
        }
        return new PointSet(rows.length, d, c);
    }

    @Override
    public String toString() {
        return "PointSet[n=" + n + ", d=" + d + "]";
    }
}
