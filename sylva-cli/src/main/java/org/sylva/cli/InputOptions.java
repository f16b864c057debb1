package org.sylva.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;
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
        return PointReaders.readPoints(input, Optional.ofNullable(shape), w -> {
            if (!quiet) err.println("sylva: warning: " + w);
        });
    }
}
