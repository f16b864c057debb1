package org.sylva.io;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import org.sylva.progress.CancellationToken;

/**
 * An input stream that checks a {@link CancellationToken} before every read and hands out at most
 * {@value #CHUNK} bytes per read, so that reading and parsing a large input (each reader pulls its bytes
 * through here in small pieces) notices Ctrl-C after one short read, not after the whole file. A read that blocks (an
 * idle pipe or FIFO) is ended by cancelling: the token closes the underlying stream, which for a stream
 * over a channel ({@code Files.newInputStream}) wakes the blocked read; that read then throws
 * {@link org.sylva.progress.CancelledException} too.
 *
 * <pre>{@code
 * try (InputStream in = CancellableInputStream.of(Files.newInputStream(path), token)) {
 *     NpyArray a = Npy.read(in, path.toString());
 * }
 * }</pre>
 */
public final class CancellableInputStream extends InputStream {
    /** The most bytes one read hands out: bounds the work between two checks. */
    static final int CHUNK = 1 << 20;

    private final InputStream in;
    private final CancellationToken cancel;
    /** Closes {@link #in} when the token is cancelled, until this stream is closed. */
    private final AutoCloseable closer;

    private CancellableInputStream(InputStream in, CancellationToken cancel) {
        this.in = Objects.requireNonNull(in, "in");
        this.cancel = Objects.requireNonNull(cancel, "cancel");
        this.closer = cancel.whenCancelled(() -> {
            try {
                in.close();
            } catch (IOException ignored) {
                // closing is how a blocked read is woken; a failure leaves it to the next check
            }
        });
    }

    /** {@code in} checking {@code cancel}; {@code in} itself when the token can never be cancelled. */
    public static InputStream of(InputStream in, CancellationToken cancel) {
        return cancel == CancellationToken.NEVER ? in : new CancellableInputStream(in, cancel);
    }

    @Override
    public int read() throws IOException {
        cancel.throwIfCancelled();
        int r;
        try {
            r = in.read();
        } catch (IOException e) {
            throw cancelledOr(e);
        }
        if (r < 0) cancel.throwIfCancelled();   // a stream the token closed may just look ended
        return r;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        cancel.throwIfCancelled();
        int r;
        try {
            r = in.read(b, off, Math.min(len, CHUNK));
        } catch (IOException e) {
            throw cancelledOr(e);
        }
        if (r < 0) cancel.throwIfCancelled();   // a stream the token closed may just look ended
        return r;
    }

    @Override
    public long skip(long n) throws IOException {
        cancel.throwIfCancelled();
        try {
            return in.skip(Math.min(n, CHUNK));
        } catch (IOException e) {
            throw cancelledOr(e);
        }
    }

    /** A read failed: because the token closed the stream (then the cancellation), or for its own reason. */
    private IOException cancelledOr(IOException e) {
        cancel.throwIfCancelled();
        return e;
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    @Override
    public void close() throws IOException {
        try {
            closer.close();
        } catch (Exception ignored) {
            // unregistering cannot fail
        }
        in.close();
    }
}
