package org.sylva.gpu;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.sylva.hdbscan.engine.FittedPoints;

/**
 * One fit's buffers and the launches of the two kernels of {@code hdbscan.cl.inc}, written once against
 * a {@link DeviceSession}, so OpenCL and CUDA run the same host code with the same arguments. The
 * memory a fit needs, and its largest buffer, are checked against the device before any buffer is made
 * ({@link DeviceMemory}): too large is refused with the figures. The device holds the points in
 * {@link SpatialOrder}, transposed, with a bounding ball per tile; every call here takes and returns
 * original indices, so the order never shows outside this class.
 *
 * <pre>{@code
 * try (DeviceFit f = backend.open(points, 21)) { f.coreLists(0, points.n()); }   // a KernelFit on the backend's session
 * }</pre>
 */
public final class KernelFit implements DeviceFit {
    /** Radii are rounded up by this factor, past every rounding of the distances they were taken from. */
    private static final double RADIUS_UP = 1 + 1e-9;

    private final DeviceSession s;
    private final int n, d, k, rowsPerTile, tiles;
    /** order[position]: the original index of the point the device holds there; position[original] the inverse. */
    private final int[] order, position;
    private final DeviceBuffer pts, orig, cen, rad, ctr, tileComp, sq, idx, core, comp, active, outW, outQ;
    /** This round's active points' slots on the device (sorted by position), in the host's order. */
    private int[] slotOf = new int[0];
    /** This round's work-groups per block of active points ({@link #slicesFor}). */
    private int slices = 1;

    /**
     * The most slices of a round: the system property {@code sylva.gpu.roundSlices} (for the device
     * check's comparisons; 1 turns slicing off; {@link GpuTuning}), else 16.
     */
    static final int MAX_SLICES = GpuTuning.positiveInt("sylva.gpu.roundSlices", 16);
    /**
     * Whether the kernels skip blocks of rows by each row's own distance from its tile's centre: the system
     * property {@code sylva.gpu.rowBounds} (for the device check's comparisons; {@link GpuTuning}), else on.
     */
    static final boolean ROW_BOUNDS = GpuTuning.bool("sylva.gpu.rowBounds", true);

    /** Uploads {@code points} and allocates the buffers on {@code session}, which this fit then owns. */
    public KernelFit(DeviceSession session, FittedPoints points, int k) {
        this.s = session;
        this.n = points.n();
        this.d = points.d();
        this.k = k;
        try {
            this.rowsPerTile = TileShape.rowsPerTile(d);
            this.tiles = (n + rowsPerTile - 1) / rowsPerTile;
            // every buffer by name, checked before the first is made
            long[] bytes = {8L * n * d, 4L * n, 8L * tiles * d, 8L * tiles, 8L * n, 4L * tiles, 8L * n * k,
                    4L * n * k, 8L * n, 4L * n, 4L * n, 8L * n, 4L * n};
            DeviceMemory.check(session, "the fit", new String[] {"points (d x n float64, transposed)",
                    "original indices", "tile centres (float64)", "tile radii", "distances from the tile centres",
                    "tile components",
                    "nearest distances (n x k float64)", "nearest indices (n x k int32)", "core distances",
                    "components", "active points", "edge weights", "edge ends"}, bytes);
            long t0 = System.nanoTime();
            order = SpatialOrder.of(points.rows(), n, d);
            GpuTrace.step("spatial order", t0, "tiles=" + tiles + " rows/tile=" + rowsPerTile);
            t0 = System.nanoTime();
            position = new int[n];
            for (int i = 0; i < n; i++) position[order[i]] = i;
            pts = s.allocate(bytes[0]);
            orig = s.allocate(bytes[1]);
            cen = s.allocate(bytes[2]);
            rad = s.allocate(bytes[3]);
            ctr = s.allocate(bytes[4]);
            tileComp = s.allocate(bytes[5]);
            sq = s.allocate(bytes[6]);
            idx = s.allocate(bytes[7]);
            core = s.allocate(bytes[8]);
            comp = s.allocate(bytes[9]);
            active = s.allocate(bytes[10]);
            outW = s.allocate(bytes[11]);
            outQ = s.allocate(bytes[12]);
            double[] centres = new double[tiles * d];
            double[] radii = new double[tiles];
            double[] fromCentre = new double[n];
            tileBalls(points.rows(), centres, radii, fromCentre);
            GpuTrace.step("tile balls", t0, "");
            t0 = System.nanoTime();
            uploadPoints(points.rows());
            GpuTrace.step("upload points", t0, "");
            try (Arena a = Arena.ofConfined()) {
                s.upload(orig, a.allocateFrom(JAVA_INT, order));
                s.upload(cen, a.allocateFrom(JAVA_DOUBLE, centres));
                s.upload(rad, a.allocateFrom(JAVA_DOUBLE, radii));
                s.upload(ctr, a.allocateFrom(JAVA_DOUBLE, fromCentre));
            }
        } catch (RuntimeException | Error e) {
            session.close();
            throw e;
        }
    }

