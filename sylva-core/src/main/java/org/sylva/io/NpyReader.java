package org.sylva.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.sylva.data.InsufficientMemoryException;

/**
 * Reads one {@code .npy} array. Every claim the file makes is checked against what can be proven
 * before memory is committed: the header length is capped, and the data size implied by the shape
 * is compared with the file's size (or, for a stream of unknown length, the bytes are first read
 * into growing chunks) before the result array is allocated.
 */
final class NpyReader {
    /** Largest header accepted; NumPy itself refuses more than 10 000 characters by default. */
    static final int MAX_HEADER_BYTES = 1 << 20;
    /** The largest element count a Java array can hold on common JVMs. */
    static final long MAX_ELEMENTS = Integer.MAX_VALUE - 8;

    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final int CHUNK_BYTES = 1 << 20;

    private NpyReader() {
    }

    /**
     * @param in     positioned at the start of the file
     * @param source name for messages
     * @param size   the file's size in bytes, or -1 when unknown (a pipe or stdin)
     */
    static NpyArray read(InputStream in, String source, long size) throws IOException {
        byte[] pre = in.readNBytes(8);
        checkMagic(pre, source);
        int major = pre[6] & 0xff;
        int minor = pre[7] & 0xff;
        if ((major != 1 && major != 2 && major != 3) || minor != 0) {
            throw new NpyFormatException(source, "unsupported .npy format version " + major + "." + minor
                    + " (supported: 1.0, 2.0, 3.0)");
        }
        int lengthBytes = major == 1 ? 2 : 4;
        byte[] lb = in.readNBytes(lengthBytes);
        if (lb.length < lengthBytes) {
            throw new NpyFormatException(source, "truncated: the file ends inside the header length field");
        }
        long headerLength = (lb[0] & 0xff) | (lb[1] & 0xff) << 8;
        if (lengthBytes == 4) headerLength |= (long) (lb[2] & 0xff) << 16 | (long) (lb[3] & 0xff) << 24;
        long preamble = 8 + lengthBytes;
        if (headerLength > MAX_HEADER_BYTES) {
            throw new NpyFormatException(source, "header length " + headerLength + " bytes exceeds the limit of "
                    + MAX_HEADER_BYTES + " bytes (1 MiB)");
        }
        if (size >= 0 && headerLength > size - preamble) {
            throw new NpyFormatException(source, "truncated: the header length field says " + headerLength
                    + " bytes but only " + (size - preamble) + " bytes follow it");
        }
        // readNBytes grows its buffer as bytes arrive, so a stream cannot make us allocate the full claim.
        byte[] hb = in.readNBytes((int) headerLength);
        if (hb.length < headerLength) {
            throw new NpyFormatException(source, "truncated: the header length field says " + headerLength
                    + " bytes but the file ends after " + hb.length);
        }
        NpyHeader h = NpyHeader.parse(decodeHeader(hb, major, source), major, source);

        long dataBytes = h.dataBytes();
        String what = "shape " + PyLiteral.clip(h.shapeText()) + " of " + h.dtype().numpyName();
        if (dataBytes < 0) {
            throw new NpyFormatException(source, what + " needs more bytes than a 64-bit size can hold"
                    + " (the header lies about the shape)");
        }
        if (size >= 0) {
            long remaining = size - preamble - headerLength;
            if (dataBytes > remaining) {
                throw new NpyFormatException(source, "truncated data: " + what + " needs " + dataBytes
                        + " bytes but only " + remaining + " bytes follow the header");
            }
            if (dataBytes < remaining) {
                throw new NpyFormatException(source, (remaining - dataBytes)
                        + (remaining - dataBytes == 1 ? " unexpected byte" : " unexpected bytes") + " after the data: "
                        + what + " accounts for " + dataBytes + " bytes but " + remaining
                        + " bytes follow the header (a header that lies about the shape, or several arrays"
                        + " saved into one file)");
            }
        }
        int[] shape = checkJavaLimits(h, what, source);

        InputStream data = in;
        if (size < 0) {
            ChunkedBytes buffered;
            try {
                buffered = ChunkedBytes.read(in, dataBytes);
            } catch (OutOfMemoryError e) {
                throw outOfMemory(source, what, dataBytes);
            }
            if (buffered.total() < dataBytes) {
                throw new NpyFormatException(source, "truncated data: " + what + " needs " + dataBytes
                        + " bytes but the stream ended after " + buffered.total());
            }
            if (buffered.hasMore()) {
                throw new NpyFormatException(source, "unexpected bytes after the data: " + what + " accounts for "
                        + dataBytes + " bytes but more follow (a header that lies about the shape, or several"
                        + " arrays saved into one stream)");
            }
            data = buffered;
        }
        Object values = decode(data, h, shape, (int) h.elementCount(), source, what, dataBytes);
        if (size >= 0 && in.read() >= 0) {
            throw new NpyFormatException(source, "unexpected bytes after the data (the file grew while being read)");
        }
        NpyArray array = new NpyArray(h.dtype(), shape, values, source);
        if (h.dtype() == NpyDtype.UINT64) array.requireUint64InLongRange();
        return array;
    }

