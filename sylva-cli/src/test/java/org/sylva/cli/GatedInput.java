package org.sylva.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Standard input for an in-process run that blocks at its first read until the test opens it: the run
 * has claimed its output folder by then (locked, targets checked) and has not fitted yet, so a test can
 * act in between (start a second run, put a FIFO where the report goes).
 *
 * <pre>{@code
 * GatedInput stdin = new GatedInput(bytes);
 * ... start Main.run(..., stdin) in a thread; stdin.reading.await(); act; stdin.open.countDown();
 * }</pre>
 */
final class GatedInput extends InputStream {
    /** Counted down at the run's first read. */
    final CountDownLatch reading = new CountDownLatch(1);
    /** Counted down by the test to let the run read on. */
    final CountDownLatch open = new CountDownLatch(1);
    private final InputStream data;

    GatedInput(byte[] bytes) {
        data = new ByteArrayInputStream(bytes);
    }

    private void gate() throws IOException {
        reading.countDown();
        try {
            if (!open.await(60, TimeUnit.SECONDS)) throw new IOException("the test never opened the input");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    @Override
    public int read() throws IOException {
        gate();
        return data.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        gate();
        return data.read(b, off, len);
    }
}