    /**
     * Entries a staging buffer holds: host-device copies go through one of about 8 MB at a time (a test
     * lowers it to cross many chunk boundaries; read once per copy).
     */
    static volatile int stageEntries = 1 << 20;

    /**
     * Uploads the row-major points {@code rows} (n x d) in the device's order, transposed: coordinate j of
     * the point at position i at {@code j * n + i} (a warp's own points are adjacent). A run of rows at a
     * time through one small native buffer: a fresh native buffer of the whole n x d would cost more in
     * first-touch page faults than the copy itself.
     */
    private void uploadPoints(double[] rows) {
        int chunk = Math.max(1, Math.min(n, stageEntries / d));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment stage = a.allocate(JAVA_DOUBLE, (long) chunk * d);
            for (int i0 = 0; i0 < n; i0 += chunk) {
                int m = Math.min(chunk, n - i0);
                for (int i = 0; i < m; i++) {
                    int at = order[i0 + i] * d;
                    for (int j = 0; j < d; j++) stage.setAtIndex(JAVA_DOUBLE, (long) j * m + i, rows[at + j]);
                }
                for (int j = 0; j < d; j++) {
                    s.upload(pts, ((long) j * n + i0) * Double.BYTES,
                            stage.asSlice((long) j * m * Double.BYTES, (long) m * Double.BYTES));
                }
            }
        }
    }

    /**
     * Each tile's ball: the mean of its points as centre, and the largest distance from it, computed as the
     * kernels compute distances and rounded up ({@link #RADIUS_UP}); +inf when not finite (nothing skipped).
     * {@code fromCentre[position]}: that point's own distance from its tile's centre, rounded up alike (the
     * kernels' row bounds).
     */
    private void tileBalls(double[] rows, double[] centres, double[] radii, double[] fromCentre) {
        for (int t = 0; t < tiles; t++) {
            int base = t * rowsPerTile, m = Math.min(rowsPerTile, n - base);
            for (int j = 0; j < d; j++) {
                double sum = 0;
                for (int r = 0; r < m; r++) sum += rows[order[base + r] * d + j];
                centres[t * d + j] = sum / m;
            }
            double max = 0;
            for (int r = 0; r < m; r++) {
                double sum = 0;
                int p = order[base + r];
                for (int j = 0; j < d; j++) {
                    double diff = rows[p * d + j] - centres[t * d + j];
                    sum += diff * diff;
                }
                double own = Math.sqrt(sum);
                max = Math.max(max, own);
                double up = own * RADIUS_UP;
                fromCentre[base + r] = Double.isFinite(up) ? up : Double.POSITIVE_INFINITY;
            }
            double r = max * RADIUS_UP;
            radii[t] = Double.isFinite(r) ? r : Double.POSITIVE_INFINITY;
            for (int j = 0; j < d; j++) {
                if (!Double.isFinite(centres[t * d + j])) {
                    radii[t] = Double.POSITIVE_INFINITY;
                    for (int q = 0; q < m; q++) fromCentre[base + q] = Double.POSITIVE_INFINITY;
                }
            }
        }
    }

    @Override
    public int coreListsWidth() {
        return s.width("core_lists");
    }

    @Override
    public int cheapestEdgesWidth() {
        return s.width("cheapest_edges");
    }

    @Override
    public void coreLists(int first, int count) {
        s.launch("core_lists", count, KernelArg.of(pts), KernelArg.of(orig), KernelArg.of(cen), KernelArg.of(rad),
                KernelArg.of(ctr), KernelArg.of(ROW_BOUNDS ? 1 : 0), KernelArg.of(n), KernelArg.of(d), KernelArg.of(rowsPerTile), KernelArg.of(first), KernelArg.of(count),
                KernelArg.of(sq), KernelArg.of(idx));
    }

    @Override
    public void readLists(double[] squared, int[] indices) {
        // the device's rows are by position, their entries original indices: each row to its point, a run
        // of rows at a time through small native buffers
        int chunk = Math.max(1, Math.min(n, stageEntries / k));
        try (Arena a = Arena.ofConfined()) {
            MemorySegment x = a.allocate(JAVA_DOUBLE, (long) chunk * k);
            MemorySegment y = a.allocate(JAVA_INT, (long) chunk * k);
            for (int i0 = 0; i0 < n; i0 += chunk) {
                int m = Math.min(chunk, n - i0);
                MemorySegment xs = x.asSlice(0, (long) m * k * Double.BYTES), ys = y.asSlice(0, (long) m * k * Integer.BYTES);
                s.download(sq, (long) i0 * k * Double.BYTES, xs);
                s.download(idx, (long) i0 * k * Integer.BYTES, ys);
                for (int i = 0; i < m; i++) {
                    int p = order[i0 + i];
                    MemorySegment.copy(xs, JAVA_DOUBLE, (long) i * k * Double.BYTES, squared, p * k, k);
                    MemorySegment.copy(ys, JAVA_INT, (long) i * k * Integer.BYTES, indices, p * k, k);
                }
            }
        }
    }

    @Override
    public void setCore(double[] values) {
        double[] byPosition = new double[n];
        for (int i = 0; i < n; i++) byPosition[i] = values[order[i]];
        try (Arena a = Arena.ofConfined()) {
            s.upload(core, a.allocateFrom(JAVA_DOUBLE, byPosition));
        }
    }

    @Override
    public void setRound(int[] component, int[] activePoints, int activeCount) {
        int[] byPosition = new int[n];
        for (int i = 0; i < n; i++) byPosition[i] = component[order[i]];
        int[] tileOf = new int[tiles];
        for (int t = 0; t < tiles; t++) {
            int base = t * rowsPerTile, m = Math.min(rowsPerTile, n - base), c = byPosition[base];
            for (int r = 1; r < m && c >= 0; r++) if (byPosition[base + r] != c) c = -1;
            tileOf[t] = c;
        }
        // the active points by position (a work-group's points near each other), and each one's slot
        int[] slots = new int[activeCount];
        for (int i = 0; i < activeCount; i++) slots[i] = position[activePoints[i]];
        java.util.Arrays.sort(slots);
        int[] slotAt = new int[n];
        for (int j = 0; j < activeCount; j++) slotAt[slots[j]] = j;
        slotOf = new int[activeCount];
        for (int i = 0; i < activeCount; i++) slotOf[i] = slotAt[position[activePoints[i]]];
        slices = slicesFor(activeCount, n, tiles, s.width("cheapest_edges"), MAX_SLICES);
        try (Arena a = Arena.ofConfined()) {
            s.upload(comp, a.allocateFrom(JAVA_INT, byPosition));
            s.upload(tileComp, a.allocateFrom(JAVA_INT, tileOf));
            if (activeCount > 0) s.upload(active, a.allocateFrom(JAVA_INT, slots));
        }
    }

    /**
     * Work-groups per block of a round's {@code active} points: 1 while they fill the device's
     * {@code width}; with fewer, enough slices of the tiles to fill it (at most {@code most}, at most
     * one per tile), so a late round's few points do not scan all tiles alone while the device idles.
     * {@code active * slices <= n}, so the round's outputs fit the n-entry edge buffers.
     */
    static int slicesFor(int active, int n, int tiles, int width, int most) {
        if (active <= 0) return 1;
        int want = Math.min(Math.min(most, tiles), Math.min(width / active, n / active));
        return Math.max(1, want);
    }

    /** This round's slices (tests). */
    int roundSlices() {
        return slices;
    }

    @Override
    public void cheapestEdges(int first, int count, double alpha) {
        int group = s.groupSize();
        int items = (int) Math.min(Integer.MAX_VALUE, ((long) count + group - 1) / group * group * slices);
        s.launch("cheapest_edges", items, KernelArg.of(pts), KernelArg.of(orig), KernelArg.of(cen),
                KernelArg.of(rad), KernelArg.of(ctr), KernelArg.of(ROW_BOUNDS ? 1 : 0), KernelArg.of(core), KernelArg.of(comp), KernelArg.of(tileComp),
                KernelArg.of(active), KernelArg.of(n), KernelArg.of(d), KernelArg.of(rowsPerTile),
                KernelArg.of(first), KernelArg.of(count), KernelArg.of(alpha), KernelArg.of(alpha != 1.0 ? 1 : 0),
                KernelArg.of(slices), KernelArg.of(outW), KernelArg.of(outQ));
    }

    @Override
    public void readEdges(int count, double[] weight, int[] other) {
        if (count == 0) return;
        int m = count * slices;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment w = a.allocate(JAVA_DOUBLE, m);
            MemorySegment q = a.allocate(JAVA_INT, m);
            s.download(outW, w);
            s.download(outQ, q);
            for (int i = 0; i < count; i++) {
                // the lightest of the point's slices in the kernels' (weight, q) order; -1: none in a slice
                long at = (long) slotOf[i] * slices;
                double bw = Double.POSITIVE_INFINITY;
                int bq = -1;
                for (int c = 0; c < slices; c++) {
                    double wc = w.getAtIndex(JAVA_DOUBLE, at + c);
                    int qc = q.getAtIndex(JAVA_INT, at + c);
                    if (qc >= 0 && (bq < 0 || wc < bw || (wc == bw && qc < bq))) {
                        bw = wc;
                        bq = qc;
                    }
                }
                weight[i] = bw;
                other[i] = bq;
            }
        }
    }

    @Override
    public void close() {
        s.close();
    }
}
