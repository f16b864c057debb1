package org.sylva.hdbscan.predict;

import org.sylva.data.PointSet;
import org.sylva.features.PrincipalComponents;
import org.sylva.kernels.DistanceKernel;
import org.sylva.parallel.Execution;
import org.sylva.parallel.ParallelWork;

/**
 * How a model answers its questions about points, new ones ({@link #answer}: the hard answer, the soft
 * one or both from one neighbour search per point) and fitted ones ({@link #allPoints}), in blocks of
 * points on the execution's threads. Every answer is the same for any thread count: each point's answer
 * depends on that point alone, and the one reduction (the largest fitted score) is taken in block order.
 * {@link HdbscanModel} holds one per set of selected clusters.
 *
 * <pre>{@code
 * ModelAnswers a = new ModelAnswers(search, rows, n, d, core, minSamples, clusters, exemplars, inputRows, null);
 * HdbscanModel.Answers both = a.answer(newPoints, execution, true, true, HdbscanModel.PREDICT_STAGE);
 * }</pre>
 */
final class ModelAnswers {
    /** Points per unit of parallel work, at most. */
    private static final int BLOCK = 256;
    /**
     * Fitted coordinates times new points that one unit of a search may cover: a new point's search reads a share
     * of the fitted points that does not shrink with their number in many dimensions, so against a large model a
     * unit is fewer points, and a cancel (checked between units) is noticed within tens of milliseconds.
     */
    static final long UNIT_COORDINATES = 1L << 28;

    private final FittedSearch search;
    private final double[] rows;
    private final int n;
    private final int d;
    private final double[] core;
    private final int minSamples;
    private final ClusterTree clusters;
    private final Exemplars exemplars;
    private final InputRows inputRows;
    /** Applied to new points first; null when the fit clustered its input as it was. */
    private final PrincipalComponents projection;

    ModelAnswers(FittedSearch search, double[] rows, int n, int d, double[] core, int minSamples, ClusterTree clusters,
            Exemplars exemplars, InputRows inputRows, PrincipalComponents projection) {
        this.search = search;
        this.rows = rows;
        this.n = n;
        this.d = d;
        this.core = core;
        this.minSamples = minSamples;
        this.clusters = clusters;
        this.exemplars = exemplars;
        this.inputRows = inputRows;
        this.projection = projection;
    }

    /**
     * The hard answer ({@code hard}), the soft one ({@code soft}) or both, with one neighbour search per new
     * point; the answer not asked for is null.
     */
    HdbscanModel.Answers answer(PointSet newPoints, Execution execution, boolean hard, boolean soft, String stage) {
        // the stage starts now: the index of the fitted points (built on first use, seconds against 200 000
        // clips) and the search order come before the first unit's report
        execution.progress().progress(stage, 0, 1);
        double[] q = NewPoints.rows(newPoints, d, projection, execution);
        int m = newPoints.size();
        if (search.pairs() != null) q = search.pairs().queries(q, m);   // cosine: normalised as the fitted rows
        int k = clusters.labels();
        int[] labels = hard ? new int[m] : null, connecting = hard ? new int[m] : null;
        double[] prob = hard ? new double[m] : null, scores = hard ? new double[m] : null;
        double[] out = soft ? new double[m * k] : null;
        DistanceKernel kernel = search.kernelFor(m);
        FittedNeighbours s0 = search.search(execution, kernel, m, Connector.searchedLength(core, minSamples - 1,
                inputRows.copies()));
        Connector conn = new Connector(s0, core, minSamples - 1, inputRows.copies());
        SoftAssignment membership = soft ? new SoftAssignment(clusters, exemplars, kernel) : null;
        Connector.Group[] scratch = new Connector.Group[execution.threads()];
        SoftAssignment.Scratch[] softScratch = new SoftAssignment.Scratch[execution.threads()];
        int[] order = s0 instanceof NeighbourSearch tree ? NewPoints.searchOrder(tree, q, m, d, execution)
                : java.util.stream.IntStream.range(0, m).toArray();   // a scan reads every fitted point anyway
        double[] queries = q;
        // consecutive points of the search order lie near one another: searched together in many dimensions
        int group = s0 instanceof NeighbourSearch ? NeighbourSearch.groupSize(d, conn.searchedLength()) : 1;
        run(m, searchBlock(n, d), stage, execution, (worker, from, to) -> {
            if (scratch[worker] == null) {
                scratch[worker] = conn.group(group);
                if (soft) softScratch[worker] = membership.scratch();
            }
            Connector.Group w = scratch[worker];
            for (int at = from; at < to; at += group) {
                int g = Math.min(group, to - at);
                for (int j = 0; j < g; j++) w.offs[j] = order[at + j] * d;
                conn.connect(queries, g, w);
                for (int j = 0; j < g; j++) {
                    int i = order[at + j];
                    Connector.Scratch s = w.member[j];
                    if (hard) {
                        labels[i] = HardAssignment.label(clusters, s.neighbour, s.lambda);
                        prob[i] = HardAssignment.probability(clusters, labels[i], s.lambda);
                        scores[i] = HardAssignment.score(clusters, s.neighbour, s.lambda, s.coincides);
                        connecting[i] = inputRows.inputRowOfPoint(s.neighbour);
                    }
                    if (soft) membership.newPoint(queries, i * d, s.neighbour, s.lambda, out, i * k, softScratch[worker]);
                }
            }
        });
        return new HdbscanModel.Answers(hard ? new Prediction(labels, prob, scores, connecting) : null,
                soft ? new Membership(m, k, out) : null);
    }

