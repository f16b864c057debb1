package org.sylva.cli;

import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.sylva.data.PointSet;
import org.sylva.demo.ClipLikeData;
import org.sylva.io.Npy;

/**
 * Small inputs for the end-to-end tests, written in every format the CLI reads.
 *
 * <pre>{@code
 * PointSet p = TestData.clips(400);
 * TestData.writeCsv(p, dir.resolve("p.csv"), ',', true);
 * }</pre>
 */
final class TestData {
    /** Fixed seed: every test sees the same data on every run. */
    static final long SEED = 77;

    private TestData() {
    }

    static PointSet clips(int n) {
        return ClipLikeData.generate(n, SEED).points();
    }

    /** {@code n} points of a d-dimensional standard Gaussian blob (one cluster, no structure inside). */
    static PointSet blob(int n, int d, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        float[] c = new float[n * d];
        for (int i = 0; i < c.length; i++) c[i] = (float) gaussian(rng);
        return PointSet.of(n, d, c);
    }

    private static double gaussian(SplittableRandom rng) {
        double u = rng.nextDouble(), v = rng.nextDouble();
        return Math.sqrt(-2 * Math.log1p(-u)) * Math.cos(2 * Math.PI * v);
    }

    static Path writeNpy(PointSet p, Path file) throws IOException {
        Npy.writeFloat32(file, p.coordinates(), p.size(), p.dimensions());
        return file;
    }

    /** Float.toString round-trips exactly, so the CLI reads back the very same float32 values. */
    static Path writeCsv(PointSet p, Path file, char sep, boolean header) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            int d = p.dimensions();
            if (header) {
                for (int j = 0; j < d; j++) w.write((j > 0 ? String.valueOf(sep) : "") + "x" + j);
                w.write('\n');
            }
            for (int i = 0; i < p.size(); i++) {
                for (int j = 0; j < d; j++) {
                    if (j > 0) w.write(sep);
                    w.write(Float.toString(p.get(i, j)));
                }
                w.write('\n');
            }
        }
        return file;
    }

    static byte[] rawFloat32(PointSet p) {
        ByteBuffer b = ByteBuffer.allocate(p.coordinates().length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : p.coordinates()) b.putFloat(v);
        return b.array();
    }

    static Path writeRaw(PointSet p, Path file) throws IOException {
        Files.write(file, rawFloat32(p));
        return file;
    }

    /** {@code p} with one coordinate replaced. */
    static PointSet with(PointSet p, int row, int col, float value) {
        float[] c = p.coordinates().clone();
        c[row * p.dimensions() + col] = value;
        return PointSet.unchecked(p.size(), p.dimensions(), c);
    }
}
