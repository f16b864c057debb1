package org.sylva.balltree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.gpu.GpuTreeEngine;
import org.sylva.gpu.TestDevice;

/**
 * Every case of {@code ../shared/oracle/balltree/manifest.json} on the GPU engine (OpenCL; PoCL in CI)
 * against the CPU engine, byte for byte: the builds ({@code tree_idx}, {@code mask}, the layout), the
 * partitions at every listed level, and the error cases (the same exception and message).
 */
class GpuBallTreeOracleTest {
    /** The GPU engine with small nodes in local memory (the default) and with every level global. */
    private static BallTreeBuilder[] gpus() {
        return new BallTreeBuilder[] {new BallTreeBuilder().threads(1).engine(new GpuTreeEngine(TestDevice.openCl())),
            new BallTreeBuilder().threads(1).engine(new GpuTreeEngine(TestDevice.openCl(), false))};
    }

    private static BallTreeBuilder cpu() {
        return new BallTreeBuilder().threads(1);
    }

    @TestFactory
    Stream<DynamicTest> everyBuildCaseIsTheCpuEnginesTree() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (BallTreeOracle.BuildCase c : BallTreeOracle.buildCases()) {
            tests.add(DynamicTest.dynamicTest(c.name() + " (" + c.expect() + ")", () -> {
                BallTreeOracle.Input in = BallTreeOracle.readInput(c.name());
                PointSet pts = PointSet.unchecked(in.n(), in.d(), in.coords());
                for (BallTreeBuilder gpu : gpus()) {
                    BallTree want;
                    try {
                        want = cpu().build(pts, in.batch());
                    } catch (InvalidInputException e) {
                        InvalidInputException got = assertThrows(InvalidInputException.class, () -> gpu.build(pts, in.batch()));
                        assertEquals(e.getMessage(), got.getMessage());
                        continue;
                    }
                    BallTree got = gpu.build(pts, in.batch());
                    assertArrayEquals(want.indicesAsLong(), got.indicesAsLong(), c.name() + " tree_idx");
                    assertArrayEquals(want.maskBytes(), got.maskBytes(), c.name() + " mask");
                    assertEquals(want, got);
                }
            }));
        }
        assertTrue(tests.size() >= 25, "manifest lists " + tests.size() + " build cases");
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicTest> everyPartitionCaseIsTheCpuEnginesPartition() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (BallTreeOracle.PartitionCase c : BallTreeOracle.partitionCases()) {
            for (int level : c.levels()) {
                tests.add(DynamicTest.dynamicTest(c.name() + " t" + level, () -> {
                    BallTreeOracle.Input in = BallTreeOracle.readInput(c.name());
                    PointSet pts = PointSet.of(in.n(), in.d(), in.coords());
                    int[] want = cpu().partition(pts, in.batch(), level);
                    for (BallTreeBuilder gpu : gpus()) assertArrayEquals(want, gpu.partition(pts, in.batch(), level));
                }));
            }
        }
        assertEquals(6, tests.size());
        return tests.stream();
    }
}
