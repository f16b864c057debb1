package org.sylva.hdbscan.mst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.core.NearestSlice;
import org.sylva.hdbscan.index.PointIndex;
import org.sylva.kernels.DistanceKernel;
import org.sylva.kernels.KernelProvider;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The stages split into leaf slices, as a distributed engine runs them (each slice with its own scanner,
 * as on separate executors), give bitwise the CPU engine's core distances and tree for any split.
 */
class DistributedBoruvkaTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 50})
    void clipLikeDataSplitAnyWayGivesTheSameStages(int slices) {
        int n = 3000;
        double[] rows = ClipLikeData.toDouble(ClipLikeData.withDuplicates(ClipLikeData.generate(n, 11), n,
                ClipLikeData.D, 0.05, 12));
        check(rows, n, ClipLikeData.D, 10, 1.0, slices, KernelProvider.get().scalarDistance());
        // the best kernel: the float32 pre-filtered search of a slice where the vector kernels run
        check(rows, n, ClipLikeData.D, 10, 1.0, slices, KernelProvider.get().bestDistance());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 7})
    void gridDataWithMassiveTiesGivesTheSameStages(int slices) {
        int n = 1500;
        int d = 2;
        Random rnd = new Random(5);
        double[] rows = new double[n * d];
        for (int i = 0; i < rows.length; i++) rows[i] = rnd.nextInt(12);
        for (DistanceKernel kernel : new DistanceKernel[] {KernelProvider.get().scalarDistance(),
                KernelProvider.get().bestDistance()}) {
            check(rows, n, d, 5, 1.0, slices, kernel);
            check(rows, n, d, 5, 0.7, slices, kernel);
        }
    }

    /** Binary vectors: weights take a handful of values, so the bounds' endpoints do most of the pruning. */
    @ParameterizedTest
    @ValueSource(ints = {1, 3, 7})
    void binaryVectorsTieEverywhereAndGiveTheSameStages(int slices) {
        int n = 2000;
        int d = 24;
        Random rnd = new Random(8);
        double[] rows = new double[n * d];
        for (int i = 0; i < rows.length; i++) rows[i] = rnd.nextInt(2);
        for (DistanceKernel kernel : new DistanceKernel[] {KernelProvider.get().scalarDistance(),
                KernelProvider.get().bestDistance()}) {
            check(rows, n, d, 10, 1.0, slices, kernel);
        }
    }

    private static void check(double[] rows, int n, int d, int minSamples, double alpha, int slices,
                              DistanceKernel kernel) {
        PointIndex index = PointIndex.build(rows, n, d, kernel);
        CoreDistances local = CoreDistances.compute(index, minSamples, KernelProvider.get().scalarDistance(), 1,
                ProgressListener.NONE,
                CancellationToken.NEVER);
        SpanningTree localTree = BoruvkaMst.builder().alpha(alpha).backend(kernel).build()
                .compute(index, local, ProgressListener.NONE, CancellationToken.NEVER);

        int leaves = index.leaves();
        int parts = Math.min(slices, leaves);
        List<NearestSlice> lists = new ArrayList<>();
        for (int s = 0; s < parts; s++) {
            lists.add(CoreDistances.slice(index, minSamples, kernel, from(s, parts, leaves), from(s + 1, parts, leaves),
                    1, CancellationToken.NEVER));
        }
        CoreDistances assembled = CoreDistances.fromSlices(n, minSamples, lists);
        assertArrayEquals(local.coreDistances(), assembled.coreDistances());
        assertArrayEquals(local.neighbours(), assembled.neighbours());
        assertArrayEquals(local.neighbourDistances(), assembled.neighbourDistances());

        BoruvkaSliceScan[] scanners = new BoruvkaSliceScan[parts];
        for (int s = 0; s < parts; s++) {
            // each "executor" builds its own index, as a task does from the broadcast rows
            PointIndex own = PointIndex.build(rows, n, d, kernel);
            scanners[s] = new BoruvkaSliceScan(own, assembled.coreDistances(), kernel, alpha, 1);
        }
        DistributedBoruvka owner = new DistributedBoruvka(assembled, alpha);
        for (int guard = 0; guard < 64 && owner.componentsLeft() > 1; guard++) {
            BoruvkaRoundState state = owner.startRound();
            for (int s = parts - 1; s >= 0; s--) {   // any order
                owner.offer(scanners[s].scan(state, from(s, parts, leaves), from(s + 1, parts, leaves),
                        CancellationToken.NEVER));
            }
            owner.endRound();
        }
        SpanningTree tree = owner.tree();
        assertEquals(localTree, tree);
        assertArrayEquals(localTree.fromArray(), tree.fromArray());
        assertArrayEquals(localTree.toArray(), tree.toArray());
        assertArrayEquals(localTree.weightArray(), tree.weightArray());
    }

    private static int from(int s, int parts, int leaves) {
        return (int) ((long) s * leaves / parts);
    }
}
