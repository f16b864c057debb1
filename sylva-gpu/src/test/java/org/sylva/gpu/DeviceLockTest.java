package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.sylva.progress.CancelledException;

/** The device lock belongs to sessions, not threads: closed anywhere, it frees the device. */
class DeviceLockTest {
    @Test
    void aSessionClosedOnAnotherThreadFreesTheDevice() throws Exception {
        GpuBackend b = TestDevice.openCl();
        DeviceSession opened = b.treeSession();
        Thread closer = new Thread(opened::close);
        closer.start();
        closer.join(10_000);
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<Boolean> next = other.submit(() -> {
                try (DeviceSession s = b.treeSession()) {
                    return s != null;
                }
            });
            assertTrue(next.get(30, TimeUnit.SECONDS), "a third thread gets the device");
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    void holdsCountPerThreadAndAWaiterStopsWhenInterrupted() throws Exception {
        DeviceLock lock = new DeviceLock();
        lock.acquire();
        lock.acquire();   // the holding thread may open a second session
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            Future<?> waiting = other.submit(lock::acquire);
            assertThrows(TimeoutException.class, () -> waiting.get(200, TimeUnit.MILLISECONDS), "held by this thread");
            waiting.cancel(true);   // interrupts the waiter
            java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> other.submit(() -> {
                        Thread.currentThread().interrupt();
                        lock.acquire();
                        return null;
                    }).get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause() instanceof CancelledException, e.toString());
            Thread t = new Thread(lock::release);
            t.start();
            t.join();
            assertTrue(lock.held(), "one hold left");
            lock.release();
            assertFalse(lock.held());
            assertEquals(Boolean.TRUE, other.submit(() -> {
                lock.acquire();
                lock.release();
                return true;
            }).get(10, TimeUnit.SECONDS));
            assertThrows(IllegalStateException.class, lock::release);
        } finally {
            other.shutdownNow();
        }
    }
}
