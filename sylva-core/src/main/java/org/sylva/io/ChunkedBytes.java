package org.sylva.io;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Bytes read from a stream of unknown length, up to a stated limit, held in chunks that grow
 * geometrically (8 KiB doubling to 1 MiB). Memory held is therefore at most about twice the bytes
 * actually present, however large the limit: a stream that claims 10^12 bytes but holds 100 costs
 * 8 KiB. Read back once as an {@link InputStream}, releasing each chunk as it is consumed.
 */
final class ChunkedBytes extends InputStream {
    private static final int FIRST_CHUNK = 8 * 1024;
    private static final int MAX_CHUNK = 1 << 20;

    private final List<byte[]> chunks;
    private final long total;
    private final boolean more;
    private int chunk;
    private int offset;

    private ChunkedBytes(List<byte[]> chunks, long total, boolean more) {
        this.chunks = chunks;
        this.total = total;
        this.more = more;
    }

    /**
     * Reads up to {@code limit} bytes (fewer if the stream ends first) and then probes whether more
     * follow (one extra byte is read and dropped, so the stream is not drained: it may be endless).
     */
    static ChunkedBytes read(InputStream in, long limit) throws IOException {
        List<byte[]> chunks = new ArrayList<>();
        long total = 0;
        int size = FIRST_CHUNK;
        // Each iteration either fills a chunk or hits the end of the stream; the count of chunks is
        // bounded by limit / FIRST_CHUNK + a few doublings.
        while (total < limit) {
            int want = (int) Math.min(size, limit - total);
            byte[] c = new byte[want];
            int got = in.readNBytes(c, 0, want);
            if (got < want) {
                if (got > 0) chunks.add(java.util.Arrays.copyOf(c, got));
                total += got;
                return new ChunkedBytes(chunks, total, false);
            }
            chunks.add(c);
            total += got;
            size = Math.min(MAX_CHUNK, size * 2);
        }
        boolean more = in.read() >= 0;
        return new ChunkedBytes(chunks, total, more);
    }

    /** Bytes held (at most the limit). */
    long total() {
        return total;
    }

    /** Whether the stream had at least one byte beyond the limit. */
    boolean hasMore() {
        return more;
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) == 1 ? one[0] & 0xff : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) return 0;
        int copied = 0;
        while (copied < len && chunk < chunks.size()) {
            byte[] c = chunks.get(chunk);
            int n = Math.min(len - copied, c.length - offset);
            System.arraycopy(c, offset, b, off + copied, n);
            copied += n;
            offset += n;
            if (offset == c.length) {
                chunks.set(chunk, null); // let the consumed chunk be collected while decoding continues
                chunk++;
                offset = 0;
            }
        }
        return copied == 0 ? -1 : copied;
    }
}
