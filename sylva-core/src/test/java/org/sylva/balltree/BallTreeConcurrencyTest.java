package org.sylva.balltree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.sylva.balltree.layout.BatchLayout;
import org.sylva.data.PointSet;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

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

    @Test
    void threadsSharingOneBuilderEachFollowAndCancelTheirOwnBuild() throws Exception {
        int n = 60_000;
        PointSet p = BallTreeDeterminismTest.points(n, 3, false, 5);
        BatchLayout one = BatchLayout.single(n);
        BallTree expected = new BallTreeBuilder().threads(1).build(p);
        int[] expectedPerm = new BallTreeBuilder().threads(1).partition(p, 4);
        // the builder's own token is cancelled and its listener fails: a call's own pair replaces both
        CancellationToken builderToken = new CancellationToken();
        builderToken.cancel();
        BallTreeBuilder shared = new BallTreeBuilder().threads(2).cancellation(builderToken)
                .progress((stage, done, total) -> { throw new AssertionError("the builder's listener was called"); });
        ExecutorService ex = Executors.newFixedThreadPool(2);
        try {
            CancellationToken mine = new CancellationToken();
            Future<BallTree> cancelled = ex.submit(() -> shared.build(p, one, (stage, done, total) -> mine.cancel(), mine));
            AtomicLong last = new AtomicLong();
            ProgressListener counting = (stage, done, total) -> {
                assertEquals(n, total);
                last.accumulateAndGet(done, Math::max);
            };
            Future<BallTree> built = ex.submit(() -> shared.build(p, one, counting, null));
            assertEquals(expected, built.get(60, TimeUnit.SECONDS));
            assertEquals(n, last.get(), "this build's own listener saw it to the end");
            ExecutionException e = assertThrows(ExecutionException.class, () -> cancelled.get(60, TimeUnit.SECONDS));
            assertInstanceOf(CancelledException.class, e.getCause());

            last.set(0);
            assertArrayEquals(expectedPerm, ex.submit(() -> shared.partition(p, one, 4, counting, CancellationToken.NEVER))
                    .get(60, TimeUnit.SECONDS));
            assertEquals(n, last.get());
            assertThrows(CancelledException.class, () -> shared.partition(p, one, 4, null, mine));
            assertThrows(CancelledException.class, () -> shared.progress(null).build(p),
                    "the builder's own token still serves build(p)");
        } finally {
            ex.shutdownNow();
        }
    }
}
