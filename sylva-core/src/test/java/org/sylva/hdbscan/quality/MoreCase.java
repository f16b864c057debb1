package org.sylva.hdbscan.quality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
import org.sylva.testsupport.MiniJson;
import org.sylva.testsupport.Oracles;

/**
 * One case {@code <ds>_mcs<M>_ms<S>} of {@code shared/oracle/hdbscan-more}: its data (float64), its
 * files, its entry in {@code manifest.json}, Sylva's estimator for it ({@code minSamples = S + 1}) and the
 * reference spanning tree in stored row order (the README's exact path).
 */
record MoreCase(String prefix, int mcs, int libMs, double[] x, int n, int d, Map<?, ?> manifest) {
    private static final Pattern CASE = Pattern.compile("(.+)_mcs(\\d+)_ms(\\d+)_labels\\.npy");
    private static Map<?, ?> manifestCache;

    static Stream<String> cases() throws IOException {
        try (Stream<Path> s = Files.list(Oracles.hdbscanMore())) {
            List<String> l = new ArrayList<>();
            s.map(p -> p.getFileName().toString()).filter(f -> CASE.matcher(f).matches() && !f.contains("_sk_")
                    && !f.contains("_dbscan_") && !f.contains("_pred_"))
                    .map(f -> f.substring(0, f.length() - "_labels.npy".length())).sorted().forEach(l::add);
            assertTrue(l.size() >= 6, "hdbscan-more cases: " + l);
            return l.stream();
        }
    }

    static synchronized Map<?, ?> manifestCases() throws IOException {
        if (manifestCache == null) {
            String json = Files.readString(Oracles.hdbscanMore().resolve("manifest.json"), StandardCharsets.UTF_8);
            manifestCache = (Map<?, ?>) ((Map<?, ?>) MiniJson.parse(json)).get("cases");
        }
        return manifestCache;
    }

    static MoreCase load(String prefix) throws IOException {
        Matcher m = Pattern.compile("(.+)_mcs(\\d+)_ms(\\d+)").matcher(prefix);
        assertTrue(m.matches());
        NpyArray xa = Npy.read(Oracles.hdbscan().resolve(m.group(1) + "_X.npy"));
        Map<?, ?> entry = (Map<?, ?>) manifestCases().get(prefix);
        assertTrue(entry != null, prefix + " not in manifest.json");
        return new MoreCase(prefix, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), xa.toFloat64(),
                xa.shape()[0], xa.shape()[1], entry);
    }

    Hdbscan estimator() {
        return Hdbscan.builder().minClusterSize(mcs).minSamples(libMs + 1).threads(2).build();
    }

    HdbscanResult fit() {
        return estimator().fit(x, n, d, ProgressListener.NONE, CancellationToken.NEVER);
    }

    PointSet points() {
        return PointSet.ofFloat64(n, d, x);
    }

    boolean has(String suffix) {
        return Files.exists(Oracles.hdbscanMore().resolve(prefix + suffix));
    }

    double[] f64(String suffix) throws IOException {
        return Npy.read(Oracles.hdbscanMore().resolve(prefix + suffix)).toFloat64();
    }

    int[] ints(String suffix) throws IOException {
        double[] v = f64(suffix);
        int[] out = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (int) v[i];
            assertEquals(out[i], v[i], prefix + suffix + " holds a non-integer at " + i);
        }
        return out;
    }

    /** The reference spanning tree, edges in the stored row order. */
    SpanningTree referenceTree() throws IOException {
        double[] mst = f64("_mst.npy");
        int edges = n - 1;
        int[] from = new int[edges], to = new int[edges];
        double[] w = new double[edges];
        for (int i = 0; i < edges; i++) {
            from[i] = (int) mst[3 * i];
            to[i] = (int) mst[3 * i + 1];
            w[i] = mst[3 * i + 2];
        }
        return SpanningTree.of(n, from, to, w);
    }

    /** A value of the manifest entry by path, e.g. {@code get("validity", "validity_index")}. */
    Object get(Object... path) {
        Object v = manifest;
        for (Object key : path) {
            v = key instanceof Integer i ? ((List<?>) v).get(i) : ((Map<?, ?>) v).get(key);
            assertTrue(v != null, prefix + ": no " + List.of(path) + " in manifest.json");
        }
        return v;
    }

    double number(Object... path) {
        return (Double) get(path);
    }
}
