package org.sylva.hdbscan.predict;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;
import org.sylva.data.InvalidInputException;
import org.sylva.features.PrincipalComponents;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanParameters;
import org.sylva.hdbscan.hierarchy.ClusterSelector;
import org.sylva.hdbscan.hierarchy.CondensedTree;
import org.sylva.hdbscan.hierarchy.SelectionMethod;
import org.sylva.hdbscan.hierarchy.SingleLinkageTree;
import org.sylva.hdbscan.index.LeafOrder;
import org.sylva.hdbscan.metric.BruteForceEngine;
import org.sylva.hdbscan.metric.KdTreeEngine;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.io.CancellableInputStream;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/**
 * The file of a saved {@link HdbscanModel}: a versioned, checksummed binary format, little-endian, with
 * no padding, written through {@link org.sylva.io.AtomicOutput} (a reader never sees half a file). Layout of version
 * 4 (also in {@code docs/model-file.md}); version 3 is the same without the row shape, with the projection always;
 * version 2 without either; version 1 without the fields after the condensed tree; version 5 (a weighted fit, or a
 * metric other than Euclidean) adds the metric, the points and the weights below to version 4, whose row shape it
 * always holds ((0, 0) when none was recorded); version 6 is version 5 with the fitted points as {@code f32[n * d]},
 * for a model (with a spanning tree) whose fitted coordinates are all float32 values; version 7 is version
 * 5 with the points' width (as version 6's or 5's), and the partition of the index a prediction searches
 * ({@link LeafOrder}), written for every Euclidean model with a spanning tree that has one:
 *
 * <pre>
 * offset size      field
 * 0      8         magic 89 53 59 4C 56 41 0D 0A ("\x89SYLVA\r\n": a high-bit byte and CR LF catch text-mode copies)
 * 8      4         kind "HDBM" (an HDBSCAN model)
 * 12     4         u32 format version: 7 with the index's partition, else 6 for float32 points, else 5 for a
 *                  weighted fit or another metric than
 *                  Euclidean, else 4 with a row shape, else 3 with a projection, else 2 (1: without a spanning tree)
 * 16     8         u64 P = payload length in bytes
 * 24     4         u32 CRC-32 (zlib's) of bytes 0 .. 23
 * 28     P         payload:
 *                    i32 min_cluster_size, i32 min_samples (counting the point), f64 cluster_selection_epsilon,
 *                    i32 max_cluster_size (0 = none), f64 alpha, u8 method (0 eom, 1 leaf), u8 allow_single_cluster,
 *                    i32 total input rows, i32 n fitted rows, i32 d coordinates,
 *                  version 5 only: u8 metric (0 euclidean, 1 manhattan, 2 chebyshev, 3 minkowski, 4 cosine), f64 p
 *                    (minkowski's exponent; NaN for the others), u8 weighted (0 or 1),
 *                    i32 T points (the weights summed; n unweighted)
 *                  version 7 only: u8 point width (4: f32 points, 8: f64), i32 the index's cut width (1 to 64)
 *                    i32[n] input row of each fitted row (strictly increasing),
 *                  version 5, weighted: i32[n] weight of each fitted row (at least 1; the tree's points are its copies)
 *                    f64[n * d] fitted points, row-major (version 6: f32[n * d]),
 *                    f64[n] prediction core distances,
 *                  version 7 only: i32[n] the index's order (every fitted row once, in leaf order)
 *                    i32 R condensed-tree rows, i32[R] parent, i32[R] child, f64[R] lambda, i32[R] child size
 *                    (over the points: the fitted rows, or in version 5 their T copies)
 *                  versions 2 to 5:
 *                    i32 E = n - 1 (version 5: T - 1) spanning-tree edges, i32[E] from, i32[E] to, f64[E] weight
 *                    (EdgeOrder: ascending (weight, from, to), from &lt; to, over the points),
 *                    i8[total - n] label of each input row left out of the fit, in row order (-2 infinity, -3 NaN;
 *                    version 5 also -1, a weight of 0)
 *                  versions 4 and 5 (rows that were arrays, HdbscanModel.withRowShape):
 *                    i32 outer, i32 inner: each input row is an outer x inner array flattened in C order
 *                  version 3, and versions 4 and 5 when bytes are left (a fit on principal-component scores,
 *                  HdbscanModel.withProjection):
 *                    i32 D input coordinates, f64[D] means, f64[d * D] components (row-major, d of them),
 *                    f64[d] explained variance, f64 total variance
 * 28 + P 4         u32 CRC-32 of the payload
 * </pre>
 *
 * {@code P = 46 + 12 n + 8 n d + 20 R} in version 1, plus {@code 4 + 16 E + (total - n)} in version 2, plus
 * {@code 12 + 8 D (d + 1) + 8 d} in version 3; version 4 adds 8 to version 2 or 3, and version 5 another
 * {@code 14}, plus {@code 4 n} when weighted; version 6 is version 5 less {@code 4 n d}; version 7 is version 5 plus
 * {@code 5 + 4 n}, less {@code 4 n d} for f32 points. A Euclidean model with a spanning tree and its index's partition
 * (made from a fit or its points, or loaded from a version 7 file) is written as version 7 (which a Sylva reading
 * versions 1 to 6 refuses); otherwise (a model loaded from an older file, which is written as that version again, or
 * one of another metric) a model of float32 points (with a spanning tree) as version 6; one of a weighted fit or of another metric than
 * Euclidean as version 5, one with a row shape
 * as version 4, one with a projection (and no row shape) as version 3 (all need the spanning tree); one with a
 * spanning tree as version 2; one without (read from a version 1 file, or built from a
 * condensed tree alone) as version 1, which is all it holds. Version 1 files are read as before; the
 * model then has no spanning tree and refuses the DBSCAN* cut and reselect, saying why. The selected clusters are not stored: they are selected again from
 * the tree with the stored parameters, as the fit selected them. Reading refuses, with an
 * {@link InvalidInputException} naming the file and the problem: another file type ("not a Sylva model
 * file", also saying when it is a {@code .npy}), another kind of Sylva file, a newer format version
 * (checked before anything that a newer version may have changed), a damaged header, a file shorter or
 * longer than its header says (truncated, or bytes after the end), a payload whose checksum differs
 * (altered or corrupted), and a payload that does not describe a model (bad parameters, sizes, rows,
 * coordinates, condensed tree, spanning tree, left-out labels, projection, or in version 5 a weight below 1 or
 * weights that do not sum to the trees' points, or in version 7 a bad point width or cut width or an order that
 * is not every fitted row once, or a condensed tree that is not the one the stored spanning tree
 * gives at the stored {@code min_cluster_size}) even though its checksum holds.
 *
 * <pre>{@code
 * AtomicOutput.write(Path.of("clips.model"), out -> ModelFile.write(out, model));
 * HdbscanModel same = ModelFile.read(Path.of("clips.model"), ProgressListener.NONE, CancellationToken.NEVER);
 * }</pre>
 */
