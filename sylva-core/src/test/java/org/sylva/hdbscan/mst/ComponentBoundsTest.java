package org.sylva.hdbscan.mst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The shared bounds of Borůvka's scan: lowered from many threads at once, each ends at the earliest edge
 * offered, and every (weight, endpoints) pair a reader sees without a lock is never before some edge
 * actually offered with a weight at most the one read (the soundness the scan's pruning relies on).
 */
class ComponentBoundsTest {
    @Test
    void concurrentLoweringEndsAtTheEarliestEdgeAndReadersNeverSeeAPairBeforeARealEdge() throws Exception {
        int components = 4, threads = 6, offers = 20_000;
        ComponentBounds b = new ComponentBounds(components);
        for (int c = 0; c < components; c++) b.set(c, Double.POSITIVE_INFINITY, EdgeOrder.NO_ENDPOINTS);
        // every edge offered, per component: weight -> the endpoints offered with it
        @SuppressWarnings({"unchecked", "rawtypes"})   // a generic array
        ConcurrentHashMap<Double, java.util.Set<Long>>[] offered = new ConcurrentHashMap[components];
        for (int c = 0; c < components; c++) offered[c] = new ConcurrentHashMap<>();
        AtomicReference<String> violation = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            long seed = t;
            ts[t] = Thread.ofPlatform().start(() -> {
                SplittableRandom r = new SplittableRandom(seed);
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < offers; i++) {
                    int c = r.nextInt(components);
                    if (r.nextBoolean()) {
                        // few weights, many endpoints: ties decide most offers
                        double w = 1 + r.nextInt(4);
                        long e = EdgeOrder.endpoints(r.nextInt(1000), 1000 + r.nextInt(1000));
                        offered[c].computeIfAbsent(w, x -> ConcurrentHashMap.newKeySet()).add(e);
                        b.lower(c, w, e);
                    } else {
                        double w = b.weight(c);
                        long e = b.endpoints(c);
                        if (w == Double.POSITIVE_INFINITY) continue;
                        boolean backed = false;
                        for (var entry : offered[c].entrySet()) {
                            if (entry.getKey() > w) continue;
                            for (long real : entry.getValue()) {
                                if (entry.getKey() < w || real <= e) {
                                    backed = true;
                                    break;
                                }
                            }
                            if (backed) break;
                        }
                        if (!backed) violation.compareAndSet(null, "component " + c + " read (" + w + ", " + e + ")");
                    }
                }
            });
        }
        start.countDown();
        for (Thread t : ts) t.join();
        assertEquals(null, violation.get());
        for (int c = 0; c < components; c++) {
            double minW = offered[c].keySet().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            long minE = offered[c].get(minW).stream().mapToLong(Long::longValue).min().orElseThrow();
            assertEquals(minW, b.weight(c), "component " + c);
            assertEquals(minE, b.endpoints(c), "component " + c);
        }
        assertTrue(offered[0].size() > 1);
    }
}
