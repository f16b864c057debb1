package org.sylva.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.io.NpyDtype;
import org.sylva.io.PointReaders;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The input file of a command and how to read it. */
final class InputOptions {
    @Parameters(index = "0", paramLabel = "INPUT",
            description = "Points: .npy (float32/float64/int, any byte order, C or Fortran order), .csv/.tsv "
                    + "(numbers, optional header row), or raw little-endian float32 with --shape; '-' reads stdin.")
    String input;

    @Option(names = "--shape", paramLabel = "N,D", description = "Shape of a raw float32 input (required for raw files).")
    String shape;

    /**
     * Points as read for a fit. {@code float64} holds a float64 {@code .npy}'s values exactly (the fit
     * then computes scikit-learn's distances, with no rounding to float32 first); it is null for every
     * other input. {@code points} is always there (float32), for the summary, the report and the checks.
     *
     * <pre>{@code
     * InputOptions.Loaded in = inputOptions.readForFit(err, false, System.in);
     * }</pre>
     *
     * @param points the points as float32
     * @param float64 the exact float64 values, row-major, or null
     */
    record Loaded(PointSet points, double[] float64) {
    }

    private static final byte[] NPY_MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

    /** As {@link #read}, keeping a float64 {@code .npy}'s exact values (see {@link Loaded}). */
    Loaded readForFit(PrintWriter err, boolean quiet, InputStream stdin) throws IOException {
        if (shape != null) return new Loaded(read(err, quiet, stdin), null);
        NpyArray a;
        if (input.equals("-")) {
            BufferedInputStream b = new BufferedInputStream(stdin, 1 << 16);
            b.mark(NPY_MAGIC.length);
            byte[] head = b.readNBytes(NPY_MAGIC.length);
            b.reset();
            if (!Arrays.equals(head, NPY_MAGIC)) return new Loaded(read(err, quiet, b), null);
            a = Npy.read(b, "-");
        } else if (PointReaders.formatOf(input, false) == PointReaders.Format.NPY && !Files.isDirectory(Path.of(input))) {
            a = Npy.read(Path.of(input));
        } else {
            return new Loaded(read(err, quiet, stdin), null);
        }
        if (a.dtype() != NpyDtype.FLOAT64) return new Loaded(a.toPointSet(warnings(err, quiet)), null);
        // The float32 copy only feeds the report and the summary, so its rounding is not worth a warning.
        PointSet points = a.toPointSet(w -> { });
        return new Loaded(points, a.toFloat64());
    }

    private static Consumer<String> warnings(PrintWriter err, boolean quiet) {
        return w -> {
            if (!quiet) err.println("sylva: warning: " + w);
        };
    }

    /** Reads the points as float32; {@code stdin} is what the input {@code -} reads. */
    PointSet read(PrintWriter err, boolean quiet, InputStream stdin) throws IOException {
        if (!input.equals("-") && Files.isDirectory(Path.of(input))) {
            // Checked here because a directory's name rarely tells a format, and "cannot tell the
            // format" would send the user looking in the wrong place.
            throw new InvalidInputException(input + ": is a directory; give a file of points");
        }
        return PointReaders.readPoints(input, Optional.ofNullable(shape), warnings(err, quiet), stdin);
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
            if (!Double.isFinite(x[i])) throw nonFinite(i / d, i % d, x[i], workaround);
        }
    }

    void requireFinite(PointSet points, String workaround) {
        int bad = points.firstNonFinite();
        if (bad < 0) return;
        int d = points.dimensions();
        throw nonFinite(bad / d, bad % d, points.get(bad / d, bad % d), workaround);
    }

    private InvalidInputException nonFinite(int row, int col, double v, String workaround) {
        return new InvalidInputException(input + ": row " + row + ", column " + col + " (counting from 0) is "
                + (Double.isNaN(v) ? "NaN" : v > 0 ? "+inf" : "-inf") + workaround);
    }
}
