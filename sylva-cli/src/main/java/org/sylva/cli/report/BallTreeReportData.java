package org.sylva.cli.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.SequencedMap;

import org.sylva.data.InvalidInputException;

/**
 * Everything {@link BallTreeReport} draws for one perfect binary ball tree, as plain data: the points
 * ({@code n x d} float32, row-major), the tree in heap layout ({@code treeIdx} global row per slot,
 * {@code mask} false on padding slots), the number of levels {@code L} of each batch (batch {@code b}
 * owns {@code 2^(L_b + 1)} consecutive slots, batches one after another), which batch to draw and at
 * which level {@code k} (root = 0) to colour the balls.
 *
 * <p>Arrays are taken over without copying; callers must not modify them afterwards. The constructor
 * checks that the slots add up, that every row index is in range and that every point sits in exactly
 * one masked-in slot, and throws {@link InvalidInputException} naming the offending
 * slot or field.
 *
 * <pre>{@code
 * BallTreeReportData data = BallTreeReportData.builder()
 *         .title("cloud.npy").points(n, 3, coords)
 *         .tree(treeIdx, mask, batchLevels)
 *         .batch(0).level(3)
 *         .stage("build", 0.012).sylvaVersion("0.1.0")
 *         .build();
 * BallTreeReport.write(data, Path.of("balls.html"));
 * }</pre>
 *
 * @param title        shown as the page title and heading
 * @param n            number of points
 * @param d            number of dimensions
 * @param coords       row-major coordinates, length {@code n * d}
 * @param treeIdx      row index held by each slot
 * @param mask         true where the slot holds a point, false on padding
 * @param batchLevels  levels below the root {@code L_b} of each batch
 * @param batch        the batch to draw
 * @param level        the level {@code k} whose balls are coloured (clamped to each batch's {@code L_b})
 * @param parameters   parameter name -> value, printed in this order
 * @param stageSeconds stage name -> seconds, printed in this order
 * @param sylvaVersion the version string printed in the footer
 */
public record BallTreeReportData(String title, int n, int d, float[] coords, int[] treeIdx, boolean[] mask,
                                 int[] batchLevels, int batch, int level, SequencedMap<String, String> parameters,
                                 SequencedMap<String, Double> stageSeconds, String sylvaVersion) {

    /** Validates shapes and the slot layout; see the class comment. */
    public BallTreeReportData {
        if (title == null || sylvaVersion == null) {
            throw new InvalidInputException("ball tree report: title and sylvaVersion must not be null");
        }
        if (n < 0) throw new InvalidInputException("ball tree report: n must be >= 0, got " + n);
        if (d < 1) throw new InvalidInputException("ball tree report: d must be >= 1, got " + d);
        if (coords == null || (long) n * d != coords.length) {
            throw new InvalidInputException("ball tree report: coords has " + (coords == null ? "no" : coords.length)
                    + " values, expected n * d = " + ((long) n * d));
        }
        if (treeIdx == null || mask == null || batchLevels == null) {
            throw new InvalidInputException("ball tree report: treeIdx, mask and batchLevels must not be null");
        }
        if (treeIdx.length != mask.length) {
            throw new InvalidInputException("ball tree report: treeIdx has " + treeIdx.length + " slots but mask has "
                    + mask.length);
        }
        long slots = 0;
        for (int b = 0; b < batchLevels.length; b++) {
            if (batchLevels[b] < 0 || batchLevels[b] > 30) {
                throw new InvalidInputException("ball tree report: batchLevels[" + b + "] = " + batchLevels[b]
                        + " is outside 0 .. 30");
            }
            slots += 1L << (batchLevels[b] + 1);
        }
        if (slots != treeIdx.length) {
            throw new InvalidInputException("ball tree report: batchLevels imply " + slots + " slots (sum of 2^(L+1))"
                    + " but treeIdx has " + treeIdx.length);
        }
        boolean[] seen = new boolean[n];
        int masked = 0;
        for (int s = 0; s < treeIdx.length; s++) {
            int p = treeIdx[s];
            if (p < 0 || p >= n) {
                throw new InvalidInputException("ball tree report: treeIdx[" + s + "] = " + p + " is outside 0 .. " + (n - 1));
            }
            if (mask[s]) {
                if (seen[p]) {
                    throw new InvalidInputException("ball tree report: point " + p + " sits in two slots (second: " + s + ")");
                }
                seen[p] = true;
                masked++;
            }
        }
        if (masked != n) {
            throw new InvalidInputException("ball tree report: " + masked + " slots are masked in but there are " + n
                    + " points");
        }
        if (batchLevels.length == 0 ? batch != 0 : (batch < 0 || batch >= batchLevels.length)) {
            throw new InvalidInputException("ball tree report: batch " + batch + " does not exist (there are "
                    + batchLevels.length + " batches)");
        }
        if (level < 0) throw new InvalidInputException("ball tree report: level must be >= 0, got " + level);
        if (parameters == null || stageSeconds == null) {
            throw new InvalidInputException("ball tree report: parameters and stageSeconds must not be null");
        }
        parameters = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(parameters));
        stageSeconds = Collections.unmodifiableSequencedMap(new LinkedHashMap<>(stageSeconds));
        for (var e : parameters.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new InvalidInputException("ball tree report: parameter names and values must not be null");
            }
        }
        for (var e : stageSeconds.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new InvalidInputException("ball tree report: stage names and times must not be null");
            }
        }
    }

    /** First slot of batch {@code b}. */
    public long slotOffset(int b) {
        long off = 0;
        for (int i = 0; i < b; i++) off += 1L << (batchLevels[i] + 1);
        return off;
    }

    /** A fresh builder (level 0, batch 0, version "unknown"). */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Collects the fields of a {@link BallTreeReportData}; {@link #build()} validates them.
     *
     * <pre>{@code
     * BallTreeReportData d = BallTreeReportData.builder().points(2, 2, new float[] {0f, 0f, 1f, 1f})
     *         .tree(new int[] {0, 1}, new boolean[] {true, true}, new int[] {0}).build();
     * }</pre>
     */
    public static final class Builder {
        private String title = "Sylva ball tree report";
        private int n;
        private int d = 1;
        private float[] coords = new float[0];
        private int[] treeIdx = new int[0];
        private boolean[] mask = new boolean[0];
        private int[] levels = new int[0];
        private int batch;
        private int level;
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

        /** The tree: row per slot, mask per slot, levels below the root per batch. */
        public Builder tree(int[] treeIdx, boolean[] mask, int[] batchLevels) {
            this.treeIdx = treeIdx;
            this.mask = mask;
            this.levels = batchLevels;
            return this;
        }

        /** The batch to draw (default 0). */
        public Builder batch(int batch) {
            this.batch = batch;
            return this;
        }

        /** The level whose balls are coloured, root = 0 (default 0). */
        public Builder level(int level) {
            this.level = level;
            return this;
        }

        /** Adds (or replaces) one parameter; printed in insertion order. */
        public Builder parameter(String name, String value) {
            parameters.put(name, value);
            return this;
        }

        /** Adds (or replaces) one stage timing in seconds; printed in insertion order. */
        public Builder stage(String name, double seconds) {
            stages.put(name, seconds);
            return this;
        }

        /** The Sylva version printed in the footer. */
        public Builder sylvaVersion(String version) {
            this.version = version;
            return this;
        }

        /** Validates and builds; throws {@link InvalidInputException} naming the bad field. */
        public BallTreeReportData build() {
            return new BallTreeReportData(title, n, d, coords, treeIdx, mask, levels, batch, level, parameters, stages,
                    version);
        }
    }
}
