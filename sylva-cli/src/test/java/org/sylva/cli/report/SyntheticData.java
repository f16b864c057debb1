package org.sylva.cli.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Deterministic synthetic inputs for the report tests: spike-like 61-sample clips drawn from a few
 * templates with a condensed tree built to match them (a balanced hierarchy over the templates,
 * noise falling out of the root and of inner clusters, one selected cluster with two unselected
 * sub-clusters, optional lambda = +inf duplicates), and perfect binary ball trees built by the
 * foundation issue's split rule (widest dimension, median, smaller index first on ties).
 */
final class SyntheticData {
    static final int CLIP_SAMPLES = 61;

    private SyntheticData() {
    }

    /** A cluster node while the tree is being built. */
    private static final class Node {
        final List<Node> kids = new ArrayList<>();
        final List<Integer> points = new ArrayList<>();
        final List<Double> pointLambda = new ArrayList<>();
        double birth;
        int group = -1;          // template index for leaves that stand for a group
        boolean selected;
        int id;
        int size;
    }

    /**
     * A clip data set: {@code n} clips of {@link #CLIP_SAMPLES} samples from {@code k} templates
     * (Zipf-like sizes), about 10 % noise clips, with a consistent condensed tree.
     *
     * @param infDuplicates number of points given lambda = +inf (exact duplicates) in the largest cluster
     */
    static HdbscanReportData clips(int n, int k, long seed, int infDuplicates, boolean waveforms) {
        if (k < 2) throw new IllegalArgumentException("k must be >= 2");
        Random rnd = new Random(seed);
        int d = CLIP_SAMPLES;
        // group of each point: -1 noise, else template index, Zipf-like weights
        double[] w = new double[k];
        double wsum = 0;
        for (int c = 0; c < k; c++) wsum += w[c] = Math.pow(c + 1, -0.8);
        int[] group = new int[n];
        for (int i = 0; i < n; i++) {
            if (rnd.nextDouble() < 0.1) {
                group[i] = -1;
                continue;
            }
            double u = rnd.nextDouble() * wsum;
            int c = 0;
            while (c < k - 1 && (u -= w[c]) > 0) c++;
            group[i] = c;
        }
        // hierarchy: balanced binary split of the template list
        Node root = new Node();
        root.birth = 0;
        List<Node> leaves = new ArrayList<>();
        List<Node> inner = new ArrayList<>();
        build(root, 0, k, 0.010, leaves, inner);
        // group 0's cluster splits further into two sub-clusters that are not selected
        Node g0 = leaves.get(0);
        Node sub1 = new Node(), sub2 = new Node();
        sub1.birth = sub2.birth = g0.birth + 0.03;
        g0.kids.add(sub1);
        g0.kids.add(sub2);
        // points: cluster points fall out of their leaf (or of a sub-cluster for group 0); noise of an inner node
        int infLeft = infDuplicates;
        for (int i = 0; i < n; i++) {
            if (group[i] < 0) {
                Node at = inner.get(rnd.nextInt(inner.size()));
                double split = at.kids.get(0).birth;
                at.points.add(i);
                at.pointLambda.add(at.birth + (split - at.birth) * rnd.nextDouble());
                continue;
            }
            Node leaf = leaves.get(group[i]);
            Node at = leaf;
            if (leaf == g0 && rnd.nextDouble() < 0.7) at = rnd.nextBoolean() ? sub1 : sub2;
            double lam;
            if (group[i] == 1 && infLeft > 0) {
                lam = Double.POSITIVE_INFINITY;
                infLeft--;
            } else {
                double span = 0.05 + 0.02 * (group[i] % 4);
                lam = at.birth + span * Math.sqrt(rnd.nextDouble());
                if (at == g0) lam = Math.min(lam, sub1.birth); // the parent's points leave before its split
            }
            at.points.add(i);
            at.pointLambda.add(lam);
        }
        // sizes, then breadth-first ids over the non-empty clusters (ids run without gaps)
        List<Node> bfs = new ArrayList<>();
        bfs.add(root);
        for (int q = 0; q < bfs.size(); q++) bfs.addAll(bfs.get(q).kids);
        for (int q = bfs.size() - 1; q >= 0; q--) {
            Node c = bfs.get(q);
            c.size = c.points.size();
            for (Node kid : c.kids) c.size += kid.size;
        }
        for (Node c : bfs) c.kids.removeIf(kid -> kid.size == 0);
        bfs.clear();
        bfs.add(root);
        for (int q = 0; q < bfs.size(); q++) bfs.addAll(bfs.get(q).kids);
        for (int q = 0; q < bfs.size(); q++) bfs.get(q).id = n + q;
        // labels: rank of the selected node ids
        List<Node> selected = new ArrayList<>();
        for (Node c : bfs) if (c.selected && c.size > 0) selected.add(c);
        int kk = selected.size();
        long[] selectedIds = new long[kk];
        double[] persistence = new double[kk];
        int[] labelOfGroup = new int[k];
        Arrays.fill(labelOfGroup, -1);
        for (int l = 0; l < kk; l++) {
            selectedIds[l] = selected.get(l).id;
            labelOfGroup[selected.get(l).group] = l;
            persistence[l] = 0.2 + 0.6 * ((l * 37) % 11) / 10.0;
        }
        int[] labels = new int[n];
        double[] prob = new double[n];
        List<int[]> rowsInt = new ArrayList<>();
        List<Double> rowsLam = new ArrayList<>();
        for (Node c : bfs) {
            for (Node kid : c.kids) {
                rowsInt.add(new int[] {c.id, kid.id, kid.size});
                rowsLam.add(kid.birth);
            }
            for (int j = 0; j < c.points.size(); j++) {
                rowsInt.add(new int[] {c.id, c.points.get(j), 1});
                rowsLam.add(c.pointLambda.get(j));
            }
        }
        Arrays.fill(labels, -1);
        for (Node leaf : leaves) {
            int l = labelOfGroup[leaf.group];
            if (l < 0) continue;
            double lamMax = 0;
            List<Node> sub = new ArrayList<>(List.of(leaf));
            for (int q = 0; q < sub.size(); q++) sub.addAll(sub.get(q).kids);
            for (Node s : sub) for (double lv : s.pointLambda) if (Double.isFinite(lv)) lamMax = Math.max(lamMax, lv);
            for (Node s : sub) {
                for (int j = 0; j < s.points.size(); j++) {
                    int p = s.points.get(j);
                    labels[p] = l;
                    double lv = s.pointLambda.get(j);
                    prob[p] = Double.isInfinite(lv) || lamMax == 0 ? 1.0 : Math.min(lv, lamMax) / lamMax;
                }
            }
        }
        int m = rowsInt.size();
        int[] par = new int[m], chi = new int[m], csz = new int[m];
        double[] lam = new double[m];
        for (int r = 0; r < m; r++) {
            par[r] = rowsInt.get(r)[0];
            chi[r] = rowsInt.get(r)[1];
            csz[r] = rowsInt.get(r)[2];
            lam[r] = rowsLam.get(r);
        }
        // clips: the template of the point's label (so colours and shapes line up), jitter and AR(1) noise
        float[] coords = new float[n * d];
        double[][] templates = new double[Math.max(k, 1)][];
        for (int c = 0; c < k; c++) templates[c] = template(c, d);
        for (int i = 0; i < n; i++) {
            int l = labels[i];
            double amp = 1 + 0.08 * rnd.nextGaussian();
            double sigma = l >= 0 ? 6 : 16;
            double e = 0;
            for (int j = 0; j < d; j++) {
                e = 0.6 * e + 0.8 * sigma * rnd.nextGaussian();
                double v = l >= 0 ? amp * templates[l % k][j] : 0;
                coords[i * d + j] = (float) (v + e);
            }
        }
        return HdbscanReportData.builder()
                .title("synthetic clips (n = " + n + ", seed " + seed + ")")
                .points(n, d, coords).labels(labels).probabilities(prob)
                .tree(new CondensedTreeData(n, par, chi, lam, csz))
                .selectedClusters(selectedIds, persistence)
                .waveforms(waveforms ? Waveforms.channelMajor(n, 1, coords) : null)
                .parameter("min_cluster_size", "20").parameter("min_samples", "20")
                .parameter("cluster_selection_method", "eom").parameter("metric", "euclidean")
                .stage("read input", 0.0123).stage("core distances", 0.4567).stage("minimum spanning tree", 0.8123)
                .stage("condensed tree", 0.0312).stage("selection", 0.0021)
                .sylvaVersion("0.1.0-test")
                .build();
    }

