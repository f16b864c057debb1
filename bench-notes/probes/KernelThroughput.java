package org.sylva.balltree;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Per-point cost of one split and of the vector kernel's operations, on the nodes of one level of a
 * 16 384-point build: the workspace is split down to nodes of {@code size} points, saved, and then one
 * level of splits (or the kernel's operation on every node of that level) is timed repeatedly on
 * restored copies. Prints nanoseconds per point, median of the timed repetitions, from a second pass
 * over the sizes (the first warms the JIT up).
 *
 * <p>A probe, not part of the build: it sits in the core's package to reach package-private classes.
 * <pre>
 * javac --add-modules jdk.incubator.vector -cp sylva-core/target/classes -d /tmp/probes bench-notes/probes/KernelThroughput.java
 * java --add-modules jdk.incubator.vector -cp sylva-core/target/classes:/tmp/probes org.sylva.balltree.KernelThroughput 16384 4096 1024 256
 * </pre>
 */
public class KernelThroughput {
    public static void main(String[] args) {
        int n = 16384, d = 3, reps = 3000;
        float[] rows = new float[n * d];
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < rows.length; i++) rows[i] = (float) r.nextDouble();
        PartitionKernel k = PartitionKernel.best();
        if (k == null) throw new IllegalStateException("no vector kernel: run with --add-modules jdk.incubator.vector");
        SplitWorkspace ws = new SplitWorkspace(n, d);
        SplitWorkspace.Scratch sc = SplitWorkspace.scratch();
        int[] buffer = new int[k.bufferInts(d + 1)];
        // The first pass over all sizes only warms the JIT up; the second prints.
        for (int pass = 0; pass < 2; pass++) for (String arg : args) {
            int size = Integer.parseInt(arg);
            ws.copyRows(rows, 0, n);
            for (int m = n; m > size; m >>= 1) for (int s = 0; s < n; s += m) ws.split(s, s + m, sc);
            int[][] saved = new int[d + 1][];
            for (int j = 0; j < d; j++) saved[j] = ws.cols[j].clone();
            saved[d] = ws.idx.clone();
            // Each node's pivot (its median along dimension 0), for the partition alone.
            int[] pivot = new int[n / size];
            for (int s = 0, q = 0; s < n; s += size, q++) {
                int[] part = Arrays.copyOfRange(saved[0], s, s + size);
                Arrays.sort(part);
                pivot[q] = part[size / 2];
            }
            String[] names = {"split (all stages)", "extremes, 3 columns", "countAndGather (middle fifth)", "partition, 4 columns", "copyRows3 (whole input)"};
            for (int op = 0; op < names.length; op++) {
                if (op == 3 && size < k.minPoints()) continue;
                long[] t = new long[reps];
                long sink = 0;
                for (int it = 0; it < 3 * reps; it++) {
                    for (int j = 0; j < d; j++) System.arraycopy(saved[j], 0, ws.cols[j], 0, n);
                    System.arraycopy(saved[d], 0, ws.idx, 0, n);
                    long t0 = System.nanoTime();
                    for (int s = 0, q = 0; s < n && op < 4; s += size, q++) {
                        switch (op) {
                            case 0 -> ws.split(s, s + size, sc);
                            case 1 -> {
                                for (int j = 0; j < d; j++) sink += k.minMax(ws.cols[j], s, s + size);
                            }
                            case 2 -> sink += k.countAndGather(ws.cols[0], s, s + size, pivot[q] - (1 << 21), pivot[q] + (1 << 21), ws.cand);
                            default -> sink += k.partition(ws.cols, ws.idx, s, s + size, ws.cols[0], pivot[q], 0, false, buffer);
                        }
                    }
                    if (op == 4) sink += k.copyRows3(rows, 0, n, ws.cols[0], ws.cols[1], ws.cols[2], ws.idx);
                    long t1 = System.nanoTime();
                    if (it >= 2 * reps) t[it - 2 * reps] = t1 - t0;
                }
                Arrays.sort(t);
                if (pass == 1) System.out.printf("nodes of %6d points: %-30s %6.2f ns per point (%d)%n", size, names[op], t[reps / 2] / (double) n, sink & 1);
            }
        }
    }
}
