package org.sylva.balltree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sylva.data.PointSet;

/** One builder (and its reused working memory) shared by many threads building different inputs at once. */
class BallTreeConcurrencyTest {
    @Test
    void concurrentBuildsOnOneBuilderEachGiveTheirSingleThreadedAnswer() throws Exception {
        int inputs = 6;
        PointSet[] pts = new PointSet[inputs];
        int[][] ids = new int[inputs][];
        BallTree[] expected = new BallTree[inputs];
        int[][] expectedPerm = new int[inputs][];
        SplittableRandom rnd = new SplittableRandom(9);
        for (int k = 0; k < inputs; k++) {
            int n = 3000 + 7919 * k;
            float[] c = new float[n * 3];
            for (int i = 0; i < c.length; i++) c[i] = (float) (k % 2 == 0 ? rnd.nextDouble() : rnd.nextInt(20));
            pts[k] = PointSet.of(n, 3, c);
            ids[k] = new int[n];
            for (int i = 0; i < n; i++) ids[k][i] = i * (k + 1) / n;
            expected[k] = new BallTreeBuilder().threads(1).build(pts[k], ids[k]);
            expectedPerm[k] = new BallTreeBuilder().threads(1).partition(pts[k], ids[k], 5);
        }
        BallTreeBuilder shared = new BallTreeBuilder().threads(2);
        ExecutorService ex = Executors.newFixedThreadPool(4);
        try {
            @SuppressWarnings({"unchecked", "rawtypes"})   // a generic array
            Future<Object[]>[] f = new Future[4 * inputs];
            for (int j = 0; j < f.length; j++) {
                int k = j % inputs;
                f[j] = ex.submit(() -> new Object[] {shared.build(pts[k], ids[k]), shared.partition(pts[k], ids[k], 5)});
            }
            for (int j = 0; j < f.length; j++) {
                Object[] r = f[j].get(60, TimeUnit.SECONDS);
                int k = j % inputs;
                BallTree t = (BallTree) r[0];
                assertArrayEquals(expected[k].indices(), t.indices(), "input " + k);
                assertArrayEquals(expected[k].mask(), t.mask(), "input " + k);
                assertArrayEquals(expectedPerm[k], (int[]) r[1], "input " + k);
            }
        } finally {
            ex.shutdownNow();
        }
    }
}
