package org.sylva.cli.report;

import org.sylva.data.InvalidInputException;

/**
 * The waveform clips the report draws in its "Waveforms by cluster" section, given apart from the
 * points that were clustered, so that a run which clusters derived features (principal components,
 * a second file's features) can still show the original clips: row {@code i} here is the clip of
 * point {@code i}. Each row holds {@code channels x samples} float32 values in one of two layouts:
 * {@link Layout#CHANNEL_MAJOR} (channel 0's samples, then channel 1's, ...; a NumPy array of shape
 * {@code (n, C, S)} or a 2-D array whose rows are the channels one after the other) or
 * {@link Layout#SAMPLE_MAJOR} (every channel's value at sample 0, then at sample 1, ...; shape
 * {@code (n, S, C)}). The array is taken over without a copy; callers must not modify it afterwards.
 *
 * <pre>{@code
 * // 4-channel clips of 61 samples, rows = [ch0 s0..s60, ch1 s0..s60, ...]; or the clustered points
 * // themselves when they are single-channel clips: Waveforms.channelMajor(n, 1, coords)
 * Waveforms w = Waveforms.channelMajor(n, 4, clips);
 * HdbscanReportData.builder().points(n, k, pcaScores).waveforms(w)...
 * }</pre>
 *
 * @param n        number of clips (must equal the report's number of points)
 * @param channels channels per clip, {@code >= 1}
 * @param samples  samples per channel, {@code >= 1}
 * @param values   {@code n * channels * samples} values, row-major
 * @param layout   how a row orders its channels and samples
 */
public record Waveforms(int n, int channels, int samples, float[] values, Layout layout) {

    /** How a clip's {@code channels x samples} values are ordered within its row. */
    public enum Layout {
        /** Channel by channel: {@code [c0 s0, c0 s1, ..., c1 s0, ...]} (NumPy {@code (n, C, S)}). */
        CHANNEL_MAJOR,
        /** Sample by sample: {@code [s0 c0, s0 c1, ..., s1 c0, ...]} (NumPy {@code (n, S, C)}). */
        SAMPLE_MAJOR
    }

    /** Validates the shape; throws {@link InvalidInputException} naming the mismatch. */
    public Waveforms {
        if (n < 0) throw new InvalidInputException("report: waveforms n must be >= 0, got " + n);
        if (channels < 1 || samples < 1) {
            throw new InvalidInputException("report: waveforms need channels >= 1 and samples >= 1, got "
                    + channels + " and " + samples);
        }
        if (layout == null) throw new InvalidInputException("report: waveforms layout must not be null");
        long want = (long) n * channels * samples;
        if (values == null || values.length != want) {
            throw new InvalidInputException("report: waveforms hold " + (values == null ? "no" : values.length)
                    + " values, expected n * channels * samples = " + want);
        }
    }

    /**
     * Rows of {@code values.length / n} values that are {@code channels} channels one after the other;
     * throws when the row length is not a multiple of {@code channels}.
     */
    public static Waveforms channelMajor(int n, int channels, float[] values) {
        if (n <= 0 || channels < 1 || values == null || values.length % n != 0
                || values.length / n % channels != 0 || values.length == 0) {
            throw new InvalidInputException("report: waveforms of " + (values == null ? 0 : values.length)
                    + " values do not split into " + n + " rows of " + channels + " equal channels");
        }
        return new Waveforms(n, channels, values.length / n / channels, values, Layout.CHANNEL_MAJOR);
    }

    /** Values per row, {@code channels * samples}. */
    public int rowLength() {
        return channels * samples;
    }

    /** The value of clip {@code row} on {@code channel} at {@code sample}. */
    public float value(int row, int channel, int sample) {
        int base = row * rowLength();
        return layout == Layout.CHANNEL_MAJOR
                ? values[base + channel * samples + sample]
                : values[base + sample * channels + channel];
    }

    /** True when every value of clip {@code row} is finite (a clip with NaN or inf is left out of the means). */
    public boolean finiteRow(int row) {
        int base = row * rowLength();
        for (int j = 0; j < rowLength(); j++) {
            if (!Float.isFinite(values[base + j])) return false;
        }
        return true;
    }
}
