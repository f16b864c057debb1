package org.sylva.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.Hdbscan;
import org.sylva.hdbscan.HdbscanResult;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** Float32 and float64 point sets: shape and finiteness checks, exact float64 values, both fits agree. */
class PointSetTest {
    @Test
    void float64SetsKeepTheirValuesAndRoundOnlyForFloat32Readers() {
        double[] c = {0.1, 0.2, 1e-40, 3};
        PointSet p = PointSet.ofFloat64(2, 2, c);
        assertTrue(p.isFloat64());
        assertSame(c, p.coordinates64());
        assertEquals(0.1, p.getDouble(0, 0));
        assertEquals(0.1f, p.get(0, 0));
        assertArrayEquals(new float[] {0.1f, 0.2f, 1e-40f, 3f}, p.coordinates());
        assertSame(p.coordinates(), p.coordinates(), "rounded once");
        double exact = (0.1 - 1e-40) * (0.1 - 1e-40) + (0.2 - 3) * (0.2 - 3);
        assertEquals(exact, p.squaredDistance(0, 1));
        PointSet s = p.select(new int[] {1, 1});
        assertTrue(s.isFloat64());
        assertArrayEquals(new double[] {1e-40, 3, 1e-40, 3}, s.coordinates64());
        assertTrue(p.toString().contains("float64"));
    }

    @Test
    void float32SetsWidenExactly() {
        PointSet p = PointSet.of(1, 2, new float[] {0.1f, -2f});
        assertFalse(p.isFloat64());
        assertArrayEquals(new double[] {0.1f, -2f}, p.coordinates64());
        assertEquals((double) 0.1f, p.getDouble(0, 0));
    }

    @Test
    void badShapesAndNonFiniteValuesAreNamed() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> PointSet.ofFloat64(2, 2, new double[] {0, 1, Double.NaN, 3}));
        assertTrue(e.getMessage().contains("point 1, coordinate 0 is NaN"), e.getMessage());
        e = assertThrows(InvalidInputException.class, () -> PointSet.ofFloat64(2, 3, new double[5]));
        assertTrue(e.getMessage().contains("expected n * d = 2 * 3 = 6"), e.getMessage());
        assertThrows(InvalidInputException.class, () -> PointSet.ofFloat64(1, 0, new double[0]));
        assertThrows(InvalidInputException.class, () -> PointSet.uncheckedFloat64(1, 1, null));
        assertEquals(1, PointSet.uncheckedFloat64(1, 2, new double[] {0, Double.POSITIVE_INFINITY}).firstNonFinite());
    }

    @Test
    void fittingAFloat64SetIsFittingItsArray() {
        Random r = new Random(8);
        int n = 400, d = 3;
        double[] c = new double[n * d];
        for (int i = 0; i < c.length; i++) c[i] = (i / d % 4) * 3 + r.nextGaussian() * 0.1;
        Hdbscan h = Hdbscan.builder().minClusterSize(10).build();
        HdbscanResult a = h.fit(PointSet.ofFloat64(n, d, c));
        HdbscanResult b = h.fit(c, n, d, ProgressListener.NONE, CancellationToken.NEVER);
        assertArrayEquals(b.labels(), a.labels());
        assertArrayEquals(b.coreDistances(), a.coreDistances());
        assertTrue(a.clusterCount() >= 2, a.toString());
    }

    @Test
    void indicesAreCheckedSoThatAColumnNeverReadsTheNextRow() {
        PointSet p = PointSet.of(2, 2, new float[] {1, 2, 3, 4});
        PointSet q = PointSet.ofFloat64(2, 2, new double[] {1, 2, 3, 4});
        for (PointSet s : new PointSet[] {p, q}) {
            assertEquals(4f, s.get(1, 1));
            assertEquals(2.0, s.getDouble(0, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> s.get(0, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> s.getDouble(1, -1));
            assertThrows(IndexOutOfBoundsException.class, () -> s.getDouble(2, 0));
            assertThrows(IndexOutOfBoundsException.class, () -> s.row(2));
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                    () -> s.select(new int[] {1, 3}));
            assertTrue(e.getMessage().contains("rows[1] = 3"), e.getMessage());
        }
    }
}
