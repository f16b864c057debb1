package org.sylva.cli.report;

/**
 * Deterministic subsampling for the report: rows for the scatter plots, stratified (points are grouped
 * by cluster label or ball, each group gets a quota proportional to its size but never below
 * {@code min(size, floor)} so that small clusters stay visible, the rows rounding leaves over going to the
 * largest remainders, and inside a group the members are
 * taken evenly spaced in index order), and evenly spaced indices for the columns of very wide data
 * (the coordinates the projection uses, the samples and channels a waveform panel draws), which keep
 * the report's work bounded whatever the dimension. No randomness: the same input always selects the
 * same rows and columns.
 */
final class Sampling {
    private Sampling() {
    }

    /**
     * {@code min(total, max)} indices of {@code 0 .. total-1}, increasing and evenly spaced, the first and
     * the last always among them ({@code max >= 2}); all of them when {@code total <= max}.
     */
    static int[] evenlySpaced(int total, int max) {
        if (max < 2) throw new IllegalArgumentException("max must be >= 2, got " + max);
        int k = Math.min(total, max);
        int[] idx = new int[k];
        for (int t = 0; t < k; t++) idx[t] = k == total ? t : (int) ((long) t * (total - 1) / (k - 1));
        return idx;
    }

    /**
     * Groups the rows: {@code group[i]} in {@code 0 .. groups-1}, or negative to leave row {@code i}
     * out. Returns, per group, the sampled row indices in increasing order.
     *
     * @param cap   target total number of rows (exceeded only by the per-group floors)
     * @param floor minimum rows per group (when the group has them)
     */
    static int[][] stratified(int[] group, int groups, int cap, int floor) {
        int[] size = new int[groups];
        long total = 0;
        for (int g : group) {
            if (g >= 0) {
                size[g]++;
                total++;
            }
        }
        int[] quota = new int[groups];
        boolean[] floored = new boolean[groups];   // raised above its share by the floor: no row of the rest
        long sum = 0;
        for (int g = 0; g < groups; g++) {
            if (total <= cap) {
                quota[g] = size[g];
            } else {
                int prop = (int) ((long) size[g] * cap / total);
                quota[g] = Math.min(size[g], Math.max(prop, Math.min(size[g], floor)));
                floored[g] = quota[g] > prop;
            }
            sum += quota[g];
        }
        if (sum < cap && total > cap) {
            // the rows the proportional shares rounded away (at most one per group): one more row each to the groups
            // of the largest remainders of size * cap / total, the lower group first among equal ones, so that the
            // plot holds cap rows (with thousands of small clusters, rounding down alone left half the budget unused)
            long[] key = new long[groups];
            for (int g = 0; g < groups; g++) {
                long remainder = (long) size[g] * cap % total;   // < total <= 2^31: key fits in a long
                key[g] = remainder * groups + (groups - 1 - g);
            }
            java.util.Arrays.sort(key);
            for (int r = groups - 1; r >= 0 && sum < cap; r--) {
                int g = groups - 1 - (int) (key[r] % groups);
                if (!floored[g] && quota[g] < size[g]) {
                    quota[g]++;
                    sum++;
                }
            }
        }
        int[][] members = new int[groups][];
        for (int g = 0; g < groups; g++) members[g] = new int[quota[g]];
        int[] seen = new int[groups];
        int[] taken = new int[groups];
        for (int i = 0; i < group.length; i++) {
            int g = group[i];
            if (g < 0 || taken[g] >= quota[g]) continue;
            // take the member whose rank is floor(j * size / quota) for j = taken[g]
            long want = (long) taken[g] * size[g] / quota[g];
            if (seen[g] == want) members[g][taken[g]++] = i;
            seen[g]++;
        }
        return members;
    }
}