    private static void build(Node node, int lo, int hi, double lambdaStep, List<Node> leaves, List<Node> inner) {
        if (hi - lo == 1) {
            node.group = lo;
            node.selected = true;
            leaves.add(node);
            return;
        }
        inner.add(node);
        int mid = (lo + hi) / 2;
        Node a = new Node(), b = new Node();
        a.birth = b.birth = node.birth + lambdaStep * (1 + 0.3 * lo);
        node.kids.add(a);
        node.kids.add(b);
        build(a, lo, mid, lambdaStep, leaves, inner);
        build(b, mid, hi, lambdaStep, leaves, inner);
    }

    /** A spike-like template: a trough near sample 20 and a later positive bump, different per template. */
    static double[] template(int c, int d) {
        double[] t = new double[d];
        double a = 55 + 28 * (c % 5), b = 12 + 9 * ((c * 3) % 4);
        double t0 = 19 + (c % 3), w1 = 2.2 + 0.5 * (c % 4), t1 = 27 + 2 * (c % 4), w2 = 5 + 1.5 * (c % 3);
        for (int j = 0; j < d; j++) {
            t[j] = -a * Math.exp(-Math.pow((j - t0) / w1, 2)) + b * Math.exp(-Math.pow((j - t1) / w2, 2));
        }
        return t;
    }

