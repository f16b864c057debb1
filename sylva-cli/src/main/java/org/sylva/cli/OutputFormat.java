package org.sylva.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.sylva.io.AtomicOutput;
import org.sylva.io.DelimitedWriter;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;

/** How output arrays are written: {@code .npy} (default) or {@code .csv}. */
enum OutputFormat {
    NPY, CSV;

    /** Declares the {@code --format npy|csv} option (default npy) on {@code m}, its value going to {@code setter}. */
    static void declare(CommandModel m, Consumer<OutputFormat> setter) {
        m.option(OutputFormat.class, setter, "--format").paramLabel("npy|csv").defaultValue("npy")
                .description("Output file format (default ${DEFAULT-VALUE}).");
    }

    String extension() {
        return this == NPY ? ".npy" : ".csv";
    }

    /**
     * Stages {@code array} as {@code dir/base.ext} in {@code group}; visible only at commit. For a
     * floating-point matrix some of whose columns hold integers (ids, sizes), {@code integerColumns} names
     * them: CSV writes their values as integers ({@code 407}, not {@code 407.0}); the {@code .npy} file is
     * the same float64 array either way.
     */
    Path stage(AtomicOutput.Group group, Path dir, String base, NpyArray array, int... integerColumns)
            throws IOException {
        Path target = dir.resolve(base + extension());
        if (this == NPY) {
            group.write(target, out -> Npy.write(out, array));
        } else {
            DelimitedWriter w = DelimitedWriter.csv().withIntegerColumns(integerColumns);
            group.write(target, out -> w.write(out, array));
        }
        return target;
    }
}
