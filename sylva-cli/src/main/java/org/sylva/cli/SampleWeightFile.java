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
    private static final byte[] NPY_MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

    private SampleWeightFile() {
    }

    static SampleWeights read(Path file, int rows, CancellationToken cancel) throws IOException {
        String name = file.toString();
        try {
            if (Files.isDirectory(file)) {
                throw InvalidInputException.forParameter("sample_weight", "is a directory; give a file of weights");
            }
            if (!Files.exists(file)) throw InvalidInputException.forParameter("sample_weight", "no such file");
            String[] note = new String[1];
            double[] w = read(file, note, cancel);
            if (w.length != rows) {
                throw InvalidInputException.forParameter("sample_weight", w.length + " sample weights for " + rows
                        + " rows: give one weight per row" + (note[0] == null ? "" : " (" + note[0] + ")"));
            }
            return SampleWeights.of(w);
        } catch (InvalidInputException e) {
            throw e.withContext("--sample-weight " + name);
        }
    }

    /**
     * The weights in {@code file}: NumPy when it starts with NumPy's magic, whatever its name (a regular file is
     * read by path, a pipe such as {@code <(...)} as a stream), else text; {@code note[0]} gets the text reader's
     * note (a first line that may be a header) for the count's message.
     */
    private static double[] read(Path file, String[] note, CancellationToken cancel) throws IOException {
        String name = file.toString();
        if (Files.isRegularFile(file)) {
            boolean npy;
            try (InputStream in = Files.newInputStream(file)) {
                npy = Arrays.equals(in.readNBytes(NPY_MAGIC.length), NPY_MAGIC);
            } catch (java.nio.file.AccessDeniedException e) {
                throw InvalidInputException.forParameter("sample_weight", "cannot be read (permission denied)");
            }
            return npy ? npy(Npy.read(file, cancel)) : text(DelimitedReader.forFile(name).read(file, cancel), note);
        }
        try (InputStream raw = CancellableInputStream.of(Files.newInputStream(file), cancel)) {
            BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
            in.mark(NPY_MAGIC.length);
            boolean npy = Arrays.equals(in.readNBytes(NPY_MAGIC.length), NPY_MAGIC);
            in.reset();
            return npy ? npy(Npy.read(in, name)) : text(DelimitedReader.forFile(name).read(in, name), note);
        }
    }

    private static double[] npy(NpyArray a) {
        int[] shape = a.shape();
        if (!(shape.length == 1 || (shape.length == 2 && shape[1] == 1))) {
            throw InvalidInputException.forParameter("sample_weight", "sample weights must be one per row, shape (n,) "
                    + "or (n, 1); the file has shape " + Arrays.toString(shape));
        }
        return a.toFloat64();
    }

    private static double[] text(NumericTable t, String[] note) {
        if (t.columns() != 1) {
            throw InvalidInputException.forParameter("sample_weight", "sample weights must be one per line; the file "
                    + "has " + t.columns() + " values on each line");
        }
        double[] w = t.values();
        note[0] = t.note().orElse(w.length > 0 && w[0] == 0 && t.header().isEmpty()
                ? "if its first line, 0, is the header pandas writes for an unnamed Series, save it with"
                        + " header=False or name the Series" : null);
        return w;
    }
}
