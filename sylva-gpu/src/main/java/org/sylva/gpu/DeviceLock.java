package org.sylva.gpu;

import org.sylva.progress.CancelledException;

/**
 * The lock a backend holds while a session uses its device (one session's calls at a time on its queue or
 * context). Unlike a {@code ReentrantLock} it belongs to the sessions, not to a thread: a session may be
 * closed by another thread than the one that opened it (a {@link DeviceTree} handed to a training loop),
 * and that close frees the device. The thread that holds it may open more sessions (as before), and a
 * thread waiting for it stops with {@link CancelledException} when interrupted.
 *
 * <pre>{@code
 * lock.acquire();          // in the backend, before a session is made
 * ...
 * lock.release();          // in the session's close, on any thread
 * }</pre>
 */
public final class DeviceLock {
    private Thread owner;
    private int holds;

    /** Waits until no other thread's session holds the device, then takes one hold for the calling thread. */
    public synchronized void acquire() {
        Thread me = Thread.currentThread();
        // bounded by the other sessions' lifetimes: each close notifies
        while (holds > 0 && owner != me) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CancelledException();
            }
        }
        owner = me;
        holds++;
    }

    /** Gives one hold back, from whichever thread closes the session; the last one frees the device. */
    public synchronized void release() {
        if (holds == 0) throw new IllegalStateException("device lock released more often than taken");
        if (--holds == 0) {
            owner = null;
            notifyAll();
        }
    }

    /** Whether some session holds the device. */
    public synchronized boolean held() {
        return holds > 0;
    }
}
