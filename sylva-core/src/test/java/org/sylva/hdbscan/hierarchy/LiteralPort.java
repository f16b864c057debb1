package org.sylva.hdbscan.hierarchy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A deliberately literal, slow (quadratic) transliteration of scikit-learn's {@code _tree.pyx}
 * ({@code _condense_tree}, {@code _compute_stability}, {@code _get_clusters} with
 * {@code epsilon_search}/{@code traverse_upwards}, {@code _do_labelling} with its rank union-find,
 * {@code get_probabilities}) and of the {@code hdbscan} package's {@code get_stability_scores} and
 * {@code outlier_scores}, list for list and loop for loop, used only as a test oracle for the
 * linear-time production code on random trees. Two documented choices are applied the same way as in
 * production: the {@code hdbscan} package's guard in single-cluster labelling (where scikit-learn
 * would raise a KeyError) and GLOSH 1.0 where Python gives NaN. {@code leafOrder} shuffles the
 * iteration order of Python's {@code set} in {@code epsilon_search}, which must not matter.
 *
 * <pre>{@code
 * LiteralPort.Result r = LiteralPort.run(sltMatrix, 5, params, new Random(1));
 * }</pre>
 */
final class LiteralPort {
    private LiteralPort() {
    }

    record Row(int parent, int child, double lambda, int size) {
    }

    record Result(List<Row> tree, int[] labels, double[] probabilities, double[] persistence, int[] selected,
            double[] glosh) {
    }

    static Result run(double[][] h, int mcs, SelectionParameters p, Random leafOrder) {
        List<Row> tree = condense(h, mcs);
        Map<Integer, Double> stability = computeStability(tree);
        return getClusters(tree, stability, p, leafOrder);
    }

    static List<Integer> bfsFromHierarchy(double[][] h, int bfsRoot) {
        int n = h.length + 1;
        List<Integer> toProcess = new ArrayList<>(List.of(bfsRoot));
        List<Integer> result = new ArrayList<>();
        while (!toProcess.isEmpty()) {
            result.addAll(toProcess);
            List<Integer> next = new ArrayList<>();
            for (int x : toProcess) {
                if (x >= n) {
                    next.add((int) h[x - n][0]);
                    next.add((int) h[x - n][1]);
                }
            }
            toProcess = next;
        }
        return result;
    }

    static List<Row> condense(double[][] h, int mcs) {
        int root = 2 * h.length;
        int n = h.length + 1;
        int nextLabel = n + 1;
        List<Integer> nodeList = bfsFromHierarchy(h, root);
        int[] relabel = new int[root + 1];
        relabel[root] = n;
        List<Row> result = new ArrayList<>();
        boolean[] ignore = new boolean[nodeList.size()];
        for (int node : nodeList) {
            if (ignore[node] || node < n) continue;
            double[] children = h[node - n];
            int left = (int) children[0], right = (int) children[1];
            double lambda = children[2] > 0.0 ? 1.0 / children[2] : Double.POSITIVE_INFINITY;
            int leftCount = left >= n ? (int) h[left - n][3] : 1;
            int rightCount = right >= n ? (int) h[right - n][3] : 1;
            if (leftCount >= mcs && rightCount >= mcs) {
                relabel[left] = nextLabel++;
                result.add(new Row(relabel[node], relabel[left], lambda, leftCount));
                relabel[right] = nextLabel++;
                result.add(new Row(relabel[node], relabel[right], lambda, rightCount));
            } else if (leftCount < mcs && rightCount < mcs) {
                for (int sub : bfsFromHierarchy(h, left)) {
                    if (sub < n) result.add(new Row(relabel[node], sub, lambda, 1));
                    ignore[sub] = true;
                }
                for (int sub : bfsFromHierarchy(h, right)) {
                    if (sub < n) result.add(new Row(relabel[node], sub, lambda, 1));
                    ignore[sub] = true;
                }
            } else if (leftCount < mcs) {
                relabel[right] = relabel[node];
                for (int sub : bfsFromHierarchy(h, left)) {
                    if (sub < n) result.add(new Row(relabel[node], sub, lambda, 1));
                    ignore[sub] = true;
                }
            } else {
                relabel[left] = relabel[node];
                for (int sub : bfsFromHierarchy(h, right)) {
                    if (sub < n) result.add(new Row(relabel[node], sub, lambda, 1));
                    ignore[sub] = true;
                }
            }
        }
        return result;
    }

