package org.sylva.hdbscan.mst;

import java.io.IOException;
import java.nio.file.Path;

/** The oracle's {@code .npy} files as double arrays (through {@link org.sylva.io.Npy}), and its folder. */
public final class OracleData {
    private OracleData() {
    }

    /** One array: shape and values widened to double (integers are exact up to 2^53). */
    public record Array(int[] shape, double[] values) {
        public int rows() {
            return shape.length == 0 ? 1 : shape[0];
        }

        public int cols() {
            return shape.length < 2 ? 1 : shape[1];
        }

        public int[] asInts() {
            int[] r = new int[values.length];
            for (int i = 0; i < r.length; i++) r[i] = (int) values[i];
            return r;
        }
    }

    /** Reads {@code file} with the production reader (values widened to double). */
    public static Array read(Path file) {
        try {
            org.sylva.io.NpyArray a = org.sylva.io.Npy.read(file);
            double[] values = a.dtype() == org.sylva.io.NpyDtype.BOOL || a.dtype() == org.sylva.io.NpyDtype.UINT8
                    ? toDoubles(a.toUint8()) : a.toFloat64();
            return new Array(a.shape(), values);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    private static double[] toDoubles(byte[] b) {
        double[] r = new double[b.length];
        for (int i = 0; i < b.length; i++) r[i] = b[i] & 0xff;
        return r;
    }

    /**
     * The oracle folder: {@code $sylva.shared/oracle/hdbscan}, else {@code ../shared/oracle/hdbscan} above
     * the repository root. Missing: the test is skipped only outside CI and when the property points
     * nowhere; in CI it fails.
     */
    public static Path dir() {
        return org.sylva.testsupport.Oracles.hdbscan();
    }
}
