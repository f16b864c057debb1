package org.sylva.cli.serve;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads {@link Frame}s from a byte stream (the layout is in {@code docs/engine-protocol.md}). Every
 * length is checked against {@link FrameLimits} before anything is allocated; a frame that breaks a
 * bound, or whose arrays do not fit in the heap, is read to its end without being kept and reported
 * as a {@link RefusedFrameException}, so the stream stays in step. Bytes that cannot be a frame end
 * the conversation with a {@link ProtocolException}. Not thread-safe: one reader per stream.
 *
 * <pre>{@code
 * FrameReader in = new FrameReader(System.in, FrameLimits.defaults());
 * Frame f = in.read();   // null at the end of the stream
 * }</pre>
 */
public final class FrameReader {
    /** The four bytes every frame starts with: "SYLV". */
    static final byte[] MAGIC = {'S', 'Y', 'L', 'V'};
    /** Payloads are converted through a buffer of this size, never copied whole. */
    static final int CHUNK = 1 << 16;

    private final InputStream in;
    private final FrameLimits limits;
    private final byte[] chunk = new byte[CHUNK];
    private final ByteBuffer chunkLe = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN);

    public FrameReader(InputStream in, FrameLimits limits) {
        this.in = Objects.requireNonNull(in, "in");
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /**
     * The next frame, or null when the stream ends between frames.
     *
     * @throws RefusedFrameException the frame broke a bound or did not fit in memory; it has been skipped
     * @throws ProtocolException     the bytes are not a frame; the stream cannot be read any further
     */
    public Frame read() throws IOException, RefusedFrameException {
        return read(null);
    }

    /**
     * As {@link #read()}, refusing every frame but a {@code cancel} with what {@code busy} says once the frame's kind
     * is read (null: no refusal; asked then, not before the frame arrives, so that it speaks of that moment): its
     * arrays are skipped unread into memory, the stream stays in step, and the refusal carries the frame's {@code id}.
     */
    public Frame read(java.util.function.Supplier<String> busy) throws IOException, RefusedFrameException {
        int first = in.read();
        if (first < 0) return null;
        byte[] magic = new byte[MAGIC.length];
        magic[0] = (byte) first;
        readFully(magic, 1, MAGIC.length - 1, "the frame's magic");
        for (int k = 0; k < MAGIC.length; k++) {
            if (magic[k] != MAGIC[k]) {
                throw new ProtocolException("a frame must start with \"SYLV\"; got bytes " + hex(magic));
            }
        }
        String kind = ascii(readU8("the kind's length"), "the kind");
        String refusal = kind.isEmpty() || kind.length() > FrameLimits.MAX_KIND_BYTES
                ? "a frame's kind must have 1 to " + FrameLimits.MAX_KIND_BYTES + " bytes; got " + kind.length()
                : !isAscii(kind) ? "a frame's kind must be ASCII; got " + shown(kind)
                : busy != null && !kind.equals("cancel") ? busy.get() : null;
        long jsonLength = readU32("the parameters' length");
        Map<String, Object> params = Map.of();
        if (jsonLength > limits.maxJsonBytes()) {
            refusal = first(refusal, "the parameters of '" + kind + "' have " + jsonLength + " bytes; at most "
                    + limits.maxJsonBytes() + " are accepted");
            skip(jsonLength, "the parameters");
        } else if (jsonLength > 0) {
            byte[] json = new byte[(int) jsonLength];
            readFully(json, 0, json.length, "the parameters");
            try {
                params = parameters(StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(json)).toString());
            } catch (java.nio.charset.CharacterCodingException e) {
                refusal = first(refusal, "the parameters of '" + kind + "' are not UTF-8 text");
            } catch (IllegalArgumentException e) {
                refusal = first(refusal, e.getMessage());
            }
        }
        int count = readU8("the number of arrays");
        if (count > limits.maxArrays()) {
            refusal = first(refusal, "'" + kind + "' has " + count + " arrays; at most " + limits.maxArrays()
                    + " are accepted");
        }
        List<WireArray> arrays = new ArrayList<>(count);
        long frameBytes = 0;
        boolean outOfMemory = false;
        for (int a = 0; a < count; a++) {
            String name = ascii(readU8("an array's name length"), "an array's name");
            String dtypeName = ascii(readU8("an array's dtype length"), "an array's dtype");
            WireDtype dtype = WireDtype.parse(dtypeName);
            if (dtype == null) {
                // without the element size the payload's length is unknown: the stream is lost
                throw new ProtocolException("array '" + name + "' has dtype '" + dtypeName
                        + "'; the protocol knows <f4, <f8, <i4, <i8, |b1 and |u1");
            }
            int ndim = readU8("an array's number of dimensions");
            long[] shape = new long[ndim];
            boolean empty = false, huge = false;
            for (int k = 0; k < ndim; k++) {
                shape[k] = readU64("a dimension of '" + name + "'");
                empty |= shape[k] == 0;
                huge |= shape[k] < 0;   // beyond 2^63 (unsigned on the wire)
            }
            // a zero dimension anywhere makes the payload empty, however large the others: the stream is intact
            long elements = empty ? 0 : 1;
            for (int k = 0; k < ndim && !empty; k++) {
                if (huge) throw new ProtocolException("array '" + name + "' has a dimension beyond 2^63");
                elements = multiply(elements, shape[k], name);
            }
            long bytes = multiply(elements, dtype.itemSize(), name);
            frameBytes += bytes;
            if (frameBytes < 0) throw new ProtocolException("the frame's arrays have more than 2^63 bytes");
            String bad = ndim > limits.maxDims()
                    ? "array '" + name + "' has " + ndim + " dimensions; at most " + limits.maxDims() + " are accepted"
                    : huge ? "array '" + name + "' has a dimension beyond 2^63"
                    : elements > limits.maxArrayElements()
                    ? "array '" + name + "' has " + elements + " elements; at most " + limits.maxArrayElements()
                            + " are accepted in one array"
                    : frameBytes > limits.maxFrameBytes()
                    ? "the arrays of '" + kind + "' have more than " + limits.maxFrameBytes() + " bytes ("
                            + mib(limits.maxFrameBytes()) + "), the engine's bound on one request"
                    : !isAscii(name) ? "array names must be ASCII; got " + shown(name)
                    : arrays.stream().anyMatch(x -> x.name().equals(name)) ? "two arrays are named '" + name + "'"
                    : null;
            refusal = first(refusal, bad);
            if (refusal != null) {
                skip(bytes, "the payload of '" + name + "'");
                continue;
            }
            Object data;
            try {
                data = allocate(dtype, (int) elements);
            } catch (OutOfMemoryError e) {
                outOfMemory = true;
                refusal = "array '" + name + "' (" + mib(bytes) + ") does not fit in the engine's heap of "
                        + mib(Runtime.getRuntime().maxMemory()) + "; raise it, e.g. SYLVA_JAVA_OPTS=-Xmx16g";
                skip(bytes, "the payload of '" + name + "'");
                continue;
            }
            readPayload(data, dtype, (int) elements, name);
            arrays.add(new WireArray(name, dtype, shape, data));
        }
        if (refusal != null) {
            arrays.clear();   // let the arrays read so far go before the error is answered
            throw new RefusedFrameException(kind, refusal, outOfMemory, params.get("id"));
        }
        return new Frame(kind, params, arrays);
    }

    /** Deepest nesting accepted in a request's parameters (which are one level deep). */
    static final int MAX_JSON_DEPTH = 32;

    /**
     * A request's parameters: one JSON object, read strictly ({@link org.sylva.io.JsonReader}); anything else is an
     * {@link IllegalArgumentException} saying what and where.
     */
    static Map<String, Object> parameters(String text) {
        Object v = org.sylva.io.JsonReader.parse(text, MAX_JSON_DEPTH, "parameters are not JSON");
        if (!(v instanceof Map<?, ?> m)) throw new IllegalArgumentException("parameters are not JSON: expected an object");
        @SuppressWarnings("unchecked")
        Map<String, Object> params = (Map<String, Object>) m;
        return params;
    }

    private static String first(String earlier, String later) {
        return earlier != null ? earlier : later;
    }

    private static long multiply(long a, long b, String name) throws ProtocolException {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw new ProtocolException("array '" + name + "' has more than 2^63 bytes");
        }
    }

    static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    private static Object allocate(WireDtype t, int n) {
        return switch (t) {
            case FLOAT32 -> new float[n];
            case FLOAT64 -> new double[n];
            case INT32 -> new int[n];
            case INT64 -> new long[n];
            case BOOL -> new boolean[n];
            case UINT8 -> new byte[n];
        };
    }

    /** Fills {@code data} from the stream through the chunk buffer (a bounded number of chunks). */
    private void readPayload(Object data, WireDtype t, int n, String name) throws IOException {
        int per = CHUNK / t.itemSize();
        for (int done = 0; done < n; ) {
            int k = Math.min(per, n - done);
            readFully(chunk, 0, k * t.itemSize(), "the payload of '" + name + "'");
            chunkLe.clear();
            switch (data) {
                case float[] a -> chunkLe.asFloatBuffer().get(a, done, k);
                case double[] a -> chunkLe.asDoubleBuffer().get(a, done, k);
                case int[] a -> chunkLe.asIntBuffer().get(a, done, k);
                case long[] a -> chunkLe.asLongBuffer().get(a, done, k);
                case boolean[] a -> {
                    for (int j = 0; j < k; j++) a[done + j] = chunk[j] != 0;
                }
                case byte[] a -> System.arraycopy(chunk, 0, a, done, k);
                default -> throw new IllegalStateException();
            }
            done += k;
        }
    }

    private int readU8(String what) throws IOException {
        int b = in.read();
        if (b < 0) throw truncated(what);
        return b;
    }

    private long readU32(String what) throws IOException {
        readFully(chunk, 0, 4, what);
        return Integer.toUnsignedLong(ByteBuffer.wrap(chunk, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt());
    }

    private long readU64(String what) throws IOException {
        readFully(chunk, 0, 8, what);
        return ByteBuffer.wrap(chunk, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    private String ascii(int length, String what) throws IOException {
        byte[] b = new byte[length];
        readFully(b, 0, length, what);
        return new String(b, StandardCharsets.US_ASCII);   // a byte above 127 becomes U+FFFD: see isAscii
    }

    /** Whether {@code s}, read by {@link #ascii}, had only ASCII bytes (distinct bytes above 127 read alike). */
    private static boolean isAscii(String s) {
        return s.indexOf('\uFFFD') < 0;
    }

    /** A name with bytes beyond ASCII, for a message: its ASCII characters, the others as {@code ?}. */
    private static String shown(String s) {
        return "'" + s.replace('\uFFFD', '?') + "'";
    }

    private void readFully(byte[] b, int off, int len, String what) throws IOException {
        int n = in.readNBytes(b, off, len);
        if (n < len) throw truncated(what);
    }

    private void skip(long bytes, String what) throws IOException {
        try {
            in.skipNBytes(bytes);
        } catch (EOFException e) {
            throw truncated(what);
        }
    }

    private static ProtocolException truncated(String what) {
        return new ProtocolException("the stream ended inside a frame (reading " + what + ")");
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x & 0xff));
        return sb.toString();
    }
}
