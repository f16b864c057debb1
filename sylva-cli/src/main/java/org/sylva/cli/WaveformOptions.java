package org.sylva.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.sylva.cli.report.Waveforms;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.io.Npy;
import org.sylva.io.NpyArray;
import org.sylva.io.PointReaders;
import org.sylva.progress.CancellationToken;

/**
 * Which waveform clips the HDBSCAN report draws, if any: the input's own rows ({@code --waveforms},
 * {@code --channels C}), a second file's rows ({@code --waveforms-from FILE}), or, without these
 * options, only an input that is unambiguously clips: a 3-D {@code .npy} whose two trailing axes differ
 * (the shorter one is the channels: {@code (n, 4, 61)} or {@code (n, 61, 4)}). A 2-D input is never
 * taken for clips on its own, because nothing tells 784 pixels or 16 features from 61 samples.
 * {@link #resolve} takes the input as read, before any transformation, so a command that clusters
 * derived features (e.g. principal components) still draws the original clips.
 *
 * <pre>{@code
 * Waveforms w = waveformOptions.resolve(loaded, inputName, err, quiet, token);   // null: no waveform section
 * }</pre>
 */
final class WaveformOptions {
    Boolean waveforms;
    Integer channels;
    Path from;

    /** Adds these options to {@code m}, bound to this object. */
    void declare(CommandModel m) {
        m.option(Boolean.class, v -> waveforms = v, "--waveforms")
                .negatable(true)
                .description("The report draws each cluster's mean clip +- 1 sd, taking the rows as clips "
                        + "(--no-waveforms: never). Without --waveforms, --channels or --waveforms-from only a 3-D "
                        + ".npy input (n, C, S) or (n, S, C) whose two trailing axes differ gets waveform panels "
                        + "(the shorter axis is the channels); 2-D inputs (pixels, features) do not.");
        m.option(Integer.class, v -> channels = v, "--channels")
                .paramLabel("C")
                .description("Clips have C channels (implies --waveforms): a 2-D row is C channels of d/C samples, "
                        + "one channel after the other; for a 3-D .npy, C names the channel axis.");
        m.option(Path.class, v -> from = v, "--waveforms-from")
                .paramLabel("FILE")
                .description("Draw the waveforms from FILE instead of the input (implies --waveforms): .npy (2-D or "
                        + "3-D) or text, one clip per input row, e.g. the clips whose features are clustered.");
    }

    /** True when an option was given (they only matter with --report). */
    boolean given() {
        return waveforms != null || channels != null || from != null;
    }

    /**
     * The clips to draw for the points read from {@code input} ({@code loaded}), or null for none;
     * refuses a bad or contradictory option, naming it, and a second file whose row count differs.
     */
    Waveforms resolve(InputOptions.Loaded loaded, String input, PrintWriter err, boolean quiet, CancellationToken cancel)
            throws IOException {
        if (channels != null && channels < 1) {
            throw InvalidInputException.forParameter("channels", "channels must be at least 1; got " + channels);
        }
        if (Boolean.FALSE.equals(waveforms)) {
            if (channels != null || from != null) {
                throw new InvalidInputException("--no-waveforms contradicts "
                        + (from != null ? "--waveforms-from" : "--channels") + "; give one or the other");
            }
            return null;
        }
        PointSet points = loaded.points();
        if (from != null) return fromFile(points.size(), input, cancel);
        boolean asked = Boolean.TRUE.equals(waveforms) || channels != null;
        if (loaded.clipShape() != null) return ofClips(points, loaded.clipShape(), input, asked, err, quiet);
        if (!asked) return null;
        return ofRows(points, input);
    }

    /** Rows of C channels one after the other (C = --channels, default 1). */
    private Waveforms ofRows(PointSet rows, String name) {
        int c = channels == null ? 1 : channels;
        if (rows.dimensions() % c != 0) {
            throw InvalidInputException.forParameter("channels", c + " channels do not divide the "
                    + rows.dimensions() + " values of each row of " + name
                    + " (a row must be C channels of equal length, one after the other)");
        }
        return new Waveforms(rows.size(), c, rows.dimensions() / c, rows.coordinates(), Waveforms.Layout.CHANNEL_MAJOR);
    }

    /**
     * Clips of a 3-D array {@code (n, A, B)}: the channel axis is the one --channels names, else the
     * shorter one; with A == B it cannot be told, so only an explicit option draws them (as (n, C, S)).
     */
    private Waveforms ofClips(PointSet rows, int[] ab, String name, boolean asked, PrintWriter err, boolean quiet) {
        int a = ab[0], b = ab[1];
        boolean channelMajor;
        if (channels != null) {
            if (channels != a && channels != b) {
                throw InvalidInputException.forParameter("channels", "channels " + channels
                        + " is neither axis of the clips of " + name + ", whose shape is (n, " + a + ", " + b + ")");
            }
            channelMajor = channels == a;
        } else if (a == b && !asked) {
            if (!quiet) {
                err.println("sylva: note: " + name + " holds clips of shape (" + a + ", " + b + "): cannot tell the"
                        + " channels from the samples, so the report draws no waveforms; add --channels " + a);
            }
            return null;
        } else {
            channelMajor = a <= b;
        }
        int c = channelMajor ? a : b;
        return new Waveforms(rows.size(), c, a * b / c, rows.coordinates(),
                channelMajor ? Waveforms.Layout.CHANNEL_MAJOR : Waveforms.Layout.SAMPLE_MAJOR);
    }

    /** The clips of the second file: as many rows as the input has points, read as the input is read. */
    private Waveforms fromFile(int n, String input, CancellationToken cancel) throws IOException {
        String name = from.toString();
        if (name.equals("-")) {
            throw InvalidInputException.forParameter("waveforms_from", "waveforms cannot come from standard input;"
                    + " give a file");
        }
        if (name.isBlank()) throw InvalidInputException.forParameter("waveforms_from", "--waveforms-from is empty; name a file of clips");
        if (Files.isDirectory(from)) {
            throw InvalidInputException.forParameter("waveforms_from", name + ": is a directory; give a file of clips");
        }
        if (!Files.exists(from)) throw InvalidInputException.forParameter("waveforms_from", name + ": no such file");
        PointSet rows;
        int[] clip = null;
        if (PointReaders.isUnnamedStream(from)) {
            // a pipe (<(...)): read once, told by its content, as the input is
            InputOptions.Opened o;
            try (java.io.InputStream in = Files.newInputStream(from)) {
                o = InputOptions.openStream(in, name, name, cancel);
            }
            if (o.npy() != null) {
                clip = InputOptions.clipShape(o.npy());
                rows = InputOptions.points(o.npy(), clip, w -> { });
            } else {
                rows = o.text().toFloat32PointSet(w -> { });
            }
        } else if (InputOptions.isNpy(from)) {
            NpyArray a = Npy.read(from, cancel);
            clip = InputOptions.clipShape(a);
            rows = InputOptions.points(a, clip, w -> { });
        } else if (PointReaders.formatOf(name, false) == PointReaders.Format.DELIMITED) {
            rows = PointReaders.readPoints(from, Optional.empty(), w -> { }, cancel);
        } else {
            throw InvalidInputException.forParameter("waveforms_from", name + ": cannot tell the format from the"
                    + " name; give a .npy or a text file (.csv, .tsv, .txt)");
        }
        if (rows.size() != n) {
            throw InvalidInputException.forParameter("waveforms_from", name + " has " + rows.size() + " rows but "
                    + input + " has " + n + " points; the report needs one clip per point");
        }
        return clip != null ? ofClips(rows, clip, name, true, null, true) : ofRows(rows, name);
    }
}
