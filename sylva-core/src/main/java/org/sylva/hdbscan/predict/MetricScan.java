package org.sylva.hdbscan.predict;

import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.metric.PairDistances;
import org.sylva.parallel.Execution;
import org.sylva.parallel.ParallelWork;

/**
 * The nearest fitted points of a model whose fit used a metric other than Euclidean (manhattan, chebyshev,
 * minkowski, cosine), found by computing the distance to every fitted point ({@link PairDistances#toRow}, the
 * fit's own arithmetic): the fit ran the brute-force engine for these metrics, whose bounds no partition
 * gives, so prediction scans as the fit did, in O(n) per new point. Lists are in (distance, fitted index)
 * order, as {@link NeighbourSearch}'s. {@link #fittedLists} gives the fitted points' own lists, from the
 * distances the fit computed ({@link PairDistances#between}), for their core distances.
 *
 * <pre>{@code
 * MetricScan scan = new MetricScan(Metric.manhattan().pairs(rows, n, d));
 * NeighbourSearch.Scratch w = scan.scratch(k);
 * scan.nearest(pairs.queries(newPoints, m), i * d, w);
 * }</pre>
 */
final class MetricScan implements FittedNeighbours {
    /** Fitted points per unit of parallel work in {@link #fittedLists}. */
    private static final int CHUNK = 64;

    private final PairDistances pairs;

    MetricScan(PairDistances pairs) {
        this.pairs = pairs;
    }

    @Override
    public NeighbourSearch.Scratch scratch(int k) {
        if (k < 1 || k > pairs.size()) throw new IllegalArgumentException("k = " + k + " for " + pairs.size() + " points");
        return new NeighbourSearch.Scratch(k, 0, 0, null, 0);
    }

    @Override
    public NeighbourSearch.Scratch scratch(int[] weights, int points) {
        int k = Math.min(pairs.size(), points);
        if (k < 1 || weights.length != pairs.size()) {
            throw new IllegalArgumentException(points + " points from " + weights.length + " weights for " + pairs.size()
                    + " rows");
        }
        return new NeighbourSearch.Scratch(k, 0, 0, weights, points);
    }

    @Override
    public void nearest(double[] q, int off, NeighbourSearch.Scratch s) {
        s.begin();
        int n = pairs.size();
        for (int b = 0; b < n; b++) {
            double dist = pairs.toRow(q, off, b);
            if (dist <= s.kth()) s.offer(dist, b);
        }
        s.end();
    }

    /**
     * Each fitted point's {@code min(n, minSamples + 1)} nearest fitted points, itself included at 0, with the
     * fit's core distances ({@code minSamples}-th entry): what the brute-force engine computed, on the
     * execution's threads (the same lists for any count).
     */
    static CoreDistances fittedLists(PairDistances pairs, int minSamples, Execution ex) {
        int n = pairs.size(), k = Math.min(n, minSamples + 1);
        int[] nb = new int[n * k];
        double[] nd = new double[n * k];
        NeighbourSearch.Scratch[] scratch = new NeighbourSearch.Scratch[ex.threads()];
        int units = (n + CHUNK - 1) / CHUNK;
        new ParallelWork(ex.threads()).run(units, org.sylva.hdbscan.core.CoreDistances.STAGE, ex.progress(), ex.cancel(),
                (worker, unit) -> {
                    if (scratch[worker] == null) scratch[worker] = new NeighbourSearch.Scratch(k, 0, 0, null, 0);
                    NeighbourSearch.Scratch s = scratch[worker];
                    for (int i = unit * CHUNK; i < Math.min(n, (unit + 1) * CHUNK); i++) {
                        s.begin();
                        for (int b = 0; b < n; b++) {
                            double dist = pairs.between(i, b);
                            if (dist <= s.kth()) s.offer(dist, b);
                        }
                        s.end();
                        System.arraycopy(s.dist, 0, nd, i * k, k);
                        System.arraycopy(s.index, 0, nb, i * k, k);
                    }
                });
        double[] core = new double[n];
        for (int i = 0; i < n; i++) core[i] = nd[i * k + Math.min(minSamples, k) - 1];
        return CoreDistances.of(minSamples, core, k, nb, nd);
    }
}
