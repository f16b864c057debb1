package org.sylva.hdbscan.mst;

import java.util.Random;

/**
 * Test generator of clip-like data: a dozen smooth spike templates of 61 samples (a trough at sample 20
 * and a slower rebound), per-clip amplitude jitter and sub-sample shift, AR(1) noise along the clip, and
 * a tenth of pure-noise clips; float32, fixed seed. Deliberately simple; the library's own generator
 * will live in main code.
 */
public final class ClipLikeData {
    public static final int D = 61;

    private ClipLikeData() {
    }

    /** {@code n} clips, row-major {@code n * 61} floats. */
    public static float[] generate(int n, long seed) {
        Random rnd = new Random(seed);
        int templates = 12;
        double[] amp = new double[templates];
        double[] w1 = new double[templates];
        double[] w2 = new double[templates];
        double[] ratio = new double[templates];
        double[] delay = new double[templates];
        double[] weight = new double[templates];
        double total = 0;
        for (int t = 0; t < templates; t++) {
            amp[t] = 300.0 - t * (250.0 / (templates - 1));
            w1[t] = 1.5 + (t % 4) * 0.6;
            w2[t] = 4.0 + (t % 3) * 1.5;
            ratio[t] = 0.25 + 0.05 * (t % 5);
            delay[t] = 5.0 + (t % 4);
            weight[t] = Math.pow(t + 1, -0.8);
            total += weight[t];
        }
        // Two deliberately close pairs.
        amp[5] = amp[4] * 0.93;
        w1[5] = w1[4];
        w2[5] = w2[4];
        ratio[5] = ratio[4];
        delay[5] = delay[4];
        amp[9] = amp[8] * 0.9;
        w1[9] = w1[8];
        w2[9] = w2[8];
        ratio[9] = ratio[8];
        delay[9] = delay[8];
        float[] out = new float[n * D];
        double[] noise = new double[D];
        for (int i = 0; i < n; i++) {
            boolean pureNoise = rnd.nextDouble() < 0.1;
            ar1(rnd, noise, pureNoise ? 15.0 : 5.0);
            if (pureNoise) {
                for (int j = 0; j < D; j++) out[i * D + j] = (float) noise[j];
                continue;
            }
            double u = rnd.nextDouble() * total;
            int t = 0;
            for (; t < templates - 1; t++) {
                u -= weight[t];
                if (u < 0) break;
            }
            double a = amp[t] * (1.0 + 0.06 * rnd.nextGaussian());
            double shift = rnd.nextDouble() - 0.5;
            for (int j = 0; j < D; j++) {
                double x = j - 20 - shift;
                double y = -a * Math.exp(-0.5 * (x / w1[t]) * (x / w1[t]))
                        + ratio[t] * a * Math.exp(-0.5 * ((x - delay[t]) / w2[t]) * ((x - delay[t]) / w2[t]));
                out[i * D + j] = (float) (y + noise[j]);
            }
        }
        return out;
    }

    private static void ar1(Random rnd, double[] e, double std) {
        double rho = 0.6;
        double innov = std * Math.sqrt(1 - rho * rho);
        e[0] = std * rnd.nextGaussian();
        for (int j = 1; j < e.length; j++) e[j] = rho * e[j - 1] + innov * rnd.nextGaussian();
    }

    /** A copy of {@code rows} ({@code n} rows of {@code d}) where about {@code fraction} of the rows are exact copies of other rows. */
    public static float[] withDuplicates(float[] rows, int n, int d, double fraction, long seed) {
        Random rnd = new Random(seed);
        float[] out = rows.clone();
        int dups = (int) (n * fraction);
        for (int i = 0; i < dups; i++) {
            int dst = rnd.nextInt(n), src = rnd.nextInt(n);
            System.arraycopy(rows, src * d, out, dst * d, d);
        }
        return out;
    }

    public static double[] toDouble(float[] f) {
        double[] r = new double[f.length];
        for (int i = 0; i < f.length; i++) r[i] = f[i];
        return r;
    }
}
