package org.sylva.testsupport;

import java.util.HashMap;
import java.util.Map;

/**
 * The renaming of a fit's cluster numbers onto a reference's: each own cluster maps to the reference
 * label most of its points carry, counting only the points whose tie mask is 0 (noise is not renamed).
 *
 * <pre>{@code
 * Map<Integer, Integer> toRef = LabelRenaming.majority(own, ref, mask);
 * }</pre>
 */
public final class LabelRenaming {
    private LabelRenaming() {
    }

    /** Own label -> reference label by majority over points whose mask is 0. */
    public static Map<Integer, Integer> majority(int[] own, int[] ref, int[] mask) {
        Map<Integer, Map<Integer, Integer>> votes = new HashMap<>();
        for (int i = 0; i < own.length; i++) {
            if (mask[i] == 0 && own[i] >= 0) votes.computeIfAbsent(own[i], k -> new HashMap<>()).merge(ref[i], 1, Integer::sum);
        }
        Map<Integer, Integer> map = new HashMap<>();
        for (var e : votes.entrySet()) {
            map.put(e.getKey(), e.getValue().entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey());
        }
        return map;
    }
}
