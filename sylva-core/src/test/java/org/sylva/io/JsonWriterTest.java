package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sylva.testsupport.MiniJson;

/** The one JSON writer: typed values, null, the string form of non-finite numbers, escapes that keep UTF-8 valid. */
class JsonWriterTest {
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
        String json = JsonWriter.write(m);
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
        String json = JsonWriter.write(v);
        assertEquals("[\"inf\", \"-inf\", \"nan\", \"inf\", \"nan\", null]", json);
        assertEquals(Arrays.asList("inf", "-inf", "nan", "inf", "nan", null), MiniJson.parse(json));
    }

    /** A surrogate pair is one character, written as it is; half of one is escaped, never lost as "?" in UTF-8. */
    @Test
    void controlCharactersAndHalfSurrogatePairsAreEscaped() {
        assertEquals("\"a\\u0000b \ud83d\ude00 \\ud800 \\udc00\"", JsonWriter.quote("a\u0000b \ud83d\ude00 \ud800 \udc00"));
        assertEquals("[0.1, 0.1]", JsonWriter.write(List.of(0.1f, 0.1)));
    }
}
