package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.core.CoreDistances;
import org.sylva.hdbscan.mst.DistributedBoruvka;
import org.sylva.hdbscan.mst.OracleData;

/**
 * The executors' cache of a fit's index and scanners, called as a task would call it (outside Spark): it is
 * dropped when the fit is released, and a task of a released fit that runs late (one being killed) leaves
 * nothing behind.
 */
class ExecutorTasksTest {
    private static final int MIN_SAMPLES = 5;

    @Test
    void aReleasedFitLeavesNothingCachedEvenWhenOneOfItsTasksRunsAfter() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs500_X.npy"));
        FitData data = new FitData(UUID.randomUUID().toString(), x.values(), x.rows(), x.cols());
        try {
            TaskResults.Lists lists = ExecutorTasks.nearest(data, MIN_SAMPLES, 0, 1);
            CoreDistances cd = CoreDistances.fromSlices(data.n(), MIN_SAMPLES, List.of(lists.slice()));
            DistributedBoruvka owner = new DistributedBoruvka(cd, 1.0);
            RoundMessage round = RoundMessage.of(1, owner.startRound());
            ExecutorTasks.scan(data, cd.coreDistances(), 1.0, round, 0, 1);
            assertTrue(ExecutorTasks.holdsIndex(), "the fit's index and a scanner are kept for its later rounds");

            assertTrue(ExecutorTasks.release(data.fitId()));
            assertFalse(ExecutorTasks.holdsIndex(), "released");

            // late tasks of the released fit: they compute what they would have, and cache nothing
            TaskResults.Lists late = ExecutorTasks.nearest(data, MIN_SAMPLES, 0, 1);
            assertEquals(lists.payloadBytes(), late.payloadBytes());
            ExecutorTasks.scan(data, cd.coreDistances(), 1.0, round, 0, 1);
            assertFalse(ExecutorTasks.holdsIndex(), "a late task of a released fit caches nothing");
        } finally {
            ExecutorTasks.release(data.fitId());
        }
    }

    @Test
    void anotherFitAfterARelease() {
        OracleData.Array x = OracleData.read(OracleData.dir().resolve("blobs500_X.npy"));
        FitData first = new FitData(UUID.randomUUID().toString(), x.values(), x.rows(), x.cols());
        FitData second = new FitData(UUID.randomUUID().toString(), x.values(), x.rows(), x.cols());
        try {
            ExecutorTasks.nearest(first, MIN_SAMPLES, 0, 2);
            ExecutorTasks.release(first.fitId());
            ExecutorTasks.nearest(second, MIN_SAMPLES, 1, 2);
            assertTrue(ExecutorTasks.holdsIndex(), "a fit not released caches its index");
            assertFalse(ExecutorTasks.release(first.fitId()), "releasing another fit keeps it");
            assertTrue(ExecutorTasks.holdsIndex());
        } finally {
            ExecutorTasks.release(second.fitId());
        }
    }
}
