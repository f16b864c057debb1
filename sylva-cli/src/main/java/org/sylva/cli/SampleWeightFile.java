package org.sylva.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.SampleWeights;
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
        try {
            if (Files.isDirectory(file)) {
                throw InvalidInputException.forParameter("sample_weight", "is a directory; give a file of weights");
            }
            if (!Files.exists(file)) throw InvalidInputException.forParameter("sample_weight", "no such file");
            double[] w = InputOptions.isNpy(file) ? npy(file, cancel) : text(file, cancel);
            if (w.length != rows) {
                throw InvalidInputException.forParameter("sample_weight", w.length + " sample weights for " + rows
                        + " rows: give one weight per row");
            }
            return SampleWeights.of(w);
        } catch (InvalidInputException e) {
            throw e.withContext("--sample-weight " + name);
        }
    }

    private static double[] npy(Path file, CancellationToken cancel) throws IOException {
        NpyArray a = Npy.read(file, cancel);
        int[] shape = a.shape();
        if (!(shape.length == 1 || (shape.length == 2 && shape[1] == 1))) {
            throw InvalidInputException.forParameter("sample_weight", "sample weights must be one per row, shape (n,) "
                    + "or (n, 1); the file has shape " + Arrays.toString(shape));
        }
        return a.toFloat64();
    }

    private static double[] text(Path file, CancellationToken cancel) throws IOException {
        NumericTable t = DelimitedReader.forFile(file.toString()).read(file, cancel);
        if (t.columns() != 1) {
            throw InvalidInputException.forParameter("sample_weight", "sample weights must be one per line; the file "
                    + "has " + t.columns() + " values on each line");
        }
        return t.values();
    }
}
