package org.sylva.hdbscan.engine;

import org.sylva.hdbscan.mst.SpanningTree;
import org.sylva.progress.CancellationToken;

/**
 * The groups of identical points of a fit, so that the CPU engine can run its searches over the distinct
 * points only, each with a multiplicity, and expand the result to every point afterwards, bitwise equal
 * to the result without the collapse. Identical means equal in every coordinate ({@code ==}, so
 * {@code -0.0} and {@code 0.0} are equal: every distance from them is the same).
 *
 * <p>Groups are numbered in the order of their first point (their <em>representative</em>, the lowest
 * index of the group), so the distinct points keep the relative order of their representatives and the
 * tie order {@code (weight, lower index, higher index)} of {@link org.sylva.hdbscan.mst.EdgeOrder} reads
 * the same on representatives as on group numbers.
 *
 * <p><b>Why the expansion is exact.</b> Identical points have the same distance to every point, hence the
 * same core distance {@code c_G} (the {@code minSamples}-th smallest distance counts every copy, which is
 * what {@link org.sylva.hdbscan.core.CoreDistances}' multiplicity search does). Every edge of a point of
 * group {@code G} weighs at least {@code c_G}; the edges inside {@code G} weigh exactly {@code c_G}; all
 * edges between groups {@code G} and {@code H} weigh the same {@code W(G, H)}, and the first of them in
 * tie order joins the two representatives. Let {@code t_G} be the lowest point {@code x} below
 * {@code G}'s representative {@code g0} outside {@code G} with {@code w(x, G) = c_G}, or {@code g0} when
 * there is none. An edge is in the unique tree exactly when its endpoints are not joined by strictly
 * earlier edges; a point {@code b} of {@code G} has no edge earlier than {@code (t_G, b)} (a lighter one
 * does not exist, and an equally heavy one with a lower first endpoint would contradict the choice of
 * {@code t_G}), so every {@code (t_G, b)}, {@code b} in {@code G}, {@code b != t_G}, is a tree edge.
 * Contracting those edges leaves one node per set of groups they join, and the rest of the tree is the
 * tree of that contracted graph, whose cheapest parallel edges are the representatives' edges: the tree of
 * the distinct points ({@code T'}), less the edges {@code (t_G, g0)} already counted. So the tree is
 * {@code T'} (on representatives) plus {@code (t_G, b)} for every non-representative {@code b}. And
 * {@code t_G} is read from {@code T'}: it is the lowest other endpoint below {@code g0} of a
 * {@code T'} edge at {@code g0} that weighs exactly {@code c_G} (an edge with {@code W(X, G) = c_G} from
 * the lowest such {@code x} is in {@code T'}, as {@code g0} has no earlier edge), else {@code g0}.
 *
 * <p><b>Sample weights.</b> A row of weight {@code w} stands for {@code w} identical points, numbered
 * consecutively in row order (the points of {@code np.repeat(rows, w, axis=0)}): {@link #find(double[],
 * int, int, int[], CancellationToken)} groups the rows and counts each group's points, and the expansion
 * yields the core distances and the spanning tree of those points, bitwise what a fit of the repeated rows
 * computes, without ever materialising the copies' coordinates.
 *
 * <pre>{@code
 * DuplicatePoints dup = DuplicatePoints.find(rows, n, d, cancel);
 * if (dup.collapses()) { ... search dup.distinctRows() with dup.multiplicities() ...
 *     tree = dup.expandTree(distinctTree, distinctCore); core = dup.expandCore(distinctCore); }
 * }</pre>
 */
public final class DuplicatePoints {
    /** Most points {@link #find} groups (its hash table stays at most half full), copies of weighted rows included. */
    public static final int MAX_POINTS = 1 << 29;
    /** Rows hashed between two looks at the cancellation token. */
    private static final int CHECK_EVERY = 1 << 14;

