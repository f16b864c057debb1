package org.sylva.hdbscan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Wall-clock seconds spent in each stage of a fit, in pipeline order ("core distances", "spanning
 * tree", "hierarchy", "selection"); a result of {@code reselect} has only "hierarchy" and "selection"
 * (its spanning tree was not computed again). Measured with {@link System#nanoTime()}; informative only,
 * never part of the result's identity.
 *
 * <pre>{@code
 * double mst = result.timings().seconds().getOrDefault("spanning tree", 0.0);
 * }</pre>
 *
 * @param seconds stage name to seconds, in pipeline order
 */
public record StageTimings(Map<String, Double> seconds) {
    public StageTimings {
        seconds = Collections.unmodifiableMap(new LinkedHashMap<>(seconds));
    }

    /** Sum over the stages. */
    public double total() {
        double s = 0;
        for (double v : seconds.values()) s += v;
        return s;
    }
}
