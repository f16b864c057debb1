package org.sylva.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.metric.Metric;
import org.sylva.io.CancellableInputStream;
import org.sylva.io.DelimitedReader;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.io.NpyDtype;
import org.sylva.io.NumericTable;
import org.sylva.io.PointReaders;
import org.sylva.io.SparseMatrix;
import org.sylva.io.SparseNpz;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** The input file of a command and how to read it. */
final class InputOptions {
    String input;
    String shape;
    /**
     * Text's decimals beyond float64's range read as infinities of their sign, as {@code numpy.loadtxt} reads them
     * (a fit that leaves non-finite rows out, {@code --non-finite sklearn}); else such a cell is an error naming it.
     */
    boolean overflowToInfinity;

    /** What INPUT may be, in sylva hdbscan's help. */
    static final String INPUT_TEXT = "Points: .npy (float16/32/64, int8/16/32/64, uint8/16/32/64, bool; any byte "
            + "order, C or Fortran order; also 3-D clips (n, C, S), clustered as rows of C*S values), .csv/.tsv "
            + "(numbers, optional header row), .npz (a scipy sparse matrix, CSR or CSC: its rows as dense float64 "
            + "points; with --metric precomputed a sparse distance matrix), or raw little-endian float32 with "
            + "--shape; '-' reads stdin (a pipe such as <(...) is read as stdin is).";

    /** What INPUT may be, in sylva balltree's help: points of shape (n, d) only. */
    static final String TREE_INPUT_TEXT = "Points of shape (n, d): .npy (float16/32/64, int8/16/32/64, "
            + "uint8/16/32/64, bool; any byte order, C or Fortran order), .csv/.tsv (numbers, optional header row), "
            + ".npz (a scipy sparse matrix, CSR or CSC: its rows as dense points), or raw little-endian float32 with "
            + "--shape; '-' reads stdin (a pipe such as <(...) is read as stdin is).";

    /** Adds the one input ({@code INPUT}, described by {@code text}) and {@code --shape} to {@code m}. */
    void declare(CommandModel m, String text) {
        m.parameter(String.class, v -> input = v)
                .index("0")
                .paramLabel("INPUT")
                .description(text);
        declareShape(m);
    }

    /**
     * Adds one or more inputs ({@code INPUT...}, handed to {@code inputs} as a list) and {@code --shape} to
     * {@code m}; the shape is bound to this object, the inputs are the command's ({@link #forInput}).
     */
    void declareInputs(CommandModel m, Consumer<List<String>> inputs, String several) {
        @SuppressWarnings("unchecked")
        Class<List<String>> list = (Class<List<String>>) (Class<?>) List.class;
        m.parameter(list, inputs)
                .index("0..*")
                .arity("1..*")
                .auxiliaryTypes(String.class)
                .paramLabel("INPUT")
                .description(INPUT_TEXT + " " + several);
        declareShape(m);
    }

    private void declareShape(CommandModel m) {
        m.option(String.class, v -> shape = v, "--shape")
                .paramLabel("N,D")
                .description("Shape of a raw float32 input (required for raw files).");
    }

    /** These options for reading {@code input}. */
    InputOptions forInput(String input) {
        InputOptions o = new InputOptions();
        o.input = input;
        o.shape = shape;
        o.overflowToInfinity = overflowToInfinity;
        return o;
    }

    /**
     * Points as read for a fit. Every accepted input is converted exactly: {@code float64} holds the
     * values of a float64 or 32- or 64-bit integer {@code .npy} and of text, parsed as float64 (the fit then
     * computes scikit-learn's distances, which casts to float64, with no rounding to float32 first; int64
     * beyond 2^53 in magnitude is refused, naming the value); it is null for every other input, whose
     * values float32 holds exactly (float16, int8, int16, uint16, uint8, bool) or which is float32 to
     * begin with (float32 .npy, raw float32). {@code points} is always there (float32), for the summary,
     * the report and the checks.
     *
     * <pre>{@code
     * InputOptions.Loaded in = inputOptions.readForFit(err, System.in, token);
     * }</pre>
     *
     * @param points the points as float32
     * @param float64 the exact float64 values, row-major, or null
     * @param dtype the input's element type as NumPy names it ({@code "int16"}); {@code "float32"} for
     *     raw float32, {@code "float64"} for text, which is read as float64
     * @param clipShape the two trailing axes {@code (A, B)} of a 3-D {@code .npy} (clips of A x B values,
     *     e.g. channels x samples), whose rows are clustered flattened as NumPy's {@code reshape(n, -1)}
     *     does; null for any other input
     */
    record Loaded(PointSet points, double[] float64, String dtype, int[] clipShape, int[] lines) {
        Loaded(PointSet points, double[] float64, String dtype) {
            this(points, float64, dtype, null, null);
        }

