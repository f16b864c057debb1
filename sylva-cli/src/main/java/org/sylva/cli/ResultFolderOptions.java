package org.sylva.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options of a command that writes a result folder from a saved model ({@code predict}, {@code cut},
 * {@code reselect}): where ({@code --out}), in which format ({@code --format}) and whether a JSON summary
 * goes to stdout ({@code --json}).
 *
 * <pre>{@code
 * @Mixin ResultFolderOptions folder = new ResultFolderOptions();   // then folder.out, folder.format, folder.json
 * }</pre>
 */
final class ResultFolderOptions {
    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory (created if needed; "
            + "a second run into it while this one runs is refused at once). The manifest sylva-run.json, removed first "
            + "and written last, marks the folder complete (sylva verify DIR).")
    Path out;

    @Option(names = "--format", paramLabel = "npy|csv", defaultValue = "npy", description = "Output file format.")
    OutputFormat format;

    @Option(names = "--json", description = "Print a machine-readable summary on stdout (one JSON line).")
    boolean json;
}
