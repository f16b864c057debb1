package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SamplingTest {
    @Test
    void keepsEverythingUnderTheCap() {
        int[] g = {0, 1, -1, 0, 1, 1};
        int[][] s = Sampling.stratified(g, 2, 10, 3);
        assertArrayEquals(new int[] {0, 3}, s[0]);
        assertArrayEquals(new int[] {1, 4, 5}, s[1]);
    }

    @Test
    void proportionalQuotasWithFloorsEvenlySpaced() {
        int n = 100_000;
        int[] g = new int[n];
        for (int i = 0; i < n; i++) g[i] = i < 99_990 ? 0 : 1; // a 10-point cluster among 99 990
        int[][] s = Sampling.stratified(g, 2, 1_000, 25);
        assertEquals(999, s[0].length); // floor(99 990 * 1000 / 100 000)
        assertEquals(10, s[1].length);  // floor 25, but only 10 exist
        for (int i = 0; i < s[0].length; i++) {
            assertEquals((int) ((long) i * 99_990 / 999), s[0][i], "evenly spaced in row order");
        }
        for (int i = 1; i < s[1].length; i++) assertTrue(s[1][i] > s[1][i - 1]);
    }

    @Test
    void theRowsRoundingLeavesOverGoToTheLargestRemaindersSoTheCapIsReached() {
        // 9 000 clusters of 20 rows and one of 20 000: shares of 0.5 rows each would all round down to nothing
        int groups = 9_001, n = 9_000 * 20 + 20_000;
        int[] g = new int[n];
        for (int i = 0; i < n; i++) g[i] = i < 20_000 ? 9_000 : (i - 20_000) / 20;
        int[][] s = Sampling.stratified(g, groups, 5_000, 0);
        int total = 0, drawn = 0;
        for (int[] rows : s) {
            total += rows.length;
            if (rows.length > 0) drawn++;
        }
        assertEquals(5_000, total);
        assertEquals(500, s[9_000].length);   // 20 000 * 5 000 / 200 000, a whole share
        // the 4 500 rows left: equal remainders, so the lower clusters first, one row each
        for (int c = 0; c < 9_000; c++) assertEquals(c < 4_500 ? 1 : 0, s[c].length, "cluster " + c);
        assertEquals(4_501, drawn);
    }

    @Test
    void aGroupTheFloorRaisedGetsNoneOfTheRowsLeftOver() {
        // sizes 46, 45 and 9 of 100, cap 10, floor 1: shares 4.6, 4.5 and 0.9; the floor already gave the third its
        // row, so the one row left goes to the largest remainder of the others
        int[] g = new int[100];
        for (int i = 0; i < 100; i++) g[i] = i < 46 ? 0 : i < 91 ? 1 : 2;
        int[][] s = Sampling.stratified(g, 3, 10, 1);
        assertEquals(5, s[0].length);
        assertEquals(4, s[1].length);
        assertEquals(1, s[2].length);
    }

    @Test
    void isDeterministic() {
        int[] g = new int[50_000];
        for (int i = 0; i < g.length; i++) g[i] = (i * 7919) % 13 - 1;
        int[][] a = Sampling.stratified(g, 12, 5_000, 25), b = Sampling.stratified(g, 12, 5_000, 25);
        for (int k = 0; k < 12; k++) assertArrayEquals(a[k], b[k]);
    }

    @Test
    void evenlySpacedIndicesKeepTheEndsAndAllWhenFew() {
        assertArrayEquals(new int[] {0, 1, 2}, Sampling.evenlySpaced(3, 256));
        assertArrayEquals(new int[] {0, 3, 6, 9}, Sampling.evenlySpaced(10, 4));
        int[] wide = Sampling.evenlySpaced(50_000, 256);
        assertEquals(256, wide.length);
        assertEquals(0, wide[0]);
        assertEquals(49_999, wide[255]);
        for (int i = 1; i < wide.length; i++) assertTrue(wide[i] > wide[i - 1]);
    }
}