    static Map<Integer, Double> computeStability(List<Row> tree) {
        int smallest = tree.stream().mapToInt(Row::parent).min().orElseThrow();
        int largestParent = tree.stream().mapToInt(Row::parent).max().orElseThrow();
        Map<Integer, Double> births = new HashMap<>();
        for (Row r : tree) births.merge(r.child(), r.lambda(), Math::min);
        births.put(smallest, 0.0);
        double[] result = new double[largestParent - smallest + 1];
        for (Row r : tree) result[r.parent() - smallest] += (r.lambda() - births.get(r.parent())) * r.size();
        Map<Integer, Double> out = new TreeMap<>();
        for (int c = smallest; c <= largestParent; c++) out.put(c, result[c - smallest]);
        return out;
    }

    static List<Integer> bfsFromClusterTree(List<Row> clusterTree, int bfsRoot) {
        List<Integer> result = new ArrayList<>();
        List<Integer> toProcess = new ArrayList<>(List.of(bfsRoot));
        while (!toProcess.isEmpty()) {
            result.addAll(toProcess);
            Set<Integer> set = new TreeSet<>(toProcess);
            List<Integer> next = new ArrayList<>();
            for (Row r : clusterTree) if (set.contains(r.parent())) next.add(r.child());
            toProcess = next;
        }
        return result;
    }

    static List<Integer> recurseLeafDfs(List<Row> clusterTree, int current) {
        List<Integer> children = new ArrayList<>();
        for (Row r : clusterTree) if (r.parent() == current) children.add(r.child());
        if (children.isEmpty()) return List.of(current);
        List<Integer> out = new ArrayList<>();
        for (int c : children) out.addAll(recurseLeafDfs(clusterTree, c));
        return out;
    }

    static double childLambda(List<Row> clusterTree, int child) {
        for (Row r : clusterTree) if (r.child() == child) return r.lambda();
        throw new IllegalStateException("no row for " + child);
    }

    static int traverseUpwards(List<Row> clusterTree, double eps, int leaf, boolean allow) {
        int root = clusterTree.stream().mapToInt(Row::parent).min().orElseThrow();
        int parent = -1;
        for (Row r : clusterTree) if (r.child() == leaf) { parent = r.parent(); break; }
        if (parent == root) return allow ? parent : leaf;
        double parentEps = 1 / childLambda(clusterTree, parent);
        if (parentEps > eps) return parent;
        return traverseUpwards(clusterTree, eps, parent, allow);
    }

    static Set<Integer> epsilonSearch(Set<Integer> leaves, List<Row> clusterTree, double eps, boolean allow,
            Random order) {
        List<Integer> selected = new ArrayList<>();
        List<Integer> processed = new ArrayList<>();
        List<Integer> iteration = new ArrayList<>(leaves);
        java.util.Collections.shuffle(iteration, order);
        for (int leaf : iteration) {
            double e = 1 / childLambda(clusterTree, leaf);
            if (e < eps) {
                if (!processed.contains(leaf)) {
                    int epsilonChild = traverseUpwards(clusterTree, eps, leaf, allow);
                    selected.add(epsilonChild);
                    for (int sub : bfsFromClusterTree(clusterTree, epsilonChild)) {
                        if (sub != epsilonChild) processed.add(sub);
                    }
                }
            } else {
                selected.add(leaf);
            }
        }
        return new TreeSet<>(selected);
    }

