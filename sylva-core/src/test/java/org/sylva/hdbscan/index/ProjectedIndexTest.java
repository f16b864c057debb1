package org.sylva.hdbscan.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;
import org.sylva.parallel.ParallelWork;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;

/**
 * The principal-axis bounds never exceed a distance the kernels compute: node to node, point to node,
 * and the pair screen, on clustered, tied, offset and wide-range data, and with axes that are far from
 * orthonormal (where only the spectral-norm factor keeps them lower bounds).
 */
class ProjectedIndexTest {
    private static final int A = ProjectedIndex.AXES;

    /** Clusters in {@code d} dimensions, the cluster means apart along a few directions. */
    static double[] clusters(int n, int d, long seed) {
        Random r = new Random(seed);
        double[][] means = new double[6][d];
        for (double[] m : means) for (int j = 0; j < d; j++) m[j] = r.nextGaussian() * 40;
        double[] x = new double[n * d];
        for (int i = 0; i < n; i++) {
            double[] m = means[r.nextInt(means.length)];
            for (int j = 0; j < d; j++) x[i * d + j] = m[j] + r.nextGaussian() * 5;
        }
        return x;
    }

    /** Integer points on a small grid: massive distance ties. */
    static double[] grid(int n, int d, long seed) {
        Random r = new Random(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = r.nextInt(4);
        return x;
    }

    /**
     * Points spread over 1e8 along a diagonal, each with a twin 1e-3 away: the axes' coordinates are about
     * 3e8, where float32 steps by 32, so the twins' projections can round 32 apart. Only the projection's
     * error term keeps the bounds below their distance.
     */
    static double[] wideRangeTwins(int n, int d) {
        double[] x = new double[n * d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) x[i * d + j] = (i / 2) * 1e5 * (1 + 0.01 * j) + (i % 2 == 1 && j == 0 ? 1e-3 : 0);
        }
        return x;
    }

    /** Everything far from the origin (1e6) and tightly spread. */
    static double[] offset(int n, int d, long seed) {
        Random r = new Random(seed);
        double[] x = new double[n * d];
        for (int i = 0; i < x.length; i++) x[i] = 1e6 + r.nextGaussian() * 0.01 + (i / d % 2) * 0.05;
        return x;
    }

    private static DistanceKernel[] kernels() {
        return new DistanceKernel[] {KernelProvider.get().scalarDistance(), KernelProvider.get().bestDistance()};
    }

    @Test
    void boundsNeverExceedComputedDistances() {
        for (DistanceKernel k : kernels()) {
            check(clusters(1500, 61, 1), 1500, 61, k, null, true);
            check(clusters(1200, 9, 2), 1200, 9, k, null, true);
            check(grid(1000, 12, 3), 1000, 12, k, null, false);   // a filled grid: nothing to prune
            check(offset(800, 20, 4), 800, 20, k, null, true);
            check(wideRangeTwins(600, 10), 600, 10, k, null, true);
        }
    }

    /** The bounds hold for any matrix of axes: here scaled by 3 and skewed, where lambda must be about 3 or more. */
    @Test
    void boundsHoldForAxesThatAreNotOrthonormal() {
        int n = 1500, d = 30;
        double[] rows = clusters(n, d, 5);
        Random r = new Random(6);
        double[] axes = new double[A * d];
        for (int i = 0; i < axes.length; i++) axes[i] = r.nextGaussian();
        for (int a = 0; a < A; a++) axes[a * d + a] += 3;   // far from unit rows, far from orthogonal
        for (DistanceKernel k : kernels()) {
            ProjectedIndex p = check(rows, n, d, k, axes, false);   // random axes prune little: the point is no violation
            assertTrue(p.lambda() >= spectralNorm(axes, d), "lambda " + p.lambda() + " below the spectral norm");
        }
    }

    @Test
    void wideRangeTwinsNeedTheErrorTerm() {
        int n = 600, d = 10;
        PointIndex idx = PointIndex.build(wideRangeTwins(n, d), n, d, KernelProvider.get().scalarDistance());
        ProjectedIndex p = ProjectedIndex.of(idx, null, CancellationToken.NEVER);
        assertNotNull(p);
        assertTrue(p.slack() > 1, "the float32 rounding of coordinates near 3e8 must widen the bounds: " + p.slack());
    }