    private static void checkMagic(byte[] pre, String source) {
        if (pre.length == 0) throw new NpyFormatException(source, "empty file (0 bytes), not a .npy file");
        boolean ok = pre.length >= MAGIC.length;
        boolean prefix = true;
        for (int i = 0; i < Math.min(pre.length, MAGIC.length); i++) prefix &= pre[i] == MAGIC[i];
        ok &= prefix;
        if (!ok && prefix) {
            throw new NpyFormatException(source, "truncated: the file ends inside the .npy magic (" + pre.length
                    + (pre.length == 1 ? " byte)" : " bytes)"));
        }
        if (!ok) {
            if (pre.length >= 4 && pre[0] == 'P' && pre[1] == 'K' && pre[2] == 3 && pre[3] == 4) {
                throw new NpyFormatException(source, "this is a zip archive (an .npz file?), not a .npy file;"
                        + " extract the array first");
            }
            StringBuilder hex = new StringBuilder();
            for (int i = 0; i < Math.min(pre.length, 6); i++) hex.append(String.format("%02x ", pre[i] & 0xff));
            throw new NpyFormatException(source, "not a .npy file: it starts with bytes " + hex.toString().trim()
                    + " instead of the magic \\x93NUMPY");
        }
        if (pre.length < 8) {
            throw new NpyFormatException(source, "truncated: the file ends inside the .npy preamble ("
                    + pre.length + " bytes)");
        }
    }

