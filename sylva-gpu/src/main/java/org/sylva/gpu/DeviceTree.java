package org.sylva.gpu;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.parallel.Execution;
import org.sylva.progress.CancelledException;

/**
 * One ball-tree build on the device, level by level for every batch at once, with the kernels of
 * {@code balltree.cl.inc}: the buffers, the fixed sequence of launches per level, and the results left
 * in device memory ({@link #treeIdx()}, {@link #mask()}, or the working order for a partition) until
 * {@link #close()}. Written once against {@link DeviceSession}, so OpenCL and CUDA run the same host
 * code. The coordinates are float32 rows of {@code stride} floats (the first {@code d} used), in a
 * buffer this build does not own (it is never freed here) or one the caller uploaded into the session.
 *
 * <pre>{@code
 * try (DeviceTree t = new DeviceTree(session, coords, n, d, d, layout, DeviceTree.treeDepths(layout), true)) {
 *     t.run(execution);   // then t.treeIdx(), t.mask() hold the tree on the device
 * }
 * }</pre>
 */
public final class DeviceTree implements AutoCloseable {
    /** Bits of the composite key one radix pass decides (BT_RADIX_BITS of the source). */
    static final int RADIX_BITS = 4;
    /** Ints per node of the radix histogram (BT_BINS). */
    static final int BINS = 1 << RADIX_BITS;

    /** Ints of local memory bt_small may use (BT_LOCAL_INTS of the source: 16 KiB, within what a usable device has). */
    static final int LOCAL_INTS = 4096;
    /** Work-groups per launch of bt_small. */
    static final int SMALL_GROUPS = 1 << 20;
    /** Largest node bt_small finishes. */
    static final int SMALL_MAX = 256;

    private final DeviceSession s;
    private final int n, d, stride, batches;
    /** S: nodes of at most S points are finished by bt_small (0: none, every level is global). */
    private final int small;
    /** Global levels (those where some node holds more than S points) and the nodes left to bt_small. */
    private final int globalLevels, smallCount;
    private final boolean tree;
    private final int slots;
    private final DeviceBuffer coords, offsets, depth, slotStart, batchOf, nodeA, nodeM, nodeT, nodeL, nmin, nmax, ndim,
            prefix, rank, hist, count, list, listCount;
    private DeviceBuffer perm, spare;
    private final DeviceBuffer treeIdx, mask;
    private final int[] shifts;

    /**
     * The buffers of a build of the {@code n} rows in {@code coords} (device memory of this session),
     * batches by {@code layout}, splitting batch {@code b} to depth {@code depths[b]}; a tree
     * ({@code tree}: the leaves are written to slot buffers) or a partition. Refuses, naming the figures,
     * a build the device memory cannot hold or whose largest buffer the device does not allow
     * ({@link DeviceMemory}). Closing this build closes {@code session}. Nodes of at most
     * {@link #smallCutoff(int)} points are finished in local memory.
     */
    public DeviceTree(DeviceSession session, DeviceBuffer coords, int n, int d, int stride, BatchLayout layout,
                      int[] depths, boolean tree) {
        this(session, coords, n, d, stride, layout, depths, tree, smallCutoff(d));
    }

