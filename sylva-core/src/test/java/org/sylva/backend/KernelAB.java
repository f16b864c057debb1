package org.sylva.backend;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

import org.sylva.hdbscan.mst.ClipLikeData;

/** A/B timing of kernel variants in one JVM, alternating, so that machine load hits both alike (not a test). */
public final class KernelAB {
    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
    private static final int W = S.length();

    private KernelAB() {
    }

    private static int paddedQueries(int nq) {
        return (nq + 3) & ~3;
    }

    private static int base(int pos, int dw) {
        return (pos / W) * dw + pos % W;
    }

    static void fmaSplit(PointIndex idx, int[] queries, int nq, int blockFrom, int blockTo, double[] out) {
        if (false) {
            throw new IllegalArgumentException("index built with block width " + idx.blockWidth()
                    + ", the simd backend needs " + W);
        }
        if (nq <= 0 || blockTo <= blockFrom) return;
        double[] data = idx.blocks();
        int d = idx.dimensions();
        int dw = d * W;
        int stride = (blockTo - blockFrom) * W;
        int np = paddedQueries(nq);
        int last = nq - 1;
        DoubleVector minusOne = DoubleVector.broadcast(S, -1.0);
        for (int q = 0; q < np; q += 4) {
            int q0 = base(queries[q], dw);
            int q1 = base(queries[Math.min(q + 1, last)], dw);
            int q2 = base(queries[Math.min(q + 2, last)], dw);
            int q3 = base(queries[Math.min(q + 3, last)], dw);
            int r0 = q * stride, r1 = r0 + stride, r2 = r1 + stride, r3 = r2 + stride;
            int b = blockFrom;
            for (; b + 1 < blockTo; b += 2) {
                int c0 = b * dw, c1 = c0 + dw;
                DoubleVector a00 = DoubleVector.zero(S), a01 = DoubleVector.zero(S);
                DoubleVector a10 = DoubleVector.zero(S), a11 = DoubleVector.zero(S);
                DoubleVector a20 = DoubleVector.zero(S), a21 = DoubleVector.zero(S);
                DoubleVector a30 = DoubleVector.zero(S), a31 = DoubleVector.zero(S);
                for (int j = 0; j < d; j++) {
                    int jw = j * W;
                    DoubleVector v0 = DoubleVector.fromArray(S, data, c0 + jw);
                    DoubleVector v1 = DoubleVector.fromArray(S, data, c1 + jw);
                    // x - v1 is computed as fma(v1, -1, x): v1 * -1 is exact, so the single rounding
                    // gives exactly round(x - v1), the same bits as the subtraction; it runs on the
                    // multiply/FMA ports and leaves the add ports free for half of the subtractions.
                    DoubleVector x = DoubleVector.broadcast(S, data[q0 + jw]);
                    DoubleVector t = x.sub(v0);
                    a00 = a00.add(t.mul(t));
                    t = v1.fma(minusOne, x);
                    a01 = a01.add(t.mul(t));
                    x = DoubleVector.broadcast(S, data[q1 + jw]);
                    t = x.sub(v0);
                    a10 = a10.add(t.mul(t));
                    t = v1.fma(minusOne, x);
                    a11 = a11.add(t.mul(t));
                    x = DoubleVector.broadcast(S, data[q2 + jw]);
                    t = x.sub(v0);
                    a20 = a20.add(t.mul(t));
                    t = v1.fma(minusOne, x);
                    a21 = a21.add(t.mul(t));
                    x = DoubleVector.broadcast(S, data[q3 + jw]);
                    t = x.sub(v0);
                    a30 = a30.add(t.mul(t));
                    t = v1.fma(minusOne, x);
                    a31 = a31.add(t.mul(t));
                }
                int o = (b - blockFrom) * W;
                a00.intoArray(out, r0 + o);
                a01.intoArray(out, r0 + o + W);
                a10.intoArray(out, r1 + o);
                a11.intoArray(out, r1 + o + W);
                a20.intoArray(out, r2 + o);
                a21.intoArray(out, r2 + o + W);
                a30.intoArray(out, r3 + o);
                a31.intoArray(out, r3 + o + W);
            }
            if (b < blockTo) {
                int c0 = b * dw;
                DoubleVector a0 = DoubleVector.zero(S), a1 = DoubleVector.zero(S);
                DoubleVector a2 = DoubleVector.zero(S), a3 = DoubleVector.zero(S);
                for (int j = 0; j < d; j++) {
                    int jw = j * W;
                    DoubleVector v0 = DoubleVector.fromArray(S, data, c0 + jw);
                    DoubleVector t = DoubleVector.broadcast(S, data[q0 + jw]).sub(v0);
                    a0 = a0.add(t.mul(t));
                    t = DoubleVector.broadcast(S, data[q1 + jw]).sub(v0);
                    a1 = a1.add(t.mul(t));
                    t = DoubleVector.broadcast(S, data[q2 + jw]).sub(v0);
                    a2 = a2.add(t.mul(t));
                    t = DoubleVector.broadcast(S, data[q3 + jw]).sub(v0);
                    a3 = a3.add(t.mul(t));
                }
                int o = (b - blockFrom) * W;
                a0.intoArray(out, r0 + o);
                a1.intoArray(out, r1 + o);
                a2.intoArray(out, r2 + o);
                a3.intoArray(out, r3 + o);
            }
        }
    }


