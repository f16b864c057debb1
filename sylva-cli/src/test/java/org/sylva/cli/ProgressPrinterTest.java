package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The progress line's format (stage, percent, rate, ETA) and when plain lines are printed. */
class ProgressPrinterTest {
    static final long S = 1_000_000_000L;
    /** An arbitrary clock origin, negative on purpose: System.nanoTime() may be. */
    static final long T0 = -7 * S;

    record Captured(ProgressPrinter printer, StringWriter text) {
        List<String> lines() {
            return text.toString().lines().toList();
        }
    }

    static Captured plain(long intervalMillis) {
        StringWriter w = new StringWriter();
        return new Captured(new ProgressPrinter(new PrintWriter(w), false, false, intervalMillis), w);
    }

    @Test
    void lineShowsStagePercentRateElapsedAndEta() {
        Captured c = plain(2000);
        c.printer().progressAt("core distances", 0, 1000, T0);
        c.printer().progressAt("core distances", 250, 1000, T0 + 5 * S);
        // 250 of 1000 in 5 s: 50 per second, 15 s to go
        assertEquals("core distances            25.0%  50/s  5.0s elapsed  ETA 15.0s",
                c.printer().line(T0 + 5 * S));
        c.printer().progressAt("core distances", 500_000, 2_000_000, T0 + 5 * S);
        assertEquals("core distances            25.0%  100.0k/s  5.0s elapsed  ETA 15.0s", c.printer().line(T0 + 5 * S));
        c.printer().progressAt("core distances", 20_000_000, 100_000_000, T0 + 10 * S);
        assertEquals("core distances            20.0%  2.0M/s  10.0s elapsed  ETA 40.0s", c.printer().line(T0 + 10 * S));
        // long ETAs in minutes and seconds
        c.printer().progressAt("core distances", 1, 100, T0 + 10 * S);
        assertTrue(c.printer().line(T0 + 10 * S).endsWith("ETA 16m30s"), c.printer().line(T0 + 10 * S));
    }

    @Test
    void rateAndEtaWaitUntilTheStageHasRunAFifthOfASecond() {
        Captured c = plain(2000);
        c.printer().progressAt("spanning tree round 1", 10, 100, T0);
        assertEquals("spanning tree round 1     10.0%  --/s  0.1s elapsed  ETA --", c.printer().line(T0 + S / 10));
        c.printer().progressAt("spanning tree round 1", 100, 100, T0 + S);
        assertTrue(c.printer().line(T0 + S).endsWith("ETA --"), "no ETA once done");
        assertEquals(c.printer().line(T0 + S), c.printer().line(T0 + 60 * S), "a finished stage's line no longer ages");
    }

    @Test
    void plainLinesAtTheStartAndEndOfEachStageAndEveryIntervalBetween() {
        Captured c = plain(2000);
        ProgressPrinter p = c.printer();
        p.progressAt("core distances", 0, 100, T0);               // first report of a stage: printed
        p.progressAt("core distances", 10, 100, T0 + S);           // 1 s later: within the interval, not printed
        p.progressAt("core distances", 30, 100, T0 + 2 * S + 1);   // 2 s later: printed
        p.progressAt("core distances", 40, 100, T0 + 3 * S);       // not printed
        p.progressAt("core distances", 100, 100, T0 + 3 * S + 5);  // the end: printed
        p.progressAt("spanning tree", 0, 10, T0 + 3 * S + 6);      // a new stage: printed at once
        p.close();
        List<String> lines = c.lines();
        assertEquals(4, lines.size(), c.text().toString());
        assertTrue(lines.get(0).startsWith("core distances") && lines.get(0).contains("  0.0%"), lines.get(0));
        assertTrue(lines.get(1).contains(" 30.0%"), lines.get(1));
        assertTrue(lines.get(2).contains("100.0%"), lines.get(2));
        assertTrue(lines.get(3).startsWith("spanning tree") && lines.get(3).contains("  0.0%"), lines.get(3));
        assertFalse(c.text().toString().contains("\r"), "no repaint codes when stderr is not a terminal");
    }

    @Test
    void quietPrintsNothing() {
        StringWriter w = new StringWriter();
        ProgressPrinter p = new ProgressPrinter(new PrintWriter(w), false, true, 0);
        p.progressAt("core distances", 0, 100, T0);
        p.progressAt("core distances", 100, 100, T0 + S);
        p.close();
        ProgressPrinter t = new ProgressPrinter(new PrintWriter(w), true, true, 0); // quiet wins over a terminal
        t.progressAt("core distances", 50, 100, T0);
        t.close();
        assertEquals("", w.toString());
    }

    @Test
    void terminalRepaintsOneLinePerStageAndEndsItWithANewline() {
        StringWriter w = new StringWriter();
        ProgressPrinter p = new ProgressPrinter(new PrintWriter(w), true, false, 2000);
        p.progressAt("core distances", 10, 100, T0);
        p.progressAt("core distances", 100, 100, T0 + S);
        p.progressAt("spanning tree", 5, 10, T0 + S);
        p.close();
        String s = w.toString();
        List<String> lines = List.of(s.split("\n"));
        assertEquals(2, lines.size(), "one line per stage:\n" + s);
        assertTrue(lines.get(0).startsWith("\rcore distances"), lines.get(0));
        String lastPaint = lines.get(0).substring(lines.get(0).lastIndexOf('\r') + 1);
        assertTrue(lastPaint.startsWith("core distances") && lastPaint.contains("100.0%"), lastPaint);
        assertTrue(lastPaint.contains("  1.0s elapsed"), "a finished stage keeps its figures: " + lastPaint);
        assertTrue(lines.get(1).contains("spanning tree"), lines.get(1));
        assertTrue(s.endsWith("\n"), "the last stage's line is finished at close");
    }
}
