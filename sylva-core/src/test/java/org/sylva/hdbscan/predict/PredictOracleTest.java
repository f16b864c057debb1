package org.sylva.hdbscan.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.hierarchy.CondensedTree;
import org.sylva.hdbscan.hierarchy.SingleLinkageTree;
import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;
import org.sylva.testsupport.LabelRenaming;
import org.sylva.testsupport.Oracles;

/**
 * Prediction and soft clustering against the {@code hdbscan} package (0.8.43) on every visible case of
 * {@code shared/oracle/hdbscan-more}, by its README's comparison rule:
 * <ul>
 *   <li><b>Exact path</b>: the model is built from the reference spanning tree in its stored row order,
 *       so its condensed tree is the reference's; then every query row except {@code _pred_mask & 2}
 *       (none in these cases) must give the reference's label (as a number), connecting point,
 *       probability and outlier score, every membership row (new points and all points) must agree to
 *       1e-12, and each cluster's exemplars must be the reference's set.</li>
 *   <li><b>Own path</b>: Sylva fits the data itself; then the prediction core distances must be bitwise
 *       the reference's, labels must agree up to the fit's cluster renaming on the query rows the mask
 *       allows (0, and 1: MR ties are broken by the smaller raw distance, as the package does), and
 *       membership vectors where the case's {@code membership_structure_tie_free} says they can.</li>
 * </ul>
 * Sylva's {@code minSamples} is the package's + 1. Every figure is also printed, for the record.
 */
class PredictOracleTest {
    private static final Pattern CASE = Pattern.compile("(.+)_mcs(\\d+)_ms(\\d+)_pred_labels\\.npy");
    private static final double TOL = 1e-12;

    static Stream<String> cases() throws IOException {
        try (Stream<Path> s = Files.list(Oracles.hdbscanMore())) {
            List<String> l = new ArrayList<>();
            s.map(p -> p.getFileName().toString()).filter(f -> CASE.matcher(f).matches())
                    .map(f -> f.substring(0, f.length() - "_pred_labels.npy".length())).sorted().forEach(l::add);
            return l.stream();
        }
    }

    @Test
    void everyVisibleCaseIsThere() throws IOException {
        List<String> found = cases().toList();
        for (String ds : List.of("blobs500", "blobs2000noise", "iris")) {
            for (int s : new int[] {4, 10}) {
                assertTrue(found.contains(ds + "_mcs5_ms" + s), ds + "_mcs5_ms" + s + " missing from " + found);
            }
        }
    }

    /** One case's inputs. */
    private record Case(String prefix, String dataset, int mcs, int libMs, double[] x, int n, int d, double[] query,
            int q) {
        static Case load(String prefix) throws IOException {
            Matcher m = Pattern.compile("(.+)_mcs(\\d+)_ms(\\d+)").matcher(prefix);
            assertTrue(m.matches());
            String ds = m.group(1);
            NpyArray xa = Npy.read(Oracles.hdbscan().resolve(ds + "_X.npy"));
            NpyArray qa = Npy.read(Oracles.hdbscanMore().resolve(ds + "_query.npy"));
            return new Case(prefix, ds, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), xa.toFloat64(),
                    xa.shape()[0], xa.shape()[1], qa.toFloat64(), qa.shape()[0]);
        }

        Hdbscan estimator() {
            return Hdbscan.builder().minClusterSize(mcs).minSamples(libMs + 1).threads(2).build();
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

        PointSet queries() {
            return PointSet.ofFloat64(q, d, query);
        }
    }

    private static final Execution TWO = new Execution(2, ProgressListener.NONE, CancellationToken.NEVER);

