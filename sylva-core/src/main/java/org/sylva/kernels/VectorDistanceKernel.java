package org.sylva.kernels;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorOperators.Comparison;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector backend (Vector API, {@code jdk.incubator.vector}). It vectorises <em>across points</em>,
 * never across dimensions: a vector holds the same coordinate {@code j} of consecutive positions (the
 * {@link BlockedPoints} block layout), the query's coordinate {@code j} is broadcast, and each lane
 * accumulates {@code acc = acc + (q_j - x_j) * (q_j - x_j)} for {@code j = 0, 1, ...} in order, which is
 * exactly the scalar sum of that pair. Exact results are therefore bitwise equal to
 * {@link ScalarDistanceKernel}'s. Four queries are computed per step against one block of {@code W} positions
 * (two double vectors), so each loaded vector feeds four pairs and eight accumulation chains overlap.
 *
 * <p>It also offers the float32 pre-filter ({@link #approximateSquaredDistances}): the preferred float
 * vector's lanes and a fused multiply-add per coordinate, about four times the pair rate of the exact kernel, within
 * the error bound {@link DistanceKernel#approximationError}. {@link #approximateSquaredDistancesWithin} is
 * the same sum in the same order, stopped after 16, 32 or any further multiple of 32 coordinates for a register
 * block whose pairs are all above their limits already; it tells its caller which blocks it summed in full, the only ones the
 * selections ({@link #select(float[], int, int, double, long, int[])}) then read.
 *
 * <p>The block width {@code W} is the float vector length; a block is two double vectors.
 * Loaded only through {@link KernelProvider}, reflectively, when the module is present at run time.
 *
 * <pre>{@code
 * DistanceKernel b = KernelProvider.get().distance("simd");   // InvalidInputException when the module is absent
 * }</pre>
 */
final class VectorDistanceKernel implements DistanceKernel {
    private static final VectorSpecies<Double> DS = DoubleVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Float> FS = FloatVector.SPECIES_PREFERRED;
    private static final int DL = DS.length();
    private static final Comparison LE = VectorOperators.LE;
    private static final int W = FS.length();

    VectorDistanceKernel() {
        if (DL < 2 || W != 2 * DL) {
            throw new UnsupportedOperationException("unusual vector shape: " + DL + " doubles, " + W + " floats");
        }
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
    public boolean approximates() {
        return true;
    }

    /** Per coordinate {@code t = x - v}, then {@code fma(t, t, acc)}: exact on an {@link IntegerGrid}. */
    @Override
    public boolean approximatesByDifferences() {
        return true;
    }

    private static void checkWidth(BlockedPoints idx) {
        if (idx.blockWidth() != W) {
            throw new IllegalArgumentException("index built with block width " + idx.blockWidth()
                    + ", the simd backend needs " + W);
        }
    }

    @Override
    public void squaredDistances(BlockedPoints idx, int[] queries, int nq, int blockFrom, int blockTo, double[] out) {
        squaredDistances(idx, queries, nq, blockFrom, blockTo, out, null, null);
    }

    /** Each row's sums compared with its limit as they leave the registers, one mask compare per vector. */
    @Override
    public void squaredDistancesSelected(BlockedPoints idx, int[] queries, int nq, int blockFrom, int blockTo,
                                         double[] rowLimits, double[] out, long[] selected) {
        if ((blockTo - blockFrom) * W > Long.SIZE) {
            throw new IllegalArgumentException("more than 64 columns in a selected tile");
        }
        squaredDistances(idx, queries, nq, blockFrom, blockTo, out, rowLimits, selected);
    }

    /**
     * The float64 tile; with {@code rowLimits}, also each row's bits of the values within its limit
     * ({@link #squaredDistancesSelected}), else {@code selected} is unused.
     */
    private void squaredDistances(BlockedPoints idx, int[] queries, int nq, int blockFrom, int blockTo, double[] out,
                                  double[] rowLimits, long[] selected) {
        checkWidth(idx);
        if (nq <= 0 || blockTo <= blockFrom) return;
        double[] data = idx.blocks();
        int d = idx.dimensions();
        int dw = d * W;
        int stride = (blockTo - blockFrom) * W;
        int np = paddedQueries(nq);
        int last = nq - 1;
        boolean select = rowLimits != null;
        DoubleVector minusOne = DoubleVector.broadcast(DS, -1.0);
        for (int q = 0; q < np; q += 4) {
            int q0 = base(queries[q], dw);
            int q1 = base(queries[Math.min(q + 1, last)], dw);
            int q2 = base(queries[Math.min(q + 2, last)], dw);
            int q3 = base(queries[Math.min(q + 3, last)], dw);
            int r0 = q * stride, r1 = r0 + stride, r2 = r1 + stride, r3 = r2 + stride;
            double l0 = 0, l1 = 0, l2 = 0, l3 = 0;
            if (select) {
                l0 = rowLimits[q];
                l1 = rowLimits[q + 1];
                l2 = rowLimits[q + 2];
                l3 = rowLimits[q + 3];
            }
            long m0 = 0, m1 = 0, m2 = 0, m3 = 0;
            for (int b = blockFrom; b < blockTo; b++) {
                int c0 = b * dw, c1 = c0 + DL;
                DoubleVector a00 = DoubleVector.zero(DS), a01 = DoubleVector.zero(DS);
                DoubleVector a10 = DoubleVector.zero(DS), a11 = DoubleVector.zero(DS);
                DoubleVector a20 = DoubleVector.zero(DS), a21 = DoubleVector.zero(DS);
                DoubleVector a30 = DoubleVector.zero(DS), a31 = DoubleVector.zero(DS);
                for (int j = 0; j < d; j++) {
                    int jw = j * W;
                    DoubleVector v0 = DoubleVector.fromArray(DS, data, c0 + jw);
                    DoubleVector v1 = DoubleVector.fromArray(DS, data, c1 + jw);
                    // x - v1 is computed as fma(v1, -1, x): v1 * -1 is exact, so the single rounding
                    // gives exactly round(x - v1), the same bits as the subtraction; it runs on the
                    // multiply/FMA ports and leaves the add ports free for half of the subtractions.
                    DoubleVector x = DoubleVector.broadcast(DS, data[q0 + jw]);
                    DoubleVector t = x.sub(v0);
                    a00 = a00.add(t.mul(t));
                    t = v1.fma(minusOne, x);
                    a01 = a01.add(t.mul(t));
                    x = DoubleVector.broadcast(DS, data[q1 + jw]);
                    t = x.sub(v0);
                    a10 = a10.add(t.mul(t));
                    t = v1.fma(minusOne, x);
                    a11 = a11.add(t.mul(t));
                    x = DoubleVector.broadcast(DS, data[q2 + jw]);
                    t = x.sub(v0);
                    a20 = a20.add(t.mul(t));
                    t = v1.fma(minusOne, x);
                    a21 = a21.add(t.mul(t));
                    x = DoubleVector.broadcast(DS, data[q3 + jw]);
                    t = x.sub(v0);
                    a30 = a30.add(t.mul(t));
                    t = v1.fma(minusOne, x);
                    a31 = a31.add(t.mul(t));
                }
                int o = (b - blockFrom) * W;
                a00.intoArray(out, r0 + o);
                a01.intoArray(out, r0 + o + DL);
                a10.intoArray(out, r1 + o);
                a11.intoArray(out, r1 + o + DL);
                a20.intoArray(out, r2 + o);
                a21.intoArray(out, r2 + o + DL);
                a30.intoArray(out, r3 + o);
                a31.intoArray(out, r3 + o + DL);
                if (select) {
                    // the block's W bits, its low half first
                    m0 |= (a00.compare(LE, l0).toLong() | a01.compare(LE, l0).toLong() << DL) << o;
                    m1 |= (a10.compare(LE, l1).toLong() | a11.compare(LE, l1).toLong() << DL) << o;
                    m2 |= (a20.compare(LE, l2).toLong() | a21.compare(LE, l2).toLong() << DL) << o;
                    m3 |= (a30.compare(LE, l3).toLong() | a31.compare(LE, l3).toLong() << DL) << o;
                }
            }
            if (select) {
                selected[q] = m0;
                selected[q + 1] = m1;
                selected[q + 2] = m2;
                selected[q + 3] = m3;
            }
        }
    }

    @Override
    public void approximateSquaredDistances(BlockedPoints idx, int[] queries, int nq, int blockFrom, int blockTo,
                                            float[] out) {
        checkWidth(idx);
        float[] data = idx.blocks32();
        if (data == null) throw new IllegalArgumentException("index has no float32 copy");
        approximateTile(data, queries, nq, idx, blockFrom, blockTo, out);
    }

    /**
     * The plain tile, its rows read from {@code rows} ({@code queries[r]}: a position in that block layout,
     * the index's own copy or one block of outside rows) and its columns from the index's copy.
     */
    private void approximateTile(float[] rows, int[] queries, int nq, BlockedPoints idx, int blockFrom,
                                 int blockTo, float[] out) {
        float[] data = idx.blocks32();
        if (nq <= 0 || blockTo <= blockFrom) return;
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
                FloatVector a00 = FloatVector.zero(FS), a01 = FloatVector.zero(FS);
                FloatVector a10 = FloatVector.zero(FS), a11 = FloatVector.zero(FS);
                FloatVector a20 = FloatVector.zero(FS), a21 = FloatVector.zero(FS);
                FloatVector a30 = FloatVector.zero(FS), a31 = FloatVector.zero(FS);
                for (int j = 0; j < d; j++) {
                    int jw = j * W;
                    FloatVector v0 = FloatVector.fromArray(FS, data, c0 + jw);
                    FloatVector v1 = FloatVector.fromArray(FS, data, c1 + jw);
                    FloatVector x = FloatVector.broadcast(FS, rows[q0 + jw]);
                    FloatVector t = x.sub(v0);
                    a00 = t.fma(t, a00);
                    t = x.sub(v1);
                    a01 = t.fma(t, a01);
                    x = FloatVector.broadcast(FS, rows[q1 + jw]);
                    t = x.sub(v0);
                    a10 = t.fma(t, a10);
                    t = x.sub(v1);
                    a11 = t.fma(t, a11);
                    x = FloatVector.broadcast(FS, rows[q2 + jw]);
                    t = x.sub(v0);
                    a20 = t.fma(t, a20);
                    t = x.sub(v1);
                    a21 = t.fma(t, a21);
                    x = FloatVector.broadcast(FS, rows[q3 + jw]);
                    t = x.sub(v0);
                    a30 = t.fma(t, a30);
                    t = x.sub(v1);
                    a31 = t.fma(t, a31);
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
                FloatVector a0 = FloatVector.zero(FS), a1 = FloatVector.zero(FS);
                FloatVector a2 = FloatVector.zero(FS), a3 = FloatVector.zero(FS);
                for (int j = 0; j < d; j++) {
                    int jw = j * W;
                    FloatVector v0 = FloatVector.fromArray(FS, data, c0 + jw);
                    FloatVector t = FloatVector.broadcast(FS, rows[q0 + jw]).sub(v0);
                    a0 = t.fma(t, a0);
                    t = FloatVector.broadcast(FS, rows[q1 + jw]).sub(v0);
                    a1 = t.fma(t, a1);
                    t = FloatVector.broadcast(FS, rows[q2 + jw]).sub(v0);
                    a2 = t.fma(t, a2);
                    t = FloatVector.broadcast(FS, rows[q3 + jw]).sub(v0);
                    a3 = t.fma(t, a3);
                }
                int o = (b - blockFrom) * W;
                a0.intoArray(out, r0 + o);
                a1.intoArray(out, r1 + o);
                a2.intoArray(out, r2 + o);
                a3.intoArray(out, r3 + o);
            }
        }
    }

    /**
     * The coordinate counts after which {@link #approximateSquaredDistancesWithin} checks whether a register
     * block of pairs can stop: {@code FIRST_CHECK}, twice that, then every {@link #LATER_CHECK}
     * ({@link #nextCheck}). The float32 copy holds the coordinates by decreasing variance, and on 61-sample
     * clips most blocks that can stop do so after 8 to 32 of them; the kernel runs in full below
     * {@link #MIN_CHECKED_DIMENSIONS} dimensions, where a check saves too little.
     */
    static final int FIRST_CHECK = 16;
    /**
     * Coordinates between two later checks: in hundreds of dimensions (784 image pixels) most blocks that can
     * stop do so well after the first 32 coordinates.
     */
    static final int LATER_CHECK = 32;
    /** Dimensions from which {@link #approximateSquaredDistancesWithin} checks at all. */
    static final int MIN_CHECKED_DIMENSIONS = 2 * FIRST_CHECK + 8;

    /** The coordinate count of the check after the one at {@code check}: 16, 32, 64, 96, ... */
    static int nextCheck(int check) {
        return check + Math.min(check, LATER_CHECK);
    }

    /** 1 when every lane of {@code m} is set, else 0; arithmetic, not a branch (see the kernel below). */
    private static int allSet(VectorMask<Float> m) {
        return 1 - ((m.trueCount() - m.length()) >>> 31);
    }

    /** 1 when {@code a < b}, else 0, for non-negative {@code a} and {@code b}; arithmetic, not a branch. */
    private static int before(int a, int b) {
        return (a - b) >>> 31;
    }

    /**
     * Runs of coordinates between checks ({@link #nextCheck}), one loop of one body each for two blocks and
     * for an odd last one: the JIT keeps each run's loop as tight as the plain kernel's. Whether a block stops
     * is arithmetic ({@link #allSet}, {@link #before}), not a branch: the JIT compiles a branch that its
     * profile has not seen taken as a trap, and each trap recompiled this large method (a fraction of a second
     * each, in the first fit that used it); one body per path keeps that compilation short too.
     */
    @Override
    public void approximateSquaredDistancesWithin(BlockedPoints idx, int[] queries, int nq, int blockFrom,
                                                  int blockTo, float[] rowLimits, float[] colLimits, float[] out,
                                                  long[] rowBlocks) {
        checkWidth(idx);
        float[] data = idx.blocks32();
        if (data == null) throw new IllegalArgumentException("index has no float32 copy");
        approximateTileWithin(data, queries, nq, idx, blockFrom, blockTo, rowLimits, colLimits, out, rowBlocks);
    }

    /** Column limits of a tile whose rows alone have limits: every limit is at least 0. */
    private static final float[] NO_COLUMN_LIMITS = new float[Long.SIZE * W];

    @Override
    public void approximateRowSquaredDistances(float[] rows, int[] positions, int nq, BlockedPoints idx, int blockFrom,
                                               int blockTo, float[] out) {
        checkRows(rows, positions, nq, idx);
        approximateTile(rows, positions, nq, idx, blockFrom, blockTo, out);
    }

    @Override
    public void approximateRowSquaredDistancesWithin(float[] rows, int[] positions, int nq, BlockedPoints idx,
                                                     int blockFrom, int blockTo, float[] rowLimits, float[] out,
                                                     long[] rowBlocks) {
        checkRows(rows, positions, nq, idx);
        approximateTileWithin(rows, positions, nq, idx, blockFrom, blockTo, rowLimits, NO_COLUMN_LIMITS, out, rowBlocks);
    }

    /** Refuses outside rows at positions beyond their blocks, and an index without its float32 copy. */
    private static void checkRows(float[] rows, int[] positions, int nq, BlockedPoints idx) {
        checkWidth(idx);
        if (idx.blocks32() == null) throw new IllegalArgumentException("index has no float32 copy");
        int blocks = rows.length / Math.max(1, idx.dimensions() * W);
        for (int r = 0; r < nq; r++) {
            if (positions[r] < 0 || positions[r] >= blocks * W) {
                throw new IllegalArgumentException("position " + positions[r] + " of " + blocks + " blocks of " + W);
            }
        }
    }

    /**
     * The stopping tile, its rows read from {@code rows} ({@code queries[r]}: a position in that block layout,
     * the index's own copy or one block of outside rows) and its columns from the index's copy.
     */
    private void approximateTileWithin(float[] rows, int[] queries, int nq, BlockedPoints idx, int blockFrom,
                                       int blockTo, float[] rowLimits, float[] colLimits, float[] out,
                                       long[] rowBlocks) {
        if (blockTo - blockFrom > Long.SIZE) throw new IllegalArgumentException("more than 64 blocks in a tile");
        int d = idx.dimensions();
        if (d < MIN_CHECKED_DIMENSIONS) {
            approximateTile(rows, queries, nq, idx, blockFrom, blockTo, out);
            java.util.Arrays.fill(rowBlocks, 0, nq, -1L);
            return;
        }
        float[] data = idx.blocks32();
        if (nq <= 0 || blockTo <= blockFrom) return;
        int dw = d * W;
        int stride = (blockTo - blockFrom) * W;
        int np = paddedQueries(nq);
        int last = nq - 1;
        for (int q = 0; q < np; q += 4) {
            int q0 = base(queries[q], dw);
            int q1 = base(queries[Math.min(q + 1, last)], dw);
            int q2 = base(queries[Math.min(q + 2, last)], dw);
            int q3 = base(queries[Math.min(q + 3, last)], dw);
            float l0 = rowLimits[q], l1 = rowLimits[Math.min(q + 1, last)];
            float l2 = rowLimits[Math.min(q + 2, last)], l3 = rowLimits[Math.min(q + 3, last)];
            int r0 = q * stride, r1 = r0 + stride, r2 = r1 + stride, r3 = r2 + stride;
            // bit i: block blockFrom + i was summed in full for these four rows (a stopped one holds nothing
            // within its limits)
            long full = 0;
            int b = blockFrom;
            for (; b + 1 < blockTo; b += 2) {
                int c0 = b * dw, c1 = c0 + dw;
                int o = (b - blockFrom) * W;
                FloatVector u0 = FloatVector.fromArray(FS, colLimits, o), u1 = FloatVector.fromArray(FS, colLimits, o + W);
                FloatVector a00 = FloatVector.zero(FS), a01 = FloatVector.zero(FS);
                FloatVector a10 = FloatVector.zero(FS), a11 = FloatVector.zero(FS);
                FloatVector a20 = FloatVector.zero(FS), a21 = FloatVector.zero(FS);
                FloatVector a30 = FloatVector.zero(FS), a31 = FloatVector.zero(FS);
                // 1 once every pair of the two blocks is above its limit before the last coordinate
                int above = 0;
                int stop = d;
                // at most d / FIRST_CHECK runs: each ends at least FIRST_CHECK coordinates after the last
                for (int j0 = 0, end = FIRST_CHECK; j0 < stop; j0 = end, end = Math.min(stop, nextCheck(end))) {
                    for (int j = j0; j < end; j++) {
                        int jw = j * W;
                        FloatVector v0 = FloatVector.fromArray(FS, data, c0 + jw);
                        FloatVector v1 = FloatVector.fromArray(FS, data, c1 + jw);
                        FloatVector x = FloatVector.broadcast(FS, rows[q0 + jw]);
                        FloatVector t = x.sub(v0);
                        a00 = t.fma(t, a00);
                        t = x.sub(v1);
                        a01 = t.fma(t, a01);
                        x = FloatVector.broadcast(FS, rows[q1 + jw]);
                        t = x.sub(v0);
                        a10 = t.fma(t, a10);
                        t = x.sub(v1);
                        a11 = t.fma(t, a11);
                        x = FloatVector.broadcast(FS, rows[q2 + jw]);
                        t = x.sub(v0);
                        a20 = t.fma(t, a20);
                        t = x.sub(v1);
                        a21 = t.fma(t, a21);
                        x = FloatVector.broadcast(FS, rows[q3 + jw]);
                        t = x.sub(v0);
                        a30 = t.fma(t, a30);
                        t = x.sub(v1);
                        a31 = t.fma(t, a31);
                    }
                    // a run before the last whose pairs are all above their limits ends the loop
                    // (the limits are taken again at each check: held through the loop, they would take eight
                    // more vector registers than AVX2 has beside the sums)
                    int stopHere = before(end, stop) & allSet(u0.max(l0).lt(a00).and(u1.max(l0).lt(a01))
                            .and(u0.max(l1).lt(a10)).and(u1.max(l1).lt(a11)).and(u0.max(l2).lt(a20))
                            .and(u1.max(l2).lt(a21)).and(u0.max(l3).lt(a30)).and(u1.max(l3).lt(a31)));
                    above |= stopHere;
                    stop += (end - stop) * stopHere;
                }
                full |= (long) (3 * (above ^ 1)) << (b - blockFrom);
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
                int o = (b - blockFrom) * W;
                FloatVector u0 = FloatVector.fromArray(FS, colLimits, o);
                FloatVector m0 = u0.max(l0), m1 = u0.max(l1), m2 = u0.max(l2), m3 = u0.max(l3);
                FloatVector a0 = FloatVector.zero(FS), a1 = FloatVector.zero(FS);
                FloatVector a2 = FloatVector.zero(FS), a3 = FloatVector.zero(FS);
                int above = 0;
                int stop = d;
                for (int j0 = 0, end = FIRST_CHECK; j0 < stop; j0 = end, end = Math.min(stop, nextCheck(end))) {
                    for (int j = j0; j < end; j++) {
                        int jw = j * W;
                        FloatVector v0 = FloatVector.fromArray(FS, data, c0 + jw);
                        FloatVector t = FloatVector.broadcast(FS, rows[q0 + jw]).sub(v0);
                        a0 = t.fma(t, a0);
                        t = FloatVector.broadcast(FS, rows[q1 + jw]).sub(v0);
                        a1 = t.fma(t, a1);
                        t = FloatVector.broadcast(FS, rows[q2 + jw]).sub(v0);
                        a2 = t.fma(t, a2);
                        t = FloatVector.broadcast(FS, rows[q3 + jw]).sub(v0);
                        a3 = t.fma(t, a3);
                    }
                    int stopHere = before(end, stop) & allSet(m0.lt(a0).and(m1.lt(a1)).and(m2.lt(a2)).and(m3.lt(a3)));
                    above |= stopHere;
                    stop += (end - stop) * stopHere;
                }
                full |= (long) (above ^ 1) << (b - blockFrom);
                a0.intoArray(out, r0 + o);
                a1.intoArray(out, r1 + o);
                a2.intoArray(out, r2 + o);
                a3.intoArray(out, r3 + o);
            }
            // (rows from nq on repeat the last query: they get no entry)
            for (int r = q; r < Math.min(q + 4, nq); r++) rowBlocks[r] = full;
        }
    }

    /** Coordinates between two looks at whether {@link #pointSquaredDistancesWithin}'s blocks can stop. */
    private static final int POINT_STOP_CHECK = 16;

    /**
     * Two blocks at a time (four running sums of {@code DL} lanes, whose additions overlap), the point's
     * coordinate broadcast; each lane sums in coordinate order with a separate multiply and add, so the
     * bits are the reference's. An odd last block is summed twice and written once. After every
     * {@link #POINT_STOP_CHECK} coordinates, blocks whose partial sums all exceed the limit stop.
     */
    @Override
    public void pointSquaredDistancesWithin(double[] q, int off, BlockedPoints idx, int blockFrom, int blockTo,
                                            double limit, double[] out) {
        checkWidth(idx);
        double[] data = idx.blocks();
        int d = idx.dimensions();
        int dw = d * W;
        DoubleVector lim = DoubleVector.broadcast(DS, limit);
        int last = blockTo - 1;
        for (int b = blockFrom; b < blockTo; b += 2) {
            int c0 = b * dw, c2 = Math.min(b + 1, last) * dw;
            DoubleVector a0 = DoubleVector.zero(DS), a1 = DoubleVector.zero(DS);
            DoubleVector a2 = DoubleVector.zero(DS), a3 = DoubleVector.zero(DS);
            for (int j0 = 0; j0 < d; j0 += POINT_STOP_CHECK) {
                int j1 = Math.min(d, j0 + POINT_STOP_CHECK);
                for (int j = j0; j < j1; j++) {
                    int jw = j * W;
                    DoubleVector x = DoubleVector.broadcast(DS, q[off + j]);
                    DoubleVector t = x.sub(DoubleVector.fromArray(DS, data, c0 + jw));
                    a0 = a0.add(t.mul(t));
                    t = x.sub(DoubleVector.fromArray(DS, data, c0 + jw + DL));
                    a1 = a1.add(t.mul(t));
                    t = x.sub(DoubleVector.fromArray(DS, data, c2 + jw));
                    a2 = a2.add(t.mul(t));
                    t = x.sub(DoubleVector.fromArray(DS, data, c2 + jw + DL));
                    a3 = a3.add(t.mul(t));
                }
                if (lim.lt(a0).and(lim.lt(a1)).and(lim.lt(a2)).and(lim.lt(a3)).allTrue()) break;
            }
            int o = (b - blockFrom) * W;
            a0.intoArray(out, o);
            a1.intoArray(out, o + DL);
            if (b + 1 < blockTo) {
                a2.intoArray(out, o + W);
                a3.intoArray(out, o + W + DL);
            }
        }
    }

    /** Two double vectors at a time across the coordinates, then one, then the scalar tail. */
    @Override
    public double rowSquaredDistance(double[] x, int ox, double[] y, int oy, int d) {
        DoubleVector a0 = DoubleVector.zero(DS), a1 = DoubleVector.zero(DS);
        int j = 0;
        for (; j + 2 * DL <= d; j += 2 * DL) {
            DoubleVector t = DoubleVector.fromArray(DS, x, ox + j).sub(DoubleVector.fromArray(DS, y, oy + j));
            a0 = t.fma(t, a0);
            DoubleVector u = DoubleVector.fromArray(DS, x, ox + j + DL).sub(DoubleVector.fromArray(DS, y, oy + j + DL));
            a1 = u.fma(u, a1);
        }
        if (j + DL <= d) {
            DoubleVector t = DoubleVector.fromArray(DS, x, ox + j).sub(DoubleVector.fromArray(DS, y, oy + j));
            a0 = t.fma(t, a0);
            j += DL;
        }
        double s = a0.add(a1).reduceLanes(VectorOperators.ADD);
        for (; j < d; j++) {
            double t = x[ox + j] - y[oy + j];
            s += t * t;
        }
        return s;
    }

    /** Per block set in any row, the minimum over all rows (a row's clear blocks hold values above the limits), one compare. */
    @Override
    public int selectColumns(float[] values, int from, int stride, int rows, long[] rowBlocks, float[] limits,
                             int count, int[] out) {
        long any = 0;
        for (int r = 0; r < rows; r++) any |= rowBlocks[r];
        int n = 0;
        for (int i = 0; i < Long.SIZE && any != 0; i++) {
            int c = Long.numberOfTrailingZeros(any) * W;
            any &= any - 1;
            if (c >= count) break;
            FloatVector m = FloatVector.fromArray(FS, values, from + c);
            for (int r = 1, o = from + stride + c; r < rows; r++, o += stride) {
                m = m.min(FloatVector.fromArray(FS, values, o));
            }
            n = offsets(m.compare(VectorOperators.LE, FloatVector.fromArray(FS, limits, c)).toLong(), c, count, out, n);
        }
        return n;
    }

    @Override
    public int select(float[] values, int from, int count, double limit, int[] out) {
        float lim = ApproximationBound.roundUp(limit);
        int n = 0;
        for (int c = 0; c < count; c += W) {
            n = offsets(FloatVector.fromArray(FS, values, from + c).compare(VectorOperators.LE, lim).toLong(), c,
                    count, out, n);
        }
        return n;
    }

    @Override
    public int select(float[] values, int from, int count, double limit, long blocks, int[] out) {
        float lim = ApproximationBound.roundUp(limit);
        int n = 0;
        for (int i = 0; i < Long.SIZE && blocks != 0; i++) {
            int c = Long.numberOfTrailingZeros(blocks) * W;
            blocks &= blocks - 1;
            if (c >= count) break;
            n = offsets(FloatVector.fromArray(FS, values, from + c).compare(VectorOperators.LE, lim).toLong(), c,
                    count, out, n);
        }
        return n;
    }

    /** Appends to {@code out[n..]} the offsets {@code c + lane} (below {@code count}) of the set lanes of {@code bits}. */
    private static int offsets(long bits, int c, int count, int[] out, int n) {
        for (int t = 0; t < W && bits != 0; t++) {
            int lane = Long.numberOfTrailingZeros(bits);
            bits &= bits - 1;
            if (c + lane < count) out[n++] = c + lane;
        }
        return n;
    }

    @Override
    public void centreDistances(BlockedPoints idx, int node, int blockFrom, int blockTo, double[] out) {
        checkWidth(idx);
        double[] data = idx.blocks();
        double[] centre = idx.centres();
        int d = idx.dimensions();
        int dw = d * W;
        int c = node * d;
        int b = blockFrom;
        // Two blocks per pass: four independent accumulation chains hide the add latency.
        for (; b + 1 < blockTo; b += 2) {
            int c0 = b * dw, c1 = c0 + DL, c2 = c0 + dw, c3 = c2 + DL;
            DoubleVector a0 = DoubleVector.zero(DS), a1 = DoubleVector.zero(DS);
            DoubleVector a2 = DoubleVector.zero(DS), a3 = DoubleVector.zero(DS);
            for (int j = 0; j < d; j++) {
                int jw = j * W;
                DoubleVector x = DoubleVector.broadcast(DS, centre[c + j]);
                DoubleVector t = x.sub(DoubleVector.fromArray(DS, data, c0 + jw));
                a0 = a0.add(t.mul(t));
                t = x.sub(DoubleVector.fromArray(DS, data, c1 + jw));
                a1 = a1.add(t.mul(t));
                t = x.sub(DoubleVector.fromArray(DS, data, c2 + jw));
                a2 = a2.add(t.mul(t));
                t = x.sub(DoubleVector.fromArray(DS, data, c3 + jw));
                a3 = a3.add(t.mul(t));
            }
            int o = (b - blockFrom) * W;
            a0.intoArray(out, o);
            a1.intoArray(out, o + DL);
            a2.intoArray(out, o + W);
            a3.intoArray(out, o + W + DL);
        }
        if (b < blockTo) {
            int c0 = b * dw, c1 = c0 + DL;
            DoubleVector a0 = DoubleVector.zero(DS), a1 = DoubleVector.zero(DS);
            for (int j = 0; j < d; j++) {
                DoubleVector x = DoubleVector.broadcast(DS, centre[c + j]);
                DoubleVector t = x.sub(DoubleVector.fromArray(DS, data, c0 + j * W));
                a0 = a0.add(t.mul(t));
                t = x.sub(DoubleVector.fromArray(DS, data, c1 + j * W));
                a1 = a1.add(t.mul(t));
            }
            int o = (b - blockFrom) * W;
            a0.intoArray(out, o);
            a1.intoArray(out, o + DL);
        }
    }

    /** Offset of coordinate 0 of position {@code pos} in the block layout. */
    private static int base(int pos, int dw) {
        return (pos / W) * dw + pos % W;
    }

    @Override
    public String toString() {
        return "VectorDistanceKernel[" + DL + " x float64, " + W + " x float32]";
    }
}
