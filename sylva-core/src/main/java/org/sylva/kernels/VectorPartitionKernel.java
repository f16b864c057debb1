package org.sylva.kernels;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link PartitionKernel} on 256-bit integer vectors (eight lanes), in place. Eight points are read at a
 * time; the lanes before the pivot are gathered to the bottom of the vector and the others to the top by
 * one permutation from a 256-entry table, and the permuted vector is stored twice: at the left write
 * position (its bottom lanes are the left points) and just below the right write position (its top
 * lanes are the right points). The garbage lanes of each store land in the gap between the two write
 * positions, which is never smaller than a vector because the next vector is always read from the side
 * with less room (the scheme of Bramas' AVX-512 quicksort). The first and last eight points and the
 * final remainder go through a small buffer and are placed one by one. Loop counts are fixed before
 * each loop starts.
 *
 * <p>Loaded only through {@link KernelProvider}, reflectively, when the module is present; its
 * constructor checks the vector shape and runs a self-test, and any failure there means the scalar
 * twin ({@link ScalarPartitionKernel}) runs instead.
 *
 * <pre>{@code
 * PartitionKernel k = KernelProvider.get().partition(true);   // this class where usable
 * }</pre>
 */
final class VectorPartitionKernel implements PartitionKernel {
    private static final VectorSpecies<Integer> S = IntVector.SPECIES_256;
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_256;
    private static final int W = 8;
    /** For each 8-bit mask: the lanes whose bit is set, in order, then the others, in order. */
    private static final int[] PERMUTATION = permutations();
    private static final int[] IOTA = {0, 1, 2, 3, 4, 5, 6, 7};
    /**
     * De-interleaving eight rows of three floats (three vectors {@code v0, v1, v2}): element {@code 3k + j}
     * lies in vector {@code (3k + j) / 8} at lane {@code (3k + j) % 8}, and for each {@code j} these eight
     * lanes are distinct. So column {@code j} is {@code v0} blended with {@code v1} on {@code FROM1[j]} and
     * with {@code v2} on {@code FROM2[j]}, then one permutation {@code ORDER[j]} puts lane {@code (3k + j) % 8}
     * at {@code k}.
     */
    private static final VectorMask<Integer>[] FROM1 = deinterleaveMasks(1);
    private static final VectorMask<Integer>[] FROM2 = deinterleaveMasks(2);
    private static final VectorShuffle<Integer>[] ORDER = deinterleaveOrders();

    VectorPartitionKernel() {
        if (IntVector.SPECIES_PREFERRED.vectorBitSize() < 256) {
            throw new UnsupportedOperationException("no 256-bit integer vectors");
        }
        selfTest();
    }

    /**
     * Runs every operation once on a small input and checks the result. Besides refusing a JVM where the
     * kernel would be wrong, this loads and initialises every vector class the kernel uses before the
     * JIT compiles it: a method compiled while one of them is still unloaded keeps calling the
     * (far slower) Java fallbacks of the Vector API for the rest of the run.
     */
    private void selfTest() {
        int n = minPoints() + 13;
        int[] x = new int[n], y = new int[n], idx = new int[n];
        for (int i = 0; i < n; i++) {
            x[i] = (i * 37) % 11;
            y[i] = i;
            idx[i] = n - i;
        }
        int[] cand = new int[n];
        long counts = countAndGather(x, 0, n, 3, 5, cand);
        int below = 0, inside = 0;
        for (int v : x) {
            below += v < 3 ? 1 : 0;
            inside += v >= 3 && v <= 5 ? 1 : 0;
        }
        for (boolean ties : new boolean[] {false, true}) {
            int[] xs = x.clone(), ys = y.clone(), is = idx.clone();
            int b = partition(new int[][] {xs, ys}, is, 0, -1, n, xs, 5, n / 2, ties, new int[bufferInts(3)]);
            int expected = 0;
            for (int i = 0; i < n; i++) expected += x[i] < 5 || (ties && x[i] == 5 && idx[i] < n / 2) ? 1 : 0;
            boolean ok = b == expected;
            for (int i = 0; i < n && ok; i++) ok = xs[i] == x[ys[i]] && is[i] == idx[ys[i]] && (i < b) == (xs[i] < 5 || (ties && xs[i] == 5 && is[i] < n / 2));
            if (!ok) throw new IllegalStateException("vector partition self-test failed");
        }
        if ((int) (counts >>> 32) != below || (int) counts != inside) throw new IllegalStateException("vector count self-test failed");
        long mm = minMax(x, 1, n);
        if ((int) mm != 0 || (int) (mm >>> 32) != 10) throw new IllegalStateException("vector extremes self-test failed");
        float[] rows = new float[3 * 19];
        for (int i = 0; i < rows.length; i++) rows[i] = i % 5 == 0 ? -i : i;
        int[] c0 = new int[19], c1 = new int[19], c2 = new int[19], id = new int[19];
        boolean copied = copyRows3(rows, 1, 19, c0, c1, c2, id) >= 0;
        for (int i = 1; i < 19 && copied; i++) {
            copied = c0[i] == OrderedBits.key(rows[3 * i]) && c1[i] == OrderedBits.key(rows[3 * i + 1])
                    && c2[i] == OrderedBits.key(rows[3 * i + 2]) && id[i] == i;
        }
        rows[3 * 17 + 2] = Float.NaN;
        if (!copied || copyRows3(rows, 1, 19, c0, c1, c2, id) >= 0) throw new IllegalStateException("vector copy self-test failed");
    }

    @SuppressWarnings({"unchecked", "rawtypes"})   // a generic array
    private static VectorMask<Integer>[] deinterleaveMasks(int vector) {
        VectorMask<Integer>[] m = new VectorMask[3];
        for (int j = 0; j < 3; j++) {
            boolean[] lanes = new boolean[W];
            for (int k = 0; k < W; k++) if ((3 * k + j) / W == vector) lanes[(3 * k + j) % W] = true;
            m[j] = VectorMask.fromArray(S, lanes, 0);
        }
        return m;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})   // a generic array
    private static VectorShuffle<Integer>[] deinterleaveOrders() {
        VectorShuffle<Integer>[] o = new VectorShuffle[3];
        for (int j = 0; j < 3; j++) {
            int[] lanes = new int[W];
            for (int k = 0; k < W; k++) lanes[k] = (3 * k + j) % W;
            o[j] = VectorShuffle.fromArray(S, lanes, 0);
        }
        return o;
    }

    private static int[] permutations() {
        int[] t = new int[256 * W];
        for (int m = 0; m < 256; m++) {
            int c = 0;
            for (int i = 0; i < W; i++) if ((m >> i & 1) != 0) t[m * W + c++] = i;
            for (int i = 0; i < W; i++) if ((m >> i & 1) == 0) t[m * W + c++] = i;
        }
        return t;
    }

    /** The W values of {@code c} at {@code p}, permuted, stored at {@code writeL} and ending at {@code writeR}. */
    private static void move(IntVector perm, int[] c, int p, int writeL, int writeR) {
        IntVector moved = perm.selectFrom(IntVector.fromArray(S, c, p));
        moved.intoArray(c, writeL);
        moved.intoArray(c, writeR - W);
    }

    @Override
    public String name() {
        return "vector";
    }

    @Override
    public boolean gathersFast() {
        return true;
    }

    @Override
    public long countAndGather(int[] x, int s, int e, int a, int b, int[] cand) {
        IntVector av = IntVector.broadcast(S, a);
        IntVector bv = IntVector.broadcast(S, b);
        IntVector lane = IntVector.fromArray(S, IOTA, 0);
        long below = 0;
        int c = 0;
        int vectors = (e - s) / W;
        int p = s;
        for (int v = 0; v < vectors; v++, p += W) {
            IntVector xv = IntVector.fromArray(S, x, p);
            below += xv.lt(av).trueCount();
            int bits = (int) xv.lt(av).or(xv.compare(VectorOperators.GT, bv)).not().toLong();
            // Positions p + lane, the selected ones gathered to the bottom; the rest of the store is
            // overwritten later or lies past the candidates (within [s, e): c <= p - s).
            IntVector.fromArray(S, PERMUTATION, bits * W).selectFrom(lane.add(p)).intoArray(cand, s + c);
            c += Integer.bitCount(bits);
        }
        for (; p < e; p++) {
            int xv = x[p];
            below += xv < a ? 1 : 0;
            cand[s + c] = p;
            c += xv >= a && xv <= b ? 1 : 0;
        }
        return below << 32 | c;
    }

    @Override
    public long minMax(int[] x, int s, int e) {
        int n = e - s;
        int mn = Integer.MAX_VALUE, mx = Integer.MIN_VALUE;
        if (n < W) {
            for (int i = s; i < e; i++) {
                mn = Math.min(mn, x[i]);
                mx = Math.max(mx, x[i]);
            }
        } else {
            IntVector lo = IntVector.fromArray(S, x, e - W), hi = lo;
            int vectors = (n - 1) / W;
            for (int v = 0, p = s; v < vectors; v++, p += W) {
                IntVector xv = IntVector.fromArray(S, x, p);
                lo = lo.min(xv);
                hi = hi.max(xv);
            }
            mn = lo.reduceLanes(VectorOperators.MIN);
            mx = hi.reduceLanes(VectorOperators.MAX);
        }
        return (long) mx << 32 | (mn & 0xffffffffL);
    }

    @Override
    public int copyRows3(float[] coords, int from, int to, int[] c0, int[] c1, int[] c2, int[] idx) {
        IntVector bad = IntVector.zero(S);
        IntVector lane = IntVector.fromArray(S, IOTA, 0);
        int rows = (to - from) / W;
        int i = from;
        for (int r = 0; r < rows; r++, i += W) {
            IntVector v0 = FloatVector.fromArray(F, coords, 3 * i).reinterpretAsInts();
            IntVector v1 = FloatVector.fromArray(F, coords, 3 * i + W).reinterpretAsInts();
            IntVector v2 = FloatVector.fromArray(F, coords, 3 * i + 2 * W).reinterpretAsInts();
            IntVector b0 = v0.blend(v1, FROM1[0]).blend(v2, FROM2[0]).rearrange(ORDER[0]);
            IntVector b1 = v0.blend(v1, FROM1[1]).blend(v2, FROM2[1]).rearrange(ORDER[1]);
            IntVector b2 = v0.blend(v1, FROM1[2]).blend(v2, FROM2[2]).rearrange(ORDER[2]);
            bad = bad.or(exponentAllOnes(b0)).or(exponentAllOnes(b1)).or(exponentAllOnes(b2));
            toKey(b0).intoArray(c0, i);
            toKey(b1).intoArray(c1, i);
            toKey(b2).intoArray(c2, i);
            lane.add(i).intoArray(idx, i);
        }
        int flag = bad.reduceLanes(VectorOperators.OR);
        for (; i < to; i++) {
            int b0 = Float.floatToRawIntBits(coords[3 * i]);
            int b1 = Float.floatToRawIntBits(coords[3 * i + 1]);
            int b2 = Float.floatToRawIntBits(coords[3 * i + 2]);
            flag |= OrderedBits.nonFiniteFlag(b0) | OrderedBits.nonFiniteFlag(b1) | OrderedBits.nonFiniteFlag(b2);
            c0[i] = OrderedBits.ofBits(b0);
            c1[i] = OrderedBits.ofBits(b1);
            c2[i] = OrderedBits.ofBits(b2);
            idx[i] = i;
        }
        return flag;
    }

    /** {@link OrderedBits#nonFiniteFlag} lane by lane. */
    private static IntVector exponentAllOnes(IntVector bits) {
        return bits.and(OrderedBits.EXPONENT).add(0x00800000);
    }

    /** {@link OrderedBits#ofBits} lane by lane. */
    private static IntVector toKey(IntVector bits) {
        IntVector sign = bits.lanewise(VectorOperators.ASHR, 31);
        return bits.and(0x7fffffff).lanewise(VectorOperators.XOR, sign).sub(sign);
    }

    @Override
    public int minPoints() {
        return 32 * W;
    }

    @Override
    public int bufferInts(int columns) {
        return columns * 3 * W;
    }

    @Override
    public int partition(int[][] cols, int[] idx, int s, int mid, int e, int[] x, int pc, int pi, boolean ties,
                         int[] buffer) {
        int n = e - s;
        if (n < minPoints()) throw new IllegalArgumentException("node of " + n + " points");
        int d = cols.length;
        // The first and last W points of every column wait in the buffer: that makes the initial room.
        for (int j = 0; j <= d; j++) {
            int[] c = j < d ? cols[j] : idx;
            System.arraycopy(c, s, buffer, j * 3 * W, W);
            System.arraycopy(c, e - W, buffer, j * 3 * W + W, W);
        }
        IntVector pcv = IntVector.broadcast(S, pc);
        IntVector piv = IntVector.broadcast(S, pi);
        int readL = s + W, readR = e - W, writeL = s, writeR = e;
        int vectors = (n - 2 * W) / W;
        for (int v = 0; v < vectors; v++) {
            boolean fromLeft = readL - writeL <= writeR - readR;
            int p = fromLeft ? readL : readR - W;
            readL += fromLeft ? W : 0;
            readR -= fromLeft ? 0 : W;
            IntVector xv = IntVector.fromArray(S, x, p);
            VectorMask<Integer> before = xv.lt(pcv);
            if (ties) before = before.or(xv.eq(pcv).and(IntVector.fromArray(S, idx, p).lt(piv)));
            int bits = (int) before.toLong();
            IntVector perm = IntVector.fromArray(S, PERMUTATION, bits * W);
            if (d == 3) {
                move(perm, cols[0], p, writeL, writeR);
                move(perm, cols[1], p, writeL, writeR);
                move(perm, cols[2], p, writeL, writeR);
            } else {
                for (int j = 0; j < d; j++) move(perm, cols[j], p, writeL, writeR);
            }
            move(perm, idx, p, writeL, writeR);
            int left = Integer.bitCount(bits);
            writeL += left;
            writeR -= W - left;
        }
        // Fewer than W points remain unread: buffer them too, then place all buffered points one by one.
        int rest = readR - readL;
        for (int j = 0; j <= d; j++) {
            int[] c = j < d ? cols[j] : idx;
            System.arraycopy(c, readL, buffer, j * 3 * W + 2 * W, rest);
        }
        int kx = 0;
        for (int j = 0; j < d; j++) if (cols[j] == x) kx = j;
        int xb = kx * 3 * W, ib = d * 3 * W;
        for (int t = 0; t < 2 * W + rest; t++) {
            int xv = buffer[xb + t];
            boolean goesLeft = xv < pc || (ties && xv == pc && buffer[ib + t] < pi);
            int q = goesLeft ? writeL++ : --writeR;
            for (int j = 0; j < d; j++) cols[j][q] = buffer[j * 3 * W + t];
            idx[q] = buffer[ib + t];
        }
        return writeL;
    }
}