        Loaded(PointSet points, double[] float64, String dtype, int[] clipShape) {
            this(points, float64, dtype, clipShape, null);
        }

        /** Where row {@code row} stands in a text input, for a message ("; line 7 of the file"), else "". */
        String lineOf(int row) {
            return lines == null ? "" : lineNote(lines[row]);
        }

        /** The points as a fit takes them: the exact float64 values where the input held them, else {@link #points}. */
        PointSet exact() {
            return float64 == null ? points : PointSet.uncheckedFloat64(points.size(), points.dimensions(), float64);
        }
    }

    /** "; line 7 of the file" for a text row's line (counting from 1), "" where it is not known (-1). */
    static String lineNote(int line) {
        return line < 0 ? "" : "; line " + line + " of the file";
    }

    /** The element type of raw float32 input. */
    private static final String FLOAT32 = NpyDtype.FLOAT32.numpyName();
    /** The element type of text, parsed to float64. */
    private static final String FLOAT64 = NpyDtype.FLOAT64.numpyName();

    static final byte[] NPY_MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

    /**
     * What the input holds, opened once: a {@code .npy} array (a file, or stdin starting with NumPy's magic),
     * or a text table (a text file, or stdin without the magic); both null for raw float32 and names no
     * reader knows, which {@link #read} reads.
     */
    record Opened(NpyArray npy, NumericTable text) { }

    private Opened open(InputStream stdin, CancellationToken cancel) throws IOException {
        return open(stdin, cancel, ProgressListener.NONE);
    }

    private Opened open(InputStream stdin, CancellationToken cancel, ProgressListener reading) throws IOException {
        if (shape != null) return new Opened(null, null);
        if (input.equals("-")) return openStream(stdin, "-", "standard input", cancel, overflowToInfinity);
        if (PointReaders.isUnnamedStream(Path.of(input))) {
            // a pipe, FIFO or <(...) named without an extension: told by its content, as standard input is
            try (InputStream in = Files.newInputStream(Path.of(input))) {
                return openStream(in, input, input, cancel, overflowToInfinity);
            }
        }
        if (isSparseNpz()) {   // a sparse matrix's rows, densified (scipy's toarray()), as a float64 array
            SparseMatrix m = readSparse(cancel);
            return new Opened(NpyArray.ofFloat64(m.toDense(input), m.rows(), m.columns()).withSource(input), null);
        }
        if (isNpy(Path.of(input))) return new Opened(Npy.read(Path.of(input), cancel), null);
        if (PointReaders.formatOf(input, false) == PointReaders.Format.DELIMITED && !Files.isDirectory(Path.of(input))) {
            return new Opened(null, DelimitedReader.forFile(input).withOverflowToInfinity(overflowToInfinity)
                    .read(Path.of(input), cancel, reading));
        }
        return new Opened(null, null);
    }

    /** A stream read once, its format told by its first bytes: NumPy's magic, else a text table. */
    static Opened openStream(InputStream raw, String name, String what, CancellationToken cancel)
            throws IOException {
        return openStream(raw, name, what, cancel, false);
    }

