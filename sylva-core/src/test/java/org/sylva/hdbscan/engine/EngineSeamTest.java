package org.sylva.hdbscan.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.mst.SpanningTree;
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

    /**
     * What a given engine returns is checked before the hierarchy is built on it: a tree or core distances of
     * another size, nothing, or edges that are no spanning tree are refused naming the engine, never a result whose
     * arrays do not fit the input.
     */
    @Test
    void aGivenEnginesWrongOutputIsRefusedNamingIt() {
        PointSet pts = ClipLikeData.generate(60, 5).points();
        int[] chain = new int[9];
        Arrays.setAll(chain, i -> i + 1);
        assertRefused(pts, m -> new MutualReachabilityMst(m.coreDistances(),
                SpanningTree.of(10, new int[9], chain, new double[9]), Map.of()), "a spanning tree of 10 points");
        assertRefused(pts, m -> new MutualReachabilityMst(Arrays.copyOf(m.coreDistances(), 10), m.tree(), Map.of()),
                "10 core distances");
        assertRefused(pts, m -> null, "no result");
        assertRefused(pts, m -> new MutualReachabilityMst(m.coreDistances(), null, Map.of()), "no spanning tree");
        assertRefused(pts, m -> new MutualReachabilityMst(null, m.tree(), Map.of()), "no core distances");
        int[] from = new int[59], to = new int[59];
        Arrays.setAll(to, i -> i == 58 ? 1 : i + 1);   // the last edge repeats the first: point 59 is never reached
        assertRefused(pts, m -> new MutualReachabilityMst(m.coreDistances(), SpanningTree.of(60, from, to,
                new double[59]), Map.of()), "no spanning tree: spanning tree edge 58 (0, 1) joins points");
        assertThrows(IllegalArgumentException.class, () -> SpanningTree.of(-1, new int[0], new int[0], new double[0]));
    }

    private static void assertRefused(PointSet pts, UnaryOperator<MutualReachabilityMst> change, String says) {
        HdbscanEngine cpu = new CpuHdbscanEngine(KernelProvider.get().scalarDistance());
        HdbscanEngine wrong = new HdbscanEngine() {
            @Override
            public String name() {
                return "wrong";
            }

            @Override
            public MutualReachabilityMst spanningTree(FittedPoints points, int minSamples, double alpha,
                                                      Execution execution) {
                return change.apply(cpu.spanningTree(points, minSamples, alpha, execution));
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Hdbscan.builder().minClusterSize(5).engine(wrong).build().fit(pts));
        assertEquals(true, e.getMessage().startsWith("the engine wrong returned " + says), e.getMessage());
    }
}
