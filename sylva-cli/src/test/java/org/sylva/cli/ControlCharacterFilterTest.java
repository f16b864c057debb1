package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Standard error shows a terminal's control characters escaped, and passes everything else as it is. */
class ControlCharacterFilterTest {
    private static String through(String text, boolean charByChar) {
        StringWriter sink = new StringWriter();
        try (PrintWriter w = new PrintWriter(new ControlCharacterFilter(sink))) {
            if (charByChar) {
                for (int i = 0; i < text.length(); i++) w.write(text.charAt(i));
            } else {
                w.print(text);
                w.write(text.toCharArray(), 0, text.length());
            }
        }
        return sink.toString();
    }

    @Test
    void escapeSequencesAreShownNotObeyed() {
        String name = "sylva: error: " + (char) 27 + "]0;owned" + (char) 7 + (char) 27 + "[2Jx.npy: no such file";
        String shown = "sylva: error: \\x1b]0;owned\\x07\\x1b[2Jx.npy: no such file";
        assertEquals(shown + shown, through(name, false));
        assertEquals(shown, through(name, true));
        assertEquals("\\x00\\x7f\\x85\\x9f", through("\u0000\u007f\u0085\u009f", true));
    }

    @Test
    void textTabsNewlinesAndTheProgressLinesCarriageReturnPassAsTheyAre() {
        String text = "sylva: fitting 12 %\rsylva: fitting 80 %\r\n\tλ ∞ 名前 \u00a0 \ud83d\ude00\n";
        assertEquals(text + text, through(text, false));
        assertEquals(text, through(text, true));
    }
}