    /** As above; {@code overflowToInfinity}: text's decimals beyond float64's range read as infinities. */
    static Opened openStream(InputStream raw, String name, String what, CancellationToken cancel,
            boolean overflowToInfinity) throws IOException {
        BufferedInputStream b = new BufferedInputStream(CancellableInputStream.of(raw, cancel), 1 << 16);
        b.mark(NPY_MAGIC.length);
        byte[] head = b.readNBytes(NPY_MAGIC.length);
        b.reset();
        if (PointReaders.isZip(head)) {
            throw new InvalidInputException(what + " holds a zip archive (a .npz?): " + SparseNpz.NEEDS_A_FILE);
        }
        if (!Arrays.equals(head, NPY_MAGIC)) {
            return new Opened(null, DelimitedReader.of(DelimitedReader.Delimiter.AUTO).withOverflowToInfinity(overflowToInfinity)
                    .read(b, name));
        }
        return new Opened(Npy.read(b, name), null);
    }

    /** The input is a sparse matrix file of {@code scipy.sparse.save_npz} (named {@code .npz}). */
    boolean isSparseNpz() {
        return input != null && !input.equals("-") && shape == null && input.toLowerCase(Locale.ROOT).endsWith(".npz");
    }

    /** The input's sparse matrix, in CSR form ({@link SparseNpz}). */
    SparseMatrix readSparse(CancellationToken cancel) throws IOException {
        return SparseNpz.read(Path.of(input), cancel);
    }

    /** As {@link #read}, keeping a float64 {@code .npy}'s exact values (see {@link Loaded}). */
    Loaded readForFit(PrintWriter err, InputStream stdin, CancellationToken cancel) throws IOException {
        return readForFit(err, stdin, cancel, null);
    }

    /** Text files of this size or more show their reading's progress: parsing them takes a second or more. */
    static final long TEXT_PROGRESS_BYTES = 32L << 20;

    /**
     * As {@link #readForFit(PrintWriter, InputStream, CancellationToken)}, a text file of {@link #TEXT_PROGRESS_BYTES}
     * or more telling its bytes read to a progress line that {@code context} makes on {@code err} (none with
     * {@code quiet}; a null {@code context}: none at all).
     */
    Loaded readForFit(PrintWriter err, InputStream stdin, CancellationToken cancel, CliContext context, boolean quiet)
            throws IOException {
        if (context == null || !largeTextFile()) return readForFit(err, stdin, cancel, null);
        try (ProgressPrinter reading = context.progress(err, quiet, 0)) {
            return readForFit(err, stdin, cancel, reading);
        }
    }

    /** The input is a text file (by its name) of {@link #TEXT_PROGRESS_BYTES} or more. */
    private boolean largeTextFile() throws IOException {
        if (input == null || input.equals("-") || shape != null || isSparseNpz()) return false;
        Path p = Path.of(input);
        return PointReaders.formatOf(input, false) == PointReaders.Format.DELIMITED && Files.isRegularFile(p)
                && !isNpy(p) && Files.size(p) >= TEXT_PROGRESS_BYTES;
    }

    private Loaded readForFit(PrintWriter err, InputStream stdin, CancellationToken cancel, ProgressListener reading)
            throws IOException {
        Opened o = open(stdin, cancel, reading == null ? ProgressListener.NONE : reading);
        if (o.text() != null) return text(o.text(), warnings(err));
        if (o.npy() == null) return new Loaded(read(err, stdin, cancel), null, FLOAT32);
        NpyArray a = o.npy();
        // each conversion below is one pass over the array (about 0.1 s per 500 000 x 61 float64): look between
        cancel.throwIfCancelled();
        String dtype = a.dtype().numpyName();
        int[] clip = clipShape(a);
        // float32 cannot hold every value of float64 or of a 32- or 64-bit integer (beyond 2^24) exactly
        if (a.dtype().fitsFloat32()) return new Loaded(points(a, clip, warnings(err)), null, dtype, clip);
        // Exact, or refused naming the value (int64 beyond 2^53): first, before any float32 copy is made.
        double[] exact = a.toFloat64();
        cancel.throwIfCancelled();
        // The float32 copy only feeds the report and the summary, so its rounding is not worth a warning.
        PointSet points = points(a, clip, w -> { });
        return new Loaded(points, exact, dtype, clip);
    }

