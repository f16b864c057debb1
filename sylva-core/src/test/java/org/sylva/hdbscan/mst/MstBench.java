package org.sylva.hdbscan.mst;

import org.sylva.kernels.BlockedPoints;
import org.sylva.kernels.KernelProvider;
import org.sylva.kernels.DistanceKernel;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * Per-stage timing harness (test scope, not a test): index build, core distances, spanning tree on
 * clip-like data. Usage: {@code MstBench N [minSamples] [backend] [threads] [repeats]}; prints the median
 * of the repeats after one warm-up run.
 */
public final class MstBench {
    private MstBench() {
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int ms = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        DistanceKernel b = KernelProvider.get().distance(args.length > 2 ? args[2] : "auto");
        int threads = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        int repeats = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        String file = args.length > 5 ? args[5] : null;
        double[] rows;
        if (file != null) {
            rows = OracleData.read(java.nio.file.Path.of(file)).values();
            n = rows.length / ClipLikeData.D;
        } else {
            rows = ClipLikeData.toDouble(ClipLikeData.generate(n, 12345));
        }
        CountingBackend counting = new CountingBackend(b);
        if (System.getProperty("count") != null) b = counting;
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        double[][] t = new double[repeats + 1][3];
        SpanningTree tree = null;
        CoreDistances cached = null;
        for (int r = 0; r <= repeats; r++) {
            long pc0 = processCpu();
            long c0 = mx.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            PointIndex idx = PointIndex.build(rows, n, ClipLikeData.D, b);
            long t1 = System.nanoTime();
            long c1 = mx.getCurrentThreadCpuTime();
            counting.stage = 0;
            if (cached == null || System.getProperty("mstOnly") == null) {
                cached = CoreDistances.compute(idx, ms, b, threads, ProgressListener.NONE, CancellationToken.NEVER);
            }
            CoreDistances cd = cached;
            long t2 = System.nanoTime();
            long c2 = mx.getCurrentThreadCpuTime();
            counting.stage = 1;
            final boolean verbose = r == repeats && System.getProperty("count") != null;
            final long[] lastPairs = {0, System.nanoTime()};
            ProgressListener pl = (stage, done, total) -> {
                if (verbose && done == total) {
                    long now = System.nanoTime();
                    System.out.printf("  %s: %d units, %.3g pairs, %.3f s%n", stage, total,
                            (double) (counting.pairs[1] - lastPairs[0]), (now - lastPairs[1]) / 1e9);
                    lastPairs[0] = counting.pairs[1];
                    lastPairs[1] = now;
                }
            };
            tree = BoruvkaMst.builder().backend(b).threads(threads).build().compute(idx, cd, pl,
                    CancellationToken.NEVER);
            long t3 = System.nanoTime();
            long c3 = mx.getCurrentThreadCpuTime();
            long pc3 = processCpu();
            System.out.printf("  process cpu %.3f s for wall %.3f s%n", (pc3 - pc0) / 1e9, (t3 - t0) / 1e9);
            t[r][0] = (t1 - t0) / 1e9;
            t[r][1] = (t2 - t1) / 1e9;
            t[r][2] = (t3 - t2) / 1e9;
            System.out.printf("run %d: index %.3f s, core %.3f s, mst %.3f s; main-thread cpu %.3f / %.3f / %.3f s;"
                    + " pairs core %.3g mst %.3g, approximate pairs core %.3g mst %.3g%n", r, t[r][0], t[r][1], t[r][2],
                    (c1 - c0) / 1e9, (c2 - c1) / 1e9, (c3 - c2) / 1e9, (double) counting.pairs[0],
                    (double) counting.pairs[1], (double) counting.approxPairs[0], (double) counting.approxPairs[1]);
            counting.approxPairs[0] = 0;
            counting.approxPairs[1] = 0;
            counting.pairs[0] = 0;
            counting.pairs[1] = 0;
        }
        double[] med = new double[3];
        for (int s = 0; s < 3; s++) {
            double[] v = new double[repeats];
            for (int r = 1; r <= repeats; r++) v[r - 1] = t[r][s];
            java.util.Arrays.sort(v);
            med[s] = v[repeats / 2];
        }
        System.out.printf("n=%d ms=%d backend=%s threads=%d: median index %.3f s, core distances %.3f s, "
                + "spanning tree %.3f s, total %.3f s (tree weight %.6f)%n", n, ms, b.name(), threads, med[0], med[1],
                med[2], med[0] + med[1] + med[2], tree.totalWeight());
    }

    /** Counts the pair distances asked for, per stage (single-threaded counts are exact; racy otherwise). */
    static final class CountingBackend implements DistanceKernel {
        final DistanceKernel inner;
        final long[] pairs = new long[2];
        final long[] approxPairs = new long[2];
        volatile int stage;

        CountingBackend(DistanceKernel inner) {
            this.inner = inner;
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public int blockWidth() {
            return inner.blockWidth();
        }

        @Override
        public void squaredDistances(BlockedPoints idx, int[] queries, int nq, int blockFrom, int blockTo, double[] out) {
            pairs[stage] += (long) nq * (blockTo - blockFrom) * idx.blockWidth();
            inner.squaredDistances(idx, queries, nq, blockFrom, blockTo, out);
        }

        @Override
        public boolean approximates() {
            return inner.approximates();
        }

        @Override
        public void approximateSquaredDistances(BlockedPoints idx, int[] queries, int nq, int blockFrom, int blockTo,
                                                float[] out) {
            approxPairs[stage] += (long) nq * (blockTo - blockFrom) * idx.blockWidth();
            inner.approximateSquaredDistances(idx, queries, nq, blockFrom, blockTo, out);
        }

        @Override
        public void centreDistances(BlockedPoints idx, int node, int blockFrom, int blockTo, double[] out) {
            inner.centreDistances(idx, node, blockFrom, blockTo, out);
        }
    }

    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
