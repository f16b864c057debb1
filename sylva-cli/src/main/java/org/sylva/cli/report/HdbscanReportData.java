package org.sylva.cli.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.SequencedMap;

import org.sylva.data.InvalidInputException;

/**
 * Everything {@link HtmlReport} draws for one HDBSCAN run, as plain data: the points
 * ({@code n x d} float32, row-major, as clustered), optionally the waveform clips of those points
 * ({@link Waveforms}: the points themselves when they are clips, or another array, e.g. the original
 * clips of points clustered on their principal components), the labels ({@code -1} noise; {@code -2}/{@code -3} rows the
 * run refused, e.g. NaN), the membership probabilities, the condensed tree, the condensed-tree node
 * of each label and its persistence, the parameters and stage timings to print, and the Sylva
 * version. Build it with {@link #builder()}.
 *
 * <p>Arrays are taken over without copying (a 500 000 x 61 clip set is 122 MB); callers must not
 * modify them afterwards. The maps are copied into unmodifiable ordered maps, and their order is the
 * order the report prints them in. The constructor checks every length and range and throws
 * {@link InvalidInputException} naming the offending field and position.
 *
 * <pre>{@code
 * HdbscanReportData data = HdbscanReportData.builder()
 *         .title("clips.npy")
 *         .points(n, 61, coords)
 *         .labels(labels).probabilities(probabilities)
 *         .tree(new CondensedTreeData(n, parent, child, lambda, childSize))
 *         .selectedClusters(selectedIds, persistence)
 *         .waveforms(Waveforms.channelMajor(n, 1, coords))   // the points are 1-channel clips
 *         .parameter("min_cluster_size", "20")
 *         .stage("core distances", 0.41)
 *         .sylvaVersion("0.1.0")
 *         .build();
 * HtmlReport.write(data, Path.of("report.html"));
 * }</pre>
 *
 * @param title              shown as the page title and heading
 * @param n                  number of points
 * @param d                  number of dimensions
 * @param coords             row-major coordinates, length {@code n * d} (a float64 input's rounded to float32)
 * @param coords64           a float64 input's coordinates as the fit read them, drawn instead of {@code coords}
 *                           ({@link Coordinates}); null for a float32 input
 * @param labels             cluster label per point, {@code 0 .. k-1}, negative = not clustered
 * @param probabilities      membership probability per point
 * @param tree               the condensed tree
 * @param selectedClusterIds condensed-tree node id of each label, in label order (length k)
 * @param persistence        persistence of each label (length k)
 * @param waveforms          the clip of each point, drawn as each cluster's mean +- 1 sd per channel;
 *                           null for no waveform section
 * @param parameters         parameter name -> value, printed in this order
 * @param stageSeconds       stage name -> seconds, printed in this order
 * @param sylvaVersion       the version string printed in the footer
 */