    /**
     * Soft membership of every input row of the fit ({@link HdbscanModel#allPointsMembershipVectors(Execution)}).
     * The largest score is taken over every point of the trees, copies of a weighted row included; the
     * vectors are computed for each fitted row's first point.
     */
    Membership allPoints(Execution execution) {
        int k = clusters.labels();
        double[] out = new double[n * k];
        PointCopies copies = inputRows.copies();
        int points = copies == null ? n : copies.points();
        SoftAssignment soft = new SoftAssignment(clusters, exemplars, FittedSearch.fitKernel(points, d));
        if (k > 0) {
            int units = (points + BLOCK - 1) / BLOCK;
            double[] unitMax = new double[units];
            double[][] spare = new double[execution.threads()][];
            run(points, HdbscanModel.MEMBERSHIP_STAGE, execution, (worker, from, to) -> {
                if (spare[worker] == null) spare[worker] = new double[k];
                double max = Double.NaN;
                for (int p = from; p < to; p++) {
                    int r = copies == null ? p : copies.rowOf(p);
                    // a row's later copies score as its first: only the maximum is kept from them
                    boolean first = copies == null || copies.first(r) == p;
                    max = SoftAssignment.nanMax(max, first ? soft.fittedScores(p, out, r * k)
                            : soft.fittedScores(p, spare[worker], 0));
                }
                unitMax[from / BLOCK] = max;
            });
            double global = Double.NaN;
            for (double v : unitMax) global = SoftAssignment.nanMax(global, v);
            double max = global;
            SoftAssignment.Scratch[] scratch = new SoftAssignment.Scratch[execution.threads()];
            double[] x = search.pairs() != null ? search.pairs().preparedRows() : rows;   // cosine: the normalised rows
            run(n, HdbscanModel.MEMBERSHIP_STAGE, execution, (worker, from, to) -> {
                if (scratch[worker] == null) scratch[worker] = soft.scratch();
                for (int r = from; r < to; r++) {
                    int p = copies == null ? r : copies.first(r);
                    soft.fittedPoint(p, x, r * d, max, out, r * k, scratch[worker]);
                }
            });
        }
        return new Membership(inputRows.total(), k, inputRows.rowsOf(out, k));
    }

    /** A range of points {@code [from, to)} handled by one worker. */
    @FunctionalInterface
    interface Block {
        void run(int worker, int from, int to);
    }

    /** Runs {@code block} over {@code [0, m)} in blocks of {@value #BLOCK} points on the execution's threads. */
    static void run(int m, String stage, Execution ex, Block block) {
        run(m, BLOCK, stage, ex, block);
    }

    /** New points per unit of a search against {@code n} fitted points of {@code d} coordinates: 8 to {@value #BLOCK}. */
    static int searchBlock(int n, int d) {
        return (int) Math.max(8, Math.min(BLOCK, UNIT_COORDINATES / Math.max(1L, (long) n * d)));
    }

    /** Runs {@code block} over {@code [0, m)} in blocks of {@code size} points on the execution's threads. */
    static void run(int m, int size, String stage, Execution ex, Block block) {
        int units = (int) (((long) m + size - 1) / size);
        new ParallelWork(ex.threads()).run(units, stage, ex.progress(), ex.cancel(),
                (worker, unit) -> block.run(worker, unit * size, (int) Math.min(m, (long) (unit + 1) * size)));
    }
}
