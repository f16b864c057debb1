package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.sylva.hdbscan.HdbscanResult;
import org.sylva.hdbscan.mst.SpanningTree;

/** Asserts two fits are the same bytes: core distances, tree arrays, labels, probabilities, scores. */
final class SameBytes {
    private SameBytes() {
    }

    static void assertSame(HdbscanResult cpu, HdbscanResult gpu) {
        assertBits(cpu.coreDistances(), gpu.coreDistances(), "core distances");
        SpanningTree a = cpu.spanningTree(), b = gpu.spanningTree();
        assertEquals(a.edges(), b.edges(), "edges");
        assertArrayEquals(a.fromArray(), b.fromArray(), "tree from");
        assertArrayEquals(a.toArray(), b.toArray(), "tree to");
        assertBits(a.weightArray(), b.weightArray(), "tree weights");
        assertArrayEquals(cpu.labels(), gpu.labels(), "labels");
        assertBits(cpu.probabilities(), gpu.probabilities(), "probabilities");
        assertBits(cpu.outlierScores(), gpu.outlierScores(), "outlier scores");
    }

    static void assertBits(double[] x, double[] y, String what) {
        assertEquals(x.length, y.length, what + ": length");
        for (int i = 0; i < x.length; i++) {
            if (Double.doubleToRawLongBits(x[i]) != Double.doubleToRawLongBits(y[i])) {
                throw new AssertionError(what + " differ at " + i + ": cpu " + x[i] + ", gpu " + y[i]);
            }
        }
    }
}
