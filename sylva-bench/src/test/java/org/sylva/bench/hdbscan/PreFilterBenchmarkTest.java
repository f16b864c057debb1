package org.sylva.bench.hdbscan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The JMH benchmark of the pre-filter's tiles runs each of its cases, and the stopping kernel stops. */
class PreFilterBenchmarkTest {
    @Test
    void everyCaseRunsAndOnlyTheStoppingOnesShortenSums() {
        float plain = run("plain"), none = run("none"), all = run("all"), half = run("half");
        assertTrue(Float.isFinite(plain) && plain > 0, "plain " + plain);
        assertEquals(plain, none, "limits that never stop a block change nothing");
        assertTrue(all < plain, "every block stopped after 16 coordinates: partial sums " + all + " < " + plain);
        assertTrue(all <= half && half <= plain, "half " + half);
    }

    private static float run(String stops) {
        PreFilterBenchmark b = new PreFilterBenchmark();
        b.stops = stops;
        b.queries = 8;
        b.setUp();
        return b.tiles();
    }
}
