package org.sylva.gpu;

/**
 * How a pass over many points is split into launches: a fixed number of points per launch, or (the
 * default) launches sized to take about {@code targetSeconds} each, measured as they run. Bounded
 * launches are what lets progress move and cancellation answer between them: a device kernel cannot be
 * interrupted, and a display GPU's watchdog ends a kernel that runs for seconds.
 *
 * <p>A timed launch is a whole number of <em>waves</em>: a wave is the device's width for the kernel
 * (the work-items it runs at once, {@link DeviceSession#width}). Every work-item of the kernels scans the
 * candidate tiles its bounds cannot skip, so a launch of fewer points than a wave takes as long as a
 * whole wave and leaves part of the device idle; the launch time is modelled as waves times the time of
 * one wave, measured on the previous launch. A launch is never less than {@code minWaves} waves. Why
 * more than one: the work-groups of a wave differ widely in cost (one in a dense cluster skips most
 * tiles, one among outliers skips few), and a launch ends with its slowest group; with several waves in
 * one launch the device starts the next groups on the units the fast ones free.
 *
 * <pre>{@code
 * LaunchPolicy fixed = LaunchPolicy.fixed(97);        // 97 points per launch (tests of chunk boundaries)
 * LaunchPolicy timed = LaunchPolicy.timed(0.030, 4);  // about 30 ms per launch, at least 4 waves
 * }</pre>
 *
 * @param fixedPoints points per launch, or 0 for timed launches
 * @param targetSeconds the target time of one timed launch
 * @param minWaves the fewest waves of a timed launch (at least 1)
 */
public record LaunchPolicy(int fixedPoints, double targetSeconds, int minWaves) {
    /**
     * The fewest waves of the default policy's launches: the system property {@code sylva.gpu.launchWaves}
     * (for the device check's comparisons; {@link GpuTuning}), else 1. More waves per launch should let a GPU fill in behind
     * a wave's slow work-groups, at the price of a longer wait for a cancel (a launch cannot be
     * interrupted); that has not been measured on a GPU, so the default keeps one.
     */
    static final int DEFAULT_MIN_WAVES = GpuTuning.positiveInt("sylva.gpu.launchWaves", 1);
    /** About 30 ms per launch, at least {@link #DEFAULT_MIN_WAVES} waves: a prompt cancel, a launch amortised. */
    public static final LaunchPolicy DEFAULT = timed(0.030, DEFAULT_MIN_WAVES);
    /** The most points of one timed launch. */
    static final int MAX_POINTS = 1 << 24;

    public LaunchPolicy {
        if (fixedPoints < 0) throw new IllegalArgumentException("points per launch must be >= 0, got " + fixedPoints);
        if (fixedPoints == 0 && !(targetSeconds > 0)) {
            throw new IllegalArgumentException("target launch time must be > 0, got " + targetSeconds);
        }
        if (fixedPoints == 0 && minWaves < 1) {
            throw new IllegalArgumentException("waves per launch must be >= 1, got " + minWaves);
        }
    }

    /** {@code points} per launch (at least 1), whatever the device's width. */
    public static LaunchPolicy fixed(int points) {
        if (points < 1) throw new IllegalArgumentException("points per launch must be >= 1, got " + points);
        return new LaunchPolicy(points, 0, 0);
    }

    /** Launches of about {@code seconds} each, in whole waves of the device, at least one wave. */
    public static LaunchPolicy timed(double seconds) {
        return timed(seconds, 1);
    }

    /** Launches of about {@code seconds} each, in whole waves of the device, at least {@code minWaves}. */
    public static LaunchPolicy timed(double seconds, int minWaves) {
        return new LaunchPolicy(0, seconds, minWaves);
    }

    /**
     * The next launch's points on a device {@code width} work-items wide, after one of {@code lastCount}
     * points took {@code lastSeconds} ({@code lastCount} 0: the first launch, {@code minWaves} waves).
     */
    int next(int width, int lastCount, double lastSeconds) {
        if (fixedPoints > 0) return fixedPoints;
        long w = Math.max(1, width);
        long most = Math.max(1, MAX_POINTS / w);   // waves of the largest launch
        long least = Math.min(most, minWaves);
        if (lastCount <= 0) return (int) Math.min(Integer.MAX_VALUE, least * w);
        long lastWaves = (lastCount + w - 1) / w;   // a partial wave takes a whole wave's time
        double perWave = lastSeconds / lastWaves;
        long waves = perWave > 0 ? Math.round(Math.min(most, targetSeconds / perWave)) : lastWaves * 4;
        // move gradually (launches differ in cost), never below the fewest waves nor above the largest launch
        waves = Math.max(Math.max(least, lastWaves / 4), Math.min(lastWaves * 4, waves));
        return (int) Math.min(Integer.MAX_VALUE, Math.min(most, waves) * w);
    }
}
