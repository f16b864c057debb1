package org.sylva.hdbscan.metric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.quality.CenterKind;
import org.sylva.hdbscan.quality.ClusterCenters;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
import org.sylva.testsupport.MiniJson;
import org.sylva.testsupport.LabelRenaming;
import org.sylva.testsupport.Oracles;

/**
 * Every metric against scikit-learn 1.9.1's {@code HDBSCAN(metric=...)} runs of
 * {@code shared/oracle/hdbscan-more} (its README's comparison rule): the spanning tree's weights as a
 * multiset (sorted {@code _sk_<metric>_slt} distances; 1e-12 relative, cosine 1e-9), labels up to the
 * renaming and probabilities (1e-12 where the weights are bitwise equal, else 1e-9) on the points whose tie mask is 0 ({@code _tiemask_tol} for cosine
 * and minkowski3), and the medoids from scikit-learn's own labels and probabilities (the rows, unless the
 * case records a near-tie of the criterion) with the centroids to 1e-12 relative. The precomputed runs
 * got the sequential-sum Euclidean matrix, which is rebuilt here.
 */
class MetricOracleTest {
    private static final Pattern CASE = Pattern.compile("(.+)_mcs(\\d+)_ms(\\d+)_sk_manhattan_labels\\.npy");
    private static final List<String> METRICS = List.of("euclidean", "manhattan", "chebyshev", "minkowski3", "cosine",
            "precomputed");
    /**
     * Runs whose labels depend on how exactly tied mutual-reachability weights are ordered although the
     * oracle's tie masks say 0: for iris cosine at min_samples 5, scikit-learn's own dense Prim
     * ({@code mst_from_mutual_reachability}) on Sylva's mutual-reachability matrix gives scikit-learn's
     * 2 clusters with the rows in their order and Sylva's 4 clusters and 34 noise points with the rows
     * permuted (seeds 1, 2, 3), and scikit-learn's {@code tree_to_labels} on Sylva's tree gives Sylva's
     * labels: both are exact answers ({@code scripts/cosine-tie-check.py} reproduces this). Only the tree
     * weights are compared there.
     */
    private static final java.util.Set<String> TIE_DEPENDENT = java.util.Set.of("iris_mcs5_ms4 cosine");
    private static Map<?, ?> manifest;