    static Result getClusters(List<Row> tree, Map<Integer, Double> stabilityIn, SelectionParameters p,
            Random order) {
        Map<Integer, Double> stability = new TreeMap<>(stabilityIn);
        boolean allow = p.allowSingleCluster();
        double eps = p.clusterSelectionEpsilon();
        List<Integer> nodeList = new ArrayList<>(stability.keySet());
        java.util.Collections.reverse(nodeList);
        if (!allow) nodeList.remove(nodeList.size() - 1);
        List<Row> clusterTree = tree.stream().filter(r -> r.size() > 1).toList();
        Map<Integer, Boolean> isCluster = new LinkedHashMap<>();
        for (int c : nodeList) isCluster.put(c, true);
        int nSamples = tree.stream().filter(r -> r.size() == 1).mapToInt(Row::child).max().orElseThrow() + 1;
        int rootAll = tree.stream().mapToInt(Row::parent).min().orElseThrow();
        long maxClusterSize = p.maxClusterSize() == 0 ? nSamples + 1 : p.maxClusterSize();
        Map<Integer, Long> clusterSizes = new HashMap<>();
        for (Row r : clusterTree) clusterSizes.put(r.child(), (long) r.size());
        if (allow) {
            int last = nodeList.get(nodeList.size() - 1);
            long s = 0;
            for (Row r : clusterTree) if (r.parent() == last) s += r.size();
            clusterSizes.put(last, s);
        }
        if (p.method() == SelectionMethod.EOM) {
            for (int node : nodeList) {
                double subtree = 0.0;
                for (Row r : clusterTree) if (r.parent() == node) subtree += stability.get(r.child());
                if (subtree > stability.get(node) || clusterSizes.get(node) > maxClusterSize) {
                    isCluster.put(node, false);
                    stability.put(node, subtree);
                } else {
                    for (int sub : bfsFromClusterTree(clusterTree, node)) if (sub != node) isCluster.put(sub, false);
                }
            }
            if (eps != 0.0 && !clusterTree.isEmpty()) {
                List<Integer> eom = new ArrayList<>();
                for (var e : isCluster.entrySet()) if (e.getValue()) eom.add(e.getKey());
                Set<Integer> selected = new TreeSet<>();
                int ctRoot = clusterTree.stream().mapToInt(Row::parent).min().orElseThrow();
                if (eom.size() == 1 && eom.get(0) == ctRoot) {
                    if (allow) selected.addAll(eom);
                } else {
                    selected = epsilonSearch(new TreeSet<>(eom), clusterTree, eps, allow, order);
                }
                for (var e : isCluster.entrySet()) e.setValue(selected.contains(e.getKey()));
            }
        } else {
            Set<Integer> leaves = clusterTree.isEmpty() ? new TreeSet<>()
                    : new TreeSet<>(recurseLeafDfs(clusterTree, clusterTree.stream().mapToInt(Row::parent).min()
                            .orElseThrow()));
            if (leaves.isEmpty()) {
                for (var e : isCluster.entrySet()) e.setValue(false);
                isCluster.put(rootAll, true);
            }
            Set<Integer> selected = eps != 0.0 ? epsilonSearch(leaves, clusterTree, eps, allow, order) : leaves;
            for (var e : isCluster.entrySet()) e.setValue(selected.contains(e.getKey()));
        }
        TreeSet<Integer> clusters = new TreeSet<>();
        for (var e : isCluster.entrySet()) if (e.getValue()) clusters.add(e.getKey());
        Map<Integer, Integer> clusterMap = new HashMap<>();
        int[] selectedIds = new int[clusters.size()];
        int k = 0;
        for (int c : clusters) {
            selectedIds[k] = c;
            clusterMap.put(c, k++);
        }
        int[] labels = doLabelling(tree, clusters, clusterMap, allow, eps);
        double[] prob = probabilities(tree, selectedIds, labels);
        double maxLambda = tree.stream().mapToDouble(Row::lambda).max().orElseThrow();
        double[] persistence = new double[selectedIds.length];
        for (int i = 0; i < selectedIds.length; i++) {
            int size = 0;
            for (int l : labels) if (l == i) size++;
            persistence[i] = Double.isInfinite(maxLambda) || maxLambda == 0.0 || size == 0 ? 1.0
                    : stability.get(selectedIds[i]) / (size * maxLambda);
        }
        return new Result(tree, labels, prob, persistence, selectedIds, glosh(tree));
    }

    /** Rank union-find with recursive path compression, as TreeUnionFind. */
    static final class TreeUnionFind {
        final int[][] data;

        TreeUnionFind(int size) {
            data = new int[size][2];
            for (int i = 0; i < size; i++) data[i][0] = i;
        }

        void union(int x, int y) {
            int xr = find(x), yr = find(y);
            if (data[xr][1] < data[yr][1]) data[xr][0] = yr;
            else if (data[xr][1] > data[yr][1]) data[yr][0] = xr;
            else {
                data[yr][0] = xr;
                data[xr][1] += 1;
            }
        }

