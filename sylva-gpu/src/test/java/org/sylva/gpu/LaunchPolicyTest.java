package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.engine.CpuHdbscanEngine;
import org.sylva.hdbscan.engine.FittedPoints;
import org.sylva.hdbscan.engine.MutualReachabilityMst;
import org.sylva.hdbscan.Backend;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancellationToken;

/**
 * Timed launches are whole waves of the device's width: never fewer points than fill the device (a
 * launch of fewer takes as long, each work-item scanning all points), never fewer waves than the
 * policy's least (a launch ends with its slowest work-group: several waves let the device start new
 * groups behind the fast ones), the least when a wave is slower than the target, more waves (at most
 * four times as many per step) when waves are fast.
 */
class LaunchPolicyTest {
    private static final LaunchPolicy TARGET_30MS = LaunchPolicy.timed(0.030);

    @Test
    void theFirstLaunchIsOneWave() {
        assertEquals(128, TARGET_30MS.next(128, 0, 0));
        assertEquals(67_584, TARGET_30MS.next(67_584, 0, 0));
    }

    @Test
    void aWaveSlowerThanTheTargetIsNotSplitFurther() {
        // one wave of 128 points took 0.5 s: fewer points would take as long, so the next launch is one wave again
        assertEquals(128, TARGET_30MS.next(128, 128, 0.5));
        // eight waves took 2 s: a quarter of them next (moving gradually), then one wave
        assertEquals(256, TARGET_30MS.next(128, 1024, 2.0));
        assertEquals(128, TARGET_30MS.next(128, 256, 0.5));
    }

    @Test
    void launchesGrowByWholeWavesTowardsTheTarget() {
        assertEquals(4 * 128, TARGET_30MS.next(128, 128, 0.001));       // fast: at most four times as many
        assertEquals(3 * 128, TARGET_30MS.next(128, 2 * 128, 0.020));   // 10 ms a wave: three waves
        assertEquals(128, TARGET_30MS.next(128, 130, 0.060));           // two waves (one partial) took 60 ms
        assertEquals(LaunchPolicy.MAX_POINTS / 1000 * 1000, TARGET_30MS.next(1000, LaunchPolicy.MAX_POINTS, 1e-6));
    }

    @Test
    void aLaunchIsNeverFewerThanTheLeastWaves() {
        LaunchPolicy four = LaunchPolicy.timed(0.030, 4);
        assertEquals(4 * 128, four.next(128, 0, 0));          // the first launch: four waves
        assertEquals(4 * 128, four.next(128, 4 * 128, 2.0));  // four slow waves: four again, not one
        assertEquals(4 * 128, four.next(128, 100, 0.5));      // after a pass's short last launch
        assertEquals(16 * 128, four.next(128, 4 * 128, 1e-4)); // fast: growing as before
        // the least is capped by the largest launch
        assertEquals(LaunchPolicy.MAX_POINTS, LaunchPolicy.timed(0.030, 1 << 30).next(1, 0, 0));
    }

    @Test
    void aLeastOfZeroWavesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> LaunchPolicy.timed(0.03, 0));
    }

    @Test
    void fixedLaunchesIgnoreTheWidth() {
        assertEquals(97, LaunchPolicy.fixed(97).next(128, 0, 0));
        assertEquals(1, LaunchPolicy.fixed(1).next(4096, 1, 9.0));
    }

    /**
     * On the OpenCL device, with a target no launch can meet: every launch but the last of a pass is one
     * wave of the device's width (the least of that policy), and the fit is still the CPU engine's, bit
     * for bit.
     */
    @Test
    void slowLaunchesOnTheDeviceStayOneWaveWide() {
        slowLaunchesAreTheLeastWaves(1);
    }

    /** As above with a least of two waves: every launch but a pass's last is two waves. */
    @Test
    void slowLaunchesOnTheDeviceAreTheLeastWaves() {
        slowLaunchesAreTheLeastWaves(2);
    }

    private static void slowLaunchesAreTheLeastWaves(int least) {
        int n = 1500, d = 12;
        FittedPoints pts = new FittedPoints(GpuEdgeCaseTest.clipLike(n, d, 21), n, d);
        GpuHdbscanEngine e = TestDevice.engine(LaunchPolicy.timed(1e-9, least), true);
        int coreWidth, edgeWidth;
        try (DeviceFit f = e.backend().open(pts, 11)) {
            coreWidth = f.coreListsWidth();
            edgeWidth = f.cheapestEdgesWidth();
        }
        assertTrue(coreWidth >= 64 && least * coreWidth < n, "width " + coreWidth);
        Map<String, List<Long>> done = new LinkedHashMap<>();
        Execution ex = new Execution(1, (stage, at, total) -> {
            synchronized (done) {
                done.computeIfAbsent(stage, s -> new ArrayList<>()).add(at);
            }
        }, CancellationToken.NEVER);
        MutualReachabilityMst gpu = e.spanningTree(pts, 10, 1.0, ex);
        MutualReachabilityMst cpu = new CpuHdbscanEngine(Backend.SCALAR).spanningTree(pts, 10, 1.0, Execution.sequential());
        SameBytes.assertBits(cpu.coreDistances(), gpu.coreDistances(), "core distances");
        assertEquals(cpu.tree(), gpu.tree());
        for (Map.Entry<String, List<Long>> s : done.entrySet()) {
            int width = s.getKey().startsWith("core") ? coreWidth : edgeWidth;
            List<Long> at = s.getValue();
            for (int i = 0; i + 1 < at.size(); i++) {
                long size = at.get(i) - (i == 0 ? 0 : at.get(i - 1));
                assertEquals((long) least * width, size, s.getKey() + ": launch " + i + " of " + at);
            }
        }
        assertTrue(done.get("core distances").size() >= n / (least * coreWidth), done.toString());
    }
}
