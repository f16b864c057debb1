package org.sylva.spark;

import java.io.Serializable;

import org.sylva.hdbscan.core.NearestSlice;
import org.sylva.hdbscan.mst.SliceEdges;

/** What the executors' tasks send back to the driver, in serializable form. */
final class TaskResults {
    private TaskResults() {
    }

    /** One slice's nearest lists ({@link NearestSlice}). */
    record Lists(int k, int[] points, int[] neighbours, double[] distances) implements Serializable {
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
    record Edges(int[] points, double[] weights, int[] others) implements Serializable {
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