    /** As above, with nodes of at most {@code small} points finished in local memory (0: every level global). */
    DeviceTree(DeviceSession session, DeviceBuffer coords, int n, int d, int stride, BatchLayout layout,
               int[] depths, boolean tree, int small) {
        this.s = session;
        try {
            if (n != layout.pointCount()) {
                throw new IllegalArgumentException("layout covers " + layout.pointCount() + " points, the buffer " + n);
            }
            if (d < 1 || stride < d) throw new IllegalArgumentException("need 1 <= d <= stride, got d " + d + ", stride " + stride);
            if (coords.bytes() < 4L * ((long) (n - 1) * stride + d)) {
                throw new IllegalArgumentException("the coordinate buffer holds " + coords.bytes() + " bytes, " + n
                        + " rows of stride " + stride + " need " + 4L * ((long) (n - 1) * stride + d));
            }
            this.n = n;
            this.d = d;
            this.stride = stride;
            this.tree = tree;
            this.coords = coords;
            this.batches = layout.batchCount();
            if (small != 0 && (Integer.bitCount(small) != 1 || small < 2 || small > smallCutoff(d))) {
                throw new IllegalArgumentException("small-node cutoff " + small + " is not a power of two in [2, "
                        + smallCutoff(d) + "]");
            }
            this.small = small;
            long[] plan = plan(layout, depths, small);
            this.globalLevels = (int) plan[0];
            this.smallCount = Math.toIntExact(plan[1]);
            this.slots = tree ? layout.totalSlots() : 0;
            // every buffer by name, checked against the device before the first is made
            String[] names = {"batch offsets", "batch depths", "slot offsets", "batch of each position",
                "working order", "working order (spare)", "node firsts", "node sizes", "node places", "node levels",
                "small-node list", "small-node count", "node minima (n x d)", "node maxima (n x d)",
                "split dimensions", "selected key prefixes", "sought ranks", "radix histograms (16 n int32)",
                "partition counters", "tree slots", "tree mask"};
            long[] bytes = {4L * layout.pointOffsets().length, 4L * depths.length, 4L * layout.slotOffsets().length,
                4L * n, 4L * n, 4L * n, 4L * n, 4L * n, 4L * n, 4L * n, 4L * smallCount, 4, 4L * n * d, 4L * n * d,
                4L * n, 8L * n, 4L * n, 4L * BINS * n, 8L * n, 4L * slots, slots};
            for (int i = 0; i < bytes.length; i++) bytes[i] = Math.max(4, bytes[i]);
            DeviceMemory.check(s, "the ball tree", names, bytes);
            offsets = ints(layout.pointOffsets());
            depth = ints(depths);
            slotStart = ints(layout.slotOffsets());
            batchOf = buffer(bytes[3]);
            perm = buffer(bytes[4]);
            spare = buffer(bytes[5]);
            nodeA = buffer(bytes[6]);
            nodeM = buffer(bytes[7]);
            nodeT = buffer(bytes[8]);
            nodeL = buffer(bytes[9]);
            list = buffer(bytes[10]);
            listCount = buffer(bytes[11]);
            nmin = buffer(bytes[12]);
            nmax = buffer(bytes[13]);
            ndim = buffer(bytes[14]);
            prefix = buffer(bytes[15]);
            rank = buffer(bytes[16]);
            hist = buffer(bytes[17]);
            count = buffer(bytes[18]);
            treeIdx = buffer(bytes[19]);
            mask = buffer(bytes[20]);
            shifts = shifts(n);
        } catch (RuntimeException | Error e) {
            session.close();
            throw e;
        }
    }

    /**
     * S for {@code d} dimensions: the largest power of two up to {@link #SMALL_MAX} whose node fits bt_small's
     * local memory ({@code 7 S + 2 S d} ints); 0 when not even two points fit.
     */
    public static int smallCutoff(int d) {
        for (int sz = SMALL_MAX; sz >= 2; sz >>= 1) {
            if (7L * sz + 2L * sz * d <= LOCAL_INTS) return sz;
        }
        return 0;
    }

    /**
     * {global levels, nodes left to bt_small}: node sizes per batch and level follow from the sizes alone
     * (a level holds at most two sizes, floor and ceiling), so the host plans the launches without reading
     * anything back. A node splits globally while its batch is not that deep and it holds more than
     * {@code max(1, small)} points; a node of 2..S points that still splits goes to bt_small.
     */
    static long[] plan(BatchLayout layout, int[] depths, int small) {
        int bigger = Math.max(1, small);
        long levels = 0, smallNodes = 0;
        for (int b = 0; b < depths.length; b++) {
            long[] size = {layout.batchSize(b), 0};
            long[] count = {1, 0};
            for (int level = 0; level < depths[b]; level++) {
                long[] ns = new long[2], nc = new long[2];
                boolean split = false;
                for (int i = 0; i < 2; i++) {
                    long sz = size[i], c = count[i];
                    if (c == 0 || sz < 2) continue;
                    if (sz <= bigger) {
                        smallNodes += c;
                        continue;
                    }
                    split = true;
                    add(ns, nc, sz / 2, c);
                    add(ns, nc, sz - sz / 2, c);
                }
                if (!split) break;
                levels = Math.max(levels, level + 1);
                size = ns;
                count = nc;
            }
        }
        return new long[] {levels, smallNodes};
    }

    /** Adds {@code c} nodes of {@code sz} points to a level's (at most two) sizes. */
    private static void add(long[] size, long[] count, long sz, long c) {
        for (int i = 0; i < 2; i++) {
            if (count[i] == 0 || size[i] == sz) {
                size[i] = sz;
                count[i] += c;
                return;
            }
        }
        throw new IllegalStateException("a level with more than two node sizes");
    }

    /** Each batch's depth for a tree: its {@code L}. */
    public static int[] treeDepths(BatchLayout layout) {
        int[] v = new int[layout.batchCount()];
        for (int b = 0; b < v.length; b++) v[b] = layout.levels(b);
        return v;
    }

