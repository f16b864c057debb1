package org.sylva.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;

class BackendsTest {
    @Test
    void providerChoosesSimdWhenTheModuleIsPresent() {
        // surefire runs with --add-modules jdk.incubator.vector, so the vector backend must load here.
        assertTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent());
        assertTrue(Backends.simdAvailable());
        assertEquals("simd", Backends.best().name());
        assertSame(Backends.best(), Backends.of("auto"));
        assertSame(Backends.scalar(), Backends.of(" Scalar "));
        assertEquals("simd", Backends.of("SIMD").name());
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> Backends.of("cuda"));
        assertTrue(e.getMessage().contains("cuda"));
        assertThrows(InvalidInputException.class, () -> Backends.of(null));
    }

    /** Every tile entry equals the reference sum, bitwise, for both backends; odd block counts and query counts included. */
    @Test
    void tilesAreBitwiseTheReferenceSum() {
        for (int d : new int[] {1, 2, 5, 61, 64}) {
            int n = 333;
            Random r = new Random(d);
            double[] rows = new double[n * d];
            for (int i = 0; i < rows.length; i++) rows[i] = (float) (r.nextGaussian() * 100);
            for (DistanceBackend b : new DistanceBackend[] {Backends.scalar(), Backends.of("simd")}) {
                PointIndex idx = PointIndex.build(rows, n, d, b);
                int w = idx.blockWidth();
                int blocks = idx.positions() / w;
                for (int nq = 1; nq <= 9; nq++) {
                    int[] qs = new int[nq];
                    for (int i = 0; i < nq; i++) qs[i] = idx.position(r.nextInt(n));
                    int bf = r.nextInt(blocks), bt = Math.min(blocks, bf + 1 + r.nextInt(5));
                    double[] out = new double[b.tileLength(nq, bt - bf, idx)];
                    b.squaredDistances(idx, qs, nq, bf, bt, out);
                    int stride = (bt - bf) * w;
                    for (int q = 0; q < nq; q++) {
                        int qo = idx.original(qs[q]);
                        for (int p = bf * w; p < bt * w; p++) {
                            int o = idx.original(p);
                            if (o < 0) continue;
                            double s = 0.0;
                            for (int j = 0; j < d; j++) {
                                double t = rows[qo * d + j] - rows[o * d + j];
                                s += t * t;
                            }
                            double got = out[q * stride + p - bf * w];
                            assertEquals(Double.doubleToRawLongBits(s), Double.doubleToRawLongBits(got),
                                    b.name() + " d=" + d + " pair " + qo + "," + o);
                        }
                    }
                }
            }
        }
    }
}
