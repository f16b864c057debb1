package org.sylva.hdbscan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.progress.CancellationToken;
import org.sylva.progress.ProgressListener;

/** How the library's input checks report a problem, and what they let through. */
class HdbscanInputCheckTest {
    @Test
    void aProblemWithContextKeepsItsParameter() {
        InvalidInputException e = InvalidInputException.forParameter("min_samples", "min_samples too large");
        InvalidInputException c = e.withContext("clips.npy");
        assertEquals("clips.npy: min_samples too large", c.getMessage());
        assertEquals(Optional.of("min_samples"), c.parameter());
        assertSame(e, c.getCause());
        assertEquals(Optional.empty(), new InvalidInputException("x").withContext("f").parameter());
        assertThrows(NullPointerException.class, () -> InvalidInputException.forParameter(null, "m"));
    }

    @Test
    void infiniteFloat64CoordinatesAreLeftOutUnderTheSklearnPolicyNotTakenForOverflow() {
        double[] x = {0, 0, 1, 1, Double.POSITIVE_INFINITY, 0, 3, 3, 4, 4};
        HdbscanResult r = Hdbscan.builder().minClusterSize(2).minSamples(2).nonFinite(NonFinitePolicy.SKLEARN).build()
                .fit(x, 5, 2, ProgressListener.NONE, CancellationToken.NEVER);
        assertEquals(-2, r.labels()[2]);
        // a finite coordinate beyond the limit is still refused, whatever the policy
        double[] huge = {0, 0, 1, 1, 2e160, 0, 3, 3, 4, 4};
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> Hdbscan.builder().minClusterSize(2)
                .minSamples(2).nonFinite(NonFinitePolicy.SKLEARN).build()
                .fit(huge, 5, 2, ProgressListener.NONE, CancellationToken.NEVER));
        assertEquals(Optional.empty(), e.parameter(), e.getMessage());
    }
}
