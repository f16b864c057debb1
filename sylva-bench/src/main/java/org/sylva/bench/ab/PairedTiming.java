package org.sylva.bench.ab;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.sylva.bench.ab.VersionAB.Input;

/**
 * The timing of {@link VersionAB}: blocks of alternating A/B calls (ABBA order, which cancels a linear
 * drift), the warm-up that runs such blocks until both sides' times settle and the JIT is quiet, and the
 * medians. Every loop is bounded by a number of pairs or blocks.
 *
 * <pre>{@code
 * double[] last = PairedTiming.warmUp(input);
 * PairedTiming.Block b = PairedTiming.pairs(input, 3_000_000_000L);
 * }</pre>
 */
final class PairedTiming {
    private PairedTiming() { }

    /* Warm-up, as BallTreeBench's: blocks of pairs until no side's block median improves by 5 % or more. */
    static final long BLOCK_NANOS = 500_000_000L;
    static final int BLOCK_MIN_PAIRS = 2;
    static final int BLOCK_MAX_PAIRS = 20_000;
    static final double SETTLED = 0.95;
    static final long WARMUP_MIN_NANOS = 6_000_000_000L;
    /* ... and until the JIT compiled for at most 10 ms (or 1 % of the block) during the last block: the
     * vector kernels are compiled late, and block medians can hold still at several times the final
     * time while they are not (16 384 points: 6.4 ms a build for seconds, then 0.6 ms). */
    static final double JIT_QUIET_MS = 10;
    static final double JIT_QUIET_SHARE = 0.01;
    static final long WARMUP_MAX_NANOS = 30_000_000_000L;
    static final int WARMUP_MAX_BLOCKS = (int) (WARMUP_MAX_NANOS / BLOCK_NANOS) + 1;

    /** Times of the calls of a block, alternating, and the per-pair ratios B/A. */
    record Block(double[] a, double[] b, double[] ratio) { }

    /**
     * Pairs until {@code nanos} have passed and their number is even (at least {@value VersionAB#ROUND_MIN_PAIRS}, at
     * most {@value VersionAB#ROUND_MAX_PAIRS}); pair p runs A then B for even p, B then A for odd p (ABBA).
     */
    static Block pairs(Input in, long nanos) {
        double[] ta = new double[VersionAB.ROUND_MAX_PAIRS], tb = new double[VersionAB.ROUND_MAX_PAIRS], r = new double[VersionAB.ROUND_MAX_PAIRS];
        long start = System.nanoTime();
        int p = 0;
        for (; p < VersionAB.ROUND_MAX_PAIRS; p++) {
            if (p >= VersionAB.ROUND_MIN_PAIRS && (p & 1) == 0 && System.nanoTime() - start >= nanos) break;
            if ((p & 1) == 0) {
                ta[p] = in.a().time();
                tb[p] = in.b().time();
            } else {
                tb[p] = in.b().time();
                ta[p] = in.a().time();
            }
            r[p] = tb[p] / ta[p];
        }
        return new Block(Arrays.copyOf(ta, p), Arrays.copyOf(tb, p), Arrays.copyOf(r, p));
    }

    /**
     * Warms both sides up (see the class comment); returns the last block's median times of A and B and
     * the JIT's compilation time during that block (ms; NaN where the JVM does not report it).
     */
    static double[] warmUp(Input in) {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean jitTimed = jit != null && jit.isCompilationTimeMonitoringSupported();
        long start = System.nanoTime();
        double medianA = Double.NaN, medianB = Double.NaN, compileMs = Double.NaN;
        for (int block = 0; block < WARMUP_MAX_BLOCKS; block++) {
            long blockStart = System.nanoTime();
            long compileStart = jitTimed ? jit.getTotalCompilationTime() : 0;
            double[] ta = new double[BLOCK_MAX_PAIRS], tb = new double[BLOCK_MAX_PAIRS];
            int count = 0;
            for (; count < BLOCK_MAX_PAIRS; count++) {
                if (count >= BLOCK_MIN_PAIRS && System.nanoTime() - blockStart >= BLOCK_NANOS) break;
                if ((count & 1) == 0) {
                    ta[count] = in.a().time();
                    tb[count] = in.b().time();
                } else {
                    tb[count] = in.b().time();
                    ta[count] = in.a().time();
                }
            }
            double ma = median(Arrays.copyOf(ta, count)), mb = median(Arrays.copyOf(tb, count));
            compileMs = jitTimed ? jit.getTotalCompilationTime() - compileStart : Double.NaN;
            double blockMs = (System.nanoTime() - blockStart) / 1e6;
            boolean jitQuiet = !jitTimed || compileMs <= Math.max(JIT_QUIET_MS, JIT_QUIET_SHARE * blockMs);
            boolean settled = block > 0 && ma >= SETTLED * medianA && mb >= SETTLED * medianB && jitQuiet;
            medianA = ma;
            medianB = mb;
            long elapsed = System.nanoTime() - start;
            if (elapsed >= WARMUP_MAX_NANOS || settled && elapsed >= WARMUP_MIN_NANOS) break;
        }
        return new double[] {medianA, medianB, compileMs};
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n == 0 ? Double.NaN : (n & 1) == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    }

    /** A growable array of doubles. */
    static final class Samples {
        private double[] v = new double[64];
        private int n;

        void addAll(double[] x) {
            if (n + x.length > v.length) v = Arrays.copyOf(v, Math.max(2 * v.length, n + x.length));
            System.arraycopy(x, 0, v, n, x.length);
            n += x.length;
        }

        double[] values() {
            return Arrays.copyOf(v, n);
        }
    }
}
