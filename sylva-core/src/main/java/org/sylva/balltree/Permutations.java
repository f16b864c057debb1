package org.sylva.balltree;

import org.sylva.data.InvalidInputException;

/**
 * Helpers for permutations of rows such as the output of
 * {@link BallTreeBuilder#partition(org.sylva.data.PointSet, int[], int)}: {@code perm[j]} is the input
 * row placed at position {@code j}.
 *
 * <pre>{@code
 * int[] perm = builder.partition(points, ids, 3);
 * int[] pos = Permutations.inverse(perm);                  // pos[row] = where the row went
 * float[] back = Permutations.toInputOrder(perRow, 4, perm); // results computed in perm order
 * }</pre>
 */
public final class Permutations {
    private Permutations() { }

    /** The inverse permutation; throws {@link InvalidInputException} if {@code perm} is not one. */
    public static int[] inverse(int[] perm) {
        int n = perm.length;
        int[] inv = new int[n];
        java.util.Arrays.fill(inv, -1);
        for (int j = 0; j < n; j++) {
            int row = perm[j];
            if (row < 0 || row >= n) {
                throw new InvalidInputException("not a permutation: position " + j + " holds " + row
                        + ", outside [0, " + n + ")");
            }
            if (inv[row] >= 0) {
                throw new InvalidInputException("not a permutation: row " + row + " appears at positions "
                        + inv[row] + " and " + j);
            }
            inv[row] = j;
        }
        return inv;
    }

    /**
     * Scatters rows computed in permuted order back to input order: row {@code j} of {@code permuted}
     * ({@code width} values) becomes row {@code perm[j]} of the result.
     */
    public static float[] toInputOrder(float[] permuted, int width, int[] perm) {
        if (width < 1) throw new InvalidInputException("width must be >= 1, got " + width);
        if (permuted.length != (long) perm.length * width) {
            throw new InvalidInputException("array has " + permuted.length + " values, expected rows * width = "
                    + perm.length + " * " + width);
        }
        inverse(perm); // validates
        float[] out = new float[permuted.length];
        for (int j = 0; j < perm.length; j++) {
            System.arraycopy(permuted, j * width, out, perm[j] * width, width);
        }
        return out;
    }
}