    private static String decodeHeader(byte[] hb, int major, String source) {
        if (major < 3) return new String(hb, StandardCharsets.ISO_8859_1);
        try {
            CharBuffer cb = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(hb));
            return cb.toString();
        } catch (CharacterCodingException e) {
            throw new NpyFormatException(source, "version 3.0 header is not valid UTF-8");
        }
    }

    private static int[] checkJavaLimits(NpyHeader h, String what, String source) {
        if (h.elementCount() > MAX_ELEMENTS) {
            throw new NpyFormatException(source, what + " has " + h.elementCount()
                    + " elements, beyond a Java array's limit of " + MAX_ELEMENTS + " elements");
        }
        long[] shape = h.shape();
        int[] dims = new int[shape.length];
        for (int i = 0; i < shape.length; i++) {
            if (shape[i] > MAX_ELEMENTS) {
                throw new NpyFormatException(source, "dimension " + shape[i] + " of " + what
                        + " is beyond a Java array's limit of " + MAX_ELEMENTS);
            }
            dims[i] = (int) shape[i];
        }
        return dims;
    }

    private static Object decode(InputStream in, NpyHeader h, int[] shape, int count, String source, String what,
            long dataBytes) throws IOException {
        NpyDtype t = h.dtype();
        Object out;
        try {
            out = allocate(t, count);
        } catch (OutOfMemoryError e) {
            // One failed allocation leaves the heap intact: report it with the figures.
            throw outOfMemory(source, what, dataBytes);
        }
        if (count == 0) return out;
        int item = t.itemSize();
        int chunkElems = Math.min(count, CHUNK_BYTES / item);
        byte[] buf = new byte[chunkElems * item];
        ByteBuffer bb = ByteBuffer.wrap(buf).order(h.order());
        boolean scatter = h.fortranOrder() && shape.length > 1;
        FortranOdometer odo = scatter ? new FortranOdometer(shape) : null;
        int[] targets = scatter ? new int[chunkElems] : null;
        Object tmp = scatter ? allocate(t, chunkElems) : null;
        for (int done = 0; done < count; ) {
            int n = Math.min(chunkElems, count - done);
            int want = n * item;
            int got = in.readNBytes(buf, 0, want);
            if (got < want) {
                throw new NpyFormatException(source, "truncated data: " + what + " needs " + dataBytes
                        + " bytes but the file ended after " + ((long) done * item + got));
            }
            bb.clear();
            if (scatter) {
                bulk(bb, t, tmp, 0, n);
                odo.next(targets, n);
                scatterChunk(t, tmp, out, targets, n);
            } else {
                bulk(bb, t, out, done, n);
            }
            done += n;
        }
        return out;
    }

    /** The file is sound but the heap cannot hold it: the same exception a fit too large for the heap throws. */
    static InsufficientMemoryException outOfMemory(String source, String what, long bytes) {
        // the heap free for it: what is in use already (a model, another input) counts, not the maximum alone
        Runtime rt = Runtime.getRuntime();
        long used = rt.totalMemory() - rt.freeMemory();
        return new InsufficientMemoryException(source + ": " + what + " needs " + bytes + " bytes of memory, more than"
                + " the Java heap can provide (maximum heap " + rt.maxMemory() + " bytes, of which " + used
                + " in use); give the JVM more: SYLVA_JAVA_OPTS=-Xmx...");
    }

    private static Object allocate(NpyDtype t, int n) {
        return switch (t) {
            case FLOAT32 -> new float[n];
            case FLOAT64 -> new double[n];
            case INT32 -> new int[n];
            case INT64, UINT32, UINT64 -> new long[n];   // uint32 widened; uint64 checked after reading
            case INT8, UINT8, BOOL -> new byte[n];
            case FLOAT16, INT16, UINT16 -> new short[n]; // float16 kept as its bits
        };
    }

    /** Copies n elements from the buffer (in its byte order) into dst[at..at+n), normalising bools to 0/1. */
    private static void bulk(ByteBuffer bb, NpyDtype t, Object dst, int at, int n) {
        switch (t) {
            case FLOAT32 -> bb.asFloatBuffer().get((float[]) dst, at, n);
            case FLOAT64 -> bb.asDoubleBuffer().get((double[]) dst, at, n);
            case INT32 -> bb.asIntBuffer().get((int[]) dst, at, n);
            case INT64, UINT64 -> bb.asLongBuffer().get((long[]) dst, at, n);
            case UINT32 -> {
                long[] d = (long[]) dst;
                for (int i = 0; i < n; i++) d[at + i] = Integer.toUnsignedLong(bb.getInt(4 * i));
            }
            case INT8, UINT8 -> bb.get((byte[]) dst, at, n);
            case FLOAT16, INT16, UINT16 -> bb.asShortBuffer().get((short[]) dst, at, n);
            case BOOL -> {
                byte[] d = (byte[]) dst;
                bb.get(d, at, n);
                for (int i = at; i < at + n; i++) d[i] = d[i] != 0 ? (byte) 1 : (byte) 0;
            }
        }
    }

    private static void scatterChunk(NpyDtype t, Object src, Object dst, int[] targets, int n) {
        switch (t) {
            case FLOAT32 -> {
                float[] s = (float[]) src, d = (float[]) dst;
                for (int i = 0; i < n; i++) d[targets[i]] = s[i];
            }
            case FLOAT64 -> {
                double[] s = (double[]) src, d = (double[]) dst;
                for (int i = 0; i < n; i++) d[targets[i]] = s[i];
            }
            case INT32 -> {
                int[] s = (int[]) src, d = (int[]) dst;
                for (int i = 0; i < n; i++) d[targets[i]] = s[i];
            }
            case INT64, UINT32, UINT64 -> {
                long[] s = (long[]) src, d = (long[]) dst;
                for (int i = 0; i < n; i++) d[targets[i]] = s[i];
            }
            case INT8, UINT8, BOOL -> {
                byte[] s = (byte[]) src, d = (byte[]) dst;
                for (int i = 0; i < n; i++) d[targets[i]] = s[i];
            }
            case FLOAT16, INT16, UINT16 -> {
                short[] s = (short[]) src, d = (short[]) dst;
                for (int i = 0; i < n; i++) d[targets[i]] = s[i];
            }
        }
    }

    /**
     * Walks a shape in Fortran order (first index fastest) and yields the C-order offset of each
     * element, so column-major data lands directly in its row-major place without a second array.
     */
    static final class FortranOdometer {
        private final int[] shape;
        private final long[] cStride;
        private final int[] index;
        private long offset;

        FortranOdometer(int[] shape) {
            this.shape = shape;
            int r = shape.length;
            cStride = new long[r];
            index = new int[r];
            long s = 1;
            for (int a = r - 1; a >= 0; a--) {
                cStride[a] = s;
                s *= shape[a];
            }
        }

        /** Fills targets[0..n) with the C offsets of the next n elements in Fortran order. */
        void next(int[] targets, int n) {
            int r = shape.length;
            for (int i = 0; i < n; i++) {
                targets[i] = (int) offset;
                for (int a = 0; a < r; a++) {
                    index[a]++;
                    offset += cStride[a];
                    if (index[a] < shape[a]) break;
                    offset -= cStride[a] * shape[a];
                    index[a] = 0;
                }
            }
        }
    }
}
