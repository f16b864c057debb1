package org.sylva.data;

import java.util.Objects;

/**
 * A set of {@code n} points in {@code d} dimensions, float32 or float64, stored row-major
 * ({@code coords[i * d + j]} is coordinate {@code j} of point {@code i}). Every algorithm in Sylva
 * reads its input through this type; arithmetic on the coordinates is always done in float64.
 *
 * <p>A float64 set ({@link #ofFloat64}) is what scikit-learn clusters: {@code Hdbscan.fit} uses its
 * float64 values as they are. Consumers that work in float32 (the ball tree, whose reference is float32,
 * and the report's plots) read {@link #coordinates()}, for a float64 set a rounded copy made once.
 *
 * <p>The factories do not copy: {@link #of(int, int, float[])} and {@link #ofFloat64} validate shape
 * and finiteness and take ownership of the array, and {@link #coordinates()} / {@link #coordinates64()}
 * hand out that array. The set is immutable only while nobody writes into it: a caller who changes the
 * array afterwards changes every later answer computed from the set (a float64 fit detects a change made
 * during the fit and refuses its result). Copy the array first where that cannot be promised.
 *
 * <pre>{@code
 * PointSet pts = PointSet.of(3, 2, new float[] {0f, 0f, 1f, 0f, 0f, 1f});
 * float y1 = pts.get(1, 1);   // 0f
 * PointSet exact = PointSet.ofFloat64(2, 1, new double[] {0.1, 0.3});
 * double x = exact.getDouble(1, 0);   // 0.3, not rounded to float32
 * }</pre>
 */
public final class PointSet {
    private final int n;
    private final int d;
    /** The float32 coordinates: the data of a float32 set; for a float64 set, rounded on first use. */
    private volatile float[] coords;
    /** The data of a float64 set, {@code null} for a float32 set. */
    private final double[] coords64;

    private PointSet(int n, int d, float[] coords) {
        this.n = n;
        this.d = d;
        this.coords = coords;
        this.coords64 = null;
    }

    private PointSet(int n, int d, double[] coords64) {
        this.n = n;
        this.d = d;
        this.coords64 = coords64;
    }

    /**
     * Wraps float64 {@code coords} (row-major, length {@code n * d}) after checking shape and that every
     * coordinate is finite, naming the first offending row and column otherwise.
     */
    public static PointSet ofFloat64(int n, int d, double[] coords) {
        PointSet p = uncheckedFloat64(n, d, coords);
        p.requireFinite();
        return p;
    }

    /** As {@link #ofFloat64} without the finiteness check; for callers that handle NaN themselves. */
    public static PointSet uncheckedFloat64(int n, int d, double[] coords) {
        checkShape(n, d, coords == null ? -1 : coords.length);
        return new PointSet(n, d, coords);
    }

    /** True when the coordinates are float64 ({@link #ofFloat64}). */
    public boolean isFloat64() {
        return coords64 != null;
    }

    /**
     * The coordinates in float64: for a float64 set the backing array (shared: treat as read-only), for a
     * float32 set a widened copy (every float32 value is exactly a float64 value).
     */
    public double[] coordinates64() {
        if (coords64 != null) return coords64;
        float[] c = coords;
        double[] out = new double[c.length];
        for (int i = 0; i < c.length; i++) out[i] = c[i];
        return out;
    }

    /**
     * Coordinate {@code col} of point {@code row}, exactly (float64 sets are not rounded).
     *
     * @throws IndexOutOfBoundsException when {@code row} is not in {@code [0, n)} or {@code col} not in {@code [0, d)}
     */
    public double getDouble(int row, int col) {
        int at = index(row, col);
        return coords64 != null ? coords64[at] : coords[at];
    }

    /** The flat index of a coordinate, both indices checked: a column past the row's end must not read the next row. */
    private int index(int row, int col) {
        return Objects.checkIndex(row, n) * d + Objects.checkIndex(col, d);
    }

