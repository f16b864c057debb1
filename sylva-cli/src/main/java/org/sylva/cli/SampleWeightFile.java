package org.sylva.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.SampleWeights;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.progress.CancellationToken;

/**
 * Reads {@code --sample-weight FILE}: a {@code .npy} of one weight per row (shape {@code (n,)} or
 * {@code (n, 1)}, any numeric dtype), or a text file with one weight per line (a CSV column; blank lines
 * at the end ignored). Weights must be whole numbers >= 0 ({@link SampleWeights}); a bad one, a wrong
 * count or a malformed line is an error naming the file and the row.
 *
 * <pre>{@code
 * SampleWeights w = SampleWeightFile.read(Path.of("weights.npy"), points.size(), cancel);
 * }</pre>
 */
final class SampleWeightFile {
    /** Lines read between two looks at the cancellation token. */
    private static final int CHECK_EVERY = 1 << 14;

    private SampleWeightFile() {
    }

    static SampleWeights read(Path file, int rows, CancellationToken cancel) throws IOException {
        String name = file.toString();
        double[] w;
        try {
            w = name.endsWith(".npy") ? npy(file, cancel) : text(file, cancel);
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
        double[] w = new double[1024];
        int n = 0;
        int blankFrom = -1;   // the first of a run of blank lines, which only the end may have
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            for (int lineNo = 1; (line = r.readLine()) != null; lineNo++) {
                if ((lineNo & (CHECK_EVERY - 1)) == 0) cancel.throwIfCancelled();
                if (lineNo == 1 && line.startsWith("\uFEFF")) line = line.substring(1);   // a UTF-8 byte order mark
                String s = line.strip();
                if (s.isEmpty()) {
                    if (blankFrom < 0) blankFrom = lineNo;
                    continue;
                }
                if (blankFrom >= 0) {
                    throw InvalidInputException.forParameter("sample_weight", "line " + blankFrom + " is blank: one "
                            + "weight per line, no gaps");
                }
                double v;
                try {
                    v = Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    String shown = s.length() > 40 ? s.substring(0, 40) + "..." : s;
                    throw InvalidInputException.forParameter("sample_weight", "line " + lineNo + " is \"" + shown
                            + "\": one number per line");
                }
                if (n == w.length) w = Arrays.copyOf(w, n * 2);
                w[n++] = v;
            }
        }
        return Arrays.copyOf(w, n);
    }
}