final class ModelFile {
    static final byte[] MAGIC = {(byte) 0x89, 'S', 'Y', 'L', 'V', 'A', '\r', '\n'};
    static final byte[] KIND = {'H', 'D', 'B', 'M'};
    static final int VERSION = 2;
    /** Version 2 with the projection of a fit on principal-component scores ({@link HdbscanModel#withProjection}). */
    static final int VERSION_3 = 3;
    /** The version with the input rows' shape (then the projection, if any); written only for a model that has one. */
    static final int VERSION_4 = 4;
    /** Bytes of the row shape in versions 4 and 5: two i32. */
    static final long ROW_SHAPE_LENGTH = 8;
    /**
     * The version of a weighted fit's model, or of another metric than Euclidean: the metric, the points' count and
     * each fitted row's weight, and the row shape always.
     */
    static final int VERSION_5 = 5;
    /**
     * Version 5's layout with the fitted points as float32: written for a model whose fitted coordinates are all
     * float32 values (a fit of a float32, int16 or uint8 file, say), which halves its largest array, where version 7
     * does not apply (a model of another metric, or one loaded from a version 6 file).
     */
    static final int VERSION_6 = 6;
    /**
     * Version 5's layout with the partition of the fitted points' index ({@link LeafOrder}), from which a loaded
     * model builds its index without splitting the points again, and the points as float32 or float64 (a byte says
     * which): written for every Euclidean model with a spanning tree that has one (every model Sylva's engines make).
     */
    static final int VERSION_7 = 7;
    /** The newest version, which this Sylva reads and writes. */
    static final int NEWEST = VERSION_7;
    /** Bytes version 7 adds to version 5: the points' width byte, the order's cut width, and {@code n} positions. */
    static long version7Length(long n) {
        return 5 + 4 * n;
    }
    /** The metrics version 5 names, by their byte. */
    private static final Metric.Kind[] METRICS = {Metric.Kind.EUCLIDEAN, Metric.Kind.MANHATTAN, Metric.Kind.CHEBYSHEV,
        Metric.Kind.MINKOWSKI, Metric.Kind.COSINE};
    /** The version without the spanning tree, still read (and written for a model without a tree). */
    static final int VERSION_1 = 1;
    static final int HEADER = 28;
    private static final int TRAILER = 4;
    private static final int BUFFER = 1 << 16;
    private static final byte[] NPY_MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

    private ModelFile() {
    }

    /** Payload length of a model of {@code n} fitted points of {@code d} coordinates and {@code r} tree rows. */
    static long payloadLength(long n, long d, long r) {
        return 46 + 12 * n + 8 * n * d + 20 * r;
    }

    /** True when every value is a float32 value: such points are stored as float32 (versions 6 and 7) and read back exactly. */
    static boolean float32Values(double[] a) {
        for (double v : a) {
            if ((double) (float) v != v) return false;
        }
        return true;
    }

    /** Bytes version 2 adds: the spanning tree's {@code points - 1} edges and one byte per left-out row. */
    static long treeLength(long total, long n, long points) {
        return 4 + 16 * (points - 1) + (total - n);
    }

    /** Bytes version 5 adds before the points: the metric and its p, the weighted flag, the points' count, and the weights of {@code n} rows. */
    static long version5Length(long n, boolean weighted) {
        return 14 + (weighted ? 4 * n : 0);
    }

    /** Bytes version 3 adds: the projection of {@code input} coordinates on {@code k} components. */
    static long projectionLength(long input, long k) {
        return 4 + 8 * input + 8 * k * input + 8 * k + 8;
    }

    // ---------------------------------------------------------------- writing

    /** Writes {@code m}'s file to {@code out} (not closed). */
    static void write(OutputStream out, HdbscanModel m) throws IOException {
        write(out, m, true);
    }

