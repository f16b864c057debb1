package org.sylva.balltree.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.sylva.balltree.BallTree;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.balltree.BallTreeDeterminismTest;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.PointSet;
import org.sylva.parallel.Execution;

/**
 * The tree engine seam: an engine given to the builder runs the builds and partitions (here one that
 * delegates to the CPU engine and counts its calls), with the same trees as the default engine; the
 * kernel switch does not replace a given engine.
 */
class TreeEngineSeamTest {
    @Test
    void aGivenEngineBuildsTheSameTrees() {
        PointSet pts = BallTreeDeterminismTest.points(5000, 3, true, 11);
        int[] ids = BallTreeDeterminismTest.batches(5000, 7, 3);
        AtomicInteger calls = new AtomicInteger();
        TreeEngine cpu = new CpuTreeEngine(false);
        TreeEngine counting = new TreeEngine() {
            @Override
            public String name() {
                return "counting/" + cpu.name();
            }

            @Override
            public TreeArrays buildTree(PointSet points, BatchLayout layout, Execution execution) {
                calls.incrementAndGet();
                return cpu.buildTree(points, layout, execution);
            }

            @Override
            public int[] partition(PointSet points, BatchLayout layout, int targetLevel, Execution execution) {
                calls.incrementAndGet();
                return cpu.partition(points, layout, targetLevel, execution);
            }
        };
        BallTreeBuilder plugged = new BallTreeBuilder().threads(2).engine(counting);
        BallTree viaSeam = plugged.build(pts, ids);
        int[] perm = plugged.partition(pts, ids, 4);
        assertEquals(new BallTreeBuilder().threads(2).build(pts, ids), viaSeam);
        assertArrayEquals(new BallTreeBuilder().threads(2).partition(pts, ids, 4), perm);
        plugged.vectorKernels(true).build(pts, ids);
        assertEquals(3, calls.get(), "the kernel switch keeps a given engine");
        assertEquals("counting/cpu/scalar", plugged.engine().name());
        assertEquals("cpu/vector", plugged.engine(null).vectorKernels(true).engine().name());
    }
}
