package org.sylva.backend;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector backend (Vector API, {@code jdk.incubator.vector}). It vectorises <em>across points</em>,
 * never across dimensions: a vector holds the same coordinate {@code j} of {@code W} consecutive
 * positions (the {@link PointIndex} block layout), the query's coordinate {@code j} is broadcast, and
 * each lane accumulates {@code acc = acc + (q_j - x_j) * (q_j - x_j)} for {@code j = 0, 1, ...} in order,
 * which is exactly the scalar sum of that pair. Results are therefore bitwise equal to
 * {@link ScalarBackend}'s. Four queries and two blocks are computed per step (eight independent
 * accumulators), so each loaded vector feeds four pairs and the adds of different chains overlap.
 *
 * <p>Loaded only through {@link Backends}, reflectively, when the module is present at run time.
 *
 * <pre>{@code
 * DistanceBackend b = Backends.of("simd");   // InvalidInputException when the module is absent
 * }</pre>
 */
final class SimdBackend implements DistanceBackend {
    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
    private static final int W = S.length();

    SimdBackend() {
        if (W < 2) throw new UnsupportedOperationException("no double vectors wider than one lane");
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
    public void squaredDistances(PointIndex idx, int[] queries, int nq, int blockFrom, int blockTo, double[] out) {
        if (idx.blockWidth() != W) {
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

    @Override
    public void centreDistances(PointIndex idx, int node, int blockFrom, int blockTo, double[] out) {
        double[] data = idx.blocks();
        double[] centre = idx.centres();
        int d = idx.dimensions();
        int dw = d * W;
        int c = node * d;
        for (int b = blockFrom; b < blockTo; b++) {
            int c0 = b * dw;
            DoubleVector a0 = DoubleVector.zero(S);
            for (int j = 0; j < d; j++) {
                DoubleVector t = DoubleVector.broadcast(S, centre[c + j]).sub(DoubleVector.fromArray(S, data, c0 + j * W));
                a0 = a0.add(t.mul(t));
            }
            a0.intoArray(out, (b - blockFrom) * W);
        }
    }

    /** Offset of coordinate 0 of position {@code pos} in the block layout. */
    private static int base(int pos, int dw) {
        return (pos / W) * dw + pos % W;
    }

    @Override
    public String toString() {
        return "SimdBackend[" + W + " x float64]";
    }
}
