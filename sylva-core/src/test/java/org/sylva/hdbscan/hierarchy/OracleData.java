package org.sylva.hdbscan.hierarchy;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Test-only access to the HDBSCAN oracle in {@code shared/oracle/hdbscan}: finds the folder and reads
 * its {@code .npy} files (through {@link org.sylva.io.Npy}) into double arrays.
 *
 * <pre>{@code
 * OracleData.Npy mst = OracleData.read("iris_mcs5_ms4_mst.npy");
 * double w = mst.data()[2];
 * }</pre>
 */
final class OracleData {

    private OracleData() {
    }

    /** A loaded array: its dtype string, shape and values widened to double. */
    record Npy(String descr, int[] shape, double[] data) {
        int rows() {
            return shape.length == 0 ? 1 : shape[0];
        }

        int cols() {
            return shape.length < 2 ? 1 : shape[1];
        }

        double at(int row, int col) {
            return data[row * cols() + col];
        }

        int[] asInts() {
            int[] out = new int[data.length];
            for (int i = 0; i < data.length; i++) {
                out[i] = (int) data[i];
                if (out[i] != data[i]) throw new IllegalStateException("value " + data[i] + " at " + i + " is not an int");
            }
            return out;
        }
    }

    /**
     * The oracle folder: {@code $sylva.shared/oracle/hdbscan}, else {@code ../shared/oracle/hdbscan}
     * above the working directory's repository. Skips the test only when neither exists and the
     * environment variable {@code CI} is unset; in CI a missing oracle fails.
     */
    static Path dir() {
        return org.sylva.testsupport.Oracles.hdbscan();
    }

    static Npy read(String file) {
        return read(dir().resolve(file));
    }

    static Npy read(Path file) {
        try {
            org.sylva.io.NpyArray a = org.sylva.io.Npy.read(file);
            double[] data;
            if (a.dtype() == org.sylva.io.NpyDtype.BOOL || a.dtype() == org.sylva.io.NpyDtype.UINT8) {
                byte[] b = a.toUint8();
                data = new double[b.length];
                for (int i = 0; i < b.length; i++) data[i] = b[i] & 0xff;
            } else {
                data = a.toFloat64();
            }
            return new Npy(a.dtype().numpyName(), a.shape(), data);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }
}
