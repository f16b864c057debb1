package org.sylva.kernels;

import java.util.Arrays;
import java.util.SplittableRandom;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link LaneSubtrees} on 256-bit vectors: eight nodes side by side, node {@code l} in lane {@code l};
 * every buffer is laid out {@code [position][lane]}, so one vector holds one position of all eight nodes.
 * Accepts {@code d <= 4} and at most 2^26 points (see below); other builds use the scalar twin.
 *
 * <p>Ranks first, then every split on ranks.
 * <ul>
 *   <li>Each node's points get local positions in increasing row order (one sort of
 *       {@code (row << 5) | offset}), so "smaller row first" becomes "smaller position first".</li>
 *   <li>A point's rank along dimension {@code j} is counted: the points before it by
 *       {@code (coordinate, row)}. All pairs are compared (about a thousand comparisons for 32 points,
 *       eight nodes per instruction), which needs no scatter and leaves each rank where its point is.</li>
 *   <li>Ranks and position go into one {@code int}: bits 0-4 the position, bits {@code 5 + 5j} to
 *       {@code 9 + 5j} the rank along dimension {@code j}, bits 25-29 a copy of the rank along the node's
 *       split dimension. Ranks of a subset keep the subset's order, so every later split sorts these ints
 *       with plain minima and maxima, with no tie logic.</li>
 *   <li>A node's spread along {@code j} is the value at its largest rank minus the value at its smallest
 *       (the packed extremes name both points). See {@link #splitShifts} for float32 versus float64.</li>
 * </ul>
 *
 * <p>A node owns a frame of positions, its slots ({@code span}, at least its size, at most twice it). At
 * the first split a point's rank is its place; later splits sort the frame. Then the {@code floor(m/2)}
 * smallest are the left child, at the start of the frame's first half, and the rest moves to the start
 * of the second half. The eight nodes have the same size, so every frame holds the same number of
 * points in every lane: one comparator network (Batcher's odd-even merge sort of the next power of two,
 * without the comparators that only touch positions past the points) and one move serve all lanes. The
 * last level is the leaves. Loop bounds are node sizes and constants.
 *
 * <p>Only operations that the JIT turns into vector instructions on AVX2 are used: no masks cast
 * between species and no null-initialised vector variables (either falls back to Java code that
 * allocates). Gathers are used only where they measured faster than scalar loads (the spreads), since
 * a Java gather costs about as much as eight loads.
 *
 * <p>Why one file of about 490 lines: every method here works on the same packed per-lane buffers and bit
 * layout (the constants below), and the self-test at the end checks the whole kernel against its scalar
 * twin; split apart, the layout would have to be shared across classes that only make sense together.
 */
final class VectorLaneSubtrees implements LaneSubtrees {
    private static final VectorSpecies<Integer> I = IntVector.SPECIES_256;
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_256;
    private static final IntVector IOTA = IntVector.fromArray(I, new int[] {0, 1, 2, 3, 4, 5, 6, 7}, 0);
    private static final int W = LANES;
    /** Bits of a local position, and of one rank field: positions and ranks are 0 to {@link #MAX} - 1. */
    private static final int POS_BITS = 5;
    private static final int POS_MASK = MAX - 1;
    /** log2 of {@link #W}: position {@code u} of lane {@code l} is at {@code (u << LANE_BITS) + l}. */
    private static final int LANE_BITS = 3;
    /** The top field, above four rank fields. */
    private static final int TOP_SHIFT = 5 * POS_BITS;
    private static final int BELOW_TOP = (1 << TOP_SHIFT) - 1;
    /** Rows must fit in 26 bits next to a 5-bit position in an int. */
    private static final int MAX_ROWS = 1 << 26;
    /** {@code NETWORK[m]}: comparator pairs (flattened) sorting positions {@code [0, m)}. */
    private static final int[][] NETWORK = networks();

    /** Packed position and ranks, {@code [position][lane]}. */
    private int[] packed = new int[MAX * W];
    /** {@code (row << 5) | working offset}, sorted into row order. */
    private final int[] order = new int[MAX * W];
    /** Global row of each local position, {@code [local position][lane]}. */
    private final int[] rows = new int[MAX * W];
    /** Working position (in the workspace) of each local position, {@code [local position][lane]}. */
    private final int[] source = new int[MAX * W];
    /** Coordinate keys, and their float values, of local position {@code u} along {@code j} in lane {@code l}: {@code (j * MAX + u) * W + l}. */
    private final int[] keys = new int[4 * MAX * W];
    private final float[] values = new float[4 * MAX * W];
    /** Rank of local position {@code u} along {@code j} in lane {@code l}, at {@code (j * MAX + u) * W + l}. */
    private final int[] ranks = new int[4 * MAX * W];
    /** Per dimension and lane, where the smallest and the largest value of a node are in {@link #values}. */
    private final int[] lowest = new int[4 * W];
    private final int[] highest = new int[4 * W];
    private final int[] shift = new int[W];
    private final int[] leafPosition = new int[MAX * W];
    private final byte[] leafMask = new byte[MAX];
    /** Where the first split places the points, then swapped with {@link #packed}. */
    private int[] placed = new int[MAX * W];
    private int[] sizes = new int[MAX];
    private int[] next = new int[MAX];

    static {
        // Once per JVM, when the class is loaded (by KernelProvider): a failure here makes the provider
        // record the reason and hand out the scalar twin instead.
        if (IntVector.SPECIES_PREFERRED.vectorBitSize() < 256) {
            throw new UnsupportedOperationException("no 256-bit vectors");
        }
        new VectorLaneSubtrees().selfTest();
    }

    /** One instance per thread ({@link KernelProvider#newLanes(boolean)}); the class's loading has tested the code. */
    VectorLaneSubtrees() { }

    @Override
    public String name() {
        return "vector";
    }

    @Override
    public boolean accepts(int n, int d) {
        return d >= 1 && d <= 4 && n <= MAX_ROWS;
    }

    @Override
    public void finish(int[][] cols, int[] idx, int[] starts, int m, int span, int[] slots, int[] treeIdx, byte[] mask) {
        LaneSubtrees.checkShape(m, span);
        int d = cols.length;
        if (d == 1) Arrays.fill(shift, POS_BITS);
        orderByRow(idx, starts, m);
        for (int j = 0; j < d; j++) rank(cols[j], m, j);
        pack(m, d);
        int frame = span;
        int frames = 1;
        sizes[0] = m;
        // frame >= 4: every node holds 2 or more points and is split; frame == 2: the leaves.
        for (; frame >= 4; frame >>>= 1, frames <<= 1) {
            for (int f = 0; f < frames; f++) {
                int o = f * frame, mf = sizes[f], h = mf >>> 1;
                if (d > 1) splitShifts(o, mf, d);
                if (frames == 1) {
                    placeByRank(m);
                } else {
                    setTop(o, mf);
                    sortInts(o, mf);
                }
                System.arraycopy(packed, (o + h) * W, packed, (o + (frame >>> 1)) * W, (mf - h) * W);
                next[2 * f] = h;
                next[2 * f + 1] = mf - h;
            }
            int[] t = sizes;
            sizes = next;
            next = t;
        }
        writeLeaves(frames, span, slots, treeIdx, mask);
    }

    /**
     * Gives each node's points local positions in increasing row order: sorts {@code (row << 5) | t}
     * ({@code t} the working position within the node), then records the rows and working positions.
     */
    private void orderByRow(int[] idx, int[] starts, int m) {
        int[] k = order;
        for (int t = 0; t < m; t++) {
            for (int l = 0; l < W; l++) k[t * W + l] = idx[starts[l] + t] << POS_BITS | t;
        }
        sortInts(k, 0, m);
        IntVector start = IntVector.fromArray(I, starts, 0);
        for (int u = 0; u < m; u++) {
            IntVector v = IntVector.fromArray(I, k, u * W);
            v.lanewise(VectorOperators.LSHR, POS_BITS).intoArray(rows, u * W);
            v.and(POS_MASK).add(start).intoArray(source, u * W);
        }
    }

    /**
     * Reads coordinate {@code x} of every point (in local order) and counts its rank: the points before
     * it by {@code (coordinate, row)}. Local order is row order, so an equal coordinate at a smaller
     * local position comes first: {@code rank(t) = #{s < t : x_s <= x_t} + #{s > t : x_s < x_t}}.
     * Counting costs {@code m^2} comparisons, but they are independent, need no scatter, and leave the
     * ranks where the points are; a sorting network would need 64-bit keys and an inverse permutation.
     */
    private void rank(int[] x, int m, int j) {
        int base = j * MAX * W;
        int[] c = keys;
        float[] cf = values;
        // Scalar loads: measured faster here than a gather per position.
        int[] src = source;
        for (int i = 0; i < m * W; i++) c[base + i] = x[src[i]];
        for (int u = 0; u < m; u++) {
            IntVector v = IntVector.fromArray(I, c, base + u * W);
            // The float value of each key, for the spreads: sign-magnitude bits back from the key.
            IntVector sign = v.lanewise(VectorOperators.ASHR, 31);
            FloatVector f = v.lanewise(VectorOperators.XOR, sign).sub(sign).or(sign.and(0x80000000)).reinterpretAsFloats();
            f.intoArray(cf, base + u * W);
        }
        // Four points at a time against every other: each load of x_s serves four comparisons.
        int[] r = ranks;
        int t = 0;
        for (; t + 4 <= m; t += 4) {
            int q = base + t * W;
            IntVector x0 = IntVector.fromArray(I, c, q), x1 = IntVector.fromArray(I, c, q + W);
            IntVector x2 = IntVector.fromArray(I, c, q + 2 * W), x3 = IntVector.fromArray(I, c, q + 3 * W);
            // x_s <= x_t is x_s < x_t + 1 (keys are at most 0x7f7fffff).
            IntVector e0 = x0.add(1), e1 = x1.add(1), e2 = x2.add(1), e3 = x3.add(1);
            IntVector a0 = IntVector.zero(I), a1 = a0, a2 = a0, a3 = a0;
            for (int s = 0; s < t; s++) {
                IntVector xs = IntVector.fromArray(I, c, base + s * W);
                a0 = a0.sub((IntVector) e0.compare(VectorOperators.GT, xs).toVector());
                a1 = a1.sub((IntVector) e1.compare(VectorOperators.GT, xs).toVector());
                a2 = a2.sub((IntVector) e2.compare(VectorOperators.GT, xs).toVector());
                a3 = a3.sub((IntVector) e3.compare(VectorOperators.GT, xs).toVector());
            }
            for (int s = t + 4; s < m; s++) {
                IntVector xs = IntVector.fromArray(I, c, base + s * W);
                a0 = a0.sub((IntVector) x0.compare(VectorOperators.GT, xs).toVector());
                a1 = a1.sub((IntVector) x1.compare(VectorOperators.GT, xs).toVector());
                a2 = a2.sub((IntVector) x2.compare(VectorOperators.GT, xs).toVector());
                a3 = a3.sub((IntVector) x3.compare(VectorOperators.GT, xs).toVector());
            }
            // Among the four themselves.
            a0 = a0.sub((IntVector) x0.compare(VectorOperators.GT, x1).toVector())
                    .sub((IntVector) x0.compare(VectorOperators.GT, x2).toVector())
                    .sub((IntVector) x0.compare(VectorOperators.GT, x3).toVector());
            a1 = a1.sub((IntVector) e1.compare(VectorOperators.GT, x0).toVector())
                    .sub((IntVector) x1.compare(VectorOperators.GT, x2).toVector())
                    .sub((IntVector) x1.compare(VectorOperators.GT, x3).toVector());
            a2 = a2.sub((IntVector) e2.compare(VectorOperators.GT, x0).toVector())
                    .sub((IntVector) e2.compare(VectorOperators.GT, x1).toVector())
                    .sub((IntVector) x2.compare(VectorOperators.GT, x3).toVector());
            a3 = a3.sub((IntVector) e3.compare(VectorOperators.GT, x0).toVector())
                    .sub((IntVector) e3.compare(VectorOperators.GT, x1).toVector())
                    .sub((IntVector) e3.compare(VectorOperators.GT, x2).toVector());
            a0.intoArray(r, q);
            a1.intoArray(r, q + W);
            a2.intoArray(r, q + 2 * W);
            a3.intoArray(r, q + 3 * W);
        }
        for (; t < m; t++) {
            IntVector xt = IntVector.fromArray(I, c, base + t * W), et = xt.add(1);
            IntVector acc = IntVector.zero(I);
            for (int s = 0; s < m; s++) {
                if (s == t) continue;
                IntVector xs = IntVector.fromArray(I, c, base + s * W);
                acc = acc.sub((IntVector) (s < t ? et : xt).compare(VectorOperators.GT, xs).toVector());
            }
            acc.intoArray(r, base + t * W);
        }
    }

    /** Packs each point's local position and its ranks (dimensions {@code < d}) into one int. */
    private void pack(int m, int d) {
        int[] r = ranks;
        for (int u = 0; u < m; u++) {
            IntVector v = IntVector.broadcast(I, u);
            for (int j = 0; j < d; j++) {
                v = v.or(IntVector.fromArray(I, r, (j * MAX + u) * W).lanewise(VectorOperators.LSHL, POS_BITS * (j + 1)));
            }
            v.intoArray(packed, u * W);
        }
    }

    /**
     * Per lane, {@code 5 + 5 * (split dimension)} of the node in frame positions {@code [o, o + mf)},
     * into {@link #shift}.
     * Spreads are compared in float32 first: a float32 difference is the float64 difference rounded
     * again (innocuously: 53 >= 2 * 24 + 2 bits), and rounding is monotone, so a strict order between
     * float32 spreads is the same strict order between the float64 ones. Only equal float32 spreads can
     * hide unequal float64 ones; a frame with such a tie is decided again in float64.
     */
    private void splitShifts(int o, int mf, int d) {
        if (d == 3) {
            extremes3(o, mf);
        } else {
            for (int j = 0; j < d; j++) extremes(o, mf, j);
        }
        float[] c = values;
        // Only operations the JIT turns into instructions on AVX2: no null-initialised vectors, no
        // masks cast between species (either falls back to Java code that allocates).
        FloatVector by = FloatVector.broadcast(F, POS_BITS);
        FloatVector best = FloatVector.fromArray(F, c, 0, highest, 0).sub(FloatVector.fromArray(F, c, 0, lowest, 0));
        VectorMask<Float> tie = F.maskAll(false);
        for (int j = 1; j < d; j++) {
            FloatVector spread = FloatVector.fromArray(F, c, 0, highest, j * W).sub(FloatVector.fromArray(F, c, 0, lowest, j * W));
            VectorMask<Float> wider = spread.compare(VectorOperators.GT, best);
            tie = tie.or(spread.compare(VectorOperators.EQ, best));
            best = best.blend(spread, wider);
            by = by.blend(POS_BITS * (j + 1), wider);
        }
        if (tie.anyTrue()) {
            exactShifts(d);
        } else {
            ((IntVector) by.convert(VectorOperators.F2I, 0)).intoArray(shift, 0);
        }
    }

    /**
     * Where in {@link #values} the smallest and the largest value along {@code j} of the node in frame
     * positions {@code [o, o + mf)} are, per lane, into {@link #lowest} and {@link #highest}. The
     * extremes of {@code (rank along j) << 5 | local position} name the points that hold them.
     */
    private void extremes(int o, int mf, int j) {
        int[] p = packed;
        int shr = POS_BITS * j;
        IntVector lo = IntVector.broadcast(I, Integer.MAX_VALUE), hi = IntVector.zero(I);
        for (int t = o; t < o + mf; t++) {
            IntVector v = IntVector.fromArray(I, p, t * W);
            IntVector r = v.lanewise(VectorOperators.LSHR, shr).and(POS_MASK << POS_BITS).or(v.and(POS_MASK));
            lo = lo.min(r);
            hi = hi.max(r);
        }
        storeExtremes(lo, hi, j);
    }

    /** {@link #extremes} of three dimensions in one pass. */
    private void extremes3(int o, int mf) {
        int[] p = packed;
        IntVector lo0 = IntVector.broadcast(I, Integer.MAX_VALUE), hi0 = IntVector.zero(I);
        IntVector lo1 = lo0, hi1 = hi0, lo2 = lo0, hi2 = hi0;
        for (int t = o; t < o + mf; t++) {
            IntVector v = IntVector.fromArray(I, p, t * W);
            IntVector pos = v.and(POS_MASK);
            IntVector r0 = v.and(POS_MASK << POS_BITS).or(pos);
            IntVector r1 = v.lanewise(VectorOperators.LSHR, POS_BITS).and(POS_MASK << POS_BITS).or(pos);
            IntVector r2 = v.lanewise(VectorOperators.LSHR, 2 * POS_BITS).and(POS_MASK << POS_BITS).or(pos);
            lo0 = lo0.min(r0);
            hi0 = hi0.max(r0);
            lo1 = lo1.min(r1);
            hi1 = hi1.max(r1);
            lo2 = lo2.min(r2);
            hi2 = hi2.max(r2);
        }
        storeExtremes(lo0, hi0, 0);
        storeExtremes(lo1, hi1, 1);
        storeExtremes(lo2, hi2, 2);
    }

    private void storeExtremes(IntVector lo, IntVector hi, int j) {
        // Value of local position u of lane l along j: (j * MAX + u) * W + l.
        IntVector base = IOTA.add(j * MAX * W);
        lo.and(POS_MASK).lanewise(VectorOperators.LSHL, LANE_BITS).add(base).intoArray(lowest, j * W);
        hi.and(POS_MASK).lanewise(VectorOperators.LSHL, LANE_BITS).add(base).intoArray(highest, j * W);
    }

    /** {@link #splitShifts} in float64 from the extremes it stored, for frames with float32 ties. */
    private void exactShifts(int d) {
        float[] c = values;
        for (int l = 0; l < W; l++) {
            int dim = 0;
            double best = (double) c[highest[l]] - (double) c[lowest[l]];
            for (int j = 1; j < d; j++) {
                double spread = (double) c[highest[j * W + l]] - (double) c[lowest[j * W + l]];
                if (spread > best) {
                    best = spread;
                    dim = j;
                }
            }
            shift[l] = POS_BITS * (dim + 1);
        }
    }

    /**
     * The first split: along its split dimension a point's rank among all {@code m} points is its place,
     * so the points are put there directly (a scalar scatter is cheaper than a comparator network).
     */
    private void placeByRank(int m) {
        int[] from = packed, to = placed;
        for (int l = 0; l < W; l++) {
            int by = shift[l];
            for (int t = 0; t < m; t++) {
                int v = from[t * W + l];
                to[((v >>> by) & POS_MASK) * W + l] = v;
            }
        }
        placed = from;
        packed = to;
    }

    /** Copies each point's rank along its lane's split dimension ({@link #shift}) into the top field. */
    private void setTop(int o, int mf) {
        int[] p = packed;
        IntVector by = IntVector.fromArray(I, shift, 0);
        for (int t = o; t < o + mf; t++) {
            IntVector v = IntVector.fromArray(I, p, t * W);
            IntVector top = v.lanewise(VectorOperators.LSHR, by).and(POS_MASK);
            v.and(BELOW_TOP).or(top.lanewise(VectorOperators.LSHL, TOP_SHIFT)).intoArray(p, t * W);
        }
    }

    /** Sorts frame positions {@code [o, o + mf)} of every lane by the packed ints. */
    private void sortInts(int o, int mf) {
        sortInts(packed, o, mf);
    }

    /** Sorts positions {@code [o, o + mf)} of {@code p} ({@code [position][lane]}) in every lane. */
    private static void sortInts(int[] p, int o, int mf) {
        int[] net = NETWORK[mf];
        for (int c = 0; c < net.length; c += 2) {
            int a = (o + net[c]) * W, b = (o + net[c + 1]) * W;
            IntVector va = IntVector.fromArray(I, p, a);
            IntVector vb = IntVector.fromArray(I, p, b);
            va.min(vb).intoArray(p, a);
            va.max(vb).intoArray(p, b);
        }
    }

    /**
     * Leaf {@code f} holds {@code sizes[f]} (1 or 2) points at frame positions {@code 2f} and
     * {@code 2f + 1}. Local positions are in row order, so the smaller one goes first. Every lane has the
     * same leaf sizes, hence the same mask.
     */
    private void writeLeaves(int leaves, int span, int[] slots, int[] treeIdx, byte[] mask) {
        int[] p = packed, at = leafPosition;
        byte[] pattern = leafMask;
        for (int f = 0; f < leaves; f++) {
            int o = 2 * f;
            IntVector a = IntVector.fromArray(I, p, o * W).and(POS_MASK);
            boolean pair = sizes[f] == 2;
            IntVector b = pair ? IntVector.fromArray(I, p, (o + 1) * W).and(POS_MASK) : a;
            a.min(b).intoArray(at, o * W);
            a.max(b).intoArray(at, (o + 1) * W);
            pattern[o] = 1;
            pattern[o + 1] = (byte) (pair ? 1 : 0);
        }
        int[] r = rows;
        for (int l = 0; l < W; l++) {
            int s = slots[l];
            for (int u = 0; u < span; u++) treeIdx[s + u] = r[at[u * W + l] * W + l];
            System.arraycopy(pattern, 0, mask, s, span);
        }
    }

    /** Batcher's odd-even merge sort of the next power of two, for each size, past-the-end pairs dropped. */
    private static int[][] networks() {
        int[][] out = new int[MAX + 1][];
        for (int m = 0; m <= MAX; m++) {
            int n = m <= 1 ? 1 : Integer.highestOneBit(m - 1) << 1;
            int[] pairs = new int[2 * n * n];
            int c = 0;
            for (int p = 1; p < n; p <<= 1) {
                for (int k = p; k >= 1; k >>>= 1) {
                    for (int j = k % p; j + k < n; j += 2 * k) {
                        for (int i = 0; i < Math.min(k, n - j - k); i++) {
                            int a = i + j, b = i + j + k;
                            if (a / (2 * p) == b / (2 * p) && b < m) {
                                pairs[c++] = a;
                                pairs[c++] = b;
                            }
                        }
                    }
                }
            }
            out[m] = Arrays.copyOf(pairs, c);
        }
        return out;
    }

    /**
     * Finishes eight nodes of random points with many ties, of several sizes and dimensions, and checks
     * them against {@link SmallSubtree}. Besides refusing a JVM where this would be wrong, it loads every
     * vector class used before the JIT compiles the methods (see {@code VectorPartitionKernel}).
     */
    private void selfTest() {
        SplittableRandom random = new SplittableRandom(7);
        // Every code path (one pass for d = 3, one per dimension otherwise, the float64 fallback on the
        // many ties, both spans of a 16-point node) at the smallest cost: it delays the first build.
        for (int d = 2; d <= 3; d++) {
            for (int m : new int[] {2, 5, 16, 17, 32}) {
                int n = W * m;
                float[] coords = new float[n * d];
                for (int i = 0; i < coords.length; i++) coords[i] = random.nextInt(5) - 2;
                int[][] cols = new int[d][n];
                int[] idx = new int[n];
                for (int i = 0; i < n; i++) {
                    idx[i] = i;
                    for (int j = 0; j < d; j++) cols[j][i] = OrderedBits.key(coords[i * d + j]);
                }
                // A node of 2^k points may own 2^(k+1) slots.
                int span = Math.max(4, Integer.bitCount(m) == 1 && m < MAX ? 2 * m : Integer.highestOneBit(m - 1) << 1);
                int[] starts = new int[W], slots = new int[W];
                for (int l = 0; l < W; l++) {
                    starts[l] = l * m;
                    slots[l] = l * span;
                }
                int[] treeIdx = new int[W * span];
                byte[] mask = new byte[W * span];
                finish(cols, idx, starts, m, span, slots, treeIdx, mask);
                if (!Arrays.equals(treeIdx, reference(cols, idx, m, span, mask))) {
                    throw new IllegalStateException("lane subtree self-test failed");
                }
            }
        }
    }

    /** The same nodes finished by the scalar twin; also checks {@code mask} against its leaves. */
    private static int[] reference(int[][] cols, int[] idx, int m, int span, byte[] mask) {
        int[] starts = new int[W], slots = new int[W];
        for (int l = 0; l < W; l++) {
            starts[l] = l * m;
            slots[l] = l * span;
        }
        int[] out = new int[W * span];
        byte[] expected = new byte[W * span];
        new ScalarLaneSubtrees().finish(cols, idx, starts, m, span, slots, out, expected);
        if (!Arrays.equals(mask, expected)) throw new IllegalStateException("lane subtree self-test failed (mask)");
        return out;
    }
}
