package org.sylva.kernels;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.mst.ClipLikeData;

/** Throughput of the tile kernel alone (test scope, not a test): {@code KernelBench N backend reps}. */
public final class KernelBench {
    private KernelBench() {
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        DistanceKernel b = KernelProvider.get().distance(args[1]);
        int reps = Integer.parseInt(args[2]);
        double[] rows = ClipLikeData.toDouble(ClipLikeData.generate(n, 1));
        PointIndex idx = PointIndex.build(rows, n, 61, b);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        int[] q = new int[PointIndex.LEAF_SIZE];
        int maxBlocks = (PointIndex.LEAF_SIZE + idx.blockWidth() - 1) / idx.blockWidth();
        double[] out = new double[b.tileLength(PointIndex.LEAF_SIZE, maxBlocks, idx)];
        float[] out32 = new float[out.length];
        boolean approx = args.length > 3 && args[3].equals("approx");
        double sink = 0;
        for (int r = 0; r < reps; r++) {
            long c0 = mx.getCurrentThreadCpuTime();
            long pairs = 0;
            for (int leaf = 0; leaf < idx.leaves(); leaf++) {
                int m = idx.leafCount(leaf);
                for (int i = 0; i < m; i++) q[i] = idx.leafStart(leaf) + i;
                for (int other = 0; other < idx.leaves(); other++) {
                    int w = idx.blockWidth();
                    int bf = idx.leafStart(other) / w;
                    int bt = (idx.leafStart(other) + idx.leafCount(other) + w - 1) / w;
                    if (approx) {
                        b.approximateSquaredDistances(idx, q, m, bf, bt, out32);
                        sink += out32[0];
                    } else {
                        b.squaredDistances(idx, q, m, bf, bt, out);
                        sink += out[0];
                    }
                    pairs += (long) m * (bt - bf) * w;
                }
            }
            long c1 = mx.getCurrentThreadCpuTime();
            System.out.printf("%s: %.3g pairs in %.3f s cpu = %.2f ns/pair (sink %.1f)%n", b.name(), (double) pairs,
                    (c1 - c0) / 1e9, (c1 - c0) / (double) pairs, sink);
        }
    }
}
