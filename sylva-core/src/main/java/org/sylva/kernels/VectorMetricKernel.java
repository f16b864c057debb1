package org.sylva.kernels;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector {@link MetricKernel} (Vector API): across points, never across coordinates. A vector holds
 * coordinate {@code j} of consecutive positions of a {@link BlockedRows} block, the query's coordinate is
 * broadcast, and each lane runs the reference arithmetic of its pair in coordinate order, so every value is
 * bitwise the scalar kernel's. A block is two double vectors; up to four queries share each loaded vector
 * (eight running sums side by side), and a single query takes two blocks per step (four sums), because
 * each sum's additions wait on one another and one chain alone would leave the core idle.
 *
 * <p>Loaded only through {@link KernelProvider}, reflectively, when the module is present at run time.
 *
 * <pre>{@code
 * MetricKernel k = KernelProvider.get().bestMetric();   // this one where the Vector API runs
 * }</pre>
 */
final class VectorMetricKernel implements MetricKernel {
    private static final VectorSpecies<Double> DS = DoubleVector.SPECIES_PREFERRED;
    private static final int DL = DS.length();
    private static final int W = 2 * DL;

    VectorMetricKernel() {
        if (DL < 2) throw new UnsupportedOperationException("unusual vector shape: " + DL + " doubles");
    }

    @Override
    public String name() {
        return "simd";
    }

    @Override
    public int blockWidth() {
        return W;
    }

    @Override
    public void distances(Form form, double[] q, int[] offsets, int nq, BlockedRows rows, int blockFrom, int blockTo,
                          double[] out) {
        if (rows.width() != W) {
            throw new IllegalArgumentException("rows in blocks of " + rows.width() + ", the simd kernel needs " + W);
        }
        if (nq < 1 || nq > MAX_QUERIES) throw new IllegalArgumentException(nq + " queries");
        if (blockTo <= blockFrom) return;
        double[] x = rows.blocks();
        int d = rows.dimensions();
        if (nq == 1) {
            int qo = offsets[0];
            switch (form) {
                case EUCLIDEAN -> oneEuclidean(q, qo, x, d, blockFrom, blockTo, out);
                case MANHATTAN -> oneManhattan(q, qo, x, d, blockFrom, blockTo, out);
                case CHEBYSHEV -> oneChebyshev(q, qo, x, d, blockFrom, blockTo, out);
                case COSINE -> oneCosine(q, qo, x, d, blockFrom, blockTo, out);
            }
            return;
        }
        int q0 = offsets[0], q1 = offsets[1], q2 = offsets[Math.min(2, nq - 1)], q3 = offsets[Math.min(3, nq - 1)];
        switch (form) {
            case EUCLIDEAN -> fourEuclidean(q, q0, q1, q2, q3, nq, x, d, blockFrom, blockTo, out);
            case MANHATTAN -> fourManhattan(q, q0, q1, q2, q3, nq, x, d, blockFrom, blockTo, out);
            case CHEBYSHEV -> fourChebyshev(q, q0, q1, q2, q3, nq, x, d, blockFrom, blockTo, out);
            case COSINE -> fourCosine(q, q0, q1, q2, q3, nq, x, d, blockFrom, blockTo, out);
        }
    }

    /*
     * One method per metric, each storing its own sums in its own code. Were the four loops branches of one
     * method, their sums would meet after the branches, and once a process has run two metrics C2 keeps such
     * merged vectors as objects on the heap (manhattan after the other metrics 3.7 times slower; BENCHMARKS.md,
     * "Vector kernels of two metrics in one process"). Each method runs its own loop over the blocks: a call
     * per block cost about 10 % more.
     */

    /*
     * One query against the blocks {@code blockFrom .. blockTo - 1}, block b written from
     * {@code out[(b - blockFrom) * W]}: two blocks per step (four sums in flight), the last alone if odd.
     */

