package org.sylva.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.sylva.data.PointSet;

/** The built-in generator: a pure function of (n, seed), its shape, its templates and its size limit. */
class ClipLikeDataTest {
    @Test
    void sameSeedSameBytesOtherSeedOtherData() {
        ClipLikeData a = ClipLikeData.generate(500, 20240), b = ClipLikeData.generate(500, 20240);
        assertArrayEquals(a.points().coordinates(), b.points().coordinates());
        assertArrayEquals(a.truth(), b.truth());
        assertFalse(Arrays.equals(a.points().coordinates(), ClipLikeData.generate(500, 20241).points().coordinates()));
    }

    @Test
    void clipsHave61FiniteSamplesAndATenthAreNoise() {
        int n = 2_000;
        ClipLikeData c = ClipLikeData.generate(n, 7);
        PointSet p = c.points();
        assertEquals(n, p.size());
        assertEquals(ClipLikeData.SAMPLES, p.dimensions());
        assertEquals(-1, p.firstNonFinite());
        int[] truth = c.truth();
        assertEquals(n, truth.length);
        long noise = Arrays.stream(truth).filter(t -> t == -1).count();
        assertEquals(Math.round(0.10 * n), noise);
        assertTrue(Arrays.stream(truth).allMatch(t -> t >= -1 && t < 12));
        assertEquals(12, Arrays.stream(truth).filter(t -> t >= 0).distinct().count(), "every template drawn");
        // a spike's trough (sample 20) lies well below a noise clip's: the largest template is 300 µV deep
        double spikeTrough = 0, noiseTrough = 0;
        long spikes = n - noise;
        for (int i = 0; i < n; i++) {
            if (truth[i] == -1) noiseTrough += p.get(i, 20) / (double) noise;
            else spikeTrough += p.get(i, 20) / (double) spikes;
        }
        assertTrue(spikeTrough < -50 && Math.abs(noiseTrough) < 5, spikeTrough + " / " + noiseTrough);
    }

    @Test
    void theTruthIsACopy() {
        ClipLikeData c = ClipLikeData.generate(10, 1);
        int first = c.truth()[0];
        c.truth()[0] = 99;
        assertEquals(first, c.truth()[0]);
    }

    @Test
    void sizesOutsideOneArrayAreRefusedBeforeAnyAllocation() {
        assertEquals(0, ClipLikeData.generate(0, 1).points().size());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> ClipLikeData.generate(-1, 1));
        assertTrue(negative.getMessage().contains("got -1"), negative.getMessage());
        IllegalArgumentException big = assertThrows(IllegalArgumentException.class,
                () -> ClipLikeData.generate(ClipLikeData.MAX_POINTS + 1, 1));
        assertTrue(big.getMessage().contains("at most " + ClipLikeData.MAX_POINTS), big.getMessage());
        assertTrue((long) ClipLikeData.MAX_POINTS * ClipLikeData.SAMPLES <= Integer.MAX_VALUE - 8);
        assertTrue((long) (ClipLikeData.MAX_POINTS + 1) * ClipLikeData.SAMPLES > Integer.MAX_VALUE - 8);
    }
}
