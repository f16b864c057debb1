package org.sylva.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.SampleWeights;
import org.sylva.io.CancellableInputStream;
import org.sylva.io.DelimitedReader;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.io.NumericTable;
import org.sylva.progress.CancellationToken;

/**
 * Reads {@code --sample-weight FILE}: a NumPy file of one weight per row (told by its magic bytes, whatever its
 * name; shape {@code (n,)} or {@code (n, 1)}, any numeric dtype), or text of one weight per line, read as the
 * command line reads a one-column text input ({@link DelimitedReader}: a header row, blank lines and {@code #}
 * comments skipped, the same number syntax, a binary file refused as not being text). Weights must be whole
 * numbers >= 0 ({@link SampleWeights}); a bad one, a wrong count or a malformed line is an error naming the file
 * and the line or row.
 *
 * <pre>{@code
 * SampleWeights w = SampleWeightFile.read(Path.of("weights.npy"), points.size(), cancel);
 * }</pre>
 */
final class SampleWeightFile {
    private SampleWeightFile() {
    }

    static SampleWeights read(Path file, int rows, CancellationToken cancel) throws IOException {
        String name = file.toString();
        if (name.isBlank()) throw InvalidInputException.forParameter("sample_weight", "--sample-weight is empty; name a file of weights");
        try {
            if (Files.isDirectory(file)) {
                throw InvalidInputException.forParameter("sample_weight", "is a directory; give a file of weights");
            }
            if (!Files.exists(file)) throw InvalidInputException.forParameter("sample_weight", "no such file");
            Read w = read(file, cancel);
            if (w.values().length != rows) {
                throw InvalidInputException.forParameter("sample_weight", w.values().length + " sample weights for "
                        + rows + " rows: give one weight per row" + (w.note() == null ? "" : " (" + w.note() + ")"));
            }
            return SampleWeights.of(w.values());
        } catch (InvalidInputException e) {
            throw e.withContext("--sample-weight " + name);
        }
    }

    /** The weights as read, and for text a note on a first line that may be a header (for the count's message). */
    private record Read(double[] values, String note) {
    }

    /**
     * The weights in {@code file}: NumPy when it starts with NumPy's magic, whatever its name (a regular file is
     * read by path, a pipe such as {@code <(...)} as a stream), else text.
     */
    private static Read read(Path file, CancellationToken cancel) throws IOException {
        String name = file.toString();
        if (Files.isRegularFile(file)) {
            boolean npy;
            try (InputStream in = Files.newInputStream(file)) {
                npy = Arrays.equals(in.readNBytes(InputOptions.NPY_MAGIC.length), InputOptions.NPY_MAGIC);
            } catch (java.nio.file.AccessDeniedException e) {
                throw InvalidInputException.forParameter("sample_weight", "cannot be read (permission denied)");
            }
            return npy ? npy(Npy.read(file, cancel)) : text(DelimitedReader.forFile(name).read(file, cancel));
        }
        try (InputStream raw = CancellableInputStream.of(Files.newInputStream(file), cancel)) {
            BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
            in.mark(InputOptions.NPY_MAGIC.length);
            boolean npy = Arrays.equals(in.readNBytes(InputOptions.NPY_MAGIC.length), InputOptions.NPY_MAGIC);
            in.reset();
            return npy ? npy(Npy.read(in, name)) : text(DelimitedReader.forFile(name).read(in, name));
        }
    }

    private static Read npy(NpyArray a) {
        int[] shape = a.shape();
        if (!(shape.length == 1 || (shape.length == 2 && shape[1] == 1))) {
            throw InvalidInputException.forParameter("sample_weight", "sample weights must be one per row, shape (n,) "
                    + "or (n, 1); the file has shape " + Arrays.toString(shape));
        }
        return new Read(a.toFloat64(), null);
    }

    private static Read text(NumericTable t) {
        if (t.columns() != 1) {
            throw InvalidInputException.forParameter("sample_weight", "sample weights must be one per line; the file "
                    + "has " + t.columns() + " values on each line");
        }
        double[] w = t.values();
        return new Read(w, t.note().orElse(w.length > 0 && w[0] == 0 && t.header().isEmpty()
                ? "if its first line, 0, is the header pandas writes for an unnamed Series, save it with"
                        + " header=False or name the Series" : null));
    }
}
