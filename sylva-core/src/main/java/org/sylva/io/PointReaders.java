package org.sylva.io;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.progress.CancellationToken;

/**
 * The one entry point the command line uses to read points, choosing the reader from the name:
 * {@code .npy} ({@link Npy}), {@code .csv}/{@code .tsv}/{@code .tab}/{@code .txt}/{@code .dat}
 * ({@link DelimitedReader}), anything else with a stated shape {@code "N,D"} as raw little-endian
 * float32 ({@link RawFloat32Reader}); a file with another name and no shape is read as {@code .npy}
 * if it starts with the NumPy magic, else refused with the list of formats. {@code "-"} reads
 * standard input: raw float32 when a shape is given, {@code .npy} when it starts with the magic,
 * delimited text otherwise; so does a pipe or FIFO named without a known extension (a shell's
 * {@code <(...)}), read once. Finiteness is NOT checked (callers decide, e.g.
 * {@link PointSet#requireFinite()}); every other problem is an {@link InvalidInputException} naming
 * the file. The points are float32: float64 values are rounded to nearest, with one warning naming the
 * first value that changed for a float64, int32 or int64 {@code .npy}, and for text (parsed as float64,
 * whose decimals are rarely float32 values) only when a value overflows float32. For a fit that keeps
 * float64 input exact (as scikit-learn clusters it), read with {@link NpyArray#toPointSet(Consumer)} or
 * {@link NumericTable#toPointSet()} instead; the command line does that itself.
 *
 * <pre>{@code
 * PointSet pts = PointReaders.readPoints("clips.npy", Optional.empty(), System.err::println);
 * PointSet raw = PointReaders.readPoints("cloud.f32", Optional.of("100000,3"), System.err::println);
 * }</pre>
 */
public final class PointReaders {
    /**
     * How an input is read.
     *
     * <pre>{@code
     * PointReaders.Format f = PointReaders.formatOf("cloud.bin", true);   // RAW_FLOAT32
     * }</pre>
     */
    public enum Format { NPY, DELIMITED, RAW_FLOAT32 }

    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

    private PointReaders() {
    }

    /** Reads {@code source} (a path, or {@code "-"} for standard input). */
    public static PointSet readPoints(String source, Optional<String> shape, Consumer<String> warnings)
            throws IOException {
        return readPoints(source, shape, warnings, System.in);
    }

    /** As {@link #readPoints(String, Optional, Consumer)} with an explicit stream standing for {@code "-"}. */
    public static PointSet readPoints(String source, Optional<String> shape, Consumer<String> warnings,
            InputStream stdin) throws IOException {
        return readPoints(source, shape, warnings, stdin, CancellationToken.NEVER);
    }

    /**
     * As {@link #readPoints(String, Optional, Consumer, InputStream)}, checking {@code cancel} before every
     * read of at most 1 MiB (so reading and parsing stop within milliseconds of a Ctrl-C).
     */
    public static PointSet readPoints(String source, Optional<String> shape, Consumer<String> warnings,
            InputStream stdin, CancellationToken cancel) throws IOException {
        Objects.requireNonNull(source, "source");
        if (source.equals("-")) return readStream(CancellableInputStream.of(stdin, cancel), "-", shape, warnings);
        return readPoints(Path.of(source), shape, warnings, cancel);
    }

    /** Reads a file, the format chosen by its name (see the class description). */
    public static PointSet readPoints(Path path, Optional<String> shape, Consumer<String> warnings) throws IOException {
        return readPoints(path, shape, warnings, CancellationToken.NEVER);
    }

    /** As {@link #readPoints(Path, Optional, Consumer)}, checking {@code cancel} between reads. */
    public static PointSet readPoints(Path path, Optional<String> shape, Consumer<String> warnings,
            CancellationToken cancel) throws IOException {
        Objects.requireNonNull(warnings, "warnings");
        String name = path.toString();
        if (shape.isPresent() && name.toLowerCase(Locale.ROOT).endsWith(".npz")) {
            // a raw float32 read would take the archive's bytes for coordinates
            throw new InvalidInputException(name + ": a shape is only for raw float32 input; this .npz states its "
                    + "own");
        }
        Format f = formatOf(name, shape.isPresent());
        if (f == Format.RAW_FLOAT32 && isUnnamedStream(path)) {
            // a pipe with a shape (/dev/stdin, <(...)): read once, checked for NumPy's magic as standard input is
            try (InputStream in = Files.newInputStream(path)) {
                return readStream(CancellableInputStream.of(in, cancel), name, shape, warnings);
            }
        }
        if (f == Format.RAW_FLOAT32 && Files.isRegularFile(path)) {
            refuseNpyForRaw(name, head(path));   // a .npy or .npz under another name, with a shape
        }
        if (f == null && isUnnamedStream(path)) {
            // read once, told by its content as standard input is (probing it first would consume its bytes)
            try (InputStream in = Files.newInputStream(path)) {
                return readStream(CancellableInputStream.of(in, cancel), name, shape, warnings);
            }
        }
        if (f == null) {
            if (Files.isRegularFile(path) && startsWithMagic(path)) {
                f = Format.NPY;
            } else {
                if (!Files.exists(path)) throw new InvalidInputException(name + ": " + InputFiles.missing(path));
                throw new InvalidInputException(name + ": cannot tell the format from the name; use .npy, .csv, "
                        + ".tsv, .txt, or raw little-endian float32, which needs its shape N,D (--shape on the command "
                        + "line)");
            }
        }
        if (shape.isPresent() && f != Format.RAW_FLOAT32) {
            throw new InvalidInputException(name + ": a shape is only for raw float32 input; this "
                    + (f == Format.NPY ? ".npy file states its shape in its header" : "text file's rows give its shape"));
        }
        return switch (f) {
            case NPY -> Npy.read(path, cancel).toFloat32PointSetTransferring(warnings);
            case DELIMITED -> DelimitedReader.forFile(name).read(path, cancel).toFloat32PointSet(warnings);
            case RAW_FLOAT32 -> RawFloat32Reader.read(path, RawFloat32Reader.Shape.parse(shape.orElseThrow()), cancel);
        };
    }

