package org.sylva.hdbscan.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.kernels.KernelProvider;
import org.sylva.parallel.Execution;

/**
 * The HDBSCAN engine seam: an engine given to the builder runs the stages up to the spanning tree (here
 * one that delegates to the CPU engine and counts its calls, as a GPU or Spark engine would be plugged
 * in), and the hierarchy after it gives the same result as the default engine.
 */
class EngineSeamTest {
    @Test
    void aGivenEngineRunsTheSpanningTreeAndTheResultIsTheDefaultOne() {
        PointSet pts = ClipLikeData.generate(1500, 5).points();
        AtomicInteger calls = new AtomicInteger();
        HdbscanEngine cpu = new CpuHdbscanEngine(KernelProvider.get().scalarDistance());
        HdbscanEngine counting = new HdbscanEngine() {
            @Override
            public String name() {
                return "counting/" + cpu.name();
            }

            @Override
            public MutualReachabilityMst spanningTree(FittedPoints points, int minSamples, double alpha,
                                                      Execution execution) {
                calls.incrementAndGet();
                return cpu.spanningTree(points, minSamples, alpha, execution);
            }
        };
        Hdbscan plugged = Hdbscan.builder().minClusterSize(15).engine(counting).build();
        HdbscanResult viaSeam = plugged.fit(pts);
        HdbscanResult direct = Hdbscan.builder().minClusterSize(15).build().fit(pts);
        assertEquals(1, calls.get());
        assertEquals("counting/cpu/scalar", plugged.engine().name());
        assertArrayEquals(direct.labels(), viaSeam.labels());
        assertArrayEquals(direct.probabilities(), viaSeam.probabilities());
        assertArrayEquals(direct.coreDistances(), viaSeam.coreDistances());
        assertEquals(direct.spanningTree(), viaSeam.spanningTree());
        // toBuilder keeps the engine.
        plugged.toBuilder().build().fit(pts);
        assertEquals(2, calls.get());
    }
}
