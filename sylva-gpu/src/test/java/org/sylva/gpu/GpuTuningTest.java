package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The tuning switches' reading: what is taken, and what keeps the default instead of being read as something else. */
class GpuTuningTest {
    @Test
    void wholeNumbersOfAtLeastOne() {
        assertEquals(4, GpuTuning.parsePositive("4"));
        assertEquals(16, GpuTuning.parsePositive(" 16 "));
        assertEquals(1, GpuTuning.parsePositive("1"));
        for (String bad : new String[] {"0", "-3", "4x", "", "2.5", "99999999999", null}) {
            assertNull(GpuTuning.parsePositive(bad), bad);
        }
    }

    @Test
    void trueOrFalseOnly() {
        assertEquals(Boolean.TRUE, GpuTuning.parseBoolean("TRUE"));
        assertEquals(Boolean.FALSE, GpuTuning.parseBoolean(" false "));
        for (String bad : new String[] {"on", "off", "yes", "0", "1", "", null}) {
            assertNull(GpuTuning.parseBoolean(bad), bad);
        }
    }

    @Test
    void aBadValueKeepsTheDefault() {
        String name = "sylva.gpu.test.tuning";
        try {
            System.setProperty(name, "on");
            assertEquals(true, GpuTuning.bool(name, true));
            assertEquals(false, GpuTuning.bool(name, false));
            System.setProperty(name, "false");
            assertEquals(false, GpuTuning.bool(name, true));
            System.setProperty(name, "4x");
            assertEquals(16, GpuTuning.positiveInt(name, 16));
            System.setProperty(name, "3");
            assertEquals(3, GpuTuning.positiveInt(name, 16));
            System.clearProperty(name);
            assertEquals(16, GpuTuning.positiveInt(name, 16));
            assertEquals(true, GpuTuning.bool(name, true));
        } finally {
            System.clearProperty(name);
        }
    }
}
