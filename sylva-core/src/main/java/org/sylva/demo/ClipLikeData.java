package org.sylva.demo;

import java.util.SplittableRandom;
import org.sylva.data.PointSet;

/**
 * Generates "clip-like" spike waveforms: the data Sylva's HDBSCAN is built for and measured on. Each
 * clip has 61 samples with the trough at sample 20. Twelve fixed templates (a Gaussian trough of
 * amplitude 300..50 µV and a smaller, wider rebound; two deliberately close pairs) with Zipf-like
 * cluster sizes (weights {@code (k+1)^-0.8}), a per-spike amplitude factor N(1, 0.06), a sub-sample
 * time shift U(-0.5, 0.5) and AR(1) noise along the clip (std 5 µV, lag-1 correlation 0.6); a tenth of
 * the clips are pure noise (same AR(1) noise, std 15 µV). Rows are shuffled.
 *
 * <p>This follows the generator documented with the HDBSCAN oracle ({@code make_clips}) in shape and
 * parameters, but with Java's {@link SplittableRandom}, so its numbers are not numpy's: same seed, same
 * data, on every machine and run.
 *
 * <pre>{@code
 * ClipLikeData demo = ClipLikeData.generate(20_000, 20240);
 * PointSet clips = demo.points();     // 20 000 x 61, float32
 * int[] truth = demo.truth();         // template id, -1 = noise clip
 * }</pre>
 *
 * @param points the clips, n x 61
 * @param truth generating template per clip, -1 for pure-noise clips
 */
public record ClipLikeData(PointSet points, int[] truth) {
    /** Samples per clip. */
    public static final int SAMPLES = 61;
    /**
     * The most clips one data set holds: its {@code n x 61} float32 coordinates are one Java array, whose
     * length is at most {@code Integer.MAX_VALUE - 8} on every JVM.
     */
    public static final int MAX_POINTS = (Integer.MAX_VALUE - 8) / SAMPLES;
    private static final int TROUGH = 20;
    /** Templates: amplitude A, trough width w, rebound ratio r, rebound delay, rebound width. */
    private static final double[][] TEMPLATES = {
        {300, 1.2, 0.35, 6, 3.0}, {260, 1.6, 0.25, 7, 3.5}, {220, 1.0, 0.45, 5, 2.5}, {200, 2.0, 0.20, 8, 4.0},
        {180, 1.4, 0.30, 6, 3.0}, {172, 1.45, 0.31, 6, 3.1}, {150, 1.1, 0.50, 4, 2.0}, {130, 1.8, 0.15, 9, 4.5},
        {110, 1.3, 0.40, 5, 2.8}, {104, 1.35, 0.41, 5, 2.9}, {80, 1.5, 0.30, 7, 3.2}, {50, 1.2, 0.35, 6, 3.0},
    };

    public ClipLikeData {
        truth = truth.clone();
    }

    @Override
    public int[] truth() {
        return truth.clone();
    }

    /** Generates {@code 0 <= n <= MAX_POINTS} clips from {@code seed}. */
    public static ClipLikeData generate(int n, long seed) {
        if (n < 0) throw new IllegalArgumentException("n must be >= 0, got " + n);
        if (n > MAX_POINTS) {
            throw new IllegalArgumentException("n must be at most " + MAX_POINTS + " (" + SAMPLES
                    + " float32 samples each in one Java array), got " + n);
        }
        SplittableRandom rng = new SplittableRandom(seed);
        int k = TEMPLATES.length;
        double[] cum = new double[k];
        double sum = 0;
        for (int i = 0; i < k; i++) {
            sum += Math.pow(i + 1.0, -0.8);
            cum[i] = sum;
        }
        int nNoise = (int) Math.round(0.10 * n);
        int nSpikes = n - nNoise;
        float[] x = new float[n * SAMPLES];
        int[] label = new int[n];
        double[] noise = new double[SAMPLES];
        for (int i = 0; i < n; i++) {
            boolean isNoise = i >= nSpikes;
            int t = -1;
            double amp = 1, shift = 0;
            if (!isNoise) {
                double u = rng.nextDouble() * sum;
                t = 0;
                while (t < k - 1 && u > cum[t]) t++;   // bounded by k
                amp = 1.0 + 0.06 * gaussian(rng);
                shift = rng.nextDouble() - 0.5;
            }
            arNoise(rng, noise, isNoise ? 15.0 : 5.0, 0.6);
            for (int s = 0; s < SAMPLES; s++) {
                double v = noise[s];
                if (!isNoise) v += amp * template(t, s - shift);
                x[i * SAMPLES + s] = (float) v;
            }
            label[i] = t;
        }
        // Fisher-Yates shuffle of rows (and labels), deterministic in the seed.
        float[] tmp = new float[SAMPLES];
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            System.arraycopy(x, i * SAMPLES, tmp, 0, SAMPLES);
            System.arraycopy(x, j * SAMPLES, x, i * SAMPLES, SAMPLES);
            System.arraycopy(tmp, 0, x, j * SAMPLES, SAMPLES);
            int l = label[i];
            label[i] = label[j];
            label[j] = l;
        }
        return new ClipLikeData(PointSet.of(n, SAMPLES, x), label);
    }

    /** Template {@code k} evaluated at (fractional) sample position {@code t}. */
    static double template(int k, double t) {
        double[] p = TEMPLATES[k];
        double a = p[0], w = p[1], r = p[2], delay = p[3], w2 = p[4];
        double z1 = (t - TROUGH) / w, z2 = (t - TROUGH - delay) / w2;
        return -a * Math.exp(-0.5 * z1 * z1) + r * a * Math.exp(-0.5 * z2 * z2);
    }

    private static void arNoise(SplittableRandom rng, double[] out, double sigma, double rho) {
        double s = Math.sqrt(1.0 - rho * rho);
        double prev = gaussian(rng);
        out[0] = sigma * prev;
        for (int j = 1; j < out.length; j++) {
            prev = rho * prev + s * gaussian(rng);
            out[j] = sigma * prev;
        }
    }

    /** Standard normal by Box-Muller (one value per call; deterministic, no cached state). */
    private static double gaussian(SplittableRandom rng) {
        double u1 = rng.nextDouble();
        double u2 = rng.nextDouble();
        return Math.sqrt(-2.0 * Math.log1p(-u1)) * Math.cos(2 * Math.PI * u2);
    }
}