        int find(int x) {
            if (data[x][0] != x) data[x][0] = find(data[x][0]);
            return data[x][0];
        }
    }

    static int[] doLabelling(List<Row> tree, Set<Integer> clusters, Map<Integer, Integer> map, boolean allow,
            double eps) {
        int root = tree.stream().mapToInt(Row::parent).min().orElseThrow();
        int maxParent = tree.stream().mapToInt(Row::parent).max().orElseThrow();
        int[] result = new int[root];
        TreeUnionFind uf = new TreeUnionFind(maxParent + 1);
        for (Row r : tree) if (!clusters.contains(r.child())) uf.union(r.parent(), r.child());
        for (int n = 0; n < root; n++) {
            int cluster = uf.find(n);
            int label = -1;
            if (cluster != root) {
                label = map.get(cluster);
            } else if (clusters.size() == 1 && allow && map.containsKey(cluster)) {
                double parentLambda = 0;
                for (Row r : tree) if (r.child() == n) parentLambda = r.lambda();
                double threshold;
                if (eps != 0.0) {
                    threshold = 1 / eps;
                } else {
                    threshold = Double.NEGATIVE_INFINITY;
                    for (Row r : tree) if (r.parent() == cluster) threshold = Math.max(threshold, r.lambda());
                }
                if (parentLambda >= threshold) label = map.get(cluster);
            }
            result[n] = label;
        }
        return result;
    }

    static double[] maxLambdas(List<Row> tree) {
        int largestParent = tree.stream().mapToInt(Row::parent).max().orElseThrow();
        double[] deaths = new double[largestParent + 1];
        for (Row r : tree) deaths[r.parent()] = Math.max(deaths[r.parent()], r.lambda());
        return deaths;
    }

    static double[] probabilities(List<Row> tree, int[] selected, int[] labels) {
        double[] result = new double[labels.length];
        double[] deaths = maxLambdas(tree);
        int root = tree.stream().mapToInt(Row::parent).min().orElseThrow();
        for (Row r : tree) {
            int point = r.child();
            if (point >= root) continue;
            int num = labels[point];
            if (num == -1) continue;
            double maxLambda = deaths[selected[num]];
            if (maxLambda == 0.0 || Double.isInfinite(r.lambda())) result[point] = 1.0;
            else result[point] = Math.min(r.lambda(), maxLambda) / maxLambda;
        }
        return result;
    }

    static double[] glosh(List<Row> tree) {
        double[] deaths = maxLambdas(tree);
        int root = tree.stream().mapToInt(Row::parent).min().orElseThrow();
        double[] result = new double[root];
        for (int i = tree.size() - 1; i >= 0; i--) {
            Row r = tree.get(i);
            if (deaths[r.child()] > deaths[r.parent()]) deaths[r.parent()] = deaths[r.child()];
        }
        for (Row r : tree) {
            int point = r.child();
            if (point >= root) continue;
            double lambdaMax = deaths[r.parent()];
            if (lambdaMax == 0.0 || !Double.isFinite(r.lambda())) result[point] = 0.0;
            else result[point] = (lambdaMax - r.lambda()) / lambdaMax;
            if (Double.isNaN(result[point])) result[point] = 1.0; // Sylva's documented value
        }
        return result;
    }

    /** label() from the hdbscan package: stable sort by weight, then a plain union-find. */
    static double[][] label(int n, int[] from, int[] to, double[] w) {
        Integer[] idx = new Integer[from.length];
        for (int i = 0; i < idx.length; i++) idx[i] = i;
        Arrays.sort(idx, (a, b) -> Double.compare(w[a], w[b]));
        int[] parent = new int[2 * n - 1];
        Arrays.fill(parent, -1);
        int[] size = new int[2 * n - 1];
        Arrays.fill(size, 0, n, 1);
        double[][] out = new double[from.length][];
        int next = n;
        for (int k = 0; k < idx.length; k++) {
            int a = from[idx[k]], b = to[idx[k]];
            while (parent[a] != -1) a = parent[a];
            while (parent[b] != -1) b = parent[b];
            out[k] = new double[] {a, b, w[idx[k]], size[a] + size[b]};
            size[next] = size[a] + size[b];
            parent[a] = next;
            parent[b] = next;
            next++;
        }
        return out;
    }
}