    private static void oneEuclidean(double[] q, int qo, double[] x, int d, int blockFrom, int blockTo, double[] out) {
        int dw = d * W;
        for (int b = blockFrom; b < blockTo; b += 2) {
            boolean two = b + 1 < blockTo;
            int c0 = b * dw, c2 = c0 + (two ? dw : 0), o = (b - blockFrom) * W;
            DoubleVector s0 = DoubleVector.zero(DS), s1 = s0, s2 = s0, s3 = s0;
            for (int j = 0, c = 0; j < d; j++, c += W) {
                DoubleVector v = DoubleVector.broadcast(DS, q[qo + j]);
                DoubleVector t0 = v.sub(DoubleVector.fromArray(DS, x, c0 + c));
                DoubleVector t1 = v.sub(DoubleVector.fromArray(DS, x, c0 + c + DL));
                DoubleVector t2 = v.sub(DoubleVector.fromArray(DS, x, c2 + c));
                DoubleVector t3 = v.sub(DoubleVector.fromArray(DS, x, c2 + c + DL));
                s0 = s0.add(t0.mul(t0));
                s1 = s1.add(t1.mul(t1));
                s2 = s2.add(t2.mul(t2));
                s3 = s3.add(t3.mul(t3));
            }
            s0 = s0.sqrt();
            s1 = s1.sqrt();
            s2 = s2.sqrt();
            s3 = s3.sqrt();
            s0.intoArray(out, o);
            s1.intoArray(out, o + DL);
            if (two) {
                s2.intoArray(out, o + W);
                s3.intoArray(out, o + W + DL);
            }
        }
    }

    private static void oneManhattan(double[] q, int qo, double[] x, int d, int blockFrom, int blockTo, double[] out) {
        int dw = d * W;
        for (int b = blockFrom; b < blockTo; b += 2) {
            boolean two = b + 1 < blockTo;
            int c0 = b * dw, c2 = c0 + (two ? dw : 0), o = (b - blockFrom) * W;
            DoubleVector s0 = DoubleVector.zero(DS), s1 = s0, s2 = s0, s3 = s0;
            for (int j = 0, c = 0; j < d; j++, c += W) {
                DoubleVector v = DoubleVector.broadcast(DS, q[qo + j]);
                s0 = s0.add(v.sub(DoubleVector.fromArray(DS, x, c0 + c)).abs());
                s1 = s1.add(v.sub(DoubleVector.fromArray(DS, x, c0 + c + DL)).abs());
                s2 = s2.add(v.sub(DoubleVector.fromArray(DS, x, c2 + c)).abs());
                s3 = s3.add(v.sub(DoubleVector.fromArray(DS, x, c2 + c + DL)).abs());
            }
            s0.intoArray(out, o);
            s1.intoArray(out, o + DL);
            if (two) {
                s2.intoArray(out, o + W);
                s3.intoArray(out, o + W + DL);
            }
        }
    }

    private static void oneChebyshev(double[] q, int qo, double[] x, int d, int blockFrom, int blockTo, double[] out) {
        int dw = d * W;
        for (int b = blockFrom; b < blockTo; b += 2) {
            boolean two = b + 1 < blockTo;
            int c0 = b * dw, c2 = c0 + (two ? dw : 0), o = (b - blockFrom) * W;
            DoubleVector s0 = DoubleVector.zero(DS), s1 = s0, s2 = s0, s3 = s0;
            for (int j = 0, c = 0; j < d; j++, c += W) {
                DoubleVector v = DoubleVector.broadcast(DS, q[qo + j]);
                s0 = s0.max(v.sub(DoubleVector.fromArray(DS, x, c0 + c)).abs());
                s1 = s1.max(v.sub(DoubleVector.fromArray(DS, x, c0 + c + DL)).abs());
                s2 = s2.max(v.sub(DoubleVector.fromArray(DS, x, c2 + c)).abs());
                s3 = s3.max(v.sub(DoubleVector.fromArray(DS, x, c2 + c + DL)).abs());
            }
            s0.intoArray(out, o);
            s1.intoArray(out, o + DL);
            if (two) {
                s2.intoArray(out, o + W);
                s3.intoArray(out, o + W + DL);
            }
        }
    }

    private static void oneCosine(double[] q, int qo, double[] x, int d, int blockFrom, int blockTo, double[] out) {
        DoubleVector one = DoubleVector.broadcast(DS, 1.0);   // cosine: min(max(1 - s, 0), 2), as Math does it
        int dw = d * W;
        for (int b = blockFrom; b < blockTo; b += 2) {
            boolean two = b + 1 < blockTo;
            int c0 = b * dw, c2 = c0 + (two ? dw : 0), o = (b - blockFrom) * W;
            DoubleVector s0 = DoubleVector.zero(DS), s1 = s0, s2 = s0, s3 = s0;
            for (int j = 0, c = 0; j < d; j++, c += W) {
                DoubleVector v = DoubleVector.broadcast(DS, q[qo + j]);
                s0 = s0.add(v.mul(DoubleVector.fromArray(DS, x, c0 + c)));
                s1 = s1.add(v.mul(DoubleVector.fromArray(DS, x, c0 + c + DL)));
                s2 = s2.add(v.mul(DoubleVector.fromArray(DS, x, c2 + c)));
                s3 = s3.add(v.mul(DoubleVector.fromArray(DS, x, c2 + c + DL)));
            }
            s0 = one.sub(s0).max(0.0).min(2.0);
            s1 = one.sub(s1).max(0.0).min(2.0);
            s2 = one.sub(s2).max(0.0).min(2.0);
            s3 = one.sub(s3).max(0.0).min(2.0);
            s0.intoArray(out, o);
            s1.intoArray(out, o + DL);
            if (two) {
                s2.intoArray(out, o + W);
                s3.intoArray(out, o + W + DL);
            }
        }
    }