    @Test
    void nullWhereItCannotHelp() {
        DistanceKernel k = KernelProvider.get().scalarDistance();
        assertNull(ProjectedIndex.of(PointIndex.build(clusters(500, 2 * A, 7), 500, 2 * A, k), null, CancellationToken.NEVER),
                "no more dimensions than twice the axes");
        double[] same = new double[300 * 20];
        java.util.Arrays.fill(same, 4.5);
        assertNull(ProjectedIndex.of(PointIndex.build(same, 300, 20, k), null, CancellationToken.NEVER), "no spread");
        assertNull(ProjectedIndex.of(PointIndex.build(new double[20], 1, 20, k), null, CancellationToken.NEVER), "one point");
        double[] huge = clusters(300, 20, 8);
        for (int i = 0; i < huge.length; i++) huge[i] *= 1e14;
        assertNull(ProjectedIndex.of(PointIndex.build(huge, 300, 20, k), null, CancellationToken.NEVER),
                "coordinates along the axes beyond the float32 limit");
    }

    @Test
    void sameForAnyThreadCount() {
        int n = 9000, d = 61;
        double[] rows = clusters(n, d, 9);
        PointIndex idx = PointIndex.build(rows, n, d, KernelProvider.get().bestDistance());
        ProjectedIndex one = ProjectedIndex.of(idx, null, CancellationToken.NEVER);
        for (int t : new int[] {2, 3}) {
            ProjectedIndex other = ProjectedIndex.of(idx, new ParallelWork(t), CancellationToken.NEVER);
            assertArrayEquals(one.blocks(), other.blocks(), t + " threads");
            assertArrayEquals(one.blocks32(), other.blocks32(), t + " threads");
            assertArrayEquals(one.centres(), other.centres(), t + " threads");
            assertEquals(one.lambda(), other.lambda());
            assertEquals(one.slack(), other.slack());
            for (int node = 0; node < idx.nodes(); node++) {
                assertEquals(one.lowerBound(0, node), other.lowerBound(0, node));
            }
        }
    }

    @Test
    void aCancelStopsTheProjection() {
        int n = 20_000, d = 30;
        PointIndex idx = PointIndex.build(clusters(n, d, 10), n, d, KernelProvider.get().scalarDistance());
        CancellationToken cancelled = CancellationToken.polling(() -> true);
        assertThrows(CancelledException.class, () -> ProjectedIndex.of(idx, new ParallelWork(2), cancelled));
    }

    @Test
    void refusesAxesOfTheWrongShape() {
        PointIndex idx = PointIndex.build(clusters(100, 12, 11), 100, 12, KernelProvider.get().scalarDistance());
        assertThrows(IllegalArgumentException.class,
                () -> ProjectedIndex.of(idx, new double[12], new double[A * 11], null, CancellationToken.NEVER));
    }

