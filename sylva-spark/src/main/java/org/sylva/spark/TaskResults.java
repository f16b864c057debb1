package org.sylva.spark;

import java.io.Serializable;

import org.sylva.hdbscan.core.NearestSlice;
import org.sylva.hdbscan.mst.SliceEdges;

/** What the executors' tasks send back to the driver, in serializable form (classes, not records, for Kryo). */
final class TaskResults {
    private TaskResults() {
    }

    /** One slice's nearest lists ({@link NearestSlice}). */
    static final class Lists implements Serializable {
        private static final long serialVersionUID = 1L;
        private final int k;
        private final int[] points;
        private final int[] neighbours;
        private final double[] distances;

        private Lists(int k, int[] points, int[] neighbours, double[] distances) {
            this.k = k;
            this.points = points;
            this.neighbours = neighbours;
            this.distances = distances;
        }

        static Lists of(NearestSlice s) {
            return new Lists(s.k(), s.points(), s.neighbours(), s.distances());
        }

        NearestSlice slice() {
            return new NearestSlice(k, points, neighbours, distances);
        }

        long payloadBytes() {
            return 4L * points.length + 12L * neighbours.length;
        }
    }

    /** One slice's cheapest edges per component ({@link SliceEdges}). */
    static final class Edges implements Serializable {
        private static final long serialVersionUID = 1L;
        private final int[] points;
        private final double[] weights;
        private final int[] others;

        private Edges(int[] points, double[] weights, int[] others) {
            this.points = points;
            this.weights = weights;
            this.others = others;
        }

        static Edges of(SliceEdges e) {
            return new Edges(e.points(), e.weights(), e.others());
        }

        SliceEdges edges() {
            return new SliceEdges(points, weights, others);
        }

        long payloadBytes() {
            return 16L * points.length;
        }
    }
}