    /** As {@link #write(OutputStream, HdbscanModel)}; without {@code leafOrder}, as the versions before 7 (tests). */
    static void write(OutputStream out, HdbscanModel m, boolean leafOrder) throws IOException {
        CondensedTree t = m.condensedTree();
        int n = m.fittedSize(), d = m.dimensions(), r = t.rows();
        org.sylva.hdbscan.mst.SpanningTree mst = m.treeShared();
        PrincipalComponents pc = m.projection().orElse(null);
        RowShape shape = m.rowShape().orElse(null);
        int[] weights = m.weightsOrNull();
        if ((pc != null || shape != null || weights != null) && mst == null) {
            throw new InvalidInputException("a model with a projection, a row shape or sample weights is saved with its "
                    + "spanning tree, and this one has none");
        }
        Metric metric = m.parameters().metric();
        if (metric.isPrecomputed()) throw new IllegalStateException("a model of a precomputed matrix");
        if (!metric.isEuclidean() && mst == null) {
            throw new InvalidInputException("a model of the " + metric.name() + " metric is saved with its spanning tree, "
                    + "and this one has none");
        }
        // float32 points where every coordinate is a float32 value (and the file holds the spanning tree that
        // versions 5 and 6 always hold); otherwise the oldest version that holds the model
        boolean narrow = mst != null && float32Values(m.rowsShared());
        LeafOrder order = leafOrder && mst != null && metric.isEuclidean() ? m.fittedSearch().leafOrder() : null;
        boolean v7 = order != null;
        boolean v5 = weights != null || !metric.isEuclidean() || narrow || v7;
        long payload = payloadLength(n, d, r) + (v5 ? version5Length(n, weights != null) : 0)
                - (narrow ? 4L * n * d : 0) + (v7 ? version7Length(n) : 0)
                + (mst == null ? 0 : treeLength(m.size(), n, t.points()))
                + (shape == null && !v5 ? 0 : ROW_SHAPE_LENGTH) + (pc == null ? 0 : projectionLength(pc.dimensions(), d));
        int version = v7 ? VERSION_7 : narrow ? VERSION_6 : v5 ? VERSION_5 : shape != null ? VERSION_4 : pc != null ? VERSION_3
                : mst == null ? VERSION_1 : VERSION;
        ByteBuffer h = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        h.put(MAGIC).put(KIND).putInt(version).putLong(payload);
        CRC32 hc = new CRC32();
        hc.update(h.array(), 0, 24);
        h.putInt((int) hc.getValue());
        out.write(h.array());
        Out o = new Out(out);
        HdbscanParameters p = m.parameters();
        o.i32(p.minClusterSize());
        o.i32(p.minSamples());
        o.f64(p.clusterSelectionEpsilon());
        o.i32(p.maxClusterSize());
        o.f64(p.alpha());
        o.u8(p.method() == SelectionMethod.EOM ? 0 : 1);
        o.u8(p.allowSingleCluster() ? 1 : 0);
        o.i32(m.size());
        o.i32(n);
        o.i32(d);
        if (v5) {
            o.u8(java.util.Arrays.asList(METRICS).indexOf(metric.kind()));
            o.f64(metric.p());
            o.u8(weights != null ? 1 : 0);
            o.i32(t.points());
        }
        if (v7) {
            o.u8(narrow ? 4 : 8);
            o.i32(order.cutWidth());
        }
        o.i32s(m.fittedRows());
        if (weights != null) o.i32s(weights);
        if (narrow) o.f32s(m.rowsShared()); else o.f64s(m.rowsShared());
        o.f64s(m.coreShared());
        if (v7) o.i32s(order.points());
        o.i32(r);
        o.i32s(t.parentArray());
        o.i32s(t.childArray());
        o.f64s(t.lambdaArray());
        o.i32s(t.childSizeArray());
        if (mst != null) {
            o.i32(mst.edges());
            o.i32s(mst.fromArray());
            o.i32s(mst.toArray());
            o.f64s(mst.weightArray());
            int[] left = m.leftOutShared();
            for (int i = 0; i < m.size() - n; i++) o.u8(left[i]);
        }
        if (shape != null || v5) {
            o.i32(shape == null ? 0 : shape.outer());   // version 5: (0, 0) when no shape was recorded
            o.i32(shape == null ? 0 : shape.inner());
        }
        if (pc != null) {
            o.i32(pc.dimensions());
            o.f64s(pc.mean());
            o.f64s(pc.components());
            o.f64s(pc.explainedVariance());
            o.f64(pc.totalVariance());
        }
        o.flush();
        if (o.written != payload) throw new IllegalStateException("wrote " + o.written + " payload bytes, expected " + payload);
        ByteBuffer tr = ByteBuffer.allocate(TRAILER).order(ByteOrder.LITTLE_ENDIAN);
        tr.putInt((int) o.crc.getValue());
        out.write(tr.array());
    }

    /** Little-endian writer through a fixed buffer, summing the CRC-32 of what it writes. */
    private static final class Out {
        final OutputStream out;
        final ByteBuffer buf = ByteBuffer.allocate(BUFFER).order(ByteOrder.LITTLE_ENDIAN);
        final CRC32 crc = new CRC32();
        long written;

        Out(OutputStream out) {
            this.out = out;
        }

        void room(int bytes) throws IOException {
            if (buf.remaining() < bytes) flush();
        }

        void flush() throws IOException {
            crc.update(buf.array(), 0, buf.position());
            out.write(buf.array(), 0, buf.position());
            written += buf.position();
            buf.clear();
        }

        void u8(int v) throws IOException {
            room(1);
            buf.put((byte) v);
        }

        void i32(int v) throws IOException {
            room(4);
            buf.putInt(v);
        }

        void f64(double v) throws IOException {
            room(8);
            buf.putDouble(v);
        }

        void i32s(int[] a) throws IOException {
            bulk(a.length, Integer.BYTES, (i, k) -> buf.asIntBuffer().put(a, i, k));
        }

        void f64s(double[] a) throws IOException {
            bulk(a.length, Double.BYTES, (i, k) -> buf.asDoubleBuffer().put(a, i, k));
        }

