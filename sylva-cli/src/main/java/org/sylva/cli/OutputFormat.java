package org.sylva.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.sylva.io.AtomicOutput;
import org.sylva.io.DelimitedWriter;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;

/** How output arrays are written: {@code .npy} (default) or {@code .csv}. */
enum OutputFormat {
    NPY, CSV;

    String extension() {
        return this == NPY ? ".npy" : ".csv";
    }

    /** Stages {@code array} as {@code dir/base.ext} in {@code group}; visible only at commit. */
    Path stage(AtomicOutput.Group group, Path dir, String base, NpyArray array) throws IOException {
        Path target = dir.resolve(base + extension());
        if (this == NPY) {
            group.write(target, out -> Npy.write(out, array));
        } else {
            DelimitedWriter w = DelimitedWriter.csv();
            group.write(target, out -> w.write(out, array));
        }
        return target;
    }
}