    private static void fourEuclidean(double[] q, int q0, int q1, int q2, int q3, int nq, double[] x, int d,
                                      int blockFrom, int blockTo, double[] out) {
        int stride = (blockTo - blockFrom) * W;
        for (int b = blockFrom; b < blockTo; b++) {
            int c0 = b * d * W, o = (b - blockFrom) * W;
            DoubleVector a0 = DoubleVector.zero(DS), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0, b3 = a0;
            for (int j = 0, c = c0; j < d; j++, c += W) {
                DoubleVector x0 = DoubleVector.fromArray(DS, x, c), x1 = DoubleVector.fromArray(DS, x, c + DL);
                DoubleVector v = DoubleVector.broadcast(DS, q[q0 + j]);
                DoubleVector t = v.sub(x0), u = v.sub(x1);
                a0 = a0.add(t.mul(t));
                b0 = b0.add(u.mul(u));
                v = DoubleVector.broadcast(DS, q[q1 + j]);
                t = v.sub(x0);
                u = v.sub(x1);
                a1 = a1.add(t.mul(t));
                b1 = b1.add(u.mul(u));
                v = DoubleVector.broadcast(DS, q[q2 + j]);
                t = v.sub(x0);
                u = v.sub(x1);
                a2 = a2.add(t.mul(t));
                b2 = b2.add(u.mul(u));
                v = DoubleVector.broadcast(DS, q[q3 + j]);
                t = v.sub(x0);
                u = v.sub(x1);
                a3 = a3.add(t.mul(t));
                b3 = b3.add(u.mul(u));
            }
            a0 = a0.sqrt();
            b0 = b0.sqrt();
            a1 = a1.sqrt();
            b1 = b1.sqrt();
            a2 = a2.sqrt();
            b2 = b2.sqrt();
            a3 = a3.sqrt();
            b3 = b3.sqrt();
            a0.intoArray(out, o);
            b0.intoArray(out, o + DL);
            a1.intoArray(out, o + stride);
            b1.intoArray(out, o + stride + DL);
            if (nq > 2) {
                a2.intoArray(out, o + 2 * stride);
                b2.intoArray(out, o + 2 * stride + DL);
            }
            if (nq > 3) {
                a3.intoArray(out, o + 3 * stride);
                b3.intoArray(out, o + 3 * stride + DL);
            }
        }
    }

    private static void fourManhattan(double[] q, int q0, int q1, int q2, int q3, int nq, double[] x, int d,
                                      int blockFrom, int blockTo, double[] out) {
        int stride = (blockTo - blockFrom) * W;
        for (int b = blockFrom; b < blockTo; b++) {
            int c0 = b * d * W, o = (b - blockFrom) * W;
            DoubleVector a0 = DoubleVector.zero(DS), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0, b3 = a0;
            for (int j = 0, c = c0; j < d; j++, c += W) {
                DoubleVector x0 = DoubleVector.fromArray(DS, x, c), x1 = DoubleVector.fromArray(DS, x, c + DL);
                DoubleVector v = DoubleVector.broadcast(DS, q[q0 + j]);
                a0 = a0.add(v.sub(x0).abs());
                b0 = b0.add(v.sub(x1).abs());
                v = DoubleVector.broadcast(DS, q[q1 + j]);
                a1 = a1.add(v.sub(x0).abs());
                b1 = b1.add(v.sub(x1).abs());
                v = DoubleVector.broadcast(DS, q[q2 + j]);
                a2 = a2.add(v.sub(x0).abs());
                b2 = b2.add(v.sub(x1).abs());
                v = DoubleVector.broadcast(DS, q[q3 + j]);
                a3 = a3.add(v.sub(x0).abs());
                b3 = b3.add(v.sub(x1).abs());
            }
            a0.intoArray(out, o);
            b0.intoArray(out, o + DL);
            a1.intoArray(out, o + stride);
            b1.intoArray(out, o + stride + DL);
            if (nq > 2) {
                a2.intoArray(out, o + 2 * stride);
                b2.intoArray(out, o + 2 * stride + DL);
            }
            if (nq > 3) {
                a3.intoArray(out, o + 3 * stride);
                b3.intoArray(out, o + 3 * stride + DL);
            }
        }
    }

