package org.sylva.hdbscan.quality;

import org.sylva.data.InvalidInputException;

/**
 * The members of each cluster of a labelling, in ascending row order (the order NumPy's boolean masks
 * keep, which the centre and validity formulas depend on). Labels are -1 for noise, below -1 for rows
 * left out of a fit, and {@code 0 .. K-1} for clusters, every one of which must have a member.
 *
 * <pre>{@code
 * int[][] members = Members.of(labels, n);   // members[k]: rows of cluster k, ascending
 * }</pre>
 */
final class Members {
    private Members() {
    }

    static int[][] of(int[] labels, int n) {
        if (labels.length != n) throw new InvalidInputException(labels.length + " labels for " + n + " points");
        int k = 0;
        for (int l : labels) {
            // K clusters of at least one member each number at most n: a larger label leaves a gap (refused here,
            // before a count array of its size; and l + 1 cannot overflow)
            if (l >= n) {
                throw new InvalidInputException("label " + l + " is not a cluster of " + n + " points: labels must "
                        + "number the clusters 0 .. K-1 without gaps");
            }
            k = Math.max(k, l + 1);
        }
        int[] count = new int[k];
        for (int l : labels) if (l >= 0) count[l]++;
        int[][] out = new int[k][];
        for (int c = 0; c < k; c++) {
            if (count[c] == 0) {
                throw new InvalidInputException("cluster " + c + " has no member: labels must number the clusters "
                        + "0 .. " + (k - 1) + " without gaps");
            }
            out[c] = new int[count[c]];
        }
        int[] fill = new int[k];
        for (int i = 0; i < n; i++) if (labels[i] >= 0) out[labels[i]][fill[labels[i]]++] = i;
        return out;
    }
}
