package org.sylva.io;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

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
    /** Told the bytes read, as {@code (stage, bytes, total)}, once per {@value #CHUNK} bytes and at the end. */
    private final ProgressListener progress;
    private final String stage;
    private final long total;
    private long bytes;
    private long nextReport = CHUNK;
    /** The last {@code done} told. */
    private long told;

    private CancellableInputStream(InputStream in, CancellationToken cancel) {
        this(in, cancel, ProgressListener.NONE, "", 0);
    }

    private CancellableInputStream(InputStream in, CancellationToken cancel, ProgressListener progress, String stage,
                                   long total) {
        this.in = Objects.requireNonNull(in, "in");
        this.cancel = Objects.requireNonNull(cancel, "cancel");
        this.progress = Objects.requireNonNull(progress, "progress");
        this.stage = stage;
        this.total = total;
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

    /**
     * {@code in} checking {@code cancel} and telling {@code progress} the bytes read of {@code total} as stage
     * {@code stage}: {@code (stage, 0, total)} at once, then about once per {@value #CHUNK} bytes, and
     * {@code (stage, total, total)} at the end of the stream ({@code total} is the stream's length, known).
     */
    public static InputStream of(InputStream in, CancellationToken cancel, ProgressListener progress, String stage,
                                 long total) {
        if (progress == ProgressListener.NONE) return of(in, cancel);
        if (total < 1) throw new IllegalArgumentException("total " + total + ": the length of the stream, >= 1");
        progress.progress(stage, 0, total);
        return new CancellableInputStream(in, cancel, progress, stage, total);
    }

    /** Counts {@code r} bytes read (or the end, {@code r < 0}) towards the progress. */
    private int counted(int r) {
        if (progress == ProgressListener.NONE) return r;
        if (r < 0) {
            if (told < total) progress.progress(stage, total, total);
            told = total;
        } else {
            bytes += r;
            if (bytes >= nextReport) {
                told = Math.min(bytes, total);
                progress.progress(stage, told, total);
                nextReport = bytes + CHUNK;
            }
        }
        return r;
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
        counted(r < 0 ? -1 : 1);
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
        return counted(r);
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
        // BufferedInputStream asks between reads: a stream the token closed fails here first
        cancel.throwIfCancelled();
        try {
            return in.available();
        } catch (IOException e) {
            throw cancelledOr(e);
        }
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