    /** Gaussian blobs in {@code d} dimensions ({@code k} centres on a circle or sphere), float32 row-major. */
    static float[] blobs(int n, int d, int k, long seed) {
        Random rnd = new Random(seed);
        float[] x = new float[n * d];
        for (int i = 0; i < n; i++) {
            int c = i % k;
            double ang = 2 * Math.PI * c / k;
            for (int j = 0; j < d; j++) {
                double centre = j == 0 ? 10 * Math.cos(ang) : j == 1 ? 10 * Math.sin(ang) : 3 * ((c + j) % 3 - 1);
                x[i * d + j] = (float) (centre + (1.0 + 0.5 * (c % 3)) * rnd.nextGaussian());
            }
        }
        return x;
    }

    /** A perfect binary ball tree (issue 2's rules) over the batches given by {@code batchSizes}. */
    static BallTreeReportData.Builder ballTree(float[] coords, int d, int[] batchSizes) {
        int n = coords.length / d;
        int[] levels = new int[batchSizes.length];
        long slots = 0;
        for (int b = 0; b < batchSizes.length; b++) {
            int m = batchSizes[b];
            levels[b] = m <= 2 ? 0 : 32 - Integer.numberOfLeadingZeros(m - 1) - 1;
            slots += 1L << (levels[b] + 1);
        }
        int[] idx = new int[(int) slots];
        boolean[] mask = new boolean[(int) slots];
        int start = 0, off = 0;
        for (int b = 0; b < batchSizes.length; b++) {
            Integer[] pts = new Integer[batchSizes[b]];
            for (int i = 0; i < pts.length; i++) pts[i] = start + i;
            fill(coords, d, pts, 0, levels[b], off, idx, mask);
            start += batchSizes[b];
            off += 1 << (levels[b] + 1);
        }
        return BallTreeReportData.builder().points(n, d, coords).tree(idx, mask, levels).sylvaVersion("0.1.0-test");
    }

    private static void fill(float[] x, int d, Integer[] pts, int level, int maxLevel, int pos, int[] idx,
                             boolean[] mask) {
        if (level == maxLevel) {
            Integer[] s = pts.clone();
            Arrays.sort(s);
            idx[pos] = s[0];
            mask[pos] = true;
            idx[pos + 1] = s.length > 1 ? s[1] : s[0];
            mask[pos + 1] = s.length > 1;
            return;
        }
        int best = 0;
        double bestSpread = -1;
        for (int j = 0; j < d; j++) {
            double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
            for (int p : pts) {
                lo = Math.min(lo, x[p * d + j]);
                hi = Math.max(hi, x[p * d + j]);
            }
            if (hi - lo > bestSpread) {
                bestSpread = hi - lo;
                best = j;
            }
        }
        final int dim = best;
        Integer[] s = pts.clone();
        Arrays.sort(s, (a, b) -> x[a * d + dim] != x[b * d + dim] ? Float.compare(x[a * d + dim], x[b * d + dim])
                : Integer.compare(a, b));
        int half = s.length / 2;
        fill(x, d, Arrays.copyOfRange(s, 0, half), level + 1, maxLevel, pos, idx, mask);
        fill(x, d, Arrays.copyOfRange(s, half, s.length), level + 1, maxLevel, pos + (1 << (maxLevel - level)), idx, mask);
    }
}
