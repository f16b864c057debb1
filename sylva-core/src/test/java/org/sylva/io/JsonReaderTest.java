package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one strict JSON parser: what it gives back, what it refuses and where, and its depth bound. */
class JsonReaderTest {
    private static Object read(String text) {
        return JsonReader.parse(text, 8, "test");
    }

    @Test
    void readsBackWhatTheWriterWrites() {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("int", 20L);
        m.put("big", new BigInteger("100000000000000000000000"));
        m.put("double", 1.5e-7);
        m.put("text", "a \"b\" \\ \n \u0001 é \ud83d\ude00");
        m.put("list", Arrays.asList(true, false, null, -3L, 0.5));
        m.put("inf", "inf");
        assertEquals(m, read(JsonWriter.write(m)));
        assertEquals(List.of(), read(" [ ] "));
        assertEquals("A\ud83d\ude00", read("\"\\u0041\\ud83d\\ude00\""));
    }

    @Test
    void refusesWhatIsNotJsonSayingWhatAndWhere() {
        String[][] bad = {
            {"{\"a\": 1, \"a\": 2}", "a repeated key \"a\""}, {"01", "a leading zero"}, {"1.", "without digits after its point"},
            {"-", "a number without digits"}, {"1e", "without digits in its exponent"}, {"1e999", "beyond float64's range"},
            {"\"\\u+041\"", "a bad \\u escape"}, {"\"\\u00g1\"", "a bad \\u escape"}, {"\"\\ud800\"", "half of a surrogate"},
            {"\"\\udc00\\ud800\"", "half of a surrogate"}, {"\"a\nb\"", "a control character"}, {"\"abc", "does not end"},
            {"[1,]", "unexpected character"}, {"{\"a\" 1}", "expected ':'"}, {"1 2", "text after the value"},
            {"NaN", "unexpected character"}, {"", "the text ends where a value should be"}};
        for (String[] b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> read(b[0]), b[0]);
            assertEquals(true, e.getMessage().startsWith("test: ") && e.getMessage().contains(b[1])
                    && e.getMessage().contains(" at character "), b[0] + ": " + e.getMessage());
        }
    }

    @Test
    void nestingIsBoundedByTheCaller() {
        assertEquals(List.of(List.of(1L)), JsonReader.parse("[[1]]", 2, "x"));   // the 1 is at depth 2
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JsonReader.parse("[[[1]]]", 2, "x"));
        assertEquals("x: nested deeper than 2 at character 3", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> read("[".repeat(100_000) + "]".repeat(100_000)));
    }
}