public record HdbscanReportData(String title, int n, int d, float[] coords, double[] coords64, int[] labels,
                                double[] probabilities,
                                CondensedTreeData tree, long[] selectedClusterIds, double[] persistence,
                                Waveforms waveforms, SequencedMap<String, String> parameters,
                                SequencedMap<String, Double> stageSeconds, String sylvaVersion) {

    /** Validates lengths and ranges; see the class comment. */
    public HdbscanReportData {
        if (title == null) throw new InvalidInputException("report: title must not be null");
        if (sylvaVersion == null) throw new InvalidInputException("report: sylvaVersion must not be null");
        if (n < 0) throw new InvalidInputException("report: n must be >= 0, got " + n);
        if (d < 1) throw new InvalidInputException("report: d must be >= 1, got " + d);
        if (coords == null || (long) n * d != coords.length) {
            throw new InvalidInputException("report: coords has " + (coords == null ? "no" : coords.length)
                    + " values, expected n * d = " + ((long) n * d));
        }
        if (coords64 != null && coords64.length != coords.length) {
            throw new InvalidInputException("report: coords64 has " + coords64.length + " values, expected n * d = "
                    + ((long) n * d));
        }
        requireLength("labels", labels, n);
        if (waveforms != null && waveforms.n() != n) {
            throw new InvalidInputException("report: waveforms has " + waveforms.n() + " clips, expected one per point, n = "
                    + n);
        }
        requireLength("probabilities", probabilities, n);
        if (tree == null) throw new InvalidInputException("report: tree must not be null (use CondensedTreeData.empty(n))");
        if (selectedClusterIds == null || persistence == null) {
            throw new InvalidInputException("report: selectedClusterIds and persistence must not be null");
        }
        int k = selectedClusterIds.length;
        if (persistence.length != k) {
            throw new InvalidInputException("report: persistence has " + persistence.length
                    + " values but selectedClusterIds has " + k);
        }
        for (int i = 0; i < n; i++) {
            if (labels[i] >= k) {
                throw new InvalidInputException("report: labels[" + i + "] = " + labels[i] + " but only " + k
                        + " selected clusters are given");
            }
        }
        int treeClusters = tree.clusterCount();
        for (int c = 0; c < k; c++) {
            long id = selectedClusterIds[c];
            if (id < tree.n() || id >= (long) tree.n() + treeClusters) {
                throw new InvalidInputException("report: selectedClusterIds[" + c + "] = " + id
                        + " is not a cluster of the condensed tree (ids " + tree.n() + " .. "
                        + ((long) tree.n() + treeClusters - 1) + ")");
            }
        }
        long[] sorted = selectedClusterIds.clone();
        java.util.Arrays.sort(sorted);
        for (int c = 1; c < k; c++) {
            if (sorted[c] == sorted[c - 1]) {
                throw new InvalidInputException("report: selectedClusterIds holds node " + sorted[c] + " twice");
            }
        }
        if (parameters == null || stageSeconds == null) {
            throw new InvalidInputException("report: parameters and stageSeconds must not be null");
        }
        parameters = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(parameters));
        stageSeconds = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(stageSeconds));
        for (var e : parameters.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new InvalidInputException("report: parameter names and values must not be null");
            }
        }
        for (var e : stageSeconds.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new InvalidInputException("report: stage names and times must not be null");
            }
        }
    }

    /** Number of clusters (labels {@code 0 .. k-1}). */
    public int clusterCount() {
        return selectedClusterIds.length;
    }

    /** A fresh builder with an empty tree, no clusters, no parameters and version "unknown". */
    public static Builder builder() {
        return new Builder();
    }

    private static void requireLength(String name, Object array, int n) {
        int len = array == null ? -1 : java.lang.reflect.Array.getLength(array);
        if (len != n) {
            throw new InvalidInputException("report: " + name + " has " + (len < 0 ? "no" : String.valueOf(len))
                    + " values, expected n = " + n);
        }
    }

    /**
     * Collects the fields of an {@link HdbscanReportData}; {@link #build()} validates them.
     *
     * <pre>{@code
     * HdbscanReportData d = HdbscanReportData.builder().points(2, 1, new float[] {0f, 1f})
     *         .labels(new int[] {-1, -1}).probabilities(new double[2]).build();
     * }</pre>
     */
    public static final class Builder {
        private String title = "Sylva HDBSCAN report";
        private int n;
        private int d = 1;
        private float[] coords = new float[0];
        private double[] coords64;
        private int[] labels;
        private double[] probabilities;
        private CondensedTreeData tree;
        private long[] selected = new long[0];
        private double[] persistence = new double[0];
        private Waveforms waveforms;
        private final LinkedHashMap<String, String> parameters = new LinkedHashMap<>();
        private final LinkedHashMap<String, Double> stages = new LinkedHashMap<>();
        private String version = "unknown";

        private Builder() {
        }

        /** Page title and heading (escaped when printed). */
        public Builder title(String title) {
            this.title = title;
            return this;
        }

        /** The points, row-major, {@code coords.length == n * d}. */
        public Builder points(int n, int d, float[] coords) {
            this.n = n;
            this.d = d;
            this.coords = coords;
            return this;
        }

        /**
         * A float64 input's coordinates as the fit read them ({@code coords64.length == n * d}): the drawings use
         * them instead of {@link #points}' float32 values. Null (the default) for a float32 input.
         */
        public Builder exactPoints(double[] coords64) {
            this.coords64 = coords64;
            return this;
        }

        /** Cluster label per point ({@code -1} noise). */
        public Builder labels(int[] labels) {
            this.labels = labels;
            return this;
        }

        /** Membership probability per point. */
        public Builder probabilities(double[] probabilities) {
            this.probabilities = probabilities;
            return this;
        }

        /** The condensed tree; defaults to an empty tree on n points. */
        public Builder tree(CondensedTreeData tree) {
            this.tree = tree;
            return this;
        }

        /** Condensed-tree node id and persistence of each label, in label order. */
        public Builder selectedClusters(long[] nodeIds, double[] persistence) {
            this.selected = nodeIds;
            this.persistence = persistence;
            return this;
        }

        /** The clip of each point (adds the mean +- 1 sd small multiples); null (the default) for none. */
        public Builder waveforms(Waveforms waveforms) {
            this.waveforms = waveforms;
            return this;
        }

        /** Adds (or replaces) one parameter; printed in insertion order. */
        public Builder parameter(String name, String value) {
            parameters.put(name, value);
            return this;
        }

        /** Adds all parameters of {@code map} in its iteration order. */
        public Builder parameters(SequencedMap<String, String> map) {
            parameters.putAll(map);
            return this;
        }

        /** Adds (or replaces) one stage timing in seconds; printed in insertion order. */
        public Builder stage(String name, double seconds) {
            stages.put(name, seconds);
            return this;
        }

        /** Adds all stage timings of {@code map} in its iteration order. */
        public Builder stages(SequencedMap<String, Double> map) {
            stages.putAll(map);
            return this;
        }

        /** The Sylva version printed in the footer. */
        public Builder sylvaVersion(String version) {
            this.version = version;
            return this;
        }

        /** Validates and builds; throws {@link InvalidInputException} naming the bad field. */
        public HdbscanReportData build() {
            int[] lab = labels;
            if (lab == null) {
                lab = new int[n];
                java.util.Arrays.fill(lab, -1);
            }
            double[] prob = probabilities == null ? new double[n] : probabilities;
            CondensedTreeData t = tree == null ? CondensedTreeData.empty(n) : tree;
            return new HdbscanReportData(title, n, d, coords, coords64, lab, prob, t, selected, persistence, waveforms,
                    parameters, stages, version);
        }
    }
}
