package org.sylva.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.data.InvalidInputException;

class DistanceKernelsTest {
    @Test
    void providerChoosesSimdWhenTheModuleIsPresent() {
        // surefire runs with --add-modules jdk.incubator.vector, so the vector backend must load here.
        assertTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent());
        assertTrue(KernelProvider.get().vectorDistanceAvailable());
        assertEquals("simd", KernelProvider.get().bestDistance().name());
        assertSame(KernelProvider.get().bestDistance(), KernelProvider.get().distance("auto"));
        assertSame(KernelProvider.get().scalarDistance(), KernelProvider.get().distance(" Scalar "));
        assertEquals("simd", KernelProvider.get().distance("SIMD").name());
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> KernelProvider.get().distance("cuda"));
        assertTrue(e.getMessage().contains("cuda"));
        assertThrows(InvalidInputException.class, () -> KernelProvider.get().distance(null));
    }

    /** Every tile entry equals the reference sum, bitwise, for both backends; odd block counts and query counts included. */
    @Test
    void tilesAreBitwiseTheReferenceSum() {
        for (int d : new int[] {1, 2, 5, 61, 64}) {
            int n = 333;
            Random r = new Random(d);
            double[] rows = new double[n * d];
            for (int i = 0; i < rows.length; i++) rows[i] = (float) (r.nextGaussian() * 100);
            for (DistanceKernel b : bothKernels()) {
                PointIndex idx = PointIndex.build(rows, n, d, b);
                int w = idx.blockWidth();
                int blocks = idx.positions() / w;
                for (int nq = 1; nq <= 9; nq++) {
                    int[] qs = new int[nq];
                    for (int i = 0; i < nq; i++) qs[i] = idx.position(r.nextInt(n));
                    int bf = r.nextInt(blocks), bt = Math.min(blocks, bf + 1 + r.nextInt(5));
                    double[] out = new double[b.tileLength(nq, bt - bf, idx)];
                    b.squaredDistances(idx, qs, nq, bf, bt, out);
                    int stride = (bt - bf) * w;
                    for (int q = 0; q < nq; q++) {
                        int qo = idx.original(qs[q]);
                        for (int p = bf * w; p < bt * w; p++) {
                            int o = idx.original(p);
                            if (o < 0) continue;
                            double s = 0.0;
                            for (int j = 0; j < d; j++) {
                                double t = rows[qo * d + j] - rows[o * d + j];
                                s += t * t;
                            }
                            double got = out[q * stride + p - bf * w];
                            assertEquals(Double.doubleToRawLongBits(s), Double.doubleToRawLongBits(got),
                                    b.name() + " d=" + d + " pair " + qo + "," + o);
                        }
                    }
                }
            }
        }
    }

    /**
     * The scalar kernel at every block width it may be given (it sums eight or four lanes side by side,
     * then one at a time): tiles and centre distances are bitwise the reference sum in coordinate order.
     */
    @Test
    void scalarLanesSideBySideAreBitwiseTheReferenceSumAtAnyWidth() {
        DistanceKernel scalar = KernelProvider.get().scalarDistance();
        for (int w : new int[] {1, 2, 3, 4, 5, 7, 8, 9, 12, 16}) {
            for (int d : new int[] {1, 3, 61}) {
                Random r = new Random(w * 1000L + d);
                int blocks = 4;
                double[] data = new double[blocks * d * w];
                for (int i = 0; i < data.length; i++) data[i] = r.nextGaussian() * (r.nextBoolean() ? 1e-3 : 1e3);
                double[] centres = new double[2 * d];
                for (int i = 0; i < centres.length; i++) centres[i] = r.nextGaussian() * 10;
                BlockedPoints pts = new BlockedPoints() {
                    public int dimensions() { return d; }
                    public int blockWidth() { return w; }
                    public double[] blocks() { return data; }
                    public float[] blocks32() { return null; }
                    public double[] centres() { return centres; }
                };
                int[] qs = {0, blocks * w - 1, w / 2, w + 1 < blocks * w ? w + 1 : 0};
                double[] tile = new double[qs.length * (blocks - 1) * w];
                scalar.squaredDistances(pts, qs, qs.length, 1, blocks, tile);
                double[] centre = new double[(blocks - 1) * w];
                scalar.centreDistances(pts, 1, 1, blocks, centre);
                for (int p = w; p < blocks * w; p++) {
                    for (int q = 0; q < qs.length; q++) {
                        double s = 0.0;
                        for (int j = 0; j < d; j++) {
                            double t = at(data, qs[q], j, d, w) - at(data, p, j, d, w);
                            s += t * t;
                        }
                        assertEquals(Double.doubleToRawLongBits(s), Double.doubleToRawLongBits(tile[q * (blocks - 1) * w + p - w]),
                                "w=" + w + " d=" + d + " query " + qs[q] + " position " + p);
                    }
                    double s = 0.0;
                    for (int j = 0; j < d; j++) {
                        double t = centres[d + j] - at(data, p, j, d, w);
                        s += t * t;
                    }
                    assertEquals(Double.doubleToRawLongBits(s), Double.doubleToRawLongBits(centre[p - w]),
                            "centre, w=" + w + " d=" + d + " position " + p);
                }
            }
        }
    }

    /**
     * The stopping tiles ({@code squaredDistancesWithin}) of both kernels: each value at most its row's limit
     * is bitwise the full tile's, and each other value is still above the limit. Limits from below every
     * value to above them all, so that blocks stop at each check and none stops.
     */
    @Test
    void stoppingTilesKeepEveryValueWithinItsLimitExact() {
        for (int d : new int[] {5, 31, 32, 47, 61, 96}) {
            int n = 400;
            Random r = new Random(7L * d);
            double[] rows = unevenRows(r, n, d);
            for (DistanceKernel b : bothKernels()) {
                PointIndex idx = PointIndex.build(rows, n, d, b);
                int w = idx.blockWidth();
                int blocks = idx.positions() / w;
                for (int trial = 0; trial < 20; trial++) {
                    int nq = 1 + r.nextInt(9);
                    int[] qs = new int[nq];
                    for (int i = 0; i < nq; i++) qs[i] = idx.position(r.nextInt(n));
                    int bf = r.nextInt(blocks), bt = Math.min(blocks, bf + 1 + r.nextInt(6));
                    double[] full = new double[b.tileLength(nq, bt - bf, idx)];
                    double[] within = new double[full.length];
                    b.squaredDistances(idx, qs, nq, bf, bt, full);
                    double[] limits = new double[b.paddedQueries(nq)];
                    int stride = (bt - bf) * w;
                    for (int q = 0; q < nq; q++) {
                        // a limit at a value of the row (scaled), or none at all
                        double pick = full[q * stride + r.nextInt(stride)];
                        limits[q] = trial % 5 == 0 ? Double.POSITIVE_INFINITY : pick * (0.05 + 1.5 * r.nextDouble());
                    }
                    b.squaredDistancesWithin(idx, qs, nq, bf, bt, limits, within);
                    for (int q = 0; q < nq; q++) {
                        for (int c = 0; c < stride; c++) {
                            if (idx.original(bf * w + c) < 0) continue;
                            double f = full[q * stride + c], v = within[q * stride + c];
                            String at = b.name() + " d=" + d + " row " + q + " column " + c + " limit " + limits[q];
                            if (f <= limits[q]) {
                                assertEquals(Double.doubleToRawLongBits(f), Double.doubleToRawLongBits(v), at);
                            } else {
                                assertTrue(v > limits[q] && v <= f, at + ": " + v + " for " + f);
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * Distances from points outside the index ({@code pointSquaredDistancesWithin}), for both kernels: each
     * value at most the limit is bitwise the reference sum in coordinate order, and each other value is still
     * above the limit; odd and even block counts (the vector kernel takes blocks in pairs), limits from below
     * every value to none.
     */
    @Test
    void pointDistancesKeepEveryValueWithinTheLimitExact() {
        for (int d : new int[] {1, 5, 16, 17, 61, 96}) {
            int n = 300;
            Random r = new Random(11L * d);
            double[] rows = unevenRows(r, n, d);
            for (DistanceKernel b : bothKernels()) {
                PointIndex idx = PointIndex.build(rows, n, d, b);
                int w = idx.blockWidth();
                int blocks = idx.positions() / w;
                double[] data = idx.blocks();
                for (int trial = 0; trial < 30; trial++) {
                    double[] q = new double[d + 3];
                    int off = trial % 4;
                    for (int j = 0; j < d; j++) q[off + j] = r.nextGaussian() * 2;
                    int bf = r.nextInt(blocks), bt = Math.min(blocks, bf + 1 + r.nextInt(5));
                    double[] ref = new double[(bt - bf) * w];
                    for (int c = 0; c < ref.length; c++) {
                        double s = 0.0;
                        for (int j = 0; j < d; j++) {
                            double t = q[off + j] - at(data, bf * w + c, j, d, w);
                            s += t * t;
                        }
                        ref[c] = s;
                    }
                    double limit = trial % 6 == 0 ? Double.POSITIVE_INFINITY
                            : ref[r.nextInt(ref.length)] * (0.05 + 1.5 * r.nextDouble());
                    double[] out = new double[ref.length];
                    b.pointSquaredDistancesWithin(q, off, idx, bf, bt, limit, out);
                    for (int c = 0; c < ref.length; c++) {
                        if (idx.original(bf * w + c) < 0) continue;
                        String where = b.name() + " d=" + d + " column " + c + " limit " + limit;
                        if (ref[c] <= limit) {
                            assertEquals(Double.doubleToRawLongBits(ref[c]), Double.doubleToRawLongBits(out[c]), where);
                        } else {
                            assertTrue(out[c] > limit && out[c] <= ref[c], where + ": " + out[c] + " for " + ref[c]);
                        }
                    }
                }
            }
        }
    }

    /** Coordinate {@code j} of position {@code p} in blocks of width {@code w}. */
    private static double at(double[] data, int p, int j, int d, int w) {
        return data[(p / w) * d * w + j * w + p % w];
    }

    /** The float32 pre-filter stays within its documented error bound, including for tiny and huge coordinates. */
    @Test
    void approximationsStayWithinTheProvenBound() {
        DistanceKernel simd = KernelProvider.get().distance("simd");
        assertTrue(simd.approximates());
        assertTrue(!KernelProvider.get().scalarDistance().approximates());
        for (double scale : new double[] {1e-20, 1e-3, 1.0, 300.0, 1e12}) {
            for (int d : new int[] {1, 7, 61, 100}) {
                int n = 200;
                Random r = new Random(d * 31L + (long) Math.log10(scale + 1e-30));
                double[] rows = new double[n * d];
                for (int i = 0; i < rows.length; i++) rows[i] = (float) (r.nextGaussian() * scale);
                for (int i = 0; i < 20; i++) System.arraycopy(rows, 0, rows, (1 + i) * d, d);   // exact zeros
                PointIndex idx = PointIndex.build(rows, n, d, simd);
                assertTrue(idx.hasFloat32());
                int w = idx.blockWidth();
                int blocks = idx.positions() / w;
                int[] qs = new int[5];
                for (int i = 0; i < 5; i++) qs[i] = idx.position(r.nextInt(n));
                double[] exact = new double[simd.tileLength(5, blocks, idx)];
                float[] approx = new float[exact.length];
                simd.squaredDistances(idx, qs, 5, 0, blocks, exact);
                simd.approximateSquaredDistances(idx, qs, 5, 0, blocks, approx);
                double eps = DistanceKernel.approximationError(d);
                double abs = DistanceKernel.APPROXIMATION_ABSOLUTE;
                for (int q = 0; q < 5; q++) {
                    for (int p = 0; p < idx.positions(); p++) {
                        if (idx.original(p) < 0) continue;
                        double s = exact[q * blocks * w + p], a = approx[q * blocks * w + p];
                        assertTrue(a <= s * (1 + eps) + abs && s <= a * (1 + eps) + abs,
                                "scale " + scale + " d " + d + ": exact " + s + " approx " + a);
                    }
                }
            }
        }
        // Too large once shifted by the mean: no float32 copy, so no pre-filter.
        assertTrue(!PointIndex.build(new double[] {1e16, 0}, 2, 1, simd).hasFloat32());
        // Float32-exact: the copy is the coordinates themselves.
        assertEquals(0.0, PointIndex.build(new double[] {0.5, 2}, 2, 1, simd).float32Rounding());
    }

    /**
     * Float64 coordinates that are not float32 values get a rounded copy of the points minus their mean,
     * and the pre-filter stays within {@link ApproximationBound} of the exact values: decimals, Gaussians far
     * from the origin (where only the shift keeps the bound useful), tiny and huge scales, mixed scales per
     * coordinate.
     */
    @Test
    void approximationsOfARoundedCopyStayWithinTheirBound() {
        DistanceKernel simd = KernelProvider.get().distance("simd");
        for (double scale : new double[] {1e-20, 1e-3, 1.0, 300.0, 1e12}) {
            for (double offset : new double[] {0.0, 1e6}) {
                for (int d : new int[] {1, 7, 61, 100}) {
                    int n = 1000;   // the fewest points given a rounded copy
                    Random r = new Random(d * 17L + (long) Math.log10(scale) + (long) offset);
                    double[] rows = new double[n * d];
                    for (int i = 0; i < n; i++) {
                        for (int j = 0; j < d; j++) {
                            double v = r.nextGaussian() * scale * (j % 3 == 2 ? 1e-3 : 1) + offset * scale;
                            rows[i * d + j] = i % 3 == 0 ? Math.round(v / scale * 1e4) / 1e4 * scale : v;
                        }
                    }
                    for (int i = 0; i < 10; i++) System.arraycopy(rows, 0, rows, (1 + i) * d, d);   // exact zeros
                    PointIndex idx = PointIndex.build(rows, n, d, simd);
                    String what = "scale " + scale + " offset " + offset + " d " + d;
                    assertTrue(idx.hasFloat32(), what);
                    assertTrue(idx.float32Rounding() > 0, what);
                    ApproximationBound b = ApproximationBound.of(d, idx.float32Rounding());
                    int w = idx.blockWidth();
                    int blocks = idx.positions() / w;
                    int[] qs = new int[6];
                    for (int i = 0; i < qs.length; i++) qs[i] = idx.position(r.nextInt(n));
                    double[] exact = new double[simd.tileLength(qs.length, blocks, idx)];
                    float[] approx = new float[exact.length];
                    simd.squaredDistances(idx, qs, qs.length, 0, blocks, exact);
                    simd.approximateSquaredDistances(idx, qs, qs.length, 0, blocks, approx);
                    double[] far = new double[qs.length * n];
                    int m = 0;
                    for (int q = 0; q < qs.length; q++) {
                        for (int p = 0; p < idx.positions(); p++) {
                            if (idx.original(p) < 0) continue;
                            double s = exact[q * blocks * w + p], a = approx[q * blocks * w + p];
                            assertTrue(a <= s * b.factor() + b.absolute() && s <= a * b.factor() + b.absolute(),
                                    what + ": exact " + s + " approx " + a + " bound " + b);
                            if (s > 0) far[m++] = s;
                        }
                    }
                    // The bound still filters: its slack is far below a typical squared distance, which
                    // without the shift (offset 1e6) it would not be. (At 1e-20 the float32 underflow's
                    // slack is larger than every square, by design.)
                    if (scale < 1e-3) continue;
                    double[] nonZero = Arrays.copyOf(far, m);
                    Arrays.sort(nonZero);
                    assertTrue(b.absolute() < 1e-6 * nonZero[m / 2], what + ": slack " + b.absolute()
                            + " against a median squared distance " + nonZero[m / 2]);
                }
            }
        }
    }

    /**
     * A random tile of the tests below: 1 to {@code maxQueries - 1} queries (fitted points' positions) against 1 to
     * {@code maxBlocks} blocks from a random one, with its full approximate squared distances ({@code nq x cols}).
     */
    private record Tile(int[] qs, int nq, int from, int to, int cols, float[] full) {
        static Tile random(Random r, DistanceKernel kernel, PointIndex idx, int n, int maxQueries, int maxBlocks) {
            int blocksAll = idx.positions() / idx.blockWidth();
            int nq = 1 + r.nextInt(maxQueries);
            int from = r.nextInt(blocksAll);
            int to = Math.min(blocksAll, from + 1 + r.nextInt(maxBlocks));
            int[] qs = new int[nq];
            for (int i = 0; i < nq; i++) qs[i] = idx.position(r.nextInt(n));
            float[] full = new float[kernel.tileLength(nq, to - from, idx)];
            kernel.approximateSquaredDistances(idx, qs, nq, from, to, full);
            return new Tile(qs, nq, from, to, (to - from) * idx.blockWidth(), full);
        }
    }

    /**
     * approximateSquaredDistancesWithin keeps its contract against approximateSquaredDistances: a value
     * within its row's or its column's limit is bitwise the full one, any other stays above both limits;
     * and blocks of pairs above their limits do stop early (some values are partial sums), in the
     * two-block and the one-block paths, for any number of queries.
     */
    @Test
    void valuesWithinTheirLimitsAreTheFullApproximations() {
        DistanceKernel simd = KernelProvider.get().distance("simd");
        long partial = 0, checked = 0, skippedBlocks = 0;
        for (int d : new int[] {20, 41, 61, 100}) {
            Random r = new Random(7L * d);
            int n = 400;
            double[] rows = new double[n * d];
            for (int i = 0; i < n; i++) {
                double shift = 6.0 * (i % 4);   // four clusters: pairs across them are far
                for (int j = 0; j < d; j++) rows[i * d + j] = (float) (r.nextGaussian() * (1 + j % 3) + shift);
            }
            PointIndex idx = PointIndex.build(rows, n, d, simd);
            int w = idx.blockWidth();
            for (int trial = 0; trial < 200; trial++) {
                Tile t = Tile.random(r, simd, idx, n, 9, 5);
                int nq = t.nq(), from = t.from(), to = t.to(), cols = t.cols();
                int[] qs = t.qs();
                float[] full = t.full();
                float[] within = new float[full.length];
                float[] rowLimit = new float[nq];
                float[] colLimit = new float[cols];
                // one side's limits, or both: a block can stop only where every one of its rows and columns
                // has a limit below its pairs
                int sides = trial % 5;
                for (int q = 0; q < nq; q++) rowLimit[q] = sides == 1 ? Float.NEGATIVE_INFINITY : limit(r, full, q * cols, cols);
                for (int c = 0; c < cols; c++) colLimit[c] = sides == 0 ? Float.NEGATIVE_INFINITY : limit(r, full, c, 1);
                if (sides >= 3) {
                    // every limit far below the tile's values but one row's or one column's: only that one
                    // keeps its block from stopping
                    java.util.Arrays.fill(rowLimit, 0f);
                    java.util.Arrays.fill(colLimit, 0f);
                    if (sides == 3) colLimit[r.nextInt(cols)] = Float.POSITIVE_INFINITY;
                    else rowLimit[r.nextInt(nq)] = Float.POSITIVE_INFINITY;
                }
                long[] rowBlocks = new long[nq];
                simd.approximateSquaredDistancesWithin(idx, qs, nq, from, to, rowLimit, colLimit, within, rowBlocks);
                for (int q = 0; q < nq; q++) {
                    for (int c = 0; c < cols; c++) {
                        float a = full[q * cols + c], b = within[q * cols + c];
                        float lim = Math.max(rowLimit[q], colLimit[c]);
                        if ((rowBlocks[q] & (1L << (c / w))) == 0) {
                            assertTrue(a > lim, "d " + d + ": a block a row may skip holds nothing within the limits");
                            skippedBlocks++;
                        }
                        if (a <= lim) {
                            assertEquals(Float.floatToRawIntBits(a), Float.floatToRawIntBits(b),
                                    "d " + d + ": a value within its limits is the full one");
                        } else {
                            assertTrue(b > lim, "d " + d + ": a value above its limits stays above them");
                            assertTrue(b <= a, "d " + d + ": a partial sum never exceeds the full one");
                            if (b != a) partial++;
                        }
                        checked++;
                    }
                }
            }
        }
        assertTrue(partial > checked / 20, partial + " of " + checked + " values were partial sums");
        assertTrue(skippedBlocks > checked / 20, skippedBlocks + " of " + checked + " values were in blocks left out");
    }

    /**
     * approximateRowSquaredDistances and its stopping form, rows given as blocks of outside copies (here the
     * copies of indexed points, made by {@link PointIndex#float32Row}), compute the tile of those points as
     * queries: the plain one bitwise; the stopping one bitwise within each row's limit, above it elsewhere,
     * with blocks above every row's limit stopped early (from 40 dimensions; at 20 it runs in full).
     */
    @Test
    void outsideRowsGetTheTileOfTheSamePointsAsQueries() {
        DistanceKernel simd = KernelProvider.get().distance("simd");
        long partial = 0, checked = 0;
        for (int d : new int[] {20, 41, 61, 100}) {
            Random r = new Random(11L * d);
            int n = 400;
            double[] rows = new double[n * d];
            for (int i = 0; i < n; i++) {
                double shift = 6.0 * (i % 4);
                for (int j = 0; j < d; j++) rows[i * d + j] = (float) (r.nextGaussian() * (1 + j % 3) + shift);
            }
            PointIndex idx = PointIndex.build(rows, n, d, simd);
            int w = idx.blockWidth();
            float[] block = new float[2 * d * w];   // two blocks of outside rows
            for (int trial = 0; trial < 150; trial++) {
                Tile t = Tile.random(r, simd, idx, n, Math.min(8, w), 5);
                int nq = t.nq(), from = t.from(), to = t.to(), cols = t.cols();
                int[] lanes = new int[nq];
                for (int q = 0; q < nq; q++) {
                    lanes[q] = (q + trial) % (2 * w);   // any position of the blocks
                    int p = idx.original(t.qs()[q]);
                    assertEquals(0.0, idx.float32Row(rows, p * d, block, lanes[q]), "an exact copy");
                }
                float[] full = t.full();
                float[] plain = new float[full.length];
                simd.approximateRowSquaredDistances(block, lanes, nq, idx, from, to, plain);
                for (int c = 0; c < nq * cols; c++) {
                    assertEquals(Float.floatToRawIntBits(full[c]), Float.floatToRawIntBits(plain[c]), "d " + d + ": the plain tile");
                }
                float[] rowLimit = new float[nq];
                for (int q = 0; q < nq; q++) rowLimit[q] = trial % 3 == 0 ? 0f : Math.max(0f, limit(r, full, q * cols, cols));
                float[] within = new float[full.length];
                long[] rowBlocks = new long[nq];
                simd.approximateRowSquaredDistancesWithin(block, lanes, nq, idx, from, to, rowLimit, within, rowBlocks);
                for (int q = 0; q < nq; q++) {
                    for (int c = 0; c < cols; c++) {
                        float a = full[q * cols + c], b = within[q * cols + c];
                        if ((rowBlocks[q] & (1L << (c / w))) == 0) {
                            assertTrue(a > rowLimit[q], "d " + d + ": a block a row may skip holds nothing within its limit");
                        }
                        if (a <= rowLimit[q]) {
                            assertEquals(Float.floatToRawIntBits(a), Float.floatToRawIntBits(b),
                                    "d " + d + ": a value within its limit is the full one");
                        } else {
                            assertTrue(b > rowLimit[q] && b <= a, "d " + d + ": a value above its limit stays above it");
                            if (b != a) partial++;
                        }
                        checked++;
                    }
                }
            }
        }
        assertTrue(partial > checked / 20, partial + " of " + checked + " values were partial sums");
    }

    /**
     * The stopping kernel's checks come after 16 and 32 coordinates, then every 32 (one loop over these runs), and
     * it checks from 40 dimensions on.
     */
    @Test
    void theChecksComeAfter16And32ThenEvery32Coordinates() {
        int[] checks = new int[6];
        checks[0] = VectorDistanceKernel.FIRST_CHECK;
        for (int i = 1; i < checks.length; i++) checks[i] = VectorDistanceKernel.nextCheck(checks[i - 1]);
        assertArrayEquals(new int[] {16, 32, 64, 96, 128, 160}, checks);
        assertEquals(40, VectorDistanceKernel.MIN_CHECKED_DIMENSIONS);
    }

    /**
     * In hundreds of dimensions a block also stops at the checks after the first 32 coordinates: with every
     * coordinate of the same spread and each row's limit half its smallest value in the tile, the partial
     * sums pass the limits about half-way, and the values written there hold from a third to all but the last
     * check's coordinates (a block stopped at 16 or 32 of 300 coordinates holds about a tenth). The contract
     * of {@link #valuesWithinTheirLimitsAreTheFullApproximations} holds throughout.
     */
    @Test
    void wideBlocksStopAtTheLaterChecks() {
        DistanceKernel simd = KernelProvider.get().distance("simd");
        int n = 300, d = 300;
        Random r = new Random(11);
        double[] rows = new double[n * d];
        for (int i = 0; i < rows.length; i++) rows[i] = (float) r.nextGaussian();
        PointIndex idx = PointIndex.build(rows, n, d, simd);
        int w = idx.blockWidth();
        long[] later = new long[2], values = new long[2];   // [0]: blocks summed in pairs, [1]: an odd last block
        for (int trial = 0; trial < 100; trial++) {
            Tile t = Tile.random(r, simd, idx, n, 8, 4);
            int nq = t.nq(), from = t.from(), to = t.to(), cols = t.cols();
            int[] qs = t.qs();
            float[] full = t.full();
            float[] within = new float[full.length];
            float[] rowLimit = new float[nq];
            float[] colLimit = new float[cols];
            java.util.Arrays.fill(colLimit, Float.NEGATIVE_INFINITY);
            for (int q = 0; q < nq; q++) {
                float least = Float.POSITIVE_INFINITY;
                for (int c = 0; c < cols; c++) {
                    float v = full[q * cols + c];
                    if (v > 0) least = Math.min(least, v);   // a query against itself sums to 0
                }
                rowLimit[q] = least / 2;
            }
            long[] rowBlocks = new long[nq];
            simd.approximateSquaredDistancesWithin(idx, qs, nq, from, to, rowLimit, colLimit, within, rowBlocks);
            for (int q = 0; q < nq; q++) {
                for (int c = 0; c < cols; c++) {
                    float a = full[q * cols + c], b = within[q * cols + c];
                    float lim = Math.max(rowLimit[q], colLimit[c]);
                    int path = (to - from) % 2 == 1 && c / w == to - from - 1 ? 1 : 0;
                    if ((rowBlocks[q] & (1L << (c / w))) == 0) assertTrue(a > lim, "a skipped block holds nothing");
                    if (a <= lim) {
                        assertEquals(Float.floatToRawIntBits(a), Float.floatToRawIntBits(b), "within: the full value");
                    } else {
                        assertTrue(b > lim && b <= a, "above: a partial sum above the limit");
                        if (b >= a / 3 && b < a) later[path]++;
                    }
                    values[path]++;
                }
            }
        }
        for (int path = 0; path < 2; path++) {
            assertTrue(later[path] > values[path] / 4, later[path] + " of " + values[path] + " values "
                    + (path == 0 ? "of blocks in pairs" : "of odd last blocks") + " stopped at a later check");
        }
    }

    /** A limit for a row or column of a tile: none (-inf), all (+inf), about a value of the tile, or far below one. */
    private static float limit(Random r, float[] tile, int at, int span) {
        return switch (r.nextInt(16)) {
            case 0 -> Float.NEGATIVE_INFINITY;
            case 1 -> Float.POSITIVE_INFINITY;
            case 2, 3, 4 -> tile[at + (span > 1 ? r.nextInt(span) : 0)] * (0.5f + r.nextFloat());
            default -> tile[at + (span > 1 ? r.nextInt(span) : 0)] * 0.05f * r.nextFloat();
        };
    }

    /**
     * rowSquaredDistance (node centres, for bounds): every backend's value is the squared distance of the two
     * rows within float64 rounding, from any offsets, for dimensions that leave every vector tail (none, a
     * single vector, scalar leftovers); the scalar backend's is the scalar form exactly.
     */
    @Test
    void rowSquaredDistancesAreTheSumWithinRounding() {
        Random r = new Random(5);
        for (DistanceKernel b : bothKernels()) {
            for (int d : new int[] {1, 3, 4, 7, 8, 9, 15, 16, 17, 24, 31, 61, 100}) {
                for (int trial = 0; trial < 20; trial++) {
                    int ox = r.nextInt(5), oy = r.nextInt(5);
                    double[] x = new double[ox + d + 3], y = new double[oy + d + 2];
                    for (int i = 0; i < x.length; i++) x[i] = r.nextGaussian() * 10;
                    for (int i = 0; i < y.length; i++) y[i] = r.nextGaussian() * 10;
                    java.math.BigDecimal exact = java.math.BigDecimal.ZERO;
                    for (int j = 0; j < d; j++) {
                        java.math.BigDecimal t = new java.math.BigDecimal(x[ox + j]).subtract(new java.math.BigDecimal(y[oy + j]));
                        exact = exact.add(t.multiply(t));
                    }
                    double ref = exact.doubleValue();
                    double got = b.rowSquaredDistance(x, ox, y, oy, d);
                    assertTrue(Math.abs(got - ref) <= 4.0 * d * 0x1p-53 * ref,
                            b.name() + " d=" + d + ": " + got + " against " + ref);
                }
            }
        }
        double[] x = {1, 2, 3, 4, 5}, y = {0.5, -1, 7, 2, 2};
        assertEquals(DistanceKernel.rowSquaredDistanceScalar(x, 0, y, 0, 5),
                KernelProvider.get().scalarDistance().rowSquaredDistance(x, 0, y, 0, 5));
    }

    /** select lists every value <= limit (a superset is allowed), in order, for both backends. */
    @Test
    void selectNeverMissesAValue() {
        Random r = new Random(7);
        for (DistanceKernel b : bothKernels()) {
            int w = b.blockWidth();
            float[] v = new float[8 * w];
            int[] out = new int[8 * w];
            for (int t = 0; t < 500; t++) {
                for (int i = 0; i < v.length; i++) v[i] = r.nextInt(4) == 0 ? 1.0f : r.nextFloat() * 2;
                int count = 1 + r.nextInt(v.length - w);
                double limit = r.nextInt(3) == 0 ? 1.0 : r.nextDouble() * 2;
                int from = w * r.nextInt(2);
                int n = b.select(v, from, count, limit, out);
                int k = 0;
                for (int c = 0; c < count; c++) {
                    if (v[from + c] <= limit) {
                        while (k < n && out[k] < c) k++;
                        assertTrue(k < n && out[k] == c, b.name() + " missed offset " + c);
                    }
                }
                for (int i = 1; i < n; i++) assertTrue(out[i - 1] < out[i]);
                for (int i = 0; i < n; i++) assertTrue(out[i] < count && v[from + out[i]] <= Math.nextUp((float) limit));
                long rowBlocks = 0;
                for (int c = 0; c < count; c++) {
                    if (v[from + c] <= Math.nextUp((float) limit) || r.nextInt(8) == 0) rowBlocks |= 1L << (c / w);
                }
                int n1 = b.select(v, from, count, limit, out);
                int[] first = java.util.Arrays.copyOf(out, n1);
                int[] again = new int[out.length];
                assertEquals(n1, b.select(v, from, count, limit, rowBlocks, again), b.name() + " select by blocks");
                assertArrayEquals(first, java.util.Arrays.copyOf(again, n1));
            }
        }
    }

    /**
     * The selected tiles ({@code squaredDistancesSelected}) of both kernels: each row's bits are exactly the
     * columns whose value is within the row's limit, those values bitwise the full tile's; limits at a value
     * of the row (equal values must be selected), one ulp below it, none at all, and below every value; one
     * to all the blocks of 64 columns, odd query counts (padded rows); more than 64 columns refused.
     */
    @Test
    void selectedTilesFlagExactlyTheValuesWithinTheirLimits() {
        for (int d : new int[] {2, 12, 61}) {
            int n = 300;
            Random r = new Random(13L * d);
            double[] rows = unevenRows(r, n, d);
            for (DistanceKernel b : bothKernels()) {
                PointIndex idx = PointIndex.build(rows, n, d, b);
                int w = idx.blockWidth();
                int maxBlocks = Long.SIZE / w;
                int blocks = idx.positions() / w;
                for (int trial = 0; trial < 40; trial++) {
                    int nq = 1 + r.nextInt(9);
                    int[] qs = new int[nq];
                    for (int i = 0; i < nq; i++) qs[i] = idx.position(r.nextInt(n));
                    int bf = r.nextInt(blocks - maxBlocks), bt = bf + 1 + r.nextInt(maxBlocks);
                    int stride = (bt - bf) * w;
                    double[] full = new double[b.tileLength(nq, bt - bf, idx)];
                    double[] tile = new double[full.length];
                    b.squaredDistances(idx, qs, nq, bf, bt, full);
                    double[] limits = new double[b.paddedQueries(nq)];
                    for (int q = 0; q < nq; q++) {
                        double pick = full[q * stride + r.nextInt(stride)];
                        limits[q] = switch (trial % 4) {
                            case 0 -> pick;
                            case 1 -> Math.nextDown(pick);
                            case 2 -> Double.POSITIVE_INFINITY;
                            default -> -1.0;
                        };
                    }
                    long[] selected = new long[limits.length];
                    Arrays.fill(selected, 0x5a5a5a5aL);
                    b.squaredDistancesSelected(idx, qs, nq, bf, bt, limits, tile, selected);
                    for (int q = 0; q < nq; q++) {
                        for (int c = 0; c < Long.SIZE; c++) {
                            String at = b.name() + " d=" + d + " row " + q + " column " + c + " of " + stride;
                            boolean bit = (selected[q] >>> c & 1) != 0;
                            if (c >= stride) {
                                assertTrue(!bit, at + ": a bit past the tile");
                                continue;
                            }
                            double f = full[q * stride + c];
                            assertEquals(f <= limits[q], bit, at + " value " + f + " limit " + limits[q]);
                            if (bit) assertEquals(Double.doubleToRawLongBits(f), Double.doubleToRawLongBits(tile[q * stride + c]), at);
                        }
                    }
                }
                int wide = maxBlocks + 1;
                double[] tile = new double[b.tileLength(1, wide, idx)];
                assertThrows(IllegalArgumentException.class, () -> b.squaredDistancesSelected(idx, new int[] {0}, 1, 0, wide,
                        new double[4], tile, new long[4]));
            }
        }
    }

    /**
     * The column side of a tile: exactly the columns with some row within the column's own limit, ascending,
     * whatever rows, offsets and blocks; blocks clear in a row hold values above the limits (partial sums of a
     * stopped block), and a block clear in every row holds garbage that must not be read.
     */
    @Test
    void selectColumnsFindsExactlyTheColumnsWithARowWithinItsLimit() {
        Random r = new Random(11);
        for (DistanceKernel b : bothKernels()) {
            int w = b.blockWidth();
            int blocks = Math.max(1, 64 / w);
            int stride = blocks * w;
            int[] out = new int[stride];
            for (int t = 0; t < 400; t++) {
                int rows = 1 + r.nextInt(12);
                int from = r.nextInt(2) == 0 ? 0 : r.nextInt(w);
                int count = 1 + r.nextInt(stride - from);
                float[] lims = new float[stride + w];
                for (int i = 0; i < lims.length; i++) lims[i] = r.nextInt(5) == 0 ? 1.0f : r.nextFloat() * 2;
                float[] v = new float[rows * stride + 2 * w];
                long[] rowBlocks = new long[rows];
                long any = 0;
                for (int q = 0; q < rows; q++) {
                    rowBlocks[q] = from != 0 ? -1L : r.nextLong() & r.nextLong();
                    any |= rowBlocks[q];
                }
                for (int q = 0; q < rows; q++) {
                    for (int c = 0; c < count; c++) {
                        int i = from + q * stride + c;
                        long bit = 1L << (c / w);
                        if ((rowBlocks[q] & bit) != 0) {
                            // values within, on and above the limits, the occasional one in every row
                            v[i] = r.nextInt(6) == 0 ? lims[c] : lims[c] + (r.nextFloat() - 0.08f) * 3;
                        } else if ((any & bit) != 0) {
                            v[i] = lims[c] + 0.5f + r.nextFloat();   // a stopped block: above its limits
                        } else {
                            v[i] = -1f;                               // never summed: must not be read
                        }
                    }
                }
                int n = b.selectColumns(v, from, stride, rows, rowBlocks, lims, count, out);
                int expected = 0;
                for (int c = 0; c < count; c++) {
                    boolean within = false;
                    for (int q = 0; q < rows; q++) {
                        if ((rowBlocks[q] & (1L << (c / w))) != 0 && v[from + q * stride + c] <= lims[c]) within = true;
                    }
                    if (within) {
                        assertTrue(expected < n && out[expected] == c, b.name() + " selectColumns column " + c);
                        expected++;
                    }
                }
                assertEquals(expected, n, b.name() + " selectColumns listed a column with no row within its limit");
            }
        }
    }

    /** The scalar and the vector distance kernel, the pair every test here compares. */
    private static DistanceKernel[] bothKernels() {
        return new DistanceKernel[] {KernelProvider.get().scalarDistance(), KernelProvider.get().distance("simd")};
    }

    /** {@code n} rows of {@code d} Gaussian coordinates whose scale cycles over 1, 2 and 3 along a row. */
    private static double[] unevenRows(Random r, int n, int d) {
        double[] rows = new double[n * d];
        for (int i = 0; i < rows.length; i++) rows[i] = r.nextGaussian() * (1 + (i % d) % 3);
        return rows;
    }
}