    /** The model built on the reference's own spanning tree (stored row order). */
    static HdbscanModel exactModel(Case c) throws IOException {
        double[] mst = c.f64("_mst.npy");
        int edges = c.n - 1;
        int[] from = new int[edges], to = new int[edges];
        double[] w = new double[edges];
        for (int i = 0; i < edges; i++) {
            from[i] = (int) mst[3 * i];
            to[i] = (int) mst[3 * i + 1];
            w[i] = mst[3 * i + 2];
        }
        CondensedTree ct = CondensedTree.condense(SingleLinkageTree.of(SpanningTree.of(c.n, from, to, w)), c.mcs);
        return HdbscanModel.of(c.estimator().parameters(), c.x, c.n, c.d, ct, TWO);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void exactPathMatchesTheReference(String prefix) throws IOException {
        Case c = Case.load(prefix);
        HdbscanModel model = exactModel(c);
        StringBuilder report = new StringBuilder(prefix + " exact path:");

        // The fit's clusters (a sanity check of the path: EOM on the reference tree)
        int k = model.clusterCount();
        double[] allRef = c.f64("_all_membership.npy");
        assertEquals(allRef.length, c.n * k, "clusters");

        double[] refCore = c.f64("_pred_core.npy");
        assertBitwise(refCore, model.predictionCoreDistances(), prefix + " prediction core distances");

        int[] mask = c.ints("_pred_mask.npy");
        Prediction p = model.approximatePredict(c.queries(), TWO);
        int[] refLabels = c.ints("_pred_labels.npy"), refNeighbour = c.ints("_pred_neighbor.npy");
        double[] refProb = c.f64("_pred_prob.npy"), refScores = c.f64("_pred_scores.npy");
        double[] refMembership = c.f64("_membership.npy");
        Membership mv = model.membershipVector(c.queries(), TWO);
        assertEquals(refMembership.length, mv.values().length);
        Diff prob = new Diff(), score = new Diff(), memb = new Diff();
        int masked = 0, duplicates = 0;
        for (int i = 0; i < c.q; i++) {
            if ((mask[i] & 2) != 0) {
                masked++;
                continue;
            }
            duplicates += sameConnectingPoint(c, refNeighbour[i], p.connectingPoints()[i], i);
            assertEquals(refLabels[i], p.labels()[i], prefix + " label of query " + i);
            prob.add(refProb[i], p.probabilities()[i]);
            score.add(refScores[i], p.outlierScores()[i]);
            for (int l = 0; l < k; l++) memb.add(refMembership[i * k + l], mv.get(i, l));
        }
        report.append(String.format(Locale.ROOT, " %d/%d queries (masked %d, %d connect to the other copy of a "
                + "duplicated row); prob %s; scores %s; membership %s;", c.q - masked, c.q, masked, duplicates, prob,
                score, memb));
        prob.assertWithin(TOL, prefix + " probabilities");
        score.assertWithin(TOL, prefix + " outlier scores");
        memb.assertWithin(TOL, prefix + " membership vectors");

        Membership all = model.allPointsMembershipVectors(TWO);
        Diff allDiff = new Diff();
        for (int i = 0; i < allRef.length; i++) allDiff.add(allRef[i], all.values()[i]);
        report.append(" all-points membership ").append(allDiff).append(" over ").append(c.n).append(" rows;");
        allDiff.assertWithin(TOL, prefix + " all-points membership vectors");

        int[] idx = c.ints("_exemplars_idx.npy"), off = c.ints("_exemplars_offsets.npy");
        assertEquals(k + 1, off.length);
        int exemplarCount = 0;
        for (int l = 0; l < k; l++) {
            int[] want = Arrays.copyOfRange(idx, off[l], off[l + 1]);
            int[] got = model.exemplars(l);
            assertArrayEquals(want, got, prefix + " exemplars of cluster " + l + " (in the package's order)");
            exemplarCount += got.length;
        }
        report.append(" exemplars equal (").append(exemplarCount).append(")");
        System.out.println(report);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void ownFitAgreesWhereTheMasksAllow(String prefix) throws IOException {
        Case c = Case.load(prefix);
        HdbscanResult r = c.estimator().fit(c.x, c.n, c.d, ProgressListener.NONE, CancellationToken.NEVER);
        HdbscanModel model = HdbscanModel.of(r, PointSet.ofFloat64(c.n, c.d, c.x), TWO);
        assertBitwise(c.f64("_pred_core.npy"), model.predictionCoreDistances(), prefix + " prediction core distances");

        // The fit's renaming of clusters, read off the points no tie frees.
        int[] tiemask = c.ints("_tiemask.npy");
        int[] ref = c.ints("_labels.npy"), own = r.labels();
        Map<Integer, Integer> toRef = LabelRenaming.majority(own, ref, tiemask);

        int[] mask = c.ints("_pred_mask.npy");
        Prediction p = model.approximatePredict(c.queries(), TWO);
        int[] refLabels = c.ints("_pred_labels.npy"), refNeighbour = c.ints("_pred_neighbor.npy");
        double[] refProb = c.f64("_pred_prob.npy"), refScores = c.f64("_pred_scores.npy");
        Diff prob = new Diff(), score = new Diff();
        int compared = 0, duplicates = 0;
        for (int i = 0; i < c.q; i++) {
            if (mask[i] > 1) continue;   // 0 or 1 only: bits 4/8 connect to a tie-masked point
            compared++;
            duplicates += sameConnectingPoint(c, refNeighbour[i], p.connectingPoints()[i], i);
            int l = p.labels()[i];
            assertEquals(refLabels[i], l < 0 ? -1 : toRef.getOrDefault(l, Integer.MIN_VALUE),
                    prefix + " label of query " + i + " (renamed)");
            prob.add(refProb[i], p.probabilities()[i]);
            score.add(refScores[i], p.outlierScores()[i]);
        }
        String line = String.format(Locale.ROOT, "%s own fit: %d/%d queries compared (%d connect to the other copy "
                + "of a duplicated row); prob %s; scores %s", prefix, compared, c.q, duplicates, prob, score);
        prob.assertWithin(1e-9, prefix + " probabilities");
        score.assertWithin(1e-9, prefix + " outlier scores");

        if (membershipTieFree(prefix)) {
            int k = model.clusterCount();
            int[] order = new int[k];
            for (int l = 0; l < k; l++) order[l] = toRef.get(l);
            double[] refMembership = c.f64("_membership.npy");
            Membership mv = model.membershipVector(c.queries(), TWO);
            Diff memb = new Diff();
            for (int i = 0; i < c.q; i++) {
                if (mask[i] > 1) continue;
                for (int l = 0; l < k; l++) memb.add(refMembership[i * k + order[l]], mv.get(i, l));
            }
            double[] allRef = c.f64("_all_membership.npy");
            Membership all = model.allPointsMembershipVectors(TWO);
            Diff allDiff = new Diff();
            for (int i = 0; i < c.n; i++) {
                if (tiemask[i] != 0) continue;
                for (int l = 0; l < k; l++) allDiff.add(allRef[i * k + order[l]], all.get(i, l));
            }
            line += "; membership " + memb + "; all-points membership " + allDiff;
            memb.assertWithin(TOL, prefix + " membership (own fit)");
            allDiff.assertWithin(TOL, prefix + " all-points membership (own fit)");
        }
        System.out.println(line);
    }

    /**
     * 1 when Sylva connects query {@code i} to another row than the package but to the same coordinates
     * (a duplicated row: the two are at the same distance, and Sylva takes the lower index where the
     * package's KDTree took the other; nothing else can differ then), 0 when to the same row; fails
     * otherwise.
     */
    static int sameConnectingPoint(Case c, int want, int got, int i) {
        if (want == got) return 0;
        boolean same = true;
        for (int j = 0; j < c.d; j++) same &= c.x[want * c.d + j] == c.x[got * c.d + j];
        assertTrue(same, c.prefix + " connecting point of query " + i + ": reference " + want + ", Sylva " + got);
        assertTrue(got < want, c.prefix + " query " + i + ": of two equal rows Sylva takes the lower index");
        return 1;
    }

    /** The case's {@code membership_structure_tie_free} in manifest.json (keys are sorted, one per case). */
    static boolean membershipTieFree(String prefix) throws IOException {
        String json = Files.readString(Oracles.hdbscanMore().resolve("manifest.json"), StandardCharsets.UTF_8);
        int at = json.indexOf("\"" + prefix + "\": {", json.indexOf("\"cases\""));
        assertTrue(at >= 0, prefix + " not in manifest.json");
        Matcher m = Pattern.compile("\"membership_structure_tie_free\":\\s*(true|false)").matcher(json);
        assertTrue(m.find(at), "membership_structure_tie_free of " + prefix);
        return m.group(1).equals("true");
    }

    static void assertBitwise(double[] want, double[] got, String what) {
        assertEquals(want.length, got.length, what + " length");
        for (int i = 0; i < want.length; i++) {
            if (Double.doubleToLongBits(want[i]) != Double.doubleToLongBits(got[i])) {
                fail(what + " differ at " + i + ": reference " + want[i] + ", Sylva " + got[i]);
            }
        }
    }

    /** Largest absolute and relative differences seen. */
    static final class Diff {
        double abs, rel;
        int count, bitwise;

        void add(double want, double got) {
            double a = Math.abs(want - got);
            if (!(a <= abs)) abs = a;   // keeps NaN visible
            if (want != 0) rel = Math.max(rel, a / Math.abs(want));
            count++;
            if (Double.doubleToLongBits(want) == Double.doubleToLongBits(got)) bitwise++;
        }

        void assertWithin(double tol, String what) {
            assertTrue(abs <= tol, what + ": max abs difference " + abs + " > " + tol);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "max abs %.3g rel %.3g (%d/%d bitwise)", abs, rel, bitwise, count);
        }
    }
}
