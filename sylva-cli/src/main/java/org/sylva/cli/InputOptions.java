package org.sylva.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
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

    PointSet read(PrintWriter err, boolean quiet) throws IOException {
        if (!input.equals("-") && Files.isDirectory(Path.of(input))) {
            // Checked here because a directory's name rarely tells a format, and "cannot tell the
            // format" would send the user looking in the wrong place.
            throw new InvalidInputException(input + ": is a directory; give a file of points");
        }
        try {
            return PointReaders.readPoints(input, Optional.ofNullable(shape), w -> {
                if (!quiet) err.println("sylva: warning: " + w);
            }, Main.stdin());
        } catch (InvalidInputException e) {
            // The reader speaks of "a shape N,D"; on the command line that is the --shape option.
            String m = e.getMessage();
            if (m == null || !m.contains("with a shape N,D")) throw e;
            throw new InvalidInputException(m.replace("with a shape N,D", "with --shape N,D"), e);
        }
    }

    /**
     * Refuses NaN and infinite coordinates, naming the input, the row and the column (counting from 0,
     * as numpy does) and the way around it.
     */
    void requireFinite(PointSet points, String workaround) {
        int bad = points.firstNonFinite();
        if (bad < 0) return;
        int d = points.dimensions();
        float v = points.get(bad / d, bad % d);
        throw new InvalidInputException(input + ": row " + bad / d + ", column " + bad % d + " (counting from 0) is "
                + (Float.isNaN(v) ? "NaN" : v > 0 ? "+inf" : "-inf") + workaround);
    }
}
