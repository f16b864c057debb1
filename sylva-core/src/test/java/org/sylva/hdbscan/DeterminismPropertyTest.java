package org.sylva.hdbscan;

import static org.sylva.testsupport.SameResult.assertSameResult;

import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.sylva.data.PointSet;
import org.sylva.kernels.KernelProvider;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * Over random inputs, the fit is the same bit for bit on the scalar kernels with one thread and on the
 * vector kernels with two and five threads. The inputs are the shapes whose paths differ most: float32
 * and float64 Gaussians (the float32 pre-filter, the rounded float32 copy), small integer grids (exact
 * lists, ties by original index), rows repeated many times (duplicates, zero core distances), decimals
 * with one digit (massive ties), tight blobs and rows a millionth apart around a few points (near-ties);
 * 1 to 70 dimensions, 2 to 1 500 points, any {@code min_samples} up to 40. Where the vector kernels are
 * not available, the two sides are the scalar kernels with different thread counts.
 */
class DeterminismPropertyTest {

    /** One random input and its parameters; {@code kind} names the generator for failure messages. */
    record Case(int n, int d, int kind, boolean float32, int minSamples, int minClusterSize, long seed) {
        @Override
        public String toString() {
            String[] kinds = {"gaussian", "integer grid", "repeated rows", "one decimal", "tight blobs", "near duplicates"};
            return kinds[kind] + (float32 ? " float32" : " float64") + " n=" + n + " d=" + d + " min_samples="
                    + minSamples + " min_cluster_size=" + minClusterSize + " seed=" + seed;
        }

        double[] rows() {
            SplittableRandom r = new SplittableRandom(seed);
            double[] x = new double[n * d];
            switch (kind) {
                case 0 -> {
                    for (int i = 0; i < x.length; i++) x[i] = gaussian(r);
                }
                case 1 -> {
                    for (int i = 0; i < x.length; i++) x[i] = r.nextInt(4);
                }
                case 2 -> {
                    int distinct = Math.max(1, n / 10);
                    double[] base = new double[distinct * d];
                    for (int i = 0; i < base.length; i++) base[i] = gaussian(r);
                    for (int i = 0; i < n; i++) System.arraycopy(base, r.nextInt(distinct) * d, x, i * d, d);
                }
                case 3 -> {
                    for (int i = 0; i < x.length; i++) x[i] = Math.rint(gaussian(r) * 10) / 10;
                }
                case 4 -> around(r, x, 1 + r.nextInt(5), 5, 0.3);
                // rows a millionth apart around a few points: distances far below the data's scale
                default -> around(r, x, 1 + n / 50, 1, 1e-6);
            }
            if (float32) for (int i = 0; i < x.length; i++) x[i] = (float) x[i];
            return x;
        }

        /** Fills {@code x} with rows at {@code spread} around {@code centres} points at {@code scale}. */
        private void around(SplittableRandom r, double[] x, int centres, double scale, double spread) {
            double[] c = new double[centres * d];
            for (int i = 0; i < c.length; i++) c[i] = scale * gaussian(r);
            for (int i = 0; i < n; i++) {
                int which = r.nextInt(centres);
                for (int j = 0; j < d; j++) x[i * d + j] = c[which * d + j] + spread * gaussian(r);
            }
        }

        private static double gaussian(SplittableRandom r) {
            // Box-Muller from the splittable generator, so that a case is rebuilt from its seed alone
            double u = 1.0 - r.nextDouble(), v = r.nextDouble();
            return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<Integer> sizes = Arbitraries.integers().between(2, 1500);
        Arbitrary<Integer> dims = Arbitraries.integers().between(1, 70);
        Arbitrary<Integer> kinds = Arbitraries.integers().between(0, 5);
        Arbitrary<Boolean> float32 = Arbitraries.of(true, false);
        Arbitrary<Integer> samples = Arbitraries.integers().between(1, 40);
        Arbitrary<Integer> clusterSizes = Arbitraries.integers().between(2, 60);
        Arbitrary<Long> seeds = Arbitraries.longs();
        return Combinators.combine(sizes, dims, kinds, float32, samples, clusterSizes, seeds)
                .as((n, d, kind, f32, ms, mcs, seed) -> new Case(n, d, kind, f32, Math.min(ms, n), mcs, seed));
    }

    @Property(tries = 60)
    void theSameFitForEveryBackendAndThreadCount(@ForAll("cases") Case c) {
        double[] x = c.rows();
        boolean vector = KernelProvider.get().vectorDistanceAvailable();
        HdbscanResult base = fit(c, x, Backend.SCALAR, 1);
        for (int threads : new int[] {2, 5}) {
            HdbscanResult r = fit(c, x, vector ? Backend.SIMD : Backend.SCALAR, threads);
            assertSameResult(base, r, c + ", threads " + threads);
        }
    }

    private static HdbscanResult fit(Case c, double[] x, Backend backend, int threads) {
        Hdbscan h = Hdbscan.builder().minClusterSize(c.minClusterSize()).minSamples(c.minSamples())
                .threads(threads).backend(backend).build();
        if (!c.float32()) return h.fit(x, c.n(), c.d(), ProgressListener.NONE, CancellationToken.NEVER);
        float[] f = new float[x.length];
        for (int i = 0; i < x.length; i++) f[i] = (float) x[i];
        return h.fit(PointSet.of(c.n(), c.d(), f));
    }
}
