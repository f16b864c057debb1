package org.sylva.bench.hdbscan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The thread-scaling benchmark's two methods run, compute something, and give each thread its own output. */
class ThreadScalingBenchmarkTest {
    @Test
    void bothMethodsRunOnTheirOwnState() {
        ThreadScalingBenchmark.Shared shared = new ThreadScalingBenchmark.Shared();
        shared.setUp();
        ThreadScalingBenchmark.Own a = new ThreadScalingBenchmark.Own(), b = new ThreadScalingBenchmark.Own();
        a.setUp(shared);
        b.setUp(shared);
        assertTrue(a.out != b.out, "each thread writes its own tile");
        ThreadScalingBenchmark bench = new ThreadScalingBenchmark();
        float tiles = bench.preFilterTiles(shared, a);
        assertTrue(Float.isFinite(tiles) && tiles > 0, "tiles " + tiles);
        assertEquals(tiles, bench.preFilterTiles(shared, b), "the same tiles from either thread's state");
        double arithmetic = bench.registerArithmetic(a);
        assertTrue(Double.isFinite(arithmetic) && arithmetic > 0, "arithmetic " + arithmetic);
    }
}
