package org.sylva.balltree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.sylva.data.PointSet;

/**
 * Properties over random inputs, including heavy duplicates, all-equal points, mixed signed zeros and
 * many batches: the rules of the issue hold ({@link TreeRules}), the tree equals the naive sort-based
 * model exactly, and so does the partition; and neither depends on the thread count.
 */
class BallTreePropertiesTest {

    /** One random input: points, batch sizes and a generator note for failure messages. */
    record Case(int n, int d, float[] x, int[] sizes, String kind) {
        int[] ids() {
            int[] ids = new int[n];
            int p = 0;
            for (int b = 0; b < sizes.length; b++) for (int i = 0; i < sizes[b]; i++) ids[p++] = b;
            return ids;
        }

        int[] offsets() {
            int[] o = new int[sizes.length + 1];
            for (int b = 0; b < sizes.length; b++) o[b + 1] = o[b] + sizes[b];
            return o;
        }

        @Override
        public String toString() {
            return kind + " n=" + n + " d=" + d + " batches=" + Arrays.toString(sizes);
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<Integer> dims = Arbitraries.integers().between(1, 5);
        Arbitrary<List<Integer>> sizes = Arbitraries.integers().between(1, 90).list().ofMinSize(1).ofMaxSize(5);
        Arbitrary<Integer> kinds = Arbitraries.integers().between(0, 4);
        Arbitrary<Long> seeds = Arbitraries.longs();
        return Combinators.combine(dims, sizes, kinds, seeds).as((d, sz, kind, seed) -> make(d, sz, kind, seed));
    }

    /** kind 0: uniform floats; 1: small integer grid (heavy duplicates); 2: all equal; 3: signed zeros and ones; 4: wide range. */
    static Case make(int d, List<Integer> sz, int kind, long seed) {
        int[] sizes = sz.stream().mapToInt(Integer::intValue).toArray();
        int n = Arrays.stream(sizes).sum();
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        float[] x = new float[n * d];
        for (int i = 0; i < x.length; i++) {
            x[i] = switch (kind) {
                case 0 -> (float) r.nextDouble();
                case 1 -> (float) r.nextInt(3);
                case 2 -> 0.25f;
                case 3 -> new float[] {0.0f, -0.0f, 1.0f, -1.0f}[r.nextInt(4)];
                default -> (float) ((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(-30, 30)));
            };
        }
        return new Case(n, d, x, sizes, new String[] {"uniform", "grid", "all-equal", "zeros", "wide"}[kind]);
    }

    @Property(tries = 300)
    void treeFollowsTheRulesAndTheModel(@ForAll("cases") Case c) {
        BallTree t = new BallTreeBuilder().threads(1).build(PointSet.of(c.n(), c.d(), c.x()), c.ids());
        List<String> fails = TreeRules.check(c.x(), c.d(), c.offsets(), t.indices(), t.maskBytes());
        assertTrue(fails.isEmpty(), c + ": " + fails);
        NaiveModel.Tree naive = NaiveModel.tree(c.x(), c.d(), c.offsets());
        assertArrayEquals(naive.idx(), t.indices(), c.toString());
        assertArrayEquals(naive.mask(), t.maskBytes(), c.toString());
    }

    @Property(tries = 200)
    void partitionMatchesTheModel(@ForAll("cases") Case c, @ForAll @IntRange(min = 0, max = 9) int level) {
        int[] perm = new BallTreeBuilder().threads(1).partition(PointSet.of(c.n(), c.d(), c.x()), c.ids(), level);
        assertArrayEquals(NaiveModel.partition(c.x(), c.d(), c.offsets(), level), perm, c + " level " + level);
    }

    @Property(tries = 40)
    void threadCountDoesNotMatter(@ForAll("larger") Case c) {
        PointSet pts = PointSet.of(c.n(), c.d(), c.x());
        BallTree one = new BallTreeBuilder().threads(1).build(pts, c.ids());
        assertEquals(one, new BallTreeBuilder().threads(2).build(pts, c.ids()), c.toString());
        assertEquals(one, new BallTreeBuilder().threads(8).build(pts, c.ids()), c.toString());
        assertTrue(TreeRules.check(c.x(), c.d(), c.offsets(), one.indices(), one.maskBytes()).isEmpty(), c.toString());
        int[] p1 = new BallTreeBuilder().threads(1).partition(pts, c.ids(), 5);
        assertArrayEquals(p1, new BallTreeBuilder().threads(8).partition(pts, c.ids(), 5));
    }

    /** Inputs large enough for forked subtrees (above the 1024-point task size). */
    @Provide
    Arbitrary<Case> larger() {
        Arbitrary<Integer> dims = Arbitraries.integers().between(1, 4);
        Arbitrary<List<Integer>> sizes = Arbitraries.integers().between(1, 6000).list().ofMinSize(1).ofMaxSize(3);
        Arbitrary<Integer> kinds = Arbitraries.integers().between(0, 4);
        Arbitrary<Long> seeds = Arbitraries.longs();
        return Combinators.combine(dims, sizes, kinds, seeds).as((d, sz, kind, seed) -> make(d, sz, kind, seed));
    }
}