    private static void checkShape(int n, int d, long length) {
        if (n < 0) throw new InvalidInputException("number of points must be >= 0, got " + n);
        if (d < 1) throw new InvalidInputException("points must have at least one dimension (d = " + d + ")");
        if (length < 0) throw new InvalidInputException("coordinate array is null");
        if ((long) n * d != length) {
            throw new InvalidInputException("coordinate array has " + length + " values, expected n * d = "
                    + n + " * " + d + " = " + ((long) n * d));
        }
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
        checkShape(n, d, coords == null ? -1 : coords.length);
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
            Object value = coords64 != null ? (Object) coords64[bad] : (Object) coords[bad];
            throw new InvalidInputException("point " + row + ", coordinate " + col + " is " + value
                    + " (NaN and infinite coordinates are not allowed)");
        }
    }

    /**
     * As {@link #requireFinite()} for the float32 coordinates a float32 consumer reads ({@link #coordinates()}):
     * for a float64 set also refuses a finite value beyond float32's range, which rounds to an infinity,
     * naming the value itself.
     *
     * @param consumer what reads float32, for the message (e.g. {@code "the ball tree"})
     */
    public void requireFiniteFloat32(String consumer) {
        requireFinite();
        if (coords64 == null) return;
        float[] c = coordinates();
        for (int i = 0; i < c.length; i++) {
            if (!Float.isFinite(c[i])) {
                throw new InvalidInputException("point " + (i / d) + ", coordinate " + (i % d) + " is " + coords64[i]
                        + ", beyond float32's range (+-" + Float.MAX_VALUE + "), in which " + consumer + " works");
            }
        }
    }

    /** Index into the flat array of the first non-finite value, or -1. */
    public int firstNonFinite() {
        if (coords64 != null) {
            for (int i = 0; i < coords64.length; i++) {
                if (!Double.isFinite(coords64[i])) return i;
            }
            return -1;
        }
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

    /**
     * Coordinate {@code col} of point {@code row} in float32 (rounded for a float64 set; see {@link #getDouble}).
     *
     * @throws IndexOutOfBoundsException when {@code row} is not in {@code [0, n)} or {@code col} not in {@code [0, d)}
     */
    public float get(int row, int col) {
        int at = index(row, col);
        return coordinates()[at];
    }

    /**
     * The float32 row-major array, shared, not copied: treat as read-only. Hot loops use it directly
     * to avoid a copy of the whole input. For a float64 set: its values rounded to float32, computed once.
     */
    public float[] coordinates() {
        float[] c = coords;
        if (c == null) {
            c = new float[coords64.length];
            for (int i = 0; i < c.length; i++) c[i] = (float) coords64[i];
            coords = c;   // benign race: every thread computes the same array
        }
        return c;
    }

    /**
     * A copy of one row in float32 (rounded for a float64 set).
     *
     * @throws IndexOutOfBoundsException when {@code i} is not in {@code [0, n)}
     */
    public float[] row(int i) {
        Objects.checkIndex(i, n);
        float[] r = new float[d];
        System.arraycopy(coordinates(), i * d, r, 0, d);
        return r;
    }

    /** Squared Euclidean distance in float64, summed sequentially over the dimensions (the reference order). */
    public double squaredDistance(int a, int b) {
        int pa = Objects.checkIndex(a, n) * d, pb = Objects.checkIndex(b, n) * d;
        double s = 0.0;
        if (coords64 != null) {
            for (int j = 0; j < d; j++) {
                double t = coords64[pa + j] - coords64[pb + j];
                s += t * t;
            }
        } else {
            float[] c = coords;
            for (int j = 0; j < d; j++) {
                double t = (double) c[pa + j] - c[pb + j];
                s += t * t;
            }
        }
        return s;
    }

    /**
     * The points in {@code rows}, in that order, as a new point set.
     *
     * @throws IndexOutOfBoundsException naming the first entry of {@code rows} that is not in {@code [0, n)}
     */
    public PointSet select(int[] rows) {
        for (int i = 0; i < rows.length; i++) {
            if (rows[i] < 0 || rows[i] >= n) {
                throw new IndexOutOfBoundsException("rows[" + i + "] = " + rows[i] + " is not a row of " + n + " points");
            }
        }
        if (coords64 != null) {
            double[] c = new double[rows.length * d];
            for (int i = 0; i < rows.length; i++) System.arraycopy(coords64, rows[i] * d, c, i * d, d);
            return new PointSet(rows.length, d, c);
        }
        float[] c = new float[rows.length * d];
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(coords, rows[i] * d, c, i * d, d);
        }
        return new PointSet(rows.length, d, c);
    }

    @Override
    public String toString() {
        return "PointSet[n=" + n + ", d=" + d + (coords64 != null ? ", float64]" : "]");
    }
}