    /** Number of rows. */
    private final int n;
    /** Number of points: the rows' weights summed ({@code n} without weights). */
    private final int points;
    private final int d;
    private final double[] rows;
    /** Per row: its weight (how many points it stands for); null when every row is one point. */
    private final int[] weight;
    /** Per row: its group (distinct point) number. */
    private final int[] group;
    /** Per group: its lowest row. */
    private final int[] representativeRow;
    /** Per group: its lowest point (the first copy of its lowest row). */
    private final int[] representative;
    /** Per group: how many points it holds. */
    private final int[] multiplicity;

    private DuplicatePoints(int n, int points, int d, double[] rows, int[] weight, int[] group, int[] representativeRow,
            int[] representative, int[] multiplicity) {
        this.n = n;
        this.points = points;
        this.d = d;
        this.rows = rows;
        this.weight = weight;
        this.group = group;
        this.representativeRow = representativeRow;
        this.representative = representative;
        this.multiplicity = multiplicity;
    }

    /**
     * Groups the {@code n} rows of {@code d} coordinates (row-major, finite) by equality, in O(n d) expected
     * time (a hash table of the rows), looking at {@code cancel} every few thousand rows.
     *
     * @throws IllegalArgumentException when {@code n} exceeds {@link #MAX_POINTS}
     */
    public static DuplicatePoints find(double[] rows, int n, int d, CancellationToken cancel) {
        return find(rows, n, d, null, cancel);
    }

    /**
     * As {@link #find(double[], int, int, CancellationToken)}, row {@code i} standing for {@code weight[i]}
     * (at least 1) identical points; {@code weight == null}: one point per row.
     *
     * @throws IllegalArgumentException when the points number more than {@link #MAX_POINTS}, or a weight is
     *     below 1
     */
    public static DuplicatePoints find(double[] rows, int n, int d, int[] weight, CancellationToken cancel) {
        if (n > MAX_POINTS) throw new IllegalArgumentException(n + " points: at most " + MAX_POINTS + " are grouped");
        long total = n;
        if (weight != null) {
            if (weight.length != n) throw new IllegalArgumentException(weight.length + " weights for " + n + " rows");
            total = 0;
            for (int w : weight) {
                if (w < 1) throw new IllegalArgumentException("weight " + w + ": every row stands for at least one point");
                total += w;
            }
            if (total > MAX_POINTS) {
                throw new IllegalArgumentException(total + " points (weights summed): at most " + MAX_POINTS + " are grouped");
            }
        }
        int cap = Integer.highestOneBit(Math.max(2, n) - 1) << 2;   // a power of two >= 2n
        int mask = cap - 1;
        int[] table = new int[cap];    // group number + 1, 0 = empty
        int[] group = new int[n];
        int[] repRow = new int[Math.max(n, 1)];
        int[] rep = new int[Math.max(n, 1)];
        int[] mult = new int[Math.max(n, 1)];
        int groups = 0;
        int point = 0;   // the first point of row i
        for (int i = 0; i < n; i++) {
            if ((i & (CHECK_EVERY - 1)) == 0) cancel.throwIfCancelled();
            int slot = hash(rows, i * d, d) & mask;
            int g;
            for (int probe = 0; ; probe++) {   // the table is at most half full: a free slot is always found
                int e = table[slot];
                if (e == 0) {
                    g = groups++;
                    table[slot] = g + 1;
                    repRow[g] = i;
                    rep[g] = point;
                    break;
                }
                if (sameRow(rows, repRow[e - 1] * d, i * d, d)) {
                    g = e - 1;
                    break;
                }
                slot = (slot + probe + 1) & mask;
            }
            group[i] = g;
            int w = weight == null ? 1 : weight[i];
            mult[g] += w;
            point += w;
        }
        return new DuplicatePoints(n, (int) total, d, rows, weight == null ? null : weight.clone(), group,
                java.util.Arrays.copyOf(repRow, groups), java.util.Arrays.copyOf(rep, groups),
                java.util.Arrays.copyOf(mult, groups));
    }