    /**
     * Points for a ball tree, as float32 (the reference's type), finite. Only a 2-D array {@code (n, d)} is
     * taken, as Erwin and the Python module take it: a 1-D or 3-D {@code .npy} is refused. A value beyond
     * float32's range is refused with the value itself named (a float64 {@code .npy} or text), before rounding
     * would make it an infinity; rounding within the range is reported in one warning: for a {@code .npy}, of
     * every value float32 does not hold; for text, where a decimal such as 0.1 is rarely a float32 value, of
     * the values with more significant digits than float32 holds
     * ({@link NumericTable#toFloat32(Consumer, boolean)}).
     */
    PointSet readForTree(PrintWriter err, InputStream stdin, CancellationToken cancel, String workaround)
            throws IOException {
        Opened o = open(stdin, cancel);
        PointSet points;
        if (o.npy() != null) {
            NpyArray a = o.npy();
            if (a.rank() != 2) {
                throw new InvalidInputException(a.source() + ": a ball tree takes points of shape (n, d); found shape "
                        + BallTreeCommand.numpyShape(a.shape())
                        + (a.rank() == 1 ? "; for n points of one coordinate, save it as shape (n, 1)" : ""));
            }
            a.requireFloat32Range("the ball tree");
            cancel.throwIfCancelled();
            points = a.toFloat32PointSetTransferring(warnings(err));
        } else if (o.text() != null) {
            NumericTable t = o.text();
            double[] x = t.values();
            for (int i = 0; i < x.length; i++) {
                if (Double.isFinite(x[i]) && !Float.isInfinite((float) x[i])) continue;
                String line = lineNote(t.line(i / t.columns()));
                if (!Double.isFinite(x[i])) throw nonFinite(i / t.columns(), i % t.columns(), line, x[i], workaround);
                throw new InvalidInputException(input + ": row " + i / t.columns() + ", column " + i % t.columns()
                        + " (counting from 0" + line + ") is " + x[i] + ", beyond float32's range (+-"
                        + Float.MAX_VALUE + "), in which the ball tree works");
            }
            points = t.toFloat32PointSet(warnings(err), true);
        } else {
            points = read(err, stdin, cancel);
        }
        requireFinite(points, workaround);
        return points;
    }

    /**
     * Text, read as float64 as NumPy and scikit-learn read it: fitted from those values, with a float32
     * copy (rounded, no warning) for the summary, the report and the checks.
     */
    private static Loaded text(NumericTable t, Consumer<String> warnings) {
        t.note().ifPresent(warnings);
        double[] exact = t.values();
        int[] lines = new int[t.rows()];
        for (int r = 0; r < lines.length; r++) lines[r] = t.line(r);
        return new Loaded(t.toFloat32PointSet(w -> { }), exact, FLOAT64, null, lines);
    }

    /** The trailing axes of a 3-D array of clips, or null for any other rank; refuses an empty clip. */
    static int[] clipShape(NpyArray a) {
        int[] s = a.shape();
        if (a.rank() > 3) {
            StringBuilder t = new StringBuilder("(");
            for (int i = 0; i < s.length; i++) t.append(i == 0 ? "" : ", ").append(s[i]);
            throw new InvalidInputException(a.source() + ": points must be a 2-D array (n, d) or 3-D clips (n, channels, "
                    + "samples); found shape " + t.append(')'));
        }
        if (a.rank() != 3) return null;
        long values = (long) s[1] * s[2];
        if (values == 0 || values > Integer.MAX_VALUE) {
            throw new InvalidInputException(a.source() + ": an array of shape (" + s[0] + ", " + s[1] + ", " + s[2]
                    + "), whose clips of shape (" + s[1] + ", " + s[2] + ") hold " + (values == 0 ? "no values"
                    : values + " values, more than one row may") + "; expected (n, channels, samples) or (n, samples, "
                    + "channels)");
        }
        return new int[] {s[1], s[2]};
    }

    /** The rows of {@code a} as points: a 3-D array's clips flattened in C order, as {@code reshape(n, -1)}. */
    static PointSet points(NpyArray a, int[] clip, Consumer<String> warnings) {
        // The array read is dropped after this: a float32 input is held once, not copied a second time.
        if (clip == null) return a.toFloat32PointSetTransferring(warnings);
        return PointSet.unchecked(a.shape()[0], clip[0] * clip[1], a.toFloat32Transferring(warnings));
    }

    /** The input file, or null when the points come from standard input. */
    Path inputPath() {
        return input == null || input.equals("-") ? null : Path.of(input);
    }

