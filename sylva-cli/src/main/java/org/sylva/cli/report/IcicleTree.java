package org.sylva.cli.report;

/**
 * The condensed tree as per-cluster tables for the icicle plot. Cluster {@code c} is node {@code n + c}
 * (the root is {@code c = 0}); for each cluster: its parent, the lambda at which it splits off
 * ({@code birth}), the lambda at which its last point or child leaves ({@code death}; {@code subDeath}
 * over its whole subtree), its size, its cluster children in id order ({@code kids[kidStart[c] ..
 * kidStart[c + 1])}) and the lambdas at which its own points leave ({@code ptLam[ptStart[c] ..
 * ptStart[c + 1])}). Every lambda is clipped to the value where lambda = +inf is drawn.
 */
final class IcicleTree {
    /** Id of the root (the number of points). */
    final int n;
    final int clusters;
    final int[] parentOf;
    final double[] birth;
    final double[] death;
    final double[] subDeath;
    final long[] size;
    final int[] nKids;
    final int[] kidStart;
    final int[] kids;
    final int[] ptStart;
    final double[] ptLam;

    /**
     * The lambdas of a tree's rows.
     *
     * @param max           largest finite lambda, or 1 when there is no positive one (the bottom of the axis)
     * @param infiniteRows  rows with lambda = +inf
     */
    record Lambdas(double max, int infiniteRows) {
        static Lambdas of(double[] lambda) {
            double max = 0;
            int inf = 0;
            for (double l : lambda) {
                if (Double.isInfinite(l)) inf++;
                else max = Math.max(max, l);
            }
            return new Lambdas(max > 0 ? max : 1, inf);
        }
    }

    /** The tables of {@code t} (at least one row), with lambdas clipped to {@code lamInf}. */
    IcicleTree(CondensedTreeData t, double lamInf) {
        n = t.n();
        clusters = t.clusterCount();
        parentOf = new int[clusters];
        birth = new double[clusters];
        death = new double[clusters];
        size = new long[clusters];
        nKids = new int[clusters];
        int[] nPts = new int[clusters];
        clusterRows(t, lamInf, nPts);
        kidStart = prefix(nKids);
        kids = childLists();
        ptStart = prefix(nPts);
        ptLam = pointLambdas(t, lamInf);
        subDeath = subtreeDeaths();
    }

    /** Points in the cluster children of {@code c} (the rest of its size are its own points). */
    long childTotal(int c) {
        long total = 0;
        for (int k = kidStart[c]; k < kidStart[c + 1]; k++) total += size[kids[k]];
        return total;
    }

    /** Parent, birth, death and size of each cluster; children and own points counted. */
    private void clusterRows(CondensedTreeData t, double lamInf, int[] nPts) {
        int[] par = t.parent(), chi = t.child(), csz = t.childSize();
        double[] lam = t.lambda();
        parentOf[0] = -1;
        for (int r = 0; r < t.rows(); r++) {
            int p = par[r] - n;
            double l = Math.min(lam[r], lamInf);
            death[p] = Math.max(death[p], l);
            if (p == 0) size[0] += csz[r];
            if (chi[r] >= n) {
                int c = chi[r] - n;
                parentOf[c] = p;
                birth[c] = l;
                size[c] = csz[r];
                nKids[p]++;
            } else {
                nPts[p]++;
            }
        }
        for (int c = 0; c < clusters; c++) death[c] = Math.max(death[c], birth[c]);
    }

    /** Cluster children in id order (ids ascend, so filling by id keeps each list sorted). */
    private int[] childLists() {
        int[] list = new int[Math.max(0, clusters - 1)];
        int[] fill = kidStart.clone();
        for (int c = 1; c < clusters; c++) list[fill[parentOf[c]]++] = c;
        return list;
    }

    /** The lambdas of each cluster's own point rows. */
    private double[] pointLambdas(CondensedTreeData t, double lamInf) {
        int[] par = t.parent(), chi = t.child();
        double[] lam = t.lambda();
        double[] out = new double[ptStart[clusters]];
        int[] fill = ptStart.clone();
        for (int r = 0; r < t.rows(); r++) {
            if (chi[r] < n) out[fill[par[r] - n]++] = Math.min(lam[r], lamInf);
        }
        return out;
    }

    /** The largest death in each subtree (children have larger ids than their parents). */
    private double[] subtreeDeaths() {
        double[] sub = death.clone();
        for (int c = clusters - 1; c >= 1; c--) sub[parentOf[c]] = Math.max(sub[parentOf[c]], sub[c]);
        return sub;
    }

    private static int[] prefix(int[] counts) {
        int[] start = new int[counts.length + 1];
        for (int i = 0; i < counts.length; i++) start[i + 1] = start[i] + counts[i];
        return start;
    }
}