    private static void fourChebyshev(double[] q, int q0, int q1, int q2, int q3, int nq, double[] x, int d,
                                      int blockFrom, int blockTo, double[] out) {
        int stride = (blockTo - blockFrom) * W;
        for (int b = blockFrom; b < blockTo; b++) {
            int c0 = b * d * W, o = (b - blockFrom) * W;
            DoubleVector a0 = DoubleVector.zero(DS), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0, b3 = a0;
            for (int j = 0, c = c0; j < d; j++, c += W) {
                DoubleVector x0 = DoubleVector.fromArray(DS, x, c), x1 = DoubleVector.fromArray(DS, x, c + DL);
                DoubleVector v = DoubleVector.broadcast(DS, q[q0 + j]);
                a0 = a0.max(v.sub(x0).abs());
                b0 = b0.max(v.sub(x1).abs());
                v = DoubleVector.broadcast(DS, q[q1 + j]);
                a1 = a1.max(v.sub(x0).abs());
                b1 = b1.max(v.sub(x1).abs());
                v = DoubleVector.broadcast(DS, q[q2 + j]);
                a2 = a2.max(v.sub(x0).abs());
                b2 = b2.max(v.sub(x1).abs());
                v = DoubleVector.broadcast(DS, q[q3 + j]);
                a3 = a3.max(v.sub(x0).abs());
                b3 = b3.max(v.sub(x1).abs());
            }
            a0.intoArray(out, o);
            b0.intoArray(out, o + DL);
            a1.intoArray(out, o + stride);
            b1.intoArray(out, o + stride + DL);
            if (nq > 2) {
                a2.intoArray(out, o + 2 * stride);
                b2.intoArray(out, o + 2 * stride + DL);
            }
            if (nq > 3) {
                a3.intoArray(out, o + 3 * stride);
                b3.intoArray(out, o + 3 * stride + DL);
            }
        }
    }

    private static void fourCosine(double[] q, int q0, int q1, int q2, int q3, int nq, double[] x, int d,
                                   int blockFrom, int blockTo, double[] out) {
        DoubleVector one = DoubleVector.broadcast(DS, 1.0);   // cosine: min(max(1 - s, 0), 2), as Math does it
        int stride = (blockTo - blockFrom) * W;
        for (int b = blockFrom; b < blockTo; b++) {
            int c0 = b * d * W, o = (b - blockFrom) * W;
            DoubleVector a0 = DoubleVector.zero(DS), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0, a3 = a0, b3 = a0;
            for (int j = 0, c = c0; j < d; j++, c += W) {
                DoubleVector x0 = DoubleVector.fromArray(DS, x, c), x1 = DoubleVector.fromArray(DS, x, c + DL);
                DoubleVector v = DoubleVector.broadcast(DS, q[q0 + j]);
                a0 = a0.add(v.mul(x0));
                b0 = b0.add(v.mul(x1));
                v = DoubleVector.broadcast(DS, q[q1 + j]);
                a1 = a1.add(v.mul(x0));
                b1 = b1.add(v.mul(x1));
                v = DoubleVector.broadcast(DS, q[q2 + j]);
                a2 = a2.add(v.mul(x0));
                b2 = b2.add(v.mul(x1));
                v = DoubleVector.broadcast(DS, q[q3 + j]);
                a3 = a3.add(v.mul(x0));
                b3 = b3.add(v.mul(x1));
            }
            a0 = one.sub(a0).max(0.0).min(2.0);
            b0 = one.sub(b0).max(0.0).min(2.0);
            a1 = one.sub(a1).max(0.0).min(2.0);
            b1 = one.sub(b1).max(0.0).min(2.0);
            a2 = one.sub(a2).max(0.0).min(2.0);
            b2 = one.sub(b2).max(0.0).min(2.0);
            a3 = one.sub(a3).max(0.0).min(2.0);
            b3 = one.sub(b3).max(0.0).min(2.0);
            a0.intoArray(out, o);
            b0.intoArray(out, o + DL);
            a1.intoArray(out, o + stride);
            b1.intoArray(out, o + stride + DL);
            if (nq > 2) {
                a2.intoArray(out, o + 2 * stride);
                b2.intoArray(out, o + 2 * stride + DL);
            }
            if (nq > 3) {
                a3.intoArray(out, o + 3 * stride);
                b3.intoArray(out, o + 3 * stride + DL);
            }
        }
    }
}