    /** The input as {@link OutputTargets#refuseOverlaps} takes it: {@code -} for standard input, else its path. */
    Path readPath() {
        return input == null ? null : Path.of(input);
    }

    /** Named .npy, or named nothing PointReaders knows and starting with the NumPy magic (as it reads those). */
    static boolean isNpy(Path p) throws IOException {
        if (Files.isDirectory(p)) return false;
        PointReaders.Format f = PointReaders.formatOf(p.toString(), false);
        if (f != null) return f == PointReaders.Format.NPY;
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) return false;
        try (InputStream in = Files.newInputStream(p)) {
            return Arrays.equals(in.readNBytes(NPY_MAGIC.length), NPY_MAGIC);
        }
    }

    /** A regular file that starts as a zip archive does (a .npz under another name). */
    static boolean startsAsZip(Path p) throws IOException {
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) return false;
        try (InputStream in = Files.newInputStream(p)) {
            return PointReaders.isZip(in.readNBytes(4));
        }
    }

    /**
     * Warnings about the input (a header line read as a point, values rounded or beyond float32's range) are
     * printed with {@code --quiet} too: they say what the results were computed from.
     */
    private static Consumer<String> warnings(PrintWriter err) {
        return w -> err.println("sylva: warning: " + w);
    }

    /**
     * Reads the points as float32; {@code stdin} is what the input {@code -} reads. Reading and parsing
     * look at {@code cancel} before every read of at most 1 MiB.
     */
    PointSet read(PrintWriter err, InputStream stdin, CancellationToken cancel) throws IOException {
        if (input.isBlank()) throw new InvalidInputException("the input's name is empty; name a file of points");
        if (!input.equals("-") && Files.isDirectory(Path.of(input))) {
            // Checked here because a directory's name rarely tells a format, and "cannot tell the
            // format" would send the user looking in the wrong place.
            throw new InvalidInputException(input + ": is a directory; give a file of points");
        }
        if (isSparseNpz()) {
            SparseMatrix m = readSparse(cancel);
            return NpyArray.ofFloat64(m.toDense(input), m.rows(), m.columns()).withSource(input).toPointSet(warnings(err));
        }
        return PointReaders.readPoints(input, Optional.ofNullable(shape), warnings(err), stdin, cancel);
    }

    /**
     * Refuses NaN and infinite coordinates, naming the input, the row and the column (counting from 0,
     * as numpy does) and the way around it.
     */
    void requireFinite(Loaded loaded, String workaround) {
        double[] x = loaded.float64();
        if (x == null) {
            requireFinite(loaded.points(), workaround);
            return;
        }
        int d = loaded.points().dimensions();
        for (int i = 0; i < x.length; i++) {
            if (!Double.isFinite(x[i])) throw nonFinite(i / d, i % d, loaded.lineOf(i / d), x[i], workaround);
        }
    }

    /**
     * Refuses float64 coordinates whose distances {@code metric} cannot represent
     * ({@link Hdbscan#requireRepresentable}: beyond +-1e150, or all within +-2^-512 where the metric squares),
     * naming the input, the row and the column as {@link #requireFinite} does. The library refuses them too;
     * this names the file. float32 values never come close.
     */
    void requireRepresentable(Loaded loaded, Metric metric) {
        double[] x = loaded.float64();
        if (x == null) return;
        int d = loaded.points().dimensions();
        Hdbscan.requireRepresentable(x, d, metric, i -> input + ": row " + i / d + ", column " + i % d
                + " (counting from 0" + loaded.lineOf(i / d) + ")", input + ": ");
    }

    void requireFinite(PointSet points, String workaround) {
        int bad = points.firstNonFinite();
        if (bad < 0) return;
        int d = points.dimensions();
        throw nonFinite(bad / d, bad % d, "", points.get(bad / d, bad % d), workaround);
    }

    private InvalidInputException nonFinite(int row, int col, String line, double v, String workaround) {
        return new InvalidInputException(input + ": row " + row + ", column " + col + " (counting from 0" + line + ") is "
                + (Double.isNaN(v) ? "NaN" : v > 0 ? "+inf" : "-inf") + workaround);
    }
}
