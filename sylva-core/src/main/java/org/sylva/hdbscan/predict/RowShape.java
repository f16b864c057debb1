package org.sylva.hdbscan.predict;

import org.sylva.data.InvalidInputException;

/**
 * The shape of each input row of a fit whose rows were arrays: a row is {@code outer} runs of {@code inner}
 * values, a 2-D array flattened in C order, as {@code sylva hdbscan} reads a 3-D {@code .npy} of clips
 * {@code (n, outer, inner)} (channels and samples, in either order). A model that records it
 * ({@link HdbscanModel#withRowShape}) lets a caller refuse new clips whose axes come in the other order:
 * they have as many values per row but flatten to other coordinates, and would be assigned as nonsense.
 *
 * <pre>{@code
 * HdbscanModel model = HdbscanModel.of(result, points).withRowShape(new RowShape(4, 61));   // (n, 4, 61) clips
 * model.rowShape().ifPresent(s -> System.out.println(s));                                    // (4, 61)
 * }</pre>
 *
 * @param outer the first axis of a row (runs)
 * @param inner the second axis (values per run)
 */
public record RowShape(int outer, int inner) {
    public RowShape {
        if (outer < 1 || inner < 1 || (long) outer * inner > Integer.MAX_VALUE) {
            throw new InvalidInputException("a row shape (" + outer + ", " + inner + ") must have positive axes whose "
                    + "product is an int");
        }
    }

    /** Values per row: {@code outer * inner}. */
    public int size() {
        return outer * inner;
    }

    /** As NumPy prints a shape: {@code (4, 61)}. */
    @Override
    public String toString() {
        return "(" + outer + ", " + inner + ")";
    }
}