        /** Values that are all float32 values ({@link #float32Values}), as float32 (narrowed a buffer at a time). */
        void f32s(double[] a) throws IOException {
            float[] chunk = new float[BUFFER / Float.BYTES];
            bulk(a.length, Float.BYTES, (i, k) -> {
                for (int j = 0; j < k; j++) chunk[j] = (float) a[i + j];
                buf.asFloatBuffer().put(chunk, 0, k);
            });
        }

        /** Writes {@code count} values of {@code bytes} bytes a buffer at a time: {@code put} stores k from value i. */
        private void bulk(int count, int bytes, Slice put) throws IOException {
            for (int i = 0; i < count; ) {   // ends: every turn writes at least one value
                room(bytes);
                int k = Math.min(count - i, buf.remaining() / bytes);
                put.at(i, k);
                buf.position(buf.position() + k * bytes);
                i += k;
            }
        }
    }

    /** {@code k} array values from index {@code i} moved between an array and a buffer's view. */
    @FunctionalInterface
    private interface Slice {
        void at(int i, int k);
    }

    // ---------------------------------------------------------------- reading

    /**
     * A model from a file, read once without holding its bytes: the payload's checksum is summed as the parse reads
     * it. A pipe, FIFO or process substitution ({@code <(...)}), which reports no size, is read into memory first:
     * its header is checked before anything else is read, and then no more than the length it states.
     */
    static HdbscanModel read(Path file, ProgressListener progress, CancellationToken cancel) throws IOException {
        String name = file.toString();
        if (name.isBlank()) throw new InvalidInputException("the model's name is empty; name a model file");
        if (Files.isDirectory(file)) throw refuse(name, "is a directory, not a model file");
        if (name.equals("-") && !Files.exists(file)) {
            throw refuse(name, "a model is read from a file, not from '-' (new points may come from '-'; a model piped in can be given as /dev/stdin)");
        }
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            try (InputStream in = CancellableInputStream.of(Files.newInputStream(file), cancel)) {
                return stream(name, in);
            }
        }
        long size = Files.size(file);
        if (progress == ProgressListener.NONE && cancel == CancellationToken.NEVER) {
            try (InputStream in = Files.newInputStream(file)) {
                return read(name, size, in);
            }
        }
        long length = Math.max(1, size);
        HdbscanModel m;
        try (InputStream in = CancellableInputStream.of(Files.newInputStream(file), cancel, progress,
                HdbscanModel.READ_STAGE, length)) {
            m = read(name, size, in);
        }
        progress.progress(HdbscanModel.READ_STAGE, length, length);
        return m;
    }

    /**
     * The model in a stream of unknown length: the header first (not a model, a damaged header: refused before
     * another byte is read, so an endless device is not read into the heap), then the length it states, read in
     * growing chunks (a header that claims more than the stream holds costs what the stream holds), then one byte
     * to tell whether more follow.
     */
    private static HdbscanModel stream(String name, InputStream in) throws IOException {
        byte[] head = in.readNBytes(HEADER);
        checkHeader(name, head, head.length < HEADER ? head.length : UNKNOWN_SIZE);
        long payload = ByteBuffer.wrap(head, 16, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        if (payload < 0 || payload > Integer.MAX_VALUE - 8 - HEADER - TRAILER) {
            throw refuse(name, "the header says " + withFrame(payload) + " bytes, more than a model read from a stream "
                    + "can take (one Java array); save the model to a file");
        }
        byte[] rest;
        try {
            rest = in.readNBytes((int) payload + TRAILER);
        } catch (OutOfMemoryError e) {
            throw refuse(name, "the header says " + withFrame(payload) + " bytes, more than the Java heap can take "
                    + "(maximum heap " + Runtime.getRuntime().maxMemory() + " bytes); save the model to a file");
        }
        if (rest.length == payload + TRAILER && in.read() >= 0) {
            throw refuse(name, "more bytes follow the end of the model (the header says " + withFrame(payload)
                    + " bytes)");
        }
        return read(name, HEADER + rest.length, new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(head),
                new java.io.ByteArrayInputStream(rest)));
    }

    /** A model from the bytes {@link #write} wrote, e.g. kept in memory by a client; {@code name} for errors. */
    static HdbscanModel read(String name, byte[] bytes) throws IOException {
        return read(name, bytes.length, new java.io.ByteArrayInputStream(bytes));
    }

    /**
     * The model in {@code file} of {@code size} bytes. The checksum guards the parse's message: when the payload's
     * CRC-32 differs from the trailer's, the file is refused as altered or corrupted, whatever the parse found on
     * the way (it checks every field before using it, so it never acts on a value it did not check); the model is
     * returned only once the checksum holds.
     */
    private static HdbscanModel read(String name, long size, InputStream file) throws IOException {
        InputStream in = new BufferedInputStream(file, BUFFER);
        byte[] head = in.readNBytes(HEADER);
        checkHeader(name, head, size);
        long payload = ByteBuffer.wrap(head, 16, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        int version = ByteBuffer.wrap(head, 12, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        Payload body = new Payload(in, payload);
        HdbscanModel model = null;
        RuntimeException refused = null;
        try {
            model = parse(name, new In(body), payload, version);
        } catch (org.sylva.progress.CancelledException e) {
            throw e;
        } catch (RuntimeException e) {
            refused = e;
        } catch (EOFException e) {
            // only a payload shorter than its fixed fields gets here (the sizes are checked against its length)
            refused = new InvalidInputException("its payload of " + payload + " bytes ends inside a field");
        }
        body.skipRest();
        byte[] trailer = in.readNBytes(TRAILER);
        if (trailer.length < TRAILER) throw new EOFException("model file " + name + " ends inside its trailer");
        int stored = ByteBuffer.wrap(trailer).order(ByteOrder.LITTLE_ENDIAN).getInt();
        int sum = (int) body.crc.getValue();
        if (stored != sum) {
            throw refuse(name, "checksum mismatch: the payload's CRC-32 is " + hex(sum) + ", the file says "
                    + hex(stored) + " (the file was altered or corrupted)");
        }
        if (refused instanceof InvalidInputException e) {
            InvalidInputException inFile = e.withContext("model file " + name);
            // a bad parameter stored in the file is the file's fault, not a parameter the caller gave: no name of one
            // (a CLI would blame its option of that name)
            throw e.parameter().isPresent() ? new InvalidInputException(inFile.getMessage(), e) : inFile;
        }
        if (refused != null) throw refused;
        return model;
    }

    /** The payload's bytes of a model stream, no further, summed into {@link #crc} as they are read. */
    private static final class Payload extends InputStream {
        final InputStream in;
        final CRC32 crc = new CRC32();
        long left;

        Payload(InputStream in, long length) {
            this.in = in;
            this.left = length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left == 0) return -1;
            int got = in.read(b, off, (int) Math.min(len, left));
            if (got < 0) throw new EOFException("model file ends inside its payload");
            crc.update(b, off, got);
            left -= got;
            return got;
        }

        /** Reads what the parse left of the payload, into the checksum. */
        void skipRest() throws IOException {
            byte[] chunk = new byte[BUFFER];
            while (left > 0) {    // ends: every turn reads at least one byte or throws
                read(chunk, 0, chunk.length);
            }
        }
    }

    /** The size of a stream, not known until it ends: {@link #checkHeader} checks all but the length. */
    private static final long UNKNOWN_SIZE = -1;

    /** The length a header of {@code payload} bytes states for the whole file, exact for any unsigned payload. */
    private static String withFrame(long payload) {
        return new java.math.BigInteger(Long.toUnsignedString(payload)).add(java.math.BigInteger.valueOf(HEADER + TRAILER))
                .toString();
    }

    /**
     * Magic, kind, version, header checksum and length, in the order that gives the truest message; the length
     * is not checked for a {@code size} of {@link #UNKNOWN_SIZE}.
     */
    private static void checkHeader(String name, byte[] head, long size) {
        int have = head.length;
        if (have == 0) throw refuse(name, "the file is empty, not a model file");
        int m = Math.min(have, MAGIC.length);
        if (!Arrays.equals(head, 0, m, MAGIC, 0, m)) {
            boolean npy = have >= NPY_MAGIC.length && Arrays.equals(head, 0, NPY_MAGIC.length, NPY_MAGIC, 0, NPY_MAGIC.length);
            throw refuse(name, "not a Sylva model file" + (npy ? " (it is a NumPy .npy file)" : "")
                    + "; a model file is written by sylva hdbscan --save-model or HdbscanModel.save");
        }
        if (have < 16) throw refuse(name, "truncated: " + size + " bytes, shorter than a model file's header");
        if (!Arrays.equals(head, 8, 12, KIND, 0, 4)) {
            throw refuse(name, "a Sylva file of kind '" + ascii(head, 8, 4) + "', not an HDBSCAN model ('HDBM')");
        }
        int version = ByteBuffer.wrap(head, 12, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (version != VERSION && version != VERSION_1 && version != VERSION_3 && version != VERSION_4
                && version != VERSION_5 && version != VERSION_6 && version != VERSION_7) {
            throw refuse(name, Integer.compareUnsigned(version, NEWEST) > 0
                    ? "format version " + Integer.toUnsignedString(version) + " was written by a newer Sylva; this one "
                            + "reads versions 1 to " + NEWEST
                    : "unknown format version " + version + " (this Sylva reads versions 1 to " + NEWEST + ")");
        }
        if (have < HEADER) throw refuse(name, "truncated: " + size + " bytes, shorter than a model file's header");
        CRC32 hc = new CRC32();
        hc.update(head, 0, 24);
        int stored = ByteBuffer.wrap(head, 24, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (stored != (int) hc.getValue()) throw refuse(name, "damaged header (its checksum does not match)");
        if (size == UNKNOWN_SIZE) return;
        long payload = ByteBuffer.wrap(head, 16, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        long expected = HEADER + payload + TRAILER;
        if (payload < 0 || payload > size || size < expected) {
            throw refuse(name, "truncated: " + size + " bytes, the header says " + withFrame(payload));
        }
        if (size > expected) {
            throw refuse(name, (size - expected) + (size - expected == 1 ? " byte" : " bytes")
                    + " after the end of the model (the header says " + expected
                    + " bytes)");
        }
    }

    /** The model in a payload whose checksum holds; checks every field before it is used. */
    private static HdbscanModel parse(String name, In in, long payload, int version) throws IOException {
        long extra = version == VERSION_1 ? 0 : 4 + 16L;   // at least one edge and its count
        int mcs = in.i32(), ms = in.i32();
        double eps = in.f64();
        int maxSize = in.i32();
        double alpha = in.f64();
        int method = in.u8(), single = in.u8();
        if (method > 1 || single > 1) {
            throw new InvalidInputException("bad method (" + method + ") or allow_single_cluster (" + single + ") byte");
        }
        int total = in.i32(), n = in.i32(), d = in.i32();
        boolean v7 = version == VERSION_7;
        boolean narrow = version == VERSION_6;
        boolean v5 = version == VERSION_5 || narrow || v7;
        int cutWidth = 0;
        Metric metric = Metric.euclidean();
        boolean weighted = false;
        int points = n;
        if (v5) {
            metric = metric(in.u8(), in.f64());
            int w = in.u8();
            if (w > 1) throw new InvalidInputException("bad weighted byte (" + w + ")");
            weighted = w == 1;
            points = in.i32();
            if (v7) {
                int width = in.u8();
                if (width != 4 && width != 8) throw new InvalidInputException("bad point width byte (" + width + ")");
                narrow = width == 4;
                cutWidth = in.i32();
                if (!metric.isEuclidean()) {
                    throw new InvalidInputException("a version 7 file of the " + metric.name() + " metric (Sylva writes "
                            + "those as versions 5 and 6)");
                }
            }
            if (!weighted && points != n) {
                throw new InvalidInputException("an unweighted model of " + n + " fitted rows says it has " + points + " points");
            }
            if (weighted && !metric.isEuclidean()) {
                throw new InvalidInputException("a weighted model of the " + metric.name() + " metric (sample weights "
                        + "are fitted with the euclidean metric only)");
            }
            if (!weighted && metric.isEuclidean() && version == VERSION_5) {
                throw new InvalidInputException("a version 5 file of an unweighted euclidean model (Sylva writes those "
                        + "as versions 2 to 4)");
            }
            if (!metric.isEuclidean() && !KdTreeEngine.usesTree(metric, d) && n > BruteForceEngine.MAX_POINTS) {
                throw new InvalidInputException(n + " fitted rows of " + d + " dimensions for the " + metric.name()
                        + " metric, whose fits take at most " + BruteForceEngine.MAX_POINTS);
            }
        }
        HdbscanParameters p = new HdbscanParameters(mcs, ms, eps, maxSize, alpha,
                method == 0 ? SelectionMethod.EOM : SelectionMethod.LEAF, single == 1, metric);
        // the fields version 5 adds, less what float32 points save (version 6)
        long weightBytes = (v5 ? version5Length(n, weighted) : 0) - (narrow ? 4L * n * d : 0)
                + (v7 ? version7Length(n) : 0);
        if (n < 1 || d < 1 || total < n || points < Math.max(n, 2) || points > org.sylva.hdbscan.SampleWeights.MAX_TOTAL
                || (long) n * d > Integer.MAX_VALUE - 8 || payloadLength(n, d, 0) + weightBytes + extra > payload) {
            throw new InvalidInputException("bad sizes: " + total + " input rows, " + n + " fitted rows of " + d
                    + " coordinates" + (v5 ? " standing for " + points + " points" : "") + " in " + payload
                    + " payload bytes");
        }
        if (ms > points) {
            throw new InvalidInputException("min_samples " + ms + " exceeds the " + points + (v5 ? " points" : " fitted rows"));
        }
        int[] fitted = in.i32s(n);
        for (int i = 0; i < n; i++) {
            if (fitted[i] < (i == 0 ? 0 : fitted[i - 1] + 1) || fitted[i] >= total) {
                throw new InvalidInputException("fitted row " + i + " maps to input row " + fitted[i]
                        + " (rows must increase strictly below " + total + ")");
            }
        }
        int[] weights = weighted ? in.i32s(n) : null;
        if (weighted) {
            long sum = 0;
            for (int i = 0; i < n; i++) {
                if (weights[i] < 1) throw new InvalidInputException("fitted row " + i + " has weight " + weights[i]);
                sum += weights[i];
            }
            if (sum != points) {
                throw new InvalidInputException("the fitted rows' weights sum to " + sum + ", the file says " + points
                        + " points");
            }
        }
        double[] rows = narrow ? in.f32sWidened((int) ((long) n * d)) : in.f64s((int) ((long) n * d));
        for (int i = 0; i < rows.length; i++) {
            if (!Double.isFinite(rows[i]) || Math.abs(rows[i]) > Hdbscan.MAX_ABS_COORDINATE) {
                throw new InvalidInputException("fitted point " + (i / d) + ", coordinate " + (i % d) + " is " + rows[i]);
            }
        }
        if (v7 && !narrow && float32Values(rows)) {
            // Sylva writes such points as float32: saving the model again would not give these bytes
            throw new InvalidInputException("a version 7 file with float64 points that are all float32 values (Sylva "
                    + "writes those as float32)");
        }
        double[] core = in.f64s(n);
        for (int i = 0; i < n; i++) {
            if (!(core[i] >= 0) || Double.isInfinite(core[i])) {
                throw new InvalidInputException("prediction core distance " + i + " is " + core[i]);
            }
        }
        LeafOrder order = v7 ? new LeafOrder(cutWidth, in.i32s(n)) : null;
        int r = in.i32();
        boolean shaped = version == VERSION_4 || v5;
        long rest = weightBytes + (version == VERSION_1 ? 0 : treeLength(total, n, points)) + (shaped ? ROW_SHAPE_LENGTH : 0);
        long input = 0;
        // version 3 always has a projection; versions 4 and 5 have one when bytes are left after the row shape
        boolean projected = version == VERSION_3
                || shaped && payload - payloadLength(n, d, Math.max(r, 0)) - rest > 0;
        if (projected) {
            // the projection's input coordinates come after the tree: its length is what the payload leaves, and
            // the stored count must say the same (checked before anything of that size is allocated)
            long left = payload - payloadLength(n, d, Math.max(r, 0)) - rest;
            input = (left - 4 - 8L * d - 8) / (8 + 8L * d);
            if (input < 1 || input > Integer.MAX_VALUE / Math.max(d, 1) || projectionLength(input, d) != left) {
                throw new InvalidInputException(r + " condensed-tree rows and a projection on " + d + " components do not "
                        + "fill the " + payload + " payload bytes");
            }
            rest += left;
        }
        if (r < 0 || payloadLength(n, d, r) + rest != payload) {
            throw new InvalidInputException("its sizes (" + total + " input rows, " + n + " fitted rows of " + d
                    + " coordinates" + (v5 ? " standing for " + points + " points" : "") + ", " + r
                    + " condensed-tree rows" + (projected ? ", a projection of " + input + " coordinates" : "")
                    + ") take " + (r < 0 ? "no" : Long.toString(payloadLength(n, d, r) + rest)) + " payload bytes, but the "
                    + "payload has " + payload);
        }
        CondensedTree tree = CondensedTree.of(points, mcs, in.i32s(r), in.i32s(r), in.f64s(r), in.i32s(r));
        org.sylva.hdbscan.mst.SpanningTree mst = null;
        int[] leftOut = null;
        if (version != VERSION_1) {
            int e = in.i32();
            if (e != points - 1) {
                throw new InvalidInputException(e + " spanning-tree edges for " + points + (v5 ? " points" : " fitted rows"));
            }
            mst = spanningTree(points, in.i32s(e), in.i32s(e), in.f64s(e));
            requireTreeOf(mst, tree, mcs);
            if (total > n) {
                leftOut = new int[total - n];
                for (int i = 0; i < leftOut.length; i++) {
                    int b = (byte) in.u8();
                    if (b != -2 && b != -3 && !(weighted && b == -1)) {
                        throw new InvalidInputException("left-out row " + i + " has label " + b
                                + (weighted ? " (-1, -2 or -3 expected)" : " (-2 or -3 expected)"));
                    }
                    leftOut[i] = b;
                }
            }
        }
        int outer = 0, inner = 0;
        if (shaped) {
            outer = in.i32();
            inner = in.i32();
        }
        PrincipalComponents pc = projected ? projection(in, d, (int) input) : null;
        int[] selected = ClusterSelector.selectedNodes(tree, p.selection());
        // a file without the partition (versions 1 to 6) gives a model without one: it is written again as it was
        FittedSearch.Prepared prepared = new FittedSearch.Prepared(null, null, core, null, order);
        HdbscanModel m = new HdbscanModel(p, total, n == total ? null : fitted, rows, n, d, core, tree, selected, prepared,
                mst, leftOut, weights);
        if (pc != null) m = m.withProjection(pc);
        if (version == VERSION_4 || v5 && (outer != 0 || inner != 0)) {
            int values = m.inputDimensions();
            if (outer < 1 || inner < 1 || (long) outer * inner != values) {
                throw new InvalidInputException("the row shape (" + outer + ", " + inner + ") does not hold the model's "
                        + values + " input coordinates");
            }
            m = m.withRowShape(new RowShape(outer, inner));
        }
        return m;
    }

    /** The metric of version 5's byte and {@code p}, refused unless they name one a model can hold. */
    private static Metric metric(int kind, double p) {
        if (kind >= METRICS.length) throw new InvalidInputException("bad metric byte (" + kind + ")");
        Metric m = switch (METRICS[kind]) {
            case MINKOWSKI -> p > 1 && p < Double.POSITIVE_INFINITY && p != 2 ? Metric.minkowski(p) : null;
            case EUCLIDEAN -> Metric.euclidean();
            case MANHATTAN -> Metric.manhattan();
            case CHEBYSHEV -> Metric.chebyshev();
            default -> Metric.cosine();
        };
        if (m == null || Double.doubleToRawLongBits(m.p()) != Double.doubleToRawLongBits(p)) {
            // a NaN of other bits than the one Sylva writes is named by its bits: "bad p (NaN)" would read as if NaN were
            String value = p != p ? "NaN of bits 0x" + Long.toHexString(Double.doubleToRawLongBits(p)) : Double.toString(p);
            throw new InvalidInputException("bad p (" + value + ") for the metric " + METRICS[kind].id()
                    + (m != null && m.p() != m.p() ? " (which stores the NaN of bits 0x"
                            + Long.toHexString(Double.doubleToRawLongBits(m.p())) + ")" : ""));
        }
        return m;
    }

    /**
     * The projection of version 3: input coordinates, means, {@code k} components, their variances, the total;
     * {@code expected} is the count of input coordinates the payload's length leaves room for.
     */
    private static PrincipalComponents projection(In in, int k, int expected) throws IOException {
        int input = in.i32();
        if (input != expected) {
            throw new InvalidInputException("the projection says " + input + " input coordinates, but its bytes hold "
                    + expected);
        }
        double[] mean = in.f64s(input);
        double[] components = in.f64s(input * k);
        double[] variance = in.f64s(k);
        double total = in.f64();
        for (double[] a : new double[][] {mean, components, variance}) {
            for (double v : a) {
                if (!Double.isFinite(v)) throw new InvalidInputException("the projection holds " + v);
            }
        }
        if (!Double.isFinite(total)) throw new InvalidInputException("the projection's total variance is " + total);
        return new PrincipalComponents(mean, components, variance, total);
    }

    /**
     * The stored spanning tree, checked: endpoints inside the fitted rows with {@code from < to}, weights
     * finite and non-negative in the unique edge order, and the edges connecting every row (a tree).
     */
    private static org.sylva.hdbscan.mst.SpanningTree spanningTree(int n, int[] from, int[] to, double[] w) {
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) parent[i] = i;
        for (int e = 0; e < from.length; e++) {
            if (from[e] < 0 || from[e] >= to[e] || to[e] >= n || !(w[e] >= 0) || Double.isInfinite(w[e])) {
                throw new InvalidInputException("spanning-tree edge " + e + " is (" + from[e] + ", " + to[e] + ", " + w[e]
                        + ")");
            }
            if (e > 0 && org.sylva.hdbscan.mst.EdgeOrder.compare(w[e - 1], from[e - 1], to[e - 1], w[e], from[e], to[e]) >= 0) {
                throw new InvalidInputException("spanning-tree edges " + (e - 1) + " and " + e + " are out of edge order");
            }
            int a = root(parent, from[e]), b = root(parent, to[e]);
            if (a == b) throw new InvalidInputException("spanning-tree edge " + e + " closes a cycle");
            parent[a] = b;
        }
        return org.sylva.hdbscan.mst.SpanningTree.of(n, from, to, w);
    }

    /**
     * Refuses a condensed tree that is not the one the fit's own code condenses from the stored spanning tree at
     * the stored {@code min_cluster_size}: a file whose tree, spanning tree or {@code min_cluster_size} was edited
     * (its checksum made to hold again), or written by another program, would otherwise predict with one tree and
     * rebuild the fit's result ({@code HdbscanResult.of(model)}, {@code reselect}) from another. The rebuild costs
     * what the fit's hierarchy stage costs (n log n), a few per cent of a cold {@code sylva predict}.
     */
    private static void requireTreeOf(org.sylva.hdbscan.mst.SpanningTree mst, CondensedTree stored, int minClusterSize) {
        CondensedTree rebuilt = CondensedTree.condense(SingleLinkageTree.of(mst.orientedFrom(0)), minClusterSize);
        if (rebuilt.equals(stored)) return;
        int rows = Math.min(rebuilt.rows(), stored.rows());
        int r = 0;
        while (r < rows && rebuilt.parent(r) == stored.parent(r) && rebuilt.child(r) == stored.child(r)
                && Double.compare(rebuilt.lambda(r), stored.lambda(r)) == 0 && rebuilt.childSize(r) == stored.childSize(r)) {
            r++;   // ends: r < rows
        }
        String where = r < rows
                ? "row " + r + " is " + row(stored, r) + ", the spanning tree gives " + row(rebuilt, r)
                : "it has " + stored.rows() + " rows, the spanning tree gives " + rebuilt.rows();
        throw new InvalidInputException("the condensed tree is not the one its spanning tree gives at min_cluster_size "
                + minClusterSize + " (" + where + "); the file was altered after it was written");
    }

    private static String row(CondensedTree t, int r) {
        return "(parent " + t.parent(r) + ", child " + t.child(r) + ", lambda " + t.lambda(r) + ", size "
                + t.childSize(r) + ")";
    }

    private static int root(int[] parent, int p) {
        while (parent[p] != p) {   // ends: the links form a forest, each step moves towards a root
            parent[p] = parent[parent[p]];
            p = parent[p];
        }
        return p;
    }

    /** Little-endian reader through a fixed buffer. */
    private static final class In {
        final InputStream in;
        final ByteBuffer buf = ByteBuffer.allocate(BUFFER).order(ByteOrder.LITTLE_ENDIAN);

        In(InputStream in) {
            this.in = in;
            buf.limit(0);
        }

        void need(int bytes) throws IOException {
            if (buf.remaining() >= bytes) return;
            buf.compact();
            while (buf.position() < bytes) {   // ends: each turn reads at least one byte or throws
                int got = in.read(buf.array(), buf.position(), buf.capacity() - buf.position());
                if (got < 0) throw new EOFException("model file ends inside its payload");
                buf.position(buf.position() + got);
            }
            buf.flip();
        }

        int u8() throws IOException {
            need(1);
            return buf.get() & 0xff;
        }

        int i32() throws IOException {
            need(4);
            return buf.getInt();
        }

        double f64() throws IOException {
            need(8);
            return buf.getDouble();
        }

        int[] i32s(int count) throws IOException {
            int[] a = new int[count];
            bulk(count, Integer.BYTES, (i, k) -> buf.asIntBuffer().get(a, i, k));
            return a;
        }

        double[] f64s(int count) throws IOException {
            double[] a = new double[count];
            bulk(count, Double.BYTES, (i, k) -> buf.asDoubleBuffer().get(a, i, k));
            return a;
        }

        /** {@code count} float32 values, each widened (exactly) to float64 (a buffer at a time). */
        double[] f32sWidened(int count) throws IOException {
            double[] a = new double[count];
            float[] chunk = new float[BUFFER / Float.BYTES];
            bulk(count, Float.BYTES, (i, k) -> {
                buf.asFloatBuffer().get(chunk, 0, k);
                for (int j = 0; j < k; j++) a[i + j] = chunk[j];
            });
            return a;
        }

        /**
         * Reads {@code count} values of {@code bytes} bytes a buffer at a time (a model's arrays hold millions of
         * values): {@code get} takes k from the buffer into value i on.
         */
        private void bulk(int count, int bytes, Slice get) throws IOException {
            for (int i = 0; i < count; ) {   // ends: every turn reads at least one value or throws
                need(bytes);
                int k = Math.min(count - i, buf.remaining() / bytes);
                get.at(i, k);
                buf.position(buf.position() + k * bytes);
                i += k;
            }
        }
    }

    private static InvalidInputException refuse(String name, String problem) {
        return new InvalidInputException("model file " + name + ": " + problem);
    }

    private static String hex(int v) {
        return String.format(java.util.Locale.ROOT, "%08x", v);
    }

    private static String ascii(byte[] b, int from, int len) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i < from + len; i++) {
            int c = b[i] & 0xff;
            s.append(c >= 0x20 && c < 0x7f ? (char) c : '?');
        }
        return s.toString();
    }
}