    static Stream<String[]> runs() throws IOException {
        List<String[]> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(Oracles.hdbscanMore())) {
            s.map(p -> p.getFileName().toString()).filter(f -> CASE.matcher(f).matches()).sorted().forEach(f -> {
                String prefix = f.substring(0, f.length() - "_sk_manhattan_labels.npy".length());
                for (String m : METRICS) out.add(new String[] {prefix, m});
            });
        }
        assertTrue(out.size() >= 36, "hdbscan-more metric runs: " + out.size());
        return out.stream();
    }

    static Metric metricOf(String name) {
        return name.equals("minkowski3") ? Metric.minkowski(3) : Metric.parse(name, null);
    }

    private static double[] npy(String file) throws IOException {
        return Npy.read(Oracles.hdbscanMore().resolve(file)).toFloat64();
    }

    private static synchronized Map<?, ?> sklearnEntry(String prefix, String metric) throws IOException {
        if (manifest == null) {
            String json = Files.readString(Oracles.hdbscanMore().resolve("manifest.json"), StandardCharsets.UTF_8);
            manifest = (Map<?, ?>) ((Map<?, ?>) MiniJson.parse(json)).get("cases");
        }
        return (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) manifest.get(prefix)).get("sklearn")).get(metric);
    }

    /** The case's points (float64) and the parameters of the run ({@code min_samples = S + 1}). */
    record Run(String prefix, String metric, double[] x, int n, int d, int mcs, int ms) {
        static Run load(String prefix, String metric) throws IOException {
            Matcher m = Pattern.compile("(.+)_mcs(\\d+)_ms(\\d+)").matcher(prefix);
            assertTrue(m.matches());
            NpyArray xa = Npy.read(Oracles.hdbscan().resolve(m.group(1) + "_X.npy"));
            return new Run(prefix, metric, xa.toFloat64(), xa.shape()[0], xa.shape()[1], Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)) + 1);
        }

        String file(String suffix) {
            return prefix + "_sk_" + metric + suffix;
        }

        HdbscanResult fit(int threads) {
            Metric metric = metricOf(this.metric);
            Hdbscan h = Hdbscan.builder().minClusterSize(mcs).minSamples(ms).metric(metric).threads(threads).build();
            if (!metric.isPrecomputed()) return h.fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
            return h.fit(euclideanMatrix(x, n, d), n, n, ProgressListener.NONE, CancellationToken.NEVER);
        }
    }

    /** The dense Euclidean matrix, squares summed in order (what the oracle's precomputed runs got). */
    static double[] euclideanMatrix(double[] x, int n, int d) {
        PairDistances e = Metric.euclidean().pairs(x, n, d);
        double[] m = new double[n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) m[i * n + j] = e.between(i, j);
        }
        return m;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runs")
    void spanningTreeWeightsLabelsAndProbabilitiesAreScikitLearns(String prefix, String metric) throws IOException {
        Run run = Run.load(prefix, metric);
        HdbscanResult r = run.fit(2);
        boolean loose = metric.equals("cosine") || metric.equals("minkowski3");

        double[] slt = npy(run.file("_slt.npy"));
        double[] want = new double[run.n() - 1];
        for (int i = 0; i < want.length; i++) want[i] = slt[4 * i + 2];
        Arrays.sort(want);
        double[] got = r.spanningTree().weightArray();
        Arrays.sort(got);
        double tol = metric.equals("cosine") ? 1e-9 : 1e-12, worst = 0;
        int bitwise = 0;
        for (int i = 0; i < want.length; i++) {
            double diff = Math.abs(want[i] - got[i]);
            worst = Math.max(worst, diff / Math.max(Math.abs(want[i]), Double.MIN_NORMAL));
            assertTrue(diff <= tol * Math.abs(want[i]) || diff <= 1e-15, prefix + " " + metric + " weight " + i + ": "
                    + got[i] + " vs " + want[i]);
            if (want[i] == got[i]) bitwise++;
        }
        if (!loose) assertEquals(want.length, bitwise, prefix + " " + metric + ": tree weights bitwise");

        int[] ref = ints(npy(run.file("_labels.npy")));
        double[] refProb = npy(run.file("_prob.npy"));
        int[] mask = ints(npy(run.file(loose ? "_tiemask_tol.npy" : "_tiemask.npy")));
        int[] own = r.labels();
        double[] prob = r.probabilities();
        double probTol = bitwise == want.length ? 1e-12 : 1e-9;   // the README's rule
        Map<Integer, Integer> toRef = LabelRenaming.majority(own, ref, mask);
        int compared = 0;
        boolean tieDependent = TIE_DEPENDENT.contains(prefix + " " + metric);
        for (int i = 0; i < own.length && !tieDependent; i++) {
            if (mask[i] != 0) continue;
            compared++;
            int mapped = own[i] < 0 ? own[i] : toRef.getOrDefault(own[i], -99);
            assertEquals(ref[i], mapped, prefix + " " + metric + " label of point " + i);
            assertEquals(refProb[i], prob[i], probTol, prefix + " " + metric + " probability of point " + i);
        }
        System.out.printf(Locale.ROOT, "%s %s: %d/%d weights bitwise (max rel diff %.2g); %s%n", prefix, metric, bitwise,
                want.length, worst, tieDependent ? "labels tie-dependent (not compared)" : compared + " untied points equal");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runs")
    void medoidsUnderTheMetricFromScikitLearnsLabels(String prefix, String metric) throws IOException {
        if (metric.equals("precomputed")) return;   // scikit-learn refuses store_centers there; so does Sylva
        Run run = Run.load(prefix, metric);
        int[] labels = ints(npy(run.file("_labels.npy")));
        ClusterCenters c = ClusterCenters.of(PointSet.ofFloat64(run.n(), run.d(), run.x()), labels,
                npy(run.file("_prob.npy")), CenterKind.BOTH,
                new Execution(2, ProgressListener.NONE, CancellationToken.NEVER), metricOf(metric));
        double[] centroids = npy(run.file("_centroids.npy"));
        assertEquals(centroids.length, c.centroids().length);
        for (int i = 0; i < centroids.length; i++) {
            assertEquals(centroids[i], c.centroids()[i], 1e-12 * Math.abs(centroids[i]), prefix + " centroid " + i);
        }
        int[] rows = ints(npy(run.file("_medoid_rows.npy")));
        List<?> candidates = (List<?>) sklearnEntry(prefix, metric).get("medoid_candidates_within_1e-9");
        int compared = 0;
        for (int k = 0; k < rows.length; k++) {
            if ((Double) candidates.get(k) > 1) continue;
            compared++;
            assertEquals(rows[k], c.medoidRows()[k], prefix + " " + metric + " medoid row of cluster " + k);
        }
        assertTrue(compared > 0 || rows.length == 0, prefix + " " + metric + ": no medoid compared");
    }

    static int[] ints(double[] v) {
        int[] out = new int[v.length];
        for (int i = 0; i < v.length; i++) out[i] = (int) v[i];
        return out;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("runs")
    void oneThreadAndManyGiveTheSameBytes(String prefix, String metric) throws IOException {
        if (!prefix.startsWith("blobs2000")) return;
        Run run = Run.load(prefix, metric);
        HdbscanResult one = run.fit(1), many = run.fit(3);
        assertArrayEquals(one.coreDistances(), many.coreDistances());
        assertEquals(one.spanningTree(), many.spanningTree());
        assertArrayEquals(one.labels(), many.labels());
        assertArrayEquals(one.probabilities(), many.probabilities());
        assertArrayEquals(one.outlierScores(), many.outlierScores());
    }
}
