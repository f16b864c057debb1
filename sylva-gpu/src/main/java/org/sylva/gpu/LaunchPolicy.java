package org.sylva.gpu;

/**
 * How a pass over many points is split into launches: a fixed number of points per launch, or (the
 * default) launches sized to take about {@code targetSeconds} each, measured as they run. Bounded
 * launches are what lets progress move and cancellation answer between them: a device kernel cannot be
 * interrupted.
 *
 * <pre>{@code
 * LaunchPolicy fixed = LaunchPolicy.fixed(97);        // 97 points per launch (tests of chunk boundaries)
 * LaunchPolicy timed = LaunchPolicy.timed(0.030);     // about 30 ms per launch
 * }</pre>
 *
 * @param fixedPoints points per launch, or 0 for timed launches
 * @param targetSeconds the target time of one timed launch
 */
public record LaunchPolicy(int fixedPoints, double targetSeconds) {
    /** About 30 ms per launch: short enough for a prompt cancel, long enough to amortise a launch. */
    public static final LaunchPolicy DEFAULT = timed(0.030);
    /** The first timed launch's points, before any measurement. */
    static final int FIRST_TIMED = 256;

    public LaunchPolicy {
        if (fixedPoints < 0) throw new IllegalArgumentException("points per launch must be >= 0, got " + fixedPoints);
        if (fixedPoints == 0 && !(targetSeconds > 0)) {
            throw new IllegalArgumentException("target launch time must be > 0, got " + targetSeconds);
        }
    }

    /** {@code points} per launch (at least 1). */
    public static LaunchPolicy fixed(int points) {
        if (points < 1) throw new IllegalArgumentException("points per launch must be >= 1, got " + points);
        return new LaunchPolicy(points, 0);
    }

    /** Launches of about {@code seconds} each. */
    public static LaunchPolicy timed(double seconds) {
        return new LaunchPolicy(0, seconds);
    }

    /** The next launch's points after one of {@code lastPoints} took {@code lastSeconds}. */
    int next(int lastPoints, double lastSeconds) {
        if (fixedPoints > 0) return fixedPoints;
        if (lastPoints == 0) return FIRST_TIMED;
        double scale = lastSeconds > 0 ? targetSeconds / lastSeconds : 4;
        scale = Math.max(0.25, Math.min(4, scale));   // move gradually: launches differ in cost
        long p = Math.round(lastPoints * scale / 64.0) * 64;
        return (int) Math.max(64, Math.min(1 << 24, p));
    }
}