    private static int hash(double[] rows, int at, int d) {
        long h = 0x9E3779B97F4A7C15L;
        for (int j = 0; j < d; j++) {
            h = (h ^ Double.doubleToRawLongBits(rows[at + j] + 0.0)) * 0xBF58476D1CE4E5B9L;   // + 0.0: -0.0 as 0.0
            h ^= h >>> 29;
        }
        return (int) (h ^ (h >>> 32));
    }

    private static boolean sameRow(double[] rows, int a, int b, int d) {
        for (int j = 0; j < d; j++) {
            if (rows[a + j] != rows[b + j]) return false;
        }
        return true;
    }

    /** True when some points are identical (or a row weighs more than one), so that the search over distinct points is smaller. */
    public boolean collapses() {
        return representative.length < points;
    }

    /** Number of points (copies of weighted rows included). */
    public int size() {
        return points;
    }

    /** Number of distinct points (groups). */
    public int distinct() {
        return representative.length;
    }

    /** The distinct points' coordinates, row-major, in group order (the rows themselves when none repeat). */
    public double[] distinctRows() {
        if (representativeRow.length == n) return rows;
        int m = representativeRow.length;
        double[] out = new double[m * d];
        for (int g = 0; g < m; g++) System.arraycopy(rows, representativeRow[g] * d, out, g * d, d);
        return out;
    }

    /** How many points each group holds (a copy). */
    public int[] multiplicities() {
        return multiplicity.clone();
    }

    /** Each group's lowest point (a copy); without weights, its lowest row. */
    public int[] representatives() {
        return representative.clone();
    }

    /** Each row's group (a copy). */
    public int[] groups() {
        return group.clone();
    }

    /** The core distance of every point: its group's. */
    public double[] expandCore(double[] distinctCore) {
        double[] out = new double[points];
        int p = 0;
        for (int i = 0; i < n; i++) {
            int w = weight == null ? 1 : weight[i];
            double c = distinctCore[group[i]];
            for (int k = 0; k < w; k++) out[p++] = c;
        }
        return out;
    }

    /**
     * The spanning tree of all points from the tree of the distinct points (group numbers as points, in
     * {@link org.sylva.hdbscan.mst.EdgeOrder}) and the groups' core distances: that tree on representatives,
     * plus {@code (t_G, b)} of weight {@code c_G} for every point {@code b} that is not its group's
     * representative (see the class comment), in edge order.
     */
    public SpanningTree expandTree(SpanningTree distinctTree, double[] distinctCore) {
        int m = representative.length;
        if (distinctTree.points() != m) {
            throw new IllegalArgumentException("tree of " + distinctTree.points() + " points, expected " + m);
        }
        int[] attach = new int[m];
        for (int g = 0; g < m; g++) attach[g] = g;
        int[] from = new int[Math.max(points - 1, 0)];
        int[] to = new int[from.length];
        double[] w = new double[from.length];
        int e = 0;
        for (int i = 0; i < distinctTree.edges(); i++) {
            int a = distinctTree.from(i), b = distinctTree.to(i);
            int lo = Math.min(a, b), hi = Math.max(a, b);
            double wt = distinctTree.weight(i);
            if (wt == distinctCore[hi] && lo < attach[hi]) attach[hi] = lo;
            from[e] = representative[lo];
            to[e] = representative[hi];
            w[e] = wt;
            e++;
        }
        int p = 0;
        for (int i = 0; i < n; i++) {
            int g = group[i];
            int copies = weight == null ? 1 : weight[i];
            for (int k = 0; k < copies; k++, p++) {
                if (representative[g] == p) continue;
                from[e] = representative[attach[g]];
                to[e] = p;
                w[e] = distinctCore[g];
                e++;
            }
        }
        return SpanningTree.of(points, from, to, w).inEdgeOrder();
    }
}
