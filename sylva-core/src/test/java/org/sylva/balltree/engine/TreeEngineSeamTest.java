package org.sylva.balltree.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
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

    /**
     * A given engine's tree or partition is checked before it is handed out: the wrong number of slots, a row twice
     * or in another batch's slots, a mask that is not 0 or 1, a partition that moves a row across batches are refused
     * naming the engine.
     */
    @Test
    void aGivenEnginesWrongTreeOrPartitionIsRefused() {
        PointSet pts = BallTreeDeterminismTest.points(300, 3, true, 5);
        int[] ids = BallTreeDeterminismTest.batches(300, 3, 2);
        refused(pts, ids, t -> new TreeEngine.TreeArrays(java.util.Arrays.copyOf(t.treeIdx(), 5), t.mask()), null,
                "returned a tree of 5 indices");
        refused(pts, ids, t -> null, null, "returned no tree");
        refused(pts, ids, t -> {
            int[] idx = t.treeIdx().clone();
            int s = 1;
            while (t.mask()[s] == 0) s++;
            idx[s] = idx[0];   // slot 0 is real in every tree: its row twice in the first batch, another missing
            return new TreeEngine.TreeArrays(idx, t.mask());
        }, null, "returned slot ");
        refused(pts, ids, t -> {
            byte[] mask = t.mask().clone();
            mask[0] = 2;
            return new TreeEngine.TreeArrays(t.treeIdx(), mask);
        }, null, "returned slot 0 holding row");
        refused(pts, ids, null, p -> java.util.Arrays.copyOf(p, 299), "returned a partition of 299 rows");
        refused(pts, ids, null, p -> {
            int[] q = p.clone();
            int last = q.length - 1;   // the last row of the last batch swapped with the first row of the first
            q[last] = p[0];
            q[0] = p[last];
            return q;
        }, "returned row ");
    }

    private static void refused(PointSet pts, int[] ids, UnaryOperator<TreeEngine.TreeArrays> tree,
            UnaryOperator<int[]> partition, String says) {
        TreeEngine cpu = new CpuTreeEngine(false);
        TreeEngine wrong = new TreeEngine() {
            @Override
            public String name() {
                return "wrong";
            }

            @Override
            public TreeArrays buildTree(PointSet points, BatchLayout layout, Execution execution) {
                TreeArrays t = cpu.buildTree(points, layout, execution);
                return tree == null ? t : tree.apply(t);
            }

            @Override
            public int[] partition(PointSet points, BatchLayout layout, int targetLevel, Execution execution) {
                int[] p = cpu.partition(points, layout, targetLevel, execution);
                return partition == null ? p : partition.apply(p);
            }
        };
        BallTreeBuilder b = new BallTreeBuilder().engine(wrong);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> {
                    if (tree != null) b.build(pts, ids);
                    else b.partition(pts, ids, 3);
                });
        assertEquals(true, e.getMessage().startsWith("the engine wrong " + says), e.getMessage());
    }

    /** A row past the last one, in the last batch's positions or slots, is wrong output naming the engine too. */
    @Test
    void aGivenEnginesRowPastTheEndIsRefused() {
        PointSet pts = BallTreeDeterminismTest.points(300, 3, true, 5);
        int[] ids = BallTreeDeterminismTest.batches(300, 3, 2);
        refused(pts, ids, null, p -> {
            int[] q = p.clone();
            q[q.length - 1] = q.length;
            return q;
        }, "returned row 300 at position 299");
        refused(pts, ids, t -> {
            int[] idx = t.treeIdx().clone();
            int s = idx.length - 1;
            while (t.mask()[s] == 0) s--;
            idx[s] = 300;
            return new TreeEngine.TreeArrays(idx, t.mask());
        }, null, "returned slot ");
    }
}
