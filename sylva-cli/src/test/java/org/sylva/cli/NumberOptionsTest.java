package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Number options read what {@code --json} writes ({@link org.sylva.io.JsonWriter}), and refuse what float64 cannot hold. */
class NumberOptionsTest {
    /** The options read back what --json writes: inf, -inf and nan, in any case, besides decimal numbers. */
    @Test
    void numberOptionsReadTheJsonSpellingOfNonFiniteValues() {
        assertEquals(Double.POSITIVE_INFINITY, Main.parseNumber("inf"));
        assertEquals(Double.POSITIVE_INFINITY, Main.parseNumber("+Inf"));
        assertEquals(Double.POSITIVE_INFINITY, Main.parseNumber("Infinity"));
        assertEquals(Double.NEGATIVE_INFINITY, Main.parseNumber("-inf"));
        assertTrue(Double.isNaN(Main.parseNumber("NaN")));
        assertEquals(0.5, Main.parseNumber(".5"));
        assertEquals(2.0, Main.parseNumber("2."));
        assertEquals(-1.5e-3, Main.parseNumber("-1.5E-3"));
        for (String bad : new String[] {"abc", "0x1p3", "1d", "2f", "", "1,5"}) {
            assertThrows(picocli.CommandLine.TypeConversionException.class, () -> Main.parseNumber(bad), bad);
        }
        // decimals float64 cannot hold: not silently an infinity or a zero
        assertEquals("'1e400' is beyond float64's range (+-1.7976931348623157E308); write inf for an infinite value",
                assertThrows(picocli.CommandLine.TypeConversionException.class, () -> Main.parseNumber("1e400")).getMessage());
        assertThrows(picocli.CommandLine.TypeConversionException.class, () -> Main.parseNumber("-2E+309"));
        assertEquals("'1e-400' is closer to 0 than float64 holds (4.9E-324); write 0 for zero",
                assertThrows(picocli.CommandLine.TypeConversionException.class, () -> Main.parseNumber("1e-400")).getMessage());
        assertEquals(0.0, Main.parseNumber("0e-400"));
        assertEquals(0.0, Main.parseNumber("0.000"));
        assertEquals(Double.MAX_VALUE, Main.parseNumber("1.7976931348623157e308"));
        assertEquals(Double.MIN_VALUE, Main.parseNumber("4.9e-324"));
    }
}
