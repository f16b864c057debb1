package org.sylva.io;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import org.sylva.progress.CancellationToken;

/**
 * An input stream that checks a {@link CancellationToken} before every read and hands out at most
 * {@value #CHUNK} bytes per read, so that reading and parsing a large input (each reader pulls its bytes
 * through here in small pieces) notices Ctrl-C within milliseconds, not after the whole file: a read of
 * 1 MiB takes about a millisecond from the page cache and some ten from a disk. A read that blocks (an
 * idle pipe) is not interrupted; the next one is refused. Thrown: {@link
 * org.sylva.progress.CancelledException}.
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

    private CancellableInputStream(InputStream in, CancellationToken cancel) {
        this.in = Objects.requireNonNull(in, "in");
        this.cancel = Objects.requireNonNull(cancel, "cancel");
    }

    /** {@code in} checking {@code cancel}; {@code in} itself when the token can never be cancelled. */
    public static InputStream of(InputStream in, CancellationToken cancel) {
        return cancel == CancellationToken.NEVER ? in : new CancellableInputStream(in, cancel);
    }

    @Override
    public int read() throws IOException {
        cancel.throwIfCancelled();
        return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        cancel.throwIfCancelled();
        return in.read(b, off, Math.min(len, CHUNK));
    }

    @Override
    public long skip(long n) throws IOException {
        cancel.throwIfCancelled();
        return in.skip(Math.min(n, CHUNK));
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
