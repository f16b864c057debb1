package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sylva.testsupport.MiniJson;

/** The summary writer: typed values, null, and the string form of non-finite numbers. */
class JsonTest {
    @Test
    void numbersBooleansNullAndStringsKeepTheirTypes() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("int", 20);
        m.put("long", 5_000_000_000L);
        m.put("double", 0.5);
        m.put("whole double", 1.0);
        m.put("tiny", 1e-5);
        m.put("float", 0.25f);
        m.put("none", null);
        m.put("yes", true);
        m.put("text", "eom \"quoted\"\n");
        m.put("list", List.of(1, 2.5, false));
        String json = Json.write(m);
        assertEquals("{\"int\": 20, \"long\": 5000000000, \"double\": 0.5, \"whole double\": 1.0, \"tiny\": 1.0E-5, "
                + "\"float\": 0.25, \"none\": null, \"yes\": true, \"text\": \"eom \\\"quoted\\\"\\n\", "
                + "\"list\": [1, 2.5, false]}", json);
        Map<?, ?> back = (Map<?, ?>) MiniJson.parse(json);
        assertEquals(20.0, back.get("int"));
        assertEquals(1e-5, back.get("tiny"));
        assertEquals(null, back.get("none"));
        assertEquals(Boolean.TRUE, back.get("yes"));
        assertEquals("eom \"quoted\"\n", back.get("text"));
    }

    @Test
    void nonFiniteNumbersAreStringsNotNull() {
        List<Object> v = Arrays.asList(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN,
                Float.POSITIVE_INFINITY, Float.NaN, null);
        String json = Json.write(v);
        assertEquals("[\"inf\", \"-inf\", \"nan\", \"inf\", \"nan\", null]", json);
        assertEquals(Arrays.asList("inf", "-inf", "nan", "inf", "nan", null), MiniJson.parse(json));
    }

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
