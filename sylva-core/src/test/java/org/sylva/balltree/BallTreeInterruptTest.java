package org.sylva.balltree;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.sylva.data.PointSet;
import org.sylva.progress.CancelledException;

/** Interrupting the thread that builds a ball tree stops the build with the library's exception. */
class BallTreeInterruptTest {
    @Test
    void anInterruptedBuildEndsWithCancelledExceptionAndKeepsTheFlag() throws Exception {
        int n = 1 << 22;
        float[] c = new float[n * 3];
        Random r = new Random(4);
        for (int i = 0; i < c.length; i++) c[i] = r.nextFloat();
        PointSet points = PointSet.of(n, 3, c);
        BallTreeBuilder builder = new BallTreeBuilder().threads(2).vectorKernels(false);
        AtomicBoolean flagKept = new AtomicBoolean();
        CompletableFuture<Class<?>> outcome = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                // repeat so that the interrupt surely lands inside a build, whatever this machine's speed
                for (int i = 0; i < 50; i++) builder.build(points);
                outcome.complete(Void.class);
            } catch (Throwable e) {
                flagKept.set(Thread.currentThread().isInterrupted());
                outcome.complete(e.getClass());
            }
        });
        Thread.sleep(300);
        long t0 = System.nanoTime();
        t.interrupt();
        Class<?> thrown = outcome.get(30, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(thrown == CancelledException.class, "the build ended with " + thrown);
        assertTrue(flagKept.get(), "the thread's interrupt status is kept");
        assertTrue(seconds < 5, "stopped " + seconds + " s after the interrupt");
    }
}