    /**
     * Every bound of the projection against brute force: node pairs, each position against every node, and
     * the screen at thresholds just below and at each pair's computed squared distance.
     */
    private static ProjectedIndex check(double[] rows, int n, int d, DistanceKernel k, double[] axes, boolean mustPrune) {
        PointIndex idx = PointIndex.build(rows, n, d, k);
        ProjectedIndex p;
        if (axes == null) {
            p = ProjectedIndex.of(idx, new ParallelWork(2), CancellationToken.NEVER);
        } else {
            double[] mu = new double[d];
            for (int i = 0; i < n; i++) for (int j = 0; j < d; j++) mu[j] += rows[i * d + j] / n;
            p = ProjectedIndex.of(idx, mu, axes, null, CancellationToken.NEVER);
        }
        assertNotNull(p, "d = " + d);
        int nodes = idx.nodes();
        // Smallest computed distance between the points of every pair of nodes, from each pair of leaves.
        int leaves = idx.leaves();
        double[][] leafMin = new double[leaves][leaves];
        for (int a = 0; a < leaves; a++) {
            for (int b = a; b < leaves; b++) {
                double m = Double.POSITIVE_INFINITY;
                for (int pa = idx.leafStart(a); pa < idx.leafStart(a) + idx.leafCount(a); pa++) {
                    for (int pb = idx.leafStart(b); pb < idx.leafStart(b) + idx.leafCount(b); pb++) {
                        if (pa != pb) m = Math.min(m, Math.sqrt(idx.squaredDistance(pa, pb)));
                    }
                }
                leafMin[a][b] = m;
                leafMin[b][a] = m;
            }
        }
        int violations = 0, useful = 0;
        for (int na = 0; na < nodes; na++) {
            for (int nb = 0; nb < nodes; nb++) {
                double m = Double.POSITIVE_INFINITY;
                for (int a = firstLeaf(idx, na); a <= lastLeaf(idx, na); a++) {
                    for (int b = firstLeaf(idx, nb); b <= lastLeaf(idx, nb); b++) m = Math.min(m, leafMin[a][b]);
                }
                double lb = p.lowerBound(na, nb);
                if (lb > m) violations++;
                if (lb > 0) useful++;
            }
        }
        assertEquals(0, violations, "node bounds above a computed distance (d = " + d + ")");
        // Point to node.
        for (int pos = 0; pos < idx.positions(); pos += 7) {
            if (idx.original(pos) < 0) continue;
            for (int node = 0; node < nodes; node++) {
                double m = Double.POSITIVE_INFINITY;
                for (int q = idx.nodeStart(node); q < idx.nodeEnd(node); q++) {
                    if (idx.original(q) >= 0 && q != pos) m = Math.min(m, Math.sqrt(idx.squaredDistance(pos, q)));
                }
                assertTrue(p.lowerBoundFromPoint(pos, node) <= m, "point bound above a computed distance");
            }
        }
        // The screen, as the scan uses it: the kernel's squared distances along the axes against the limit.
        int w = idx.blockWidth();
        int[] query = new int[1];
        double[] tile = new double[k.tileLength(1, idx.positions() / w, p)];
        float[] tile32 = new float[tile.length];
        double screenFactor = 1 + DistanceKernel.approximationError(A);
        int rejected = 0;
        for (int q = 0; q < idx.positions(); q += 5) {
            if (idx.original(q) < 0) continue;
            query[0] = q;
            k.squaredDistances(p, query, 1, 0, idx.positions() / w, tile);
            if (k.approximates()) k.approximateSquaredDistances(p, query, 1, 0, idx.positions() / w, tile32);
            for (int c = 0; c < idx.positions(); c++) {
                if (idx.original(c) < 0 || c == q) continue;
                double sq = idx.squaredDistance(q, c);
                for (double thr : new double[] {sq, sq * (1 - 1e-12), sq * 0.999, sq * 0.5}) {
                    if (tile[c] > p.screenLimit(thr)) {
                        rejected++;
                        assertTrue(sq > thr, "screen rejected a pair within its threshold");
                    }
                    if (k.approximates() && tile32[c] > p.screenLimit(thr) * screenFactor + DistanceKernel.APPROXIMATION_ABSOLUTE) {
                        assertTrue(sq > thr, "float32 screen rejected a pair within its threshold");
                    }
                }
            }
        }
        if (mustPrune) {
            assertTrue(rejected > 0, "the screen never rejected anything: the check proves nothing");
            assertTrue(useful > 0, "no node bound was positive: the check proves nothing");
        }
        return p;
    }

    private static int firstLeaf(PointIndex idx, int node) {
        while (idx.leafOf(node) < 0) node = idx.left(node);
        return idx.leafOf(node);
    }

    private static int lastLeaf(PointIndex idx, int node) {
        while (idx.leafOf(node) < 0) node = idx.right(node);
        return idx.leafOf(node);
    }

    /** The largest singular value of the {@code A x d} matrix, by power iteration on its Gram matrix. */
    private static double spectralNorm(double[] u, int d) {
        double[][] g = new double[A][A];
        for (int i = 0; i < A; i++) for (int k = 0; k < A; k++) for (int j = 0; j < d; j++) g[i][k] += u[i * d + j] * u[k * d + j];
        double[] v = {1, 1, 1, 1};
        double lambda = 0;
        for (int it = 0; it < 500; it++) {
            double[] nv = new double[A];
            for (int i = 0; i < A; i++) for (int k = 0; k < A; k++) nv[i] += g[i][k] * v[k];
            double norm = 0;
            for (double x : nv) norm += x * x;
            norm = Math.sqrt(norm);
            for (int i = 0; i < A; i++) v[i] = nv[i] / norm;
            lambda = norm;
        }
        return Math.sqrt(lambda);
    }
}