    /** Each batch's depth for a partition to {@code targetLevel}: below {@code ceil(log2 m)} nothing splits. */
    public static int[] partitionDepths(BatchLayout layout, int targetLevel) {
        int[] v = new int[layout.batchCount()];
        for (int b = 0; b < v.length; b++) {
            int m = layout.batchSize(b);
            v[b] = Math.min(targetLevel, m <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(m - 1));
        }
        return v;
    }

    /**
     * The radix passes' shifts, most significant first: the 32 key bits, then the row bits that can be
     * non-zero (rows are below {@code n}); bits above those are zero in every key, so skipping them
     * selects the same key.
     */
    static int[] shifts(int n) {
        int rowBits = n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
        int rowPasses = (rowBits + RADIX_BITS - 1) / RADIX_BITS;
        int[] v = new int[32 / RADIX_BITS + rowPasses];
        int i = 0;
        for (int sh = 64 - RADIX_BITS; sh >= 32; sh -= RADIX_BITS) v[i++] = sh;
        for (int sh = (rowPasses - 1) * RADIX_BITS; sh >= 0; sh -= RADIX_BITS) v[i++] = sh;
        return v;
    }

    /** Launches per global level of this build (for the documentation of its cost and for tests). */
    public int launchesPerLevel() {
        return 5 + 2 * shifts.length;
    }

    /** Global levels of this build: the levels on which some node holds more than S points. */
    public int globalLevels() {
        return globalLevels;
    }

    /** Nodes finished in local memory by bt_small, one work-group each, in one launch. */
    public int smallNodes() {
        return smallCount;
    }

    /**
     * Every level, then the leaves of a tree; the launches of a level are queued and waited for once.
     * Cancellation (the token and the thread's interrupt) is checked before each level and before the
     * small nodes. Progress is reported in the CPU engine's stage ({@code "ball tree"} or
     * {@code "partition"}, out of {@code n} points): 0 at the start, after each global level its share of
     * the steps (the global levels, then the last launches) as points, and {@code n} at the end. May run
     * again (the same coordinates buffer, rewritten by the caller between runs, say): every run starts
     * from the rows' order.
     */
    public void run(Execution ex) {
        String stage = tree ? "ball tree" : "partition";
        long steps = globalLevels + 1L;
        ex.progress().progress(stage, 0, n);
        s.launchQueued("bt_init", n, KernelArg.of(offsets), KernelArg.of(batches), KernelArg.of(n), KernelArg.of(batchOf),
                KernelArg.of(perm), KernelArg.of(nodeA), KernelArg.of(nodeM), KernelArg.of(nodeT), KernelArg.of(nodeL));
        for (int level = 0; level < globalLevels; level++) {
            checkCancelled(ex);
            level(level);
            s.finish();   // one wait per level: launches are queued, a failure surfaces here
            ex.progress().progress(stage, n * (level + 1L) / steps, n);
        }
        checkCancelled(ex);
        if (smallCount > 0) {
            try (Arena a = Arena.ofConfined()) {
                s.upload(listCount, a.allocateFrom(JAVA_INT, 0));
            }
            s.launchQueued("bt_small_list", n, KernelArg.of(n), KernelArg.of(small), KernelArg.of(batchOf),
                    KernelArg.of(depth), KernelArg.of(nodeA), KernelArg.of(nodeM), KernelArg.of(nodeL), KernelArg.of(list),
                    KernelArg.of(listCount));
            // one work-group per node, at most SMALL_GROUPS groups a launch (the work-item count is an int)
            for (int first = 0; first < smallCount; first += SMALL_GROUPS) {
                int groups = Math.min(SMALL_GROUPS, smallCount - first);
                s.launchQueued("bt_small", groups * s.groupSize(), KernelArg.of(first), KernelArg.of(smallCount),
                        KernelArg.of(small), KernelArg.of(d), KernelArg.of(stride), KernelArg.of(coords), KernelArg.of(list),
                        KernelArg.of(batchOf), KernelArg.of(depth), KernelArg.of(perm), KernelArg.of(nodeA),
                        KernelArg.of(nodeM), KernelArg.of(nodeT), KernelArg.of(nodeL));
            }
        }
        if (tree) {
            s.launchQueued("bt_leaves", n, KernelArg.of(n), KernelArg.of(batchOf), KernelArg.of(slotStart),
                    KernelArg.of(nodeA), KernelArg.of(nodeM), KernelArg.of(nodeT), KernelArg.of(perm),
                    KernelArg.of(treeIdx), KernelArg.of(mask));
        }
        s.finish();
        ex.progress().progress(stage, n, n);
    }

