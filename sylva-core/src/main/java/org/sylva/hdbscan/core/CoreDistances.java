package org.sylva.hdbscan.core;

import org.sylva.kernels.DistanceKernel;
import org.sylva.parallel.ParallelWork;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.hdbscan.index.ProjectedIndex;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * Core distances of HDBSCAN* and the exact nearest-neighbour lists they come from.
 *
 * <p>{@code minSamples} counts the point itself (scikit-learn's convention): the core distance of a
 * point is the distance to its {@code minSamples}-th nearest point, the point being the first. Each list
 * keeps {@code k = min(n, minSamples + 1)} entries, ordered by (distance, original index) ascending and
 * including the point itself (duplicates of it, at distance 0, may precede it when their index is lower).
 * The one extra entry lets the spanning-tree stage prove a list complete: when the last entry is
 * strictly farther than the core distance, the list holds every point within the core distance.
 * Distances are {@code sqrt(sum_j (a_j - b_j)^2)} in float64, summed in dimension order.
 * If {@code minSamples > n} (which the HDBSCAN front end should refuse), the core distance is the
 * distance to the farthest point.
 *
 * <p>The search is exact whatever the backend: with the vector backend and the index's float32 copy (exact,
 * or rounded with its error in the bound), above {@link #DIRECT_MAX_DIMENSIONS} dimensions and on integer
 * data, it screens pairs with a float32 pre-filter of proven error and decides every kept candidate with
 * the float64 reference distance ({@link FilteredKnnSearch}); otherwise it computes float64 distances
 * directly ({@link DirectKnnSearch}). Either way the lists are bitwise those of a brute-force float64
 * search and never depend on the thread count.
 *
 * <p>Immutable: accessors return single values or copies.
 *
 * <pre>{@code
 * CoreDistances cd = CoreDistances.compute(points, 20, KernelProvider.get().bestDistance(), 2, ProgressListener.NONE, CancellationToken.NEVER);
 * double c7 = cd.core(7);
 * int nearestOther = cd.neighbour(7, 1);
 * }</pre>
 */
public final class CoreDistances {
    /** Stage name reported to progress listeners. */
    public static final String STAGE = "core distances";
    /*
     * The filtered search's progress is counted in pass 2's tiles (one approximate leaf-by-leaf tile), whose number
     * is known only once pass 1 has run; the other passes are weighed in that unit by their cost. The weights are
     * calibrated so that the fraction follows the stage's time on 200 000 clips, in a cold process and a warm one
     * (BENCHMARKS.md, "Progress of the core distances"), where an ETA is read: pass 2's first leaves cost more per
     * tile than its later ones (their limits are still pass 1's, and in a cold process the kernel is still being
     * compiled), which the passes before it absorb. A stage of a few seconds (50 000 clips) follows its time less
     * well than before the calibration; it shows a line or two.
     */
    /** Pass 1's cost per leaf, in pass 2's tiles, at least (it offers each leaf a few dearer tiles). */
    static final int FIRST_PASS_UNITS = 60;
    /** The cost per leaf of what comes between passes 1 and 2 (the principal axes, the count of pass 2's tiles), at least. */
    static final int COUNT_UNITS = 30;
    /** The exact pass's cost per leaf, in pass 2's tiles. */
    static final int FINAL_PASS_UNITS = 30;

    /**
     * Pass 2's tiles per leaf assumed while pass 1 runs, before they are counted: a quarter of the leaves, at least
     * 16. A guess too high makes the fraction jump forward when the count comes; one too low would hold the
     * fraction reached in pass 1 too high for the rest of the stage (it never goes back), with an ETA too short.
     */
    static long passTwoGuess(int leaves) {
        return Math.max(16, leaves / 4);
    }

    /**
     * Where pass 2's progress starts once its {@code rest} (pass 2's counted tiles and the exact pass's weight) is
     * known, the passes before it having reported up to {@code first} of {@code guess}: the least {@code done} with
     * {@code done / (done + rest) >= first / guess}, so that the fraction reported never goes back (at least 1).
     * Exact in integers: the products reach past a long on the largest inputs.
     */
    static long rescaledStart(long rest, long first, long guess) {
        java.math.BigInteger[] qr = java.math.BigInteger.valueOf(rest).multiply(java.math.BigInteger.valueOf(first))
                .divideAndRemainder(java.math.BigInteger.valueOf(guess - first));
        long done = qr[0].longValueExact() + (qr[1].signum() > 0 ? 1 : 0);
        return Math.max(1, done);
    }

    /** Pass 1's weight per leaf: {@link #FIRST_PASS_UNITS}, or a seventh of pass 2's guess when that is more. */
    static long firstPassUnits(int leaves) {
        return Math.max(FIRST_PASS_UNITS, passTwoGuess(leaves) / 7);
    }

    /** The weight per leaf of the axes and the count: {@link #COUNT_UNITS}, or half of pass 1's when that is more. */
    static long countUnits(int leaves) {
        return Math.max(COUNT_UNITS, firstPassUnits(leaves) / 2);
    }

    private final int n;
    private final int minSamples;
    private final int k;
    private final double[] core;
    private final int[] neighbours;
    private final double[] distances;

    private CoreDistances(int n, int minSamples, int k, double[] core, int[] neighbours, double[] distances) {
        this.n = n;
        this.minSamples = minSamples;
        this.k = k;
        this.core = core;
        this.neighbours = neighbours;
        this.distances = distances;
    }

    /** Computes core distances of a point set in float64, exactly (a float32 set's coordinates widened). */
    public static CoreDistances compute(PointSet points, int minSamples, DistanceKernel backend, int threads,
                                        ProgressListener progress, CancellationToken cancel) {
        checkParameters(minSamples, threads);
        return compute(PointIndex.build(points, backend), minSamples, backend, threads, progress, cancel);
    }

    /** Computes core distances over an index built for {@code backend} (lets the index be shared with the tree stage). */
    public static CoreDistances compute(PointIndex index, int minSamples, DistanceKernel backend, int threads,
                                        ProgressListener progress, CancellationToken cancel) {
        return compute(index, minSamples, backend, threads, progress, cancel, true, false);
    }

    /**
     * As {@link #compute(PointIndex, int, DistanceKernel, int, ProgressListener, CancellationToken)}; with
     * {@code axisBounds}, the search also bounds distances along a few principal axes
     * ({@link ProjectedIndex}), which skips leaf pairs between clusters. The lists are the same either way.
     */
    public static CoreDistances compute(PointIndex index, int minSamples, DistanceKernel backend, int threads,
                                        boolean axisBounds, ProgressListener progress, CancellationToken cancel) {
        return compute(index, minSamples, backend, threads, progress, cancel, true, axisBounds);
    }

    static CoreDistances compute(PointIndex index, int minSamples, DistanceKernel backend, int threads,
                                 ProgressListener progress, CancellationToken cancel, boolean prune) {
        return compute(index, minSamples, backend, threads, progress, cancel, prune, false);
    }

    /** As {@link #compute(PointIndex, int, DistanceKernel, int, ProgressListener, CancellationToken)}; {@code prune = false} scans all pairs (tests). */
    static CoreDistances compute(PointIndex index, int minSamples, DistanceKernel backend, int threads,
                                 ProgressListener progress, CancellationToken cancel, boolean prune, boolean axisBounds) {
        checkParameters(minSamples, threads);
        if (!backend.readsBlockWidth(index.blockWidth())) {
            throw new IllegalArgumentException("index built for block width " + index.blockWidth() + ", backend "
                    + backend.name() + " reads " + backend.blockWidth());
        }
        int n = index.size();
        int k = Math.min(n, minSamples + 1);
        if (n == 0) return new CoreDistances(0, minSamples, 0, new double[0], new int[0], new double[0]);
        int[] nb = new int[n * k];
        double[] nd = new double[n * k];
        ParallelWork work = new ParallelWork(threads);
        int leaves = index.leaves();
        if (prune && filtered(index, backend)) {
            FilteredKnnSearch search = new FilteredKnnSearch(index, backend, k, threads, nb, nd);
            search.cancelledBy(cancel);
            // Progress in pass 2's tiles, so that the ETA holds while the passes run (passTwoGuess): pass 2's
            // leaves, which cost anything from nothing to thousands of tiles, are counted before it starts (bounds
            // only). Until they are, pass 2 is guessed; afterwards pass 1's share is rescaled so that the fraction
            // reported never goes back.
            long[] firstWeight = new long[leaves];
            long firstUnits = firstPassUnits(leaves), countUnits = countUnits(leaves);
            java.util.Arrays.fill(firstWeight, firstUnits);
            long first = (firstUnits + countUnits) * leaves;   // pass 1, then the axes and the count
            long guess = first + (passTwoGuess(leaves) + FINAL_PASS_UNITS) * leaves;
            work.run(leaves, STAGE, 0, guess, firstWeight, progress, cancel, search::firstPass);
            search.boundsUp();
            if (axisBounds) {
                search.useAxes(ProjectedIndex.of(index, work, cancel));
                // The engine asks for the axes from 100 000 points, or from fewer in a long-lived JVM, whose
                // compiler has had work: there the stopping kernel pays at any size (the cold cost of its
                // compilation, which keeps it from small one-shot runs, is paid already).
                search.earlyStop = true;
            }
            long[] tiles = new long[leaves];
            long[] countWeight = new long[leaves];
            java.util.Arrays.fill(countWeight, countUnits);
            work.run(leaves, STAGE, first - countUnits * leaves, guess, countWeight, progress, cancel,
                    (worker, q) -> tiles[q] = search.secondPassTiles(worker, q));
            long rest = (long) FINAL_PASS_UNITS * leaves;
            for (long t : tiles) rest += t;
            long done = rescaledStart(rest, first, guess);
            long total = done + rest;
            long[] finalWeight = new long[leaves];
            java.util.Arrays.fill(finalWeight, FINAL_PASS_UNITS);
            // Pass 2 from the last leaf down. A leaf's tiles with the leaves after it come nearest first (its
            // traversal's order) either way; from the last leaf down, the tiles offered to its lists by the
            // leaves before it, which run later, come from the closest in the index's order first, not the
            // farthest. Its limits fall sooner: fewer offers get in, and the kernel's early stop reads tighter
            // limits (BENCHMARKS.md, "Pass 2 from the last leaf down"). The lists do not depend on the order.
            long[] tilesDown = new long[leaves];
            for (int u = 0; u < leaves; u++) tilesDown[u] = tiles[leaves - 1 - u];
            work.run(leaves, STAGE, done, total, tilesDown, progress, cancel,
                    (worker, u) -> search.secondPass(worker, leaves - 1 - u));
            work.run(leaves, STAGE, total - (long) FINAL_PASS_UNITS * leaves, total, finalWeight, progress, cancel,
                    search::finalPass);
        } else {
            DirectKnnSearch search = new DirectKnnSearch(index, backend, k, prune, threads, nb, nd);
            work.run(leaves, STAGE, progress, cancel, search::unit);
        }
        int coreAt = Math.min(minSamples, k) - 1;
        double[] core = new double[n];
        for (int i = 0; i < n; i++) core[i] = nd[i * k + coreAt];
        return new CoreDistances(n, minSamples, k, core, nb, nd);
    }

    /**
     * Dimensions up to which the direct search runs even where the filtered one applies, unless the
     * filtered search's lists are exact ({@link FilteredKnnSearch#exactLists}: integer data, whose massive
     * ties its exact lists prune by the tie order). In few dimensions a float64 distance costs little more
     * than its float32 approximation, and the direct search saves the filtered one's approximate lists and
     * exact pass: measured faster there on every set without exact integer ties, and slower on those
     * (BENCHMARKS.md, "The direct search with a vector selection").
     */
    static final int DIRECT_MAX_DIMENSIONS = 16;

    /** True when the core distances of {@code index} take the filtered search, false for the direct one. */
    static boolean filtered(PointIndex index, DistanceKernel backend) {
        return FilteredKnnSearch.applies(index, backend)
                && (index.dimensions() > DIRECT_MAX_DIMENSIONS || FilteredKnnSearch.exactLists(index, backend));
    }

    /**
     * The nearest lists of the points of leaves {@code leafFrom .. leafTo-1} of {@code index}: the part of
     * this stage one task of a distributed engine computes against the whole point set. The lists are
     * exact (float64 throughout), so {@link #fromSlices} over slices covering every leaf once gives the
     * same core distances and lists as {@link #compute}, bit for bit, whatever the split.
     */
    public static NearestSlice slice(PointIndex index, int minSamples, DistanceKernel backend, int leafFrom,
                                     int leafTo, int threads, CancellationToken cancel) {
        checkParameters(minSamples, threads);
        if (leafFrom < 0 || leafTo > index.leaves() || leafFrom > leafTo) {
            throw new IllegalArgumentException("leaf slice " + leafFrom + ".." + leafTo + " of " + index.leaves());
        }
        int n = index.size();
        int k = Math.min(n, minSamples + 1);
        if (leafFrom == leafTo) return new NearestSlice(k, new int[0], new int[0], new double[0]);
        int posFrom = index.leafStart(leafFrom);
        int posTo = index.leafStart(leafTo - 1) + index.leafCount(leafTo - 1);
        int rows = posTo - posFrom;
        int[] nb = new int[rows * k];
        double[] nd = new double[rows * k];
        ParallelWork work = new ParallelWork(threads);
        int count = leafTo - leafFrom;
        if (filtered(index, backend)) {
            FilteredKnnSearch search = FilteredKnnSearch.forSlice(index, backend, k, threads, nb, nd, posFrom, posTo);
            search.cancelledBy(cancel);
            work.run(count, STAGE, ProgressListener.NONE, cancel, (worker, unit) -> search.firstPass(worker, leafFrom + unit));
            search.boundsUp();
            // from the slice's last leaf down, as compute's pass 2 (the lists do not depend on the order)
            work.run(count, STAGE, ProgressListener.NONE, cancel,
                    (worker, unit) -> search.secondPassSlice(worker, leafTo - 1 - unit, leafFrom, leafTo));
            work.run(count, STAGE, ProgressListener.NONE, cancel, (worker, unit) -> search.finalPass(worker, leafFrom + unit));
        } else {
            DirectKnnSearch search = new DirectKnnSearch(index, backend, k, true, threads, nb, nd, posFrom);
            work.run(count, STAGE, ProgressListener.NONE, cancel, (worker, unit) -> search.unit(worker, leafFrom + unit));
        }
        int real = 0;
        for (int p = posFrom; p < posTo; p++) if (index.original(p) >= 0) real++;
        int[] points = new int[real];
        int[] outNb = new int[real * k];
        double[] outNd = new double[real * k];
        int j = 0;
        for (int p = posFrom; p < posTo; p++) {
            int o = index.original(p);
            if (o < 0) continue;
            points[j] = o;
            System.arraycopy(nb, (p - posFrom) * k, outNb, j * k, k);
            System.arraycopy(nd, (p - posFrom) * k, outNd, j * k, k);
            j++;
        }
        return new NearestSlice(k, points, outNb, outNd);
    }

    /**
     * Puts the slices of {@link #slice} together again: every one of the {@code n} points must be in
     * exactly one slice. The result equals {@link #compute} on the same points.
     */
    public static CoreDistances fromSlices(int n, int minSamples, Iterable<NearestSlice> slices) {
        if (minSamples < 1) throw new InvalidInputException("min_samples must be >= 1, got " + minSamples);
        int k = Math.min(n, minSamples + 1);
        int[] nb = new int[n * k];
        double[] nd = new double[n * k];
        boolean[] seen = new boolean[n];
        int covered = 0;
        for (NearestSlice s : slices) {
            if (s.k() != k) throw new IllegalArgumentException("slice of " + s.k() + " entries per list, expected " + k);
            int[] pts = s.points();
            for (int i = 0; i < pts.length; i++) {
                int o = pts[i];
                if (o < 0 || o >= n || seen[o]) {
                    throw new IllegalArgumentException("slices name point " + o + " twice or out of 0.." + (n - 1));
                }
                seen[o] = true;
                covered++;
                System.arraycopy(s.neighbours(), i * k, nb, o * k, k);
                System.arraycopy(s.distances(), i * k, nd, o * k, k);
            }
        }
        if (covered != n) throw new IllegalArgumentException("slices cover " + covered + " of " + n + " points");
        int coreAt = Math.min(minSamples, k) - 1;
        double[] core = new double[n];
        for (int i = 0; i < n; i++) core[i] = k == 0 ? 0.0 : nd[i * k + coreAt];
        return new CoreDistances(n, minSamples, k, core, nb, nd);
    }

    /**
     * Core distances of distinct points of which point {@code i} stands for {@code multiplicity[i]}
     * identical points (all of them in the fit): the lists hold the distinct points, {@code k = min(n,
     * minSamples + 1)} of them, and the core distance of {@code i} is the first list distance at which the
     * multiplicities of the entries so far, {@code i}'s own included, reach {@code minSamples}. That is
     * the {@code minSamples}-th smallest distance from {@code i} to all the points with every copy
     * counted: bitwise the core distance each copy gets from the search over all points. The lists stay
     * exact nearest lists of the distinct points, which is all the spanning-tree shortcuts read.
     */
    public static CoreDistances compute(PointIndex index, int minSamples, int[] multiplicity, DistanceKernel backend,
                                        int threads, ProgressListener progress, CancellationToken cancel) {
        return compute(index, minSamples, multiplicity, backend, threads, false, progress, cancel);
    }

    /** As {@link #compute(PointIndex, int, int[], DistanceKernel, int, ProgressListener, CancellationToken)}, with {@code axisBounds} as in {@link #compute(PointIndex, int, DistanceKernel, int, boolean, ProgressListener, CancellationToken)}. */
    public static CoreDistances compute(PointIndex index, int minSamples, int[] multiplicity, DistanceKernel backend,
                                        int threads, boolean axisBounds, ProgressListener progress, CancellationToken cancel) {
        if (multiplicity.length != index.size()) {
            throw new IllegalArgumentException(multiplicity.length + " multiplicities for " + index.size() + " points");
        }
        return compute(index, minSamples, backend, threads, progress, cancel, true, axisBounds).withMultiplicities(multiplicity);
    }

    /**
     * These lists (of distinct points) with the core distances of {@link #compute(PointIndex, int, int[],
     * DistanceKernel, int, ProgressListener, CancellationToken)}: point {@code i} standing for
     * {@code multiplicity[i]} identical points. For engines that search the distinct points elsewhere.
     */
    public CoreDistances withMultiplicities(int[] multiplicity) {
        return new CoreDistances(n, minSamples, k, coresWithMultiplicities(minSamples, k, neighbours, distances,
                multiplicity), neighbours, distances);
    }

    /**
     * Each point's distance at which the multiplicities of its list's entries so far, its own included, reach
     * {@code count} ({@code 1 <= count <= minSamples}): its {@code count}-th smallest distance with every copy
     * counted, read from these lists in place.
     */
    public double[] distancesCounting(int count, int[] multiplicity) {
        if (count < 1 || count > minSamples) throw new IllegalArgumentException("count " + count + " of " + minSamples);
        return coresWithMultiplicities(count, k, neighbours, distances, multiplicity);
    }

    /**
     * The core distances of {@link #withMultiplicities} from raw lists: {@code k} entries per point, nearest
     * first, {@code neighbours[i * k + r]} a point index into {@code multiplicity}.
     */
    public static double[] coresWithMultiplicities(int minSamples, int k, int[] neighbours, double[] distances,
                                                   int[] multiplicity) {
        int n = multiplicity.length;
        if ((long) n * k != neighbours.length || neighbours.length != distances.length) {
            throw new IllegalArgumentException(multiplicity.length + " multiplicities for lists of "
                    + neighbours.length + " entries, " + k + " per point");
        }
        double[] c = new double[n];
        for (int i = 0; i < n; i++) {
            long seen = 0;
            double at = Double.NaN;
            for (int r = 0; r < k; r++) {
                seen += multiplicity[neighbours[i * k + r]];
                at = distances[i * k + r];
                if (seen >= minSamples) break;
            }
            // fewer copies than minSamples in all: the farthest point, as the search over all points gives
            c[i] = at;
        }
        return c;
    }

    /**
     * Wraps precomputed values (copied): {@code neighbours}/{@code distances} hold {@code k} entries per
     * point, row-major, the first {@code k} points in (distance, index) order. For tests and for callers
     * that computed lists elsewhere; nothing is recomputed, but shapes and each list's order are checked:
     * the spanning tree's shortcuts decide ties by that order.
     */
    public static CoreDistances of(int minSamples, double[] core, int k, int[] neighbours, double[] distances) {
        int n = core.length;
        if (minSamples < 1) throw new InvalidInputException("min_samples must be >= 1, got " + minSamples);
        if (k < 0 || (long) n * k != neighbours.length || neighbours.length != distances.length) {
            throw new InvalidInputException("neighbour arrays must hold n * k = " + n + " * " + k + " entries, got "
                    + neighbours.length + " and " + distances.length);
        }
        for (int i = 0; i < n; i++) {
            for (int r = 1; r < k; r++) {
                int a = i * k + r - 1, b = a + 1;
                if (!(distances[a] < distances[b] || (distances[a] == distances[b] && neighbours[a] < neighbours[b]))) {
                    throw new InvalidInputException("neighbour list " + i + " is not in (distance, index) order at entry "
                            + r + ": (" + distances[a] + ", " + neighbours[a] + ") then (" + distances[b] + ", "
                            + neighbours[b] + ")");
                }
            }
        }
        return new CoreDistances(n, minSamples, k, core.clone(), neighbours.clone(), distances.clone());
    }

    private static void checkParameters(int minSamples, int threads) {
        if (minSamples < 1) throw new InvalidInputException("min_samples must be >= 1, got " + minSamples);
        if (threads < 1) throw new InvalidInputException("threads must be >= 1, got " + threads);
    }

    /** Number of points. */
    public int size() {
        return n;
    }

    /** The {@code minSamples} these core distances were computed for (the point itself counted). */
    public int minSamples() {
        return minSamples;
    }

    /**
     * Slots per point of the approximate lists the float32 pre-filter keeps for lists of {@code k} entries
     * (four bytes of value and four of candidate each), for memory estimates.
     */
    public static long approximateSlotsPerPoint(int k) {
        return ApproximateLists.slots(k, k + FilteredKnnSearch.EXTRA);
    }

    /** Entries per neighbour list: {@code min(n, minSamples + 1)}. */
    public int k() {
        return k;
    }

    /** Core distance of point {@code i}. */
    public double core(int i) {
        return core[i];
    }

    /** A copy of all core distances. */
    public double[] coreDistances() {
        return core.clone();
    }

    /** Original index of the {@code r}-th nearest point of {@code i} ({@code r = 0} is the nearest, usually {@code i} itself). */
    public int neighbour(int i, int r) {
        return neighbours[i * k + r];
    }

    /** Distance from {@code i} to its {@code r}-th nearest point. */
    public double neighbourDistance(int i, int r) {
        return distances[i * k + r];
    }

    /** A copy of the lists' indices, {@code k} per point, row-major. */
    public int[] neighbours() {
        return neighbours.clone();
    }

    /** A copy of the lists' distances, {@code k} per point, row-major. */
    public double[] neighbourDistances() {
        return distances.clone();
    }

    @Override
    public String toString() {
        return "CoreDistances[n=" + n + ", minSamples=" + minSamples + ", k=" + k + "]";
    }
}
