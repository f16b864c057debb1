package org.sylva.cli;

import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.metric.Metric;

/**
 * The options of {@code sylva hdbscan} that cannot go together, refused before anything is read, each refusal
 * saying why: what needs coordinates with a precomputed matrix, which has none; a waveform option without
 * {@code --report}, the only output it shapes; {@code --pca} with
 * {@code --sample-weight}, whose components would ignore the weights; weights from {@code -}, which is the
 * points' standard input.
 *
 * <pre>{@code
 * HdbscanOptionConflicts.refuseFirst(command, hdbscan.metric());   // throws InvalidInputException naming the options
 * HdbscanOptionConflicts.refuseWeightConflicts(command, hdbscan.metric());
 * HdbscanOptionConflicts.refuseWaveformsWithoutReport(command);
 * }</pre>
 */
final class HdbscanOptionConflicts {
    private HdbscanOptionConflicts() {
    }

    /**
     * Refuses, first of all, an option given with its scikit-learn alias (which of the two would win is not for
     * the order of the command line to decide), and what needs coordinates with a precomputed matrix {@code m}.
     */
    static void refuseFirst(HdbscanCommand c, Metric m) {
        String[][] aliases = {{"--method", "--cluster-selection-method"}, {"--centers", "--store-centers"}};
        for (String[] pair : aliases) {
            if (typed(c, pair[0]) && typed(c, pair[1])) {
                throw new InvalidInputException(pair[0] + " and " + pair[1] + " are one option: give one of them");
            }
        }
        if (m.isPrecomputed()) {
            // --save-model: prediction measures new points against the fitted points
            String option = c.saveModelOption != null ? "--save-model" : c.pca != null ? "--pca" : c.centers != null
                    ? (typed(c, "--store-centers") ? "--store-centers" : "--centers") : c.reportOption != null
                    ? "--report" : c.waveformOptions.given() ? "the waveform options" : null;
            if (option != null) {
                throw InvalidInputException.forParameter("metric", option + " needs coordinates; --metric precomputed "
                        + "reads a distance matrix, which has none");
            }
        }
    }

    /** Refuses a waveform option without {@code --report}: after the one-input check of {@code --waveforms-from}. */
    static void refuseWaveformsWithoutReport(HdbscanCommand c) {
        if (c.reportOption == null && c.waveformOptions.given()) {
            // as sylva balltree's --report-level: an option that shapes only a report nobody asked for is a slip
            WaveformOptions w = c.waveformOptions;
            String option = w.waveforms != null ? (w.waveforms ? "--waveforms" : "--no-waveforms")
                    : w.channels != null ? "--channels" : "--waveforms-from";
            throw new InvalidInputException(option + " chooses the waveforms --report draws; give --report too");
        }
    }

    /**
     * Refuses weights with another metric than Euclidean (as the fit would, after the reading), weights from
     * {@code -} and weights with {@code --pca}: after the one-input check of the weights.
     */
    static void refuseWeightConflicts(HdbscanCommand c, Metric m) {
        if (c.sampleWeight != null && !m.isEuclidean()) {
            throw InvalidInputException.forParameter("sample_weight", "sample weights are supported with the euclidean "
                    + "metric only (as in fast_hdbscan); this fit uses " + m.name());
        }
        if (c.sampleWeight != null && c.sampleWeight.toString().equals("-")) {
            throw new InvalidInputException("--sample-weight reads a file, and '-' names none (standard input is "
                    + "for the points): give the weights' file, or /dev/stdin to read them from standard input");
        }
        if (c.pca != null && c.sampleWeight != null) {
            // the components would be fitted on each row once, not on the repeated rows the weights stand for
            throw new InvalidInputException("--pca fits its components on the rows as they are, without their "
                    + "weights, so with --sample-weight the fit would not be that of the repeated rows: give one of "
                    + "them (np.repeat(X, w, axis=0) repeats the rows for --pca)");
        }
    }

    /** Whether the command line gave {@code option}. */
    private static boolean typed(HdbscanCommand c, String option) {
        return c.spec != null && c.spec.commandLine() != null && c.spec.commandLine().getParseResult() != null
                && c.spec.commandLine().getParseResult().hasMatchedOption(option);
    }
}