    private static void checkCancelled(Execution ex) {
        ex.cancel().throwIfCancelled();
        if (Thread.currentThread().isInterrupted()) throw new CancelledException();
    }

    private void level(int level) {
        KernelArg lv = KernelArg.of(level), big = KernelArg.of(Math.max(1, small)), nn = KernelArg.of(n), dd = KernelArg.of(d), st = KernelArg.of(stride);
        KernelArg bo = KernelArg.of(batchOf), dp = KernelArg.of(depth), na = KernelArg.of(nodeA), nm = KernelArg.of(nodeM);
        s.launchQueued("bt_reset", n, lv, big, nn, dd, bo, dp, na, nm, KernelArg.of(nmin), KernelArg.of(nmax), KernelArg.of(hist),
                KernelArg.of(count));
        s.launchQueued("bt_minmax", n, lv, big, nn, dd, st, KernelArg.of(coords), bo, dp, na, nm, KernelArg.of(perm),
                KernelArg.of(nmin), KernelArg.of(nmax));
        s.launchQueued("bt_pick", n, lv, big, nn, dd, bo, dp, na, nm, KernelArg.of(nmin), KernelArg.of(nmax), KernelArg.of(ndim),
                KernelArg.of(prefix), KernelArg.of(rank));
        for (int shift : shifts) {
            KernelArg sh = KernelArg.of(shift);
            s.launchQueued("bt_hist", n, lv, big, sh, nn, st, KernelArg.of(coords), bo, dp, na, nm, KernelArg.of(perm),
                    KernelArg.of(ndim), KernelArg.of(prefix), KernelArg.of(hist));
            s.launchQueued("bt_digit", n, lv, big, sh, nn, bo, dp, na, nm, KernelArg.of(hist), KernelArg.of(prefix), KernelArg.of(rank));
        }
        s.launchQueued("bt_part", n, lv, big, nn, st, KernelArg.of(coords), bo, dp, na, nm, KernelArg.of(perm), KernelArg.of(ndim),
                KernelArg.of(prefix), KernelArg.of(count), KernelArg.of(spare));
        DeviceBuffer t = perm;
        perm = spare;
        spare = t;
        s.launchQueued("bt_advance", n, lv, big, nn, bo, dp, na, nm, KernelArg.of(nodeT), KernelArg.of(nodeL));
    }

    /** The tree's slots (global rows, int32, one per slot) on the device, after {@link #run}. */
    public DeviceBuffer treeIdx() {
        return treeIdx;
    }

    /** The tree's mask (one byte per slot: 1 real, 0 padding) on the device, after {@link #run}. */
    public DeviceBuffer mask() {
        return mask;
    }

    /** Number of slots of the tree (0 for a partition). */
    public int slots() {
        return slots;
    }

    /** The tree's slot arrays, copied to the host. */
    public int[] downloadTreeIdx() {
        return downloadInts(treeIdx, slots);
    }

    /** The tree's mask, copied to the host. */
    public byte[] downloadMask() {
        if (slots == 0) return new byte[0];
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(JAVA_BYTE, slots);
            s.download(mask, m);
            return m.toArray(JAVA_BYTE);
        }
    }

    /**
     * The partition (after {@link #run}): the working order of the rows, each final node (cell) sorted
     * into increasing row order on the host, as the CPU engine writes its cells.
     */
    public int[] downloadPartition() {
        int[] rows = downloadInts(perm, n);
        int[] first = downloadInts(nodeA, n);
        int[] size = downloadInts(nodeM, n);
        for (int p = 0; p < n; p++) {
            if (first[p] == p && size[p] > 1) java.util.Arrays.sort(rows, p, p + size[p]);
        }
        return rows;
    }

    private int[] downloadInts(DeviceBuffer b, int count) {
        if (count == 0) return new int[0];
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(JAVA_INT, count);
            s.download(b, m);
            return m.toArray(JAVA_INT);
        }
    }

    /** A buffer of {@code bytes} (at least 4: a build of no points or no slots still passes valid buffers). */
    private DeviceBuffer buffer(long bytes) {
        return s.allocate(Math.max(4, bytes));
    }

    private DeviceBuffer ints(int[] values) {
        DeviceBuffer b = buffer(4L * values.length);
        if (values.length > 0) {
            try (Arena a = Arena.ofConfined()) {
                s.upload(b, a.allocateFrom(JAVA_INT, values));
            }
        }
        return b;
    }

    @Override
    public void close() {
        s.close();
    }
}
