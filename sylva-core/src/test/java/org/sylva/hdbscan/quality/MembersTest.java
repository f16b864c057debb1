package org.sylva.hdbscan.quality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;

/** The clusters' members of a labelling, and labels that cannot number clusters refused before any allocation. */
class MembersTest {
    @Test
    void membersInRowOrderNoiseAndLeftOutRowsApart() {
        int[][] m = Members.of(new int[] {1, 0, -1, 1, -2, 0}, 6);
        assertArrayEquals(new int[] {1, 5}, m[0]);
        assertArrayEquals(new int[] {0, 3}, m[1]);
    }

    @Test
    void aLabelBeyondTheRowsIsRefusedWithoutAnArrayOfItsSize() {
        for (int huge : new int[] {5, 100_000_000, 1_000_000_000, Integer.MAX_VALUE}) {
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> Members.of(new int[] {0, 0, 0, huge, huge}, 5));
            assertEquals("label " + huge + " is not a cluster of 5 points: labels must number the clusters 0 .. K-1 "
                    + "without gaps", e.getMessage());
        }
        assertThrows(InvalidInputException.class, () -> Members.of(new int[] {0, 2, 2}, 3), "a gap below n");
    }
}