    /**
     * Whether {@code path} is a stream that its name does not type: a pipe, FIFO or process substitution
     * ({@code <(...)}, {@code /dev/fd/63}) without a known extension, whose format only its content tells and
     * whose bytes can be read once.
     */
    public static boolean isUnnamedStream(Path path) {
        String name = path.toString();
        return formatOf(name, false) == null && !name.toLowerCase(Locale.ROOT).endsWith(".npz") && Files.exists(path)
                && !Files.isRegularFile(path) && !Files.isDirectory(path);
    }

    /**
     * The format a name implies: NPY for {@code .npy}, DELIMITED for text extensions, RAW_FLOAT32 for
     * any other name when a shape is given, null when the name does not tell.
     */
    public static Format formatOf(String name, boolean shapeGiven) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.endsWith(".npy")) return Format.NPY;
        if (n.endsWith(".csv") || n.endsWith(".tsv") || n.endsWith(".tab") || n.endsWith(".txt") || n.endsWith(".dat")) {
            return Format.DELIMITED;
        }
        return shapeGiven ? Format.RAW_FLOAT32 : null;
    }

    private static PointSet readStream(InputStream stdin, String name, Optional<String> shape, Consumer<String> warnings)
            throws IOException {
        Objects.requireNonNull(warnings, "warnings");
        BufferedInputStream in = new BufferedInputStream(stdin, 1 << 16);
        in.mark(MAGIC.length);
        byte[] head = in.readNBytes(MAGIC.length);
        in.reset();
        String what = name.equals("-") ? "standard input" : name;
        if (shape.isPresent()) {
            refuseNpyForRaw(what, head);
            return RawFloat32Reader.read(in, name, RawFloat32Reader.Shape.parse(shape.get()));
        }
        if (isZip(head)) {
            throw new InvalidInputException(what + " holds a zip archive (a .npz?): " + SparseNpz.NEEDS_A_FILE);
        }
        if (Arrays.equals(head, MAGIC)) return Npy.read(in, name).toFloat32PointSetTransferring(warnings);
        return DelimitedReader.of(DelimitedReader.Delimiter.AUTO).read(in, name).toFloat32PointSet(warnings);
    }

    /**
     * Refuses raw float32 input (a shape given) that starts with NumPy's six magic bytes, or with a zip archive's
     * four (a .npz): its header would be read as coordinates without a word, or the sizes would not match. (Raw data
     * starting so would need its first float32 to be 223668528.0 and the next two bytes "PY", or 1.54e-36.)
     */
    private static void refuseNpyForRaw(String what, byte[] head) {
        if (Arrays.equals(head, MAGIC)) {
            throw new InvalidInputException(what + " holds a .npy (NumPy's magic), which states its own shape: a "
                    + "shape is only for raw float32 input; leave it out");
        }
        if (isZip(head)) {
            throw new InvalidInputException(what + " holds a zip archive (a .npz?), whose arrays state their own "
                    + "shapes: a shape is only for raw float32 input; give the .npz by its file name without --shape");
        }
    }

    /** Whether {@code head} starts with a zip archive's local file header signature ({@code PK\3\4}). */
    public static boolean isZip(byte[] head) {
        return head.length >= 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4;
    }

    /** The first bytes of {@code path}, as many as NumPy's magic has (fewer for a shorter file; none if unreadable). */
    private static byte[] head(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            return in.readNBytes(MAGIC.length);
        } catch (java.nio.file.AccessDeniedException e) {
            return new byte[0];
        }
    }

    private static boolean startsWithMagic(Path path) throws IOException {
        return Arrays.equals(head(path), MAGIC);
    }
}
