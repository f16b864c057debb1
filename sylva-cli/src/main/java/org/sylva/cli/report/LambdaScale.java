package org.sylva.cli.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How the icicle plot maps λ (1 / distance) to height. A linear axis from 0, as the Python hdbscan
 * package draws it, wastes the height: no event of a real tree happens near λ = 0, and on
 * high-dimensional data, where all distances are alike, every split and every departure happens within a
 * few per cent of the largest λ, so the selected clusters end up squashed into the bottom of the plot.
 * This scale therefore runs from the tree's smallest positive λ (top) to its largest finite λ (bottom),
 * and is chosen deterministically from the rows and the selection:
 *
 * <ul>
 *   <li>{@link Kind#LOG} (log λ), unless on it the selected clusters take less than
 *       {@link #MIN_SELECTED_SHARE} of the height;
 *   <li>{@link Kind#RANK} otherwise (every finite row of the tree gets the same height, in order of λ),
 *       when that gives them more: e.g. a few near-duplicate points whose λ lies orders of magnitude
 *       beyond the clusters'.
 * </ul>
 *
 * The selected clusters' share is the height from the earliest birth of a selected cluster to the λ by
 * which 90 % of the points of the selected clusters (and of their sub-clusters) have left. λ = +inf
 * (exact duplicates) stays +inf: the plot clips it into its own band.
 */
final class LambdaScale {
    /** The two scales, as the axis title and the caption name them. */
    enum Kind { LOG, RANK }

    /** Least share of the height the selected clusters should take before the rank scale is tried. */
    static final double MIN_SELECTED_SHARE = 0.25;
    /** Most ticks on the axis. */
    private static final int MAX_TICKS = 8;

    /**
     * One tick: its height as a fraction of the finite axis (0 top, 1 bottom) and its label.
     *
     * @param position 0 .. 1, downward
     * @param label    the λ value, short
     */
    record Tick(double position, String label) {
    }

    final Kind kind;
    /** Smallest positive and largest finite λ: the ends of the axis. */
    final double lo;
    final double hi;
    /** Share of the height the selected clusters take on this scale (1 when none is selected). */
    final double selectedShare;
    /** Finite λ of every row, ascending (the rank scale). */
    private final double[] sorted;

    private LambdaScale(Kind kind, double lo, double hi, double[] sorted, double selectedShare) {
        this.kind = kind;
        this.lo = lo;
        this.hi = hi;
        this.sorted = sorted;
        this.selectedShare = selectedShare;
    }

    /** The scale for tree {@code t} with the selected clusters {@code selectedIds} (node ids). */
    static LambdaScale choose(CondensedTreeData t, long[] selectedIds) {
        double[] lam = t.lambda();
        double[] finite = Arrays.stream(lam).filter(Double::isFinite).sorted().toArray();
        double lo = Double.POSITIVE_INFINITY, hi = 0;
        for (double l : finite) {
            if (l > 0) lo = Math.min(lo, l);
            hi = Math.max(hi, l);
        }
        if (!(hi > 0)) hi = 1;
        if (!(lo < hi)) lo = hi / 10; // one λ level (or none): any monotone map will do
        double[] span = selectedSpan(t, selectedIds);
        LambdaScale log = new LambdaScale(Kind.LOG, lo, hi, finite, 1);
        if (span == null) return log;
        double logShare = log.position(span[1]) - log.position(span[0]);
        if (logShare < MIN_SELECTED_SHARE) {
            LambdaScale rank = new LambdaScale(Kind.RANK, lo, hi, finite, 1);
            double rankShare = rank.position(span[1]) - rank.position(span[0]);
            if (rankShare > logShare) return new LambdaScale(Kind.RANK, lo, hi, finite, rankShare);
        }
        return new LambdaScale(Kind.LOG, lo, hi, finite, logShare);
    }

    /**
     * The earliest birth λ of a selected cluster and the λ by which 90 % of the finite departures of
     * points from the selected subtrees have happened; null without a selected cluster or such a point.
     */
    private static double[] selectedSpan(CondensedTreeData t, long[] selectedIds) {
        if (selectedIds.length == 0 || t.rows() == 0) return null;
        int n = t.n(), clusters = t.clusterCount();
        int[] par = t.parent(), chi = t.child();
        double[] lam = t.lambda();
        int[] parentOf = new int[clusters];
        double[] birth = new double[clusters]; // the root is born at 0
        for (int r = 0; r < t.rows(); r++) {
            if (chi[r] >= n) {
                parentOf[chi[r] - n] = par[r] - n;
                birth[chi[r] - n] = lam[r];
            }
        }
        boolean[] selected = new boolean[clusters];
        double first = Double.POSITIVE_INFINITY;
        for (long id : selectedIds) {
            selected[(int) (id - n)] = true;
            first = Math.min(first, birth[(int) (id - n)]);
        }
        boolean[] inside = new boolean[clusters]; // children have larger ids than their parents
        for (int c = 0; c < clusters; c++) inside[c] = selected[c] || (c > 0 && inside[parentOf[c]]);
        double[] leave = new double[t.rows()];
        int m = 0;
        for (int r = 0; r < t.rows(); r++) {
            if (chi[r] < n && inside[par[r] - n] && Double.isFinite(lam[r])) leave[m++] = lam[r];
        }
        if (m == 0) return null;
        Arrays.sort(leave, 0, m);
        return new double[] {first, leave[(int) Math.floor(0.9 * (m - 1))]};
    }

    /** Height of {@code lambda} as a fraction of the finite axis: 0 at the top, 1 at the bottom; +inf stays +inf. */
    double position(double lambda) {
        if (lambda == Double.POSITIVE_INFINITY) return lambda;
        if (kind == Kind.LOG) {
            if (lambda <= lo) return 0;
            if (lambda >= hi) return 1;
            return Math.log(lambda / lo) / Math.log(hi / lo);
        }
        int m = sorted.length;
        if (m <= 1) return m == 1 && lambda >= sorted[0] ? 1 : 0;
        int below = lowerBound(sorted, lambda);
        return Math.min(1, (double) below / (m - 1));
    }

    /** {@link #position} of every value. */
    double[] positions(double[] lambda) {
        double[] p = new double[lambda.length];
        for (int i = 0; i < p.length; i++) p[i] = position(lambda[i]);
        return p;
    }

    /** The axis title: what λ is, which scale, which way it grows. */
    String title() {
        return "\u03bb = 1 / distance, " + (kind == Kind.LOG ? "log scale" : "by rank") + " (increasing downward)";
    }

    /**
     * The ticks: on the log scale 1, 2 and 5 times the powers of ten (or, within less than a factor of
     * ten, evenly spaced round values); on the rank scale the λ of every sixth of the rows. Labels are
     * as short as keeps them distinct.
     */
    List<Tick> ticks() {
        double[] values = kind == Kind.LOG ? logTickValues() : rankTickValues();
        List<Tick> ticks = new ArrayList<>();
        for (int sig = 2; sig <= 4; sig++) {
            ticks.clear();
            boolean distinct = true;
            for (double v : values) {
                String label = Fmt.compact(v, sig);
                if (!ticks.isEmpty() && ticks.getLast().label().equals(label)) {
                    distinct = false;
                    continue;
                }
                ticks.add(new Tick(position(v), label));
            }
            if (distinct) break;
        }
        return ticks;
    }

    private double[] logTickValues() {
        if (hi / lo < 10) {
            double step = Axes.niceStep(hi - lo, 7);
            List<Double> v = new ArrayList<>();
            for (long i = (long) Math.ceil(lo / step - 1e-9); i * step <= hi * (1 + 1e-12) && v.size() < 50; i++) {
                v.add(i * step);
            }
            return v.stream().mapToDouble(Double::doubleValue).toArray();
        }
        int e0 = (int) Math.floor(Math.log10(lo)), e1 = (int) Math.ceil(Math.log10(hi));
        for (double[] mults : new double[][] {{1, 2, 5}, {1}}) {
            double[] v = decades(e0, e1, mults, 1);
            if (v.length <= MAX_TICKS) return v;
        }
        int every = (int) Math.ceil((e1 - e0 + 1) / (double) MAX_TICKS);
        return decades(e0, e1, new double[] {1}, every);
    }

    private double[] decades(int e0, int e1, double[] mults, int every) {
        List<Double> v = new ArrayList<>();
        for (int e = e0; e <= e1; e++) {
            if (Math.floorMod(e, every) != 0) continue;
            for (double m : mults) {
                double x = Double.parseDouble(m + "e" + e); // exact decimal, no 10^e rounding residue
                if (x >= lo * (1 - 1e-12) && x <= hi * (1 + 1e-12)) v.add(x);
            }
        }
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private double[] rankTickValues() {
        int m = sorted.length;
        if (m == 0) return new double[] {hi};
        int parts = 6;
        double[] v = new double[parts + 1];
        for (int j = 0; j <= parts; j++) v[j] = sorted[(int) Math.round((double) j * (m - 1) / parts)];
        return Arrays.stream(v).distinct().toArray();
    }

    /** For the caption and tests: the kind, the ends and the selected clusters' share. */
    @Override
    public String toString() {
        return kind + " " + Fmt.sig(lo) + " .. " + Fmt.sig(hi) + ", selected share " + Fmt.fixed(selectedShare, 3);
    }

    /** The number of distinct positive finite λ in the tree: the axis shows values of the tree only when above 1. */
    int finiteLevels() {
        int levels = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] > 0 && (i == 0 || sorted[i] != sorted[i - 1])) levels++;
        }
        return levels;
    }

    /** The caption's sentence on the axis. */
    String describe() {
        int levels = finiteLevels();
        if (levels == 0) {
            return "The tree has no finite \u03bb above 0 (its points part only at \u03bb = \u221e, distance 0, or "
                    + "at \u03bb = 0, an infinite distance), so the \u03bb axis is a stand-in scale and its ticks are "
                    + "no values of the tree.";
        }
        if (levels == 1) {
            return "Every finite \u03bb above 0 in the tree is " + Fmt.sig(hi) + ", at the bottom of the axis; the "
                    + "ticks above it are a stand-in scale, not values of the tree.";
        }
        String range = " from the smallest \u03bb in the tree, " + Fmt.sig(lo) + ", at the top to the largest finite one, "
                + Fmt.sig(hi) + ", at the bottom";
        if (kind == Kind.LOG) {
            return "The \u03bb axis is logarithmic," + range + " (not linear from 0, which would squash the clusters"
                    + " of high-dimensional data, whose distances are all alike, into the bottom of the plot).";
        }
        return "The \u03bb axis is by rank," + range + ": every row of the tree (a point leaving or a cluster splitting"
                + " off) gets the same height, in order of \u03bb, because on a log scale the selected clusters would"
                + " take less than " + Math.round(100 * MIN_SELECTED_SHARE) + " % of the height (a few far outliers or"
                + " near-duplicates stretch the range of \u03bb far beyond the clusters'); the tick labels give \u03bb.";
    }

    private static int lowerBound(double[] a, double x) {
        int l = 0, h = a.length;
        while (l < h) {
            int mid = (l + h) >>> 1;
            if (a[mid] < x) l = mid + 1;
            else h = mid;
        }
        return l;
    }
}
