package org.sylva.cli.report;

/**
 * The plane a report draws points in: the raw coordinates for one- and two-dimensional data (one
 * unit the same length on both axes), otherwise the first two principal components ({@link Pca}) of
 * at most {@link Pca#MAX_COLUMNS} evenly spaced coordinates, so that placing a point costs the same
 * whatever the dimension.
 */
final class Projection2D {
    private final Coordinates coords;
    private final int d;
    private final Pca.Fit fit;
    /** The rows the plane was fitted for (those drawn from). */
    private final int rowCount;

    /** Fits on rows {@code rows[0 .. count-1]} (only used when {@code d >= 3}). */
    Projection2D(Coordinates coords, int d, int[] rows, int count) {
        this.coords = coords;
        this.d = d;
        this.rowCount = count;
        this.fit = d >= 3 ? Pca.fit(coords, d, rows, count) : null;
    }

    /** The coordinates a row must have finite to be drawn: those the plane is made of. */
    static int[] columns(int d) {
        return d >= 3 ? Pca.columns(d) : Sampling.evenlySpaced(d, 2);
    }

    double x(int i) {
        return fit == null ? coords.at(i * d) : fit.project(coords, d, i, 0);
    }

    double y(int i) {
        return fit == null ? (d == 1 ? 0 : coords.at(i * d + 1)) : fit.project(coords, d, i, 1);
    }

    boolean isPca() {
        return fit != null;
    }

    /** Geometry is only faithful with equal axis units when the raw coordinates are drawn. */
    boolean equalAspect() {
        return fit == null && d == 2;
    }

    String xTitle() {
        return fit == null ? "x\u2080 (coordinate 0)" : "PC 1 (" + Fmt.fixed(fit.explained(0), 1) + " % of variance)";
    }

    String yTitle() {
        if (fit == null) return d == 1 ? "(one-dimensional data)" : "x\u2081 (coordinate 1)";
        return "PC 2 (" + Fmt.fixed(fit.explained(1), 1) + " % of variance)";
    }

    /** One sentence for the caption saying what the axes are. */
    String describe() {
        if (fit == null) {
            return d == 1 ? "The data are one-dimensional: points are drawn along the horizontal axis."
                    : "The data are two-dimensional: points are drawn at their own coordinates, one unit the same"
                    + " length on both axes.";
        }
        if (rowCount <= 1) {
            return rowCount == 1 ? "One point has no principal components: it is drawn at the origin."
                    : "No point has finite coordinates to draw.";
        }
        int w = fit.columns().length;
        String of = w == d ? "" : " of " + Fmt.count(w) + " of the " + Fmt.count(d)
                + " coordinates, evenly spaced (wider rows are sampled so that the report stays quick)";
        String rows = fit.rowsUsed() >= rowCount ? Fmt.count(fit.rowsUsed()) + " rows"
                : Fmt.count(fit.rowsUsed()) + " of the " + Fmt.count(rowCount) + " rows, evenly spaced,";
        return "Points projected on their first two principal components" + of + " (covariance of " + rows
                + " in float64; eigenvectors by Jacobi rotations, each signed so that its entry of largest magnitude"
                + " is positive); together they explain "
                + Fmt.fixed(fit.explained(0) + fit.explained(1), 1) + " % of the variance"
                + (w == d ? "." : " of those coordinates.");
    }
}
