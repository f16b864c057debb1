package org.sylva.cli;

import org.sylva.data.InvalidInputException;
import org.sylva.hdbscan.metric.Metric;

/**
 * The options of {@code sylva hdbscan} that cannot go together, refused before anything is read, each refusal
 * saying why: what needs coordinates with a precomputed matrix, which has none; {@code --pca} with
 * {@code --sample-weight}, whose components would ignore the weights; weights from {@code -}, which is the
 * points' standard input.
 *
 * <pre>{@code
 * HdbscanOptionConflicts.refuse(command, hdbscan.metric());   // throws InvalidInputException naming the options
 * }</pre>
 */
final class HdbscanOptionConflicts {
    private HdbscanOptionConflicts() {
    }

    /** Refuses the options of {@code c} that conflict, for the fit's metric {@code m}. */
    static void refuse(HdbscanCommand c, Metric m) {
        if (m.isPrecomputed()) {
            // --save-model: prediction measures new points against the fitted points
            String option = c.saveModelOption != null ? "--save-model" : c.pca != null ? "--pca" : c.centers != null
                    ? "--centers" : c.reportOption != null ? "--report" : c.waveformOptions.given()
                    ? "the waveform options" : null;
            if (option != null) {
                throw InvalidInputException.forParameter("metric", option + " needs coordinates; --metric precomputed "
                        + "reads a distance matrix, which has none");
            }
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
}
