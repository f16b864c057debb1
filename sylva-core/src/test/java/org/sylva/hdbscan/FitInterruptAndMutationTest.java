package org.sylva.hdbscan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.data.InvalidInputException;
import org.sylva.demo.ClipLikeData;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.CancelledException;
import org.sylva.progress.ProgressListener;

/**
 * The library's own exceptions where a fit is disturbed from outside: an interrupted thread ends its fit
 * with {@link CancelledException} (not an internal {@code IllegalStateException}), a float64 array that
 * changes during the fit is an {@link InvalidInputException} saying so, and a thread count no Java pool
 * can take is refused up front, naming {@code threads}.
 */
class FitInterruptAndMutationTest {
    static final ClipLikeData DATA = ClipLikeData.generate(3_000, 5);

    static double[] float64() {
        float[] c = DATA.points().coordinates();
        double[] x = new double[c.length];
        for (int i = 0; i < c.length; i++) x[i] = c[i];
        return x;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void interruptingTheFittingThreadEndsTheFitWithCancelledException(int threads) {
        Thread fitter = Thread.currentThread();
        AtomicBoolean sent = new AtomicBoolean();
        // the first progress report (from a worker or from this thread) interrupts the fitting thread
        ProgressListener interrupt = (stage, done, total) -> {
            if (sent.compareAndSet(false, true)) fitter.interrupt();
        };
        Hdbscan h = Hdbscan.builder().minClusterSize(20).threads(threads).build();
        try {
            assertThrows(CancelledException.class, () -> h.fit(float64(), DATA.points().size(), ClipLikeData.SAMPLES,
                    interrupt, CancellationToken.NEVER));
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status stays set for the caller");
        } finally {
            Thread.interrupted();   // clear it for the next test
        }
        assertTrue(sent.get());
        // the float32 path too, and a thread interrupted before it starts
        Thread.currentThread().interrupt();
        try {
            assertThrows(CancelledException.class, () -> h.fit(DATA.points(), ProgressListener.NONE,
                    CancellationToken.NEVER));
        } finally {
            Thread.interrupted();
        }
        assertEquals(20, h.fit(DATA.points()).parameters().minClusterSize(), "an uninterrupted fit still runs");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aFloat64ArrayChangedDuringTheFitIsAnInvalidInputException(int threads) {
        double[] x = float64();
        AtomicBoolean changed = new AtomicBoolean();
        // another party writes into the caller's array while the fit reads it (here: at the first report)
        ProgressListener scribble = (stage, done, total) -> {
            if (changed.compareAndSet(false, true)) {
                for (int i = 0; i < x.length; i += 7) x[i] = -x[i] * 3 + 1;
            }
        };
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> Hdbscan.builder()
                .minClusterSize(20).threads(threads).build()
                .fit(x, DATA.points().size(), ClipLikeData.SAMPLES, scribble, CancellationToken.NEVER));
        assertTrue(e.getMessage().contains("changed during the fit"), e.getMessage());
        assertTrue(changed.get());
    }

    @Test
    void threadCountsBeyondWhatAJavaPoolTakesAreRefusedNamingThreads() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> Hdbscan.builder().threads(40_000).build());
        assertEquals(Optional.of("threads"), e.parameter());
        assertTrue(e.getMessage().contains("at most 32767") && e.getMessage().contains("40000"), e.getMessage());
        assertEquals(32_767, Hdbscan.builder().threads(32_767).build().threads(), "the limit itself is accepted");
        InvalidInputException b = assertThrows(InvalidInputException.class, () -> new BallTreeBuilder().threads(32_768));
        assertEquals(Optional.of("threads"), b.parameter());
    }

    /**
     * DBCV (O(m^2) per cluster, on the calling thread) stops as a fit does: on an interrupt of that thread, its
     * status kept, and on the token of its cancellable variant; untouched, both give the same figure.
     */
    @Test
    void theValidityIndexStopsOnAnInterruptOrItsToken() {
        org.sylva.data.PointSet pts = ClipLikeData.generate(600, 3).points();
        HdbscanResult r = Hdbscan.builder().minClusterSize(20).build().fit(pts);
        assertTrue(r.clusterCount() > 0);
        assertEquals(r.validityIndex(pts), r.validityIndex(pts, new CancellationToken()));
        Thread.currentThread().interrupt();
        try {
            assertThrows(CancelledException.class, () -> r.validityIndex(pts));
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status stays set for the caller");
        } finally {
            Thread.interrupted();
        }
        CancellationToken cancelled = new CancellationToken();
        cancelled.cancel();
        assertThrows(CancelledException.class, () -> r.validityIndex(pts, cancelled));
    }
}
