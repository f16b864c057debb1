package org.sylva.balltree;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
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
 * <p>Loaded only through {@link PartitionKernel#best()}, reflectively, when the module is present.
 *
 * <pre>{@code
 * PartitionKernel k = PartitionKernel.best();   // this class, or null
 * }</pre>
 */
final class VectorPartition implements PartitionKernel {
    private static final VectorSpecies<Integer> S = IntVector.SPECIES_256;
    private static final int W = 8;
    /** For each 8-bit mask: the lanes whose bit is set, in order, then the others, in order. */
    private static final int[] PERMUTATION = permutations();
    private static final int[] IOTA = {0, 1, 2, 3, 4, 5, 6, 7};

    VectorPartition() {
        if (IntVector.SPECIES_PREFERRED.vectorBitSize() < 256) {
            throw new UnsupportedOperationException("no 256-bit integer vectors");
        }
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
    public int minPoints() {
        return 32 * W;
    }

    @Override
    public int bufferInts(int columns) {
        return columns * 3 * W;
    }

    @Override
    public int partition(int[][] cols, int[] idx, int s, int e, int[] x, int pc, int pi, boolean ties, int[] buffer) {
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
