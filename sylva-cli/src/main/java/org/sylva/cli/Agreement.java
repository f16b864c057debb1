package org.sylva.cli;

import java.util.HashMap;
import java.util.Map;

/** Agreement between two labelings (the demo compares clusters with the generating templates). */
final class Agreement {
    private Agreement() {
    }

    /** Adjusted Rand index (Hubert and Arabie); every label value, noise included, is one class. */
    static double adjustedRand(int[] a, int[] b) {
        int n = a.length;
        Map<Long, Long> pairs = new HashMap<>();
        Map<Integer, Long> ca = new HashMap<>(), cb = new HashMap<>();
        for (int i = 0; i < n; i++) {
            pairs.merge(((long) a[i] << 32) ^ (b[i] & 0xffffffffL), 1L, Long::sum);
            ca.merge(a[i], 1L, Long::sum);
            cb.merge(b[i], 1L, Long::sum);
        }
        double index = 0, sa = 0, sb = 0;
        for (long v : pairs.values()) index += choose2(v);
        for (long v : ca.values()) sa += choose2(v);
        for (long v : cb.values()) sb += choose2(v);
        double expected = sa * sb / choose2(n);
        double max = 0.5 * (sa + sb);
        return max == expected ? 1.0 : (index - expected) / (max - expected);
    }

    private static double choose2(long v) {
        return v * (v - 1) / 2.0;
    }
}
