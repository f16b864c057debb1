package org.sylva.progress;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The stop flag: once set it stays set, its actions run once, NEVER never stops, polled conditions count. */
class CancellationTokenTest {
    @Test
    void cancelSetsTheFlagForGoodAndRunsEachActionOnce() throws Exception {
        CancellationToken t = new CancellationToken();
        AtomicInteger runs = new AtomicInteger();
        AutoCloseable handle = t.whenCancelled(runs::incrementAndGet);
        assertFalse(t.isCancelled());
        assertDoesNotThrow(t::throwIfCancelled);
        t.cancel();
        t.cancel();
        assertTrue(t.isCancelled());
        assertThrows(CancelledException.class, t::throwIfCancelled);
        assertEquals(1, runs.get());
        handle.close();
        // registered after the cancel: runs at once
        t.whenCancelled(runs::incrementAndGet).close();
        assertEquals(2, runs.get());
    }

    @Test
    void aClosedHandleUnregistersItsActionAndAFailingActionStopsNoOther() throws Exception {
        CancellationToken t = new CancellationToken();
        AtomicBoolean unregistered = new AtomicBoolean();
        AtomicBoolean after = new AtomicBoolean();
        t.whenCancelled(() -> unregistered.set(true)).close();
        t.whenCancelled(() -> { throw new IllegalStateException("already closed"); });
        t.whenCancelled(() -> after.set(true));
        t.cancel();
        assertFalse(unregistered.get());
        assertTrue(after.get());
    }

    @Test
    void neverIsNeverCancelled() {
        AtomicBoolean ran = new AtomicBoolean();
        CancellationToken.NEVER.whenCancelled(() -> ran.set(true));
        CancellationToken.NEVER.cancel();
        assertFalse(CancellationToken.NEVER.isCancelled());
        assertFalse(ran.get());
    }

    @Test
    void aPolledConditionCancelsAndStaysCancelled() {
        AtomicBoolean stop = new AtomicBoolean();
        CancellationToken t = CancellationToken.polling(stop::get);
        assertFalse(t.isCancelled());
        stop.set(true);
        assertTrue(t.isCancelled());
        stop.set(false);
        assertTrue(t.isCancelled(), "a stop once seen is kept");
        assertThrows(CancelledException.class, t::throwIfCancelled);
    }
}
