package org.sylva.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The ball tree's sorting networks and the order of float keys. */
class TreeKernelHelpersTest {
    @Test
    void sortingNetworksSortEveryZeroOneInput() {
        for (int n : new int[] {4, 8, 16}) {
            long[] k = new long[n];
            for (int v = 0; v < (1 << n); v++) {
                for (int i = 0; i < n; i++) k[i] = (v >> i) & 1;
                if (n == 4) SortingNetworks.sort4(k);
                else if (n == 8) SortingNetworks.sort8(k);
                else SortingNetworks.sort16(k);
                for (int i = 1; i < n; i++) assertTrue(k[i - 1] <= k[i], "n=" + n + " v=" + v);
            }
        }
    }

    @Test
    void keysOrderLikeFloats() {
        SplittableRandom r = new SplittableRandom(8);
        float[] special = {0.0f, -0.0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, 1f, -1f};
        for (int i = 0; i < 100_000; i++) {
            float a = i < 64 ? special[i % 8] : Float.intBitsToFloat(r.nextInt()), b = i < 64 ? special[i / 8] : Float.intBitsToFloat(r.nextInt());
            if (!Float.isFinite(a) || !Float.isFinite(b)) continue;
            int ka = OrderedBits.key(a), kb = OrderedBits.key(b);
            assertEquals(a < b, ka < kb, a + " vs " + b);
            assertEquals(a == b, ka == kb, a + " vs " + b);
            assertEquals(a == 0 ? 0.0f : a, OrderedBits.value(ka));
            assertEquals((double) Math.max(a, b) - (double) Math.min(a, b), OrderedBits.spread(Math.min(ka, kb), Math.max(ka, kb)));
        }
    }
}
