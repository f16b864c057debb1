package org.sylva.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sylva.features.PrincipalComponents;
import org.sylva.parallel.Execution;

/**
 * What {@code sylva hdbscan --pca K} clusters: the scores of the input on its first {@code K} principal
 * components (float64, every row), with the components for the summaries.
 *
 * <pre>{@code
 * PcaFeatures f = PcaFeatures.of(loaded, 3, new Execution(threads, progress, cancel));
 * HdbscanResult r = hdbscan.fit(f.scores(), n, f.k(), progress, cancel);
 * }</pre>
 */
final class PcaFeatures {
    private final PrincipalComponents components;
    private final double[] scores;
    private final double seconds;

    private PcaFeatures(PrincipalComponents components, double[] scores, double seconds) {
        this.components = components;
        this.scores = scores;
        this.seconds = seconds;
    }

    /**
     * Fits {@code k} components on the input as it was read (its exact float64 values where there are
     * some, else its float32 values) and projects every row on them.
     */
    static PcaFeatures of(InputOptions.Loaded loaded, int k, Execution ex) {
        long t0 = System.nanoTime();
        int n = loaded.points().size(), d = loaded.points().dimensions();
        double[] x64 = loaded.float64();
        float[] x32 = loaded.points().coordinates();
        PrincipalComponents pc = x64 != null ? PrincipalComponents.fit(x64, n, d, k, ex)
                : PrincipalComponents.fit(x32, n, d, k, ex);
        double[] scores = x64 != null ? pc.project(x64, n, ex) : pc.project(x32, n, ex);
        return new PcaFeatures(pc, scores, (System.nanoTime() - t0) / 1e9);
    }

    /** The scores, row-major {@code n x k} (shared, not copied). */
    double[] scores() {
        return scores;
    }

    /** The fitted components (for a saved model, which projects new points on them). */
    PrincipalComponents components() {
        return components;
    }

    int k() {
        return components.componentCount();
    }

    double seconds() {
        return seconds;
    }

    /** One line for the summary on stderr. */
    String describe() {
        return String.format(Locale.ROOT, "pca: clustered on %d principal components of the %d coordinates "
                + "(%.1f %% of the variance, float64)", k(), components.dimensions(),
                100 * components.explainedVarianceRatioSum());
    }

    /** The {@code "pca"} object of the {@code --json} summary (scikit-learn's attribute names). */
    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("n_components", k());
        List<Object> ratio = new ArrayList<>();
        for (double r : components.explainedVarianceRatio()) ratio.add(r);
        m.put("explained_variance_ratio", ratio);
        m.put("explained_variance_ratio_sum", components.explainedVarianceRatioSum());
        return m;
    }

    /** The row of the report's parameter table. */
    String reportParameter() {
        return String.format(Locale.ROOT, "%d components (%.1f %% of the variance), float64; clustered on their "
                + "scores, drawn from the input", k(), 100 * components.explainedVarianceRatioSum());
    }
}
