package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The hook's account of where Sylva's threads are ({@link PhaseTrace#printWhere}). */
class PhaseTraceTest {

    @Test
    void namesTheLoopAThreadIsStuckIn() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread stuck = new Thread(() -> stuckIn(inside, release), "stuck-worker");
        stuck.start();
        try {
            assertTrue(inside.await(10, TimeUnit.SECONDS));
            StringWriter out = new StringWriter();
            PhaseTrace.printWhere(new PrintWriter(out, true));
            List<String> lines = out.toString().lines().filter(l -> l.startsWith("sylva: at stuck-worker: ")).toList();
            assertEquals(1, lines.size(), out.toString());
            String line = lines.get(0);
            // the innermost JDK frame first (where it waits), then Sylva's frames innermost first, package dropped
            assertTrue(line.startsWith("sylva: at stuck-worker: jdk.internal.misc.Unsafe.park"), line);
            int stuckAt = line.indexOf("cli.PhaseTraceTest.stuckIn:");
            int caller = line.indexOf("cli.PhaseTraceTest.lambda$");
            assertTrue(stuckAt > 0 && caller > stuckAt, line);
            assertTrue(!line.contains("org.sylva."), line);
            // the thread that asks is left out; threads with no Sylva frame print nothing
            assertTrue(out.toString().lines().noneMatch(l -> l.startsWith("sylva: at " + Thread.currentThread().getName() + ":")),
                    out.toString());
            assertTrue(out.toString().lines().noneMatch(l -> l.startsWith("sylva: at Reference Handler")), out.toString());
        } finally {
            release.countDown();
            stuck.join(10_000);
        }
    }

    @Test
    void printsNothingUnlessTracing() {
        StringWriter out = new StringWriter();
        PhaseTrace.whereStuck(new PrintWriter(out, true));
        assertEquals(PhaseTrace.ON ? out.toString() : "", out.toString());
    }

    private static void stuckIn(CountDownLatch inside, CountDownLatch release) {
        inside.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