    static void subOnly(PointIndex idx, int[] queries, int nq, int blockFrom, int blockTo, double[] out) {
        if (false) {
            throw new IllegalArgumentException("index built with block width " + idx.blockWidth()
                    + ", the simd backend needs " + W);
        }
        if (nq <= 0 || blockTo <= blockFrom) return;
        double[] data = idx.blocks();
        int d = idx.dimensions();
        int dw = d * W;
        int stride = (blockTo - blockFrom) * W;
        int np = paddedQueries(nq);
        int last = nq - 1;
        DoubleVector minusOne = DoubleVector.broadcast(S, -1.0);
        for (int q = 0; q < np; q += 4) {
            int q0 = base(queries[q], dw);
            int q1 = base(queries[Math.min(q + 1, last)], dw);
            int q2 = base(queries[Math.min(q + 2, last)], dw);
            int q3 = base(queries[Math.min(q + 3, last)], dw);
            int r0 = q * stride, r1 = r0 + stride, r2 = r1 + stride, r3 = r2 + stride;
            int b = blockFrom;
            for (; b + 1 < blockTo; b += 2) {
                int c0 = b * dw, c1 = c0 + dw;
                DoubleVector a00 = DoubleVector.zero(S), a01 = DoubleVector.zero(S);
                DoubleVector a10 = DoubleVector.zero(S), a11 = DoubleVector.zero(S);
                DoubleVector a20 = DoubleVector.zero(S), a21 = DoubleVector.zero(S);
                DoubleVector a30 = DoubleVector.zero(S), a31 = DoubleVector.zero(S);
                for (int j = 0; j < d; j++) {
                    int jw = j * W;
                    DoubleVector v0 = DoubleVector.fromArray(S, data, c0 + jw);
                    DoubleVector v1 = DoubleVector.fromArray(S, data, c1 + jw);
                    // x - v1 is computed as fma(v1, -1, x): v1 * -1 is exact, so the single rounding
                    // gives exactly round(x - v1), the same bits as the subtraction; it runs on the
                    // multiply/FMA ports and leaves the add ports free for half of the subtractions.
                    DoubleVector x = DoubleVector.broadcast(S, data[q0 + jw]);
                    DoubleVector t = x.sub(v0);
                    a00 = a00.add(t.mul(t));
                    t = x.sub(v1);
                    a01 = a01.add(t.mul(t));
                    x = DoubleVector.broadcast(S, data[q1 + jw]);
                    t = x.sub(v0);
                    a10 = a10.add(t.mul(t));
                    t = x.sub(v1);
                    a11 = a11.add(t.mul(t));
                    x = DoubleVector.broadcast(S, data[q2 + jw]);
                    t = x.sub(v0);
                    a20 = a20.add(t.mul(t));
                    t = x.sub(v1);
                    a21 = a21.add(t.mul(t));
                    x = DoubleVector.broadcast(S, data[q3 + jw]);
                    t = x.sub(v0);
                    a30 = a30.add(t.mul(t));
                    t = x.sub(v1);
                    a31 = a31.add(t.mul(t));
                }
                int o = (b - blockFrom) * W;
                a00.intoArray(out, r0 + o);
                a01.intoArray(out, r0 + o + W);
                a10.intoArray(out, r1 + o);
                a11.intoArray(out, r1 + o + W);
                a20.intoArray(out, r2 + o);
                a21.intoArray(out, r2 + o + W);
                a30.intoArray(out, r3 + o);
                a31.intoArray(out, r3 + o + W);
            }
            if (b < blockTo) {
                int c0 = b * dw;
                DoubleVector a0 = DoubleVector.zero(S), a1 = DoubleVector.zero(S);
                DoubleVector a2 = DoubleVector.zero(S), a3 = DoubleVector.zero(S);
                for (int j = 0; j < d; j++) {
                    int jw = j * W;
                    DoubleVector v0 = DoubleVector.fromArray(S, data, c0 + jw);
                    DoubleVector t = DoubleVector.broadcast(S, data[q0 + jw]).sub(v0);
                    a0 = a0.add(t.mul(t));
                    t = DoubleVector.broadcast(S, data[q1 + jw]).sub(v0);
                    a1 = a1.add(t.mul(t));
                    t = DoubleVector.broadcast(S, data[q2 + jw]).sub(v0);
                    a2 = a2.add(t.mul(t));
                    t = DoubleVector.broadcast(S, data[q3 + jw]).sub(v0);
                    a3 = a3.add(t.mul(t));
                }
                int o = (b - blockFrom) * W;
                a0.intoArray(out, r0 + o);
                a1.intoArray(out, r1 + o);
                a2.intoArray(out, r2 + o);
                a3.intoArray(out, r3 + o);
            }
        }
    }


    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        int reps = Integer.parseInt(args[1]);
        double[] rows = ClipLikeData.toDouble(ClipLikeData.generate(n, 1));
        PointIndex idx = PointIndex.build(rows, n, 61, Backends.of("simd"));
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        int[] q = new int[32];
        double[] out = new double[32 * 40];
        double[] best = {1e9, 1e9};
        for (int r = 0; r < reps; r++) {
            for (int v = 0; v < 2; v++) {
                long c0 = mx.getCurrentThreadCpuTime();
                long pairs = 0;
                for (int leaf = 0; leaf < idx.leaves(); leaf++) {
                    int m = idx.leafCount(leaf);
                    for (int i = 0; i < m; i++) q[i] = idx.leafStart(leaf) + i;
                    for (int other = 0; other < idx.leaves(); other++) {
                        int bf = idx.leafStart(other) / W;
                        int bt = (idx.leafStart(other) + idx.leafCount(other) + W - 1) / W;
                        if (v == 0) subOnly(idx, q, m, bf, bt, out); else fmaSplit(idx, q, m, bf, bt, out);
                        pairs += (long) m * (bt - bf) * W;
                    }
                }
                double ns = (mx.getCurrentThreadCpuTime() - c0) / (double) pairs;
                best[v] = Math.min(best[v], ns);
            }
        }
        System.out.printf("best ns/pair: subOnly %.2f, fmaSplit %.2f%n", best[0], best[1]);
    }
}
