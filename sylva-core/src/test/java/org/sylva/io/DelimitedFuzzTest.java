package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sylva.data.InvalidInputException;
import org.sylva.io.DelimitedReader.Delimiter;

/**
 * Mutated delimited text (random bytes, quotes, delimiters, line ends, numbers, words): the reader
 * returns a rectangular table or refuses with an {@link InvalidInputException} naming the source;
 * nothing else, and promptly.
 */
class DelimitedFuzzTest {
    private static final int INPUTS = 30_000;

    @Test
    void onlyTablesOrInvalidInput() {
        int[] outcome = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            Random rnd = new Random(11);
            String[] atoms = {"1", "-2.5", "3e4", ".5", "nan", "inf", "x", "\"", "\"\"", ",", "\t", " ", "\n", "\r\n", "\r",
                "#", "1e99", "", "\uFEFF", "é", "\u0000", "\"a,b\"", "NA", "+", "-", "e", "1.", "0x1"};
            Delimiter[] delims = Delimiter.values();
            int ok = 0, refused = 0;
            for (int i = 0; i < INPUTS; i++) {
                StringBuilder b = new StringBuilder();
                int n = rnd.nextInt(40);
                for (int k = 0; k < n; k++) b.append(atoms[rnd.nextInt(atoms.length)]);
                byte[] bytes = b.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                if (rnd.nextInt(5) == 0 && bytes.length > 0) bytes[rnd.nextInt(bytes.length)] = (byte) rnd.nextInt(256);
                DelimitedReader r = DelimitedReader.of(delims[rnd.nextInt(delims.length)])
                        .withHeader(DelimitedReader.Header.values()[rnd.nextInt(3)]);
                try {
                    NumericTable t = r.read(new ByteArrayInputStream(bytes), "in");
                    assertEquals((long) t.rows() * t.columns(), t.values().length);
                    assertTrue(t.columns() >= 1);
                    ok++;
                } catch (InvalidInputException e) {
                    assertTrue(e.getMessage().startsWith("in"), e.getMessage());
                    refused++;
                } catch (Throwable t) {
                    throw new AssertionError("reader threw " + t + " on base64 " + Base64.getEncoder().encodeToString(bytes), t);
                }
            }
            return new int[] {ok, refused};
        });
        System.out.printf("DelimitedFuzzTest: %d inputs, %d read, %d refused%n", INPUTS, outcome[0], outcome[1]);
        assertTrue(outcome[0] > INPUTS / 50 && outcome[1] > INPUTS / 50, "both outcomes exercised");
    }
}
