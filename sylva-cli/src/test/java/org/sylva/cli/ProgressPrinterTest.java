package org.sylva.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The progress line's format (stage, percent, rate in points, ETA) and when plain lines are printed. */
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
        return plain(intervalMillis, 0);
    }

    static Captured plain(long intervalMillis, long points) {
        StringWriter w = new StringWriter();
        return new Captured(new ProgressPrinter(new PrintWriter(w), false, false, intervalMillis, points), w);
    }

    @Test
    void thePercentageNeverGoesBackWithinAStage() {
        Captured c = plain(2000, 1000);
        c.printer().progressAt("ball tree", 0, 1000, T0);
        c.printer().progressAt("ball tree", 600, 1000, T0 + S);
        // a report of another thread, made earlier, arriving later
        c.printer().progressAt("ball tree", 400, 1000, T0 + S);
        assertTrue(c.printer().line(T0 + S).startsWith("ball tree                 60.0%"), c.printer().line(T0 + S));
        c.printer().progressAt("ball tree", 700, 1000, T0 + 2 * S);
        assertTrue(c.printer().line(T0 + 2 * S).startsWith("ball tree                 70.0%"), c.printer().line(T0 + 2 * S));
        // the end, then a late report of another thread: still the end
        c.printer().progressAt("ball tree", 1000, 1000, T0 + 3 * S);
        c.printer().progressAt("ball tree", 900, 1000, T0 + 3 * S);
        assertTrue(c.printer().line(T0 + 3 * S).startsWith("ball tree                100.0%"), c.printer().line(T0 + 3 * S));
        // a new stage starts from its own reports
        c.printer().progressAt("partition", 100, 1000, T0 + 3 * S);
        assertTrue(c.printer().line(T0 + 3 * S).startsWith("partition                 10.0%"), c.printer().line(T0 + 3 * S));
    }

    @Test
    void lineShowsStagePercentRateInPointsElapsedAndEta() {
        Captured c = plain(2000, 2_000_000);
        // the core distances count leaves (here 1000 of them): the rate is the fraction done times the
        // points, per second
        c.printer().progressAt("core distances", 0, 1000, T0);
        c.printer().progressAt("core distances", 250, 1000, T0 + 5 * S);
        // a quarter of 2M points in 5 s: 100k points per second, 15 s to go
        assertEquals("core distances            25.0%  100.0k points/s  5.0s elapsed  ETA 15.0s",
                c.printer().line(T0 + 5 * S));
        // three passes over the leaves: the same fraction of the stage, the same rate
        c.printer().progressAt("core distances", 750, 3000, T0 + 5 * S);
        assertEquals("core distances            25.0%  100.0k points/s  5.0s elapsed  ETA 15.0s",
                c.printer().line(T0 + 5 * S));
        // a slow start: 1 % after 10 s (a printer of its own: the line above never goes back from 25 %)
        Captured slow = plain(2000, 2_000_000);
        slow.printer().progressAt("core distances", 0, 100, T0);
        slow.printer().progressAt("core distances", 1, 100, T0 + 10 * S);
        assertEquals("core distances             1.0%  2.0k points/s  10.0s elapsed  ETA 16m30s",
                slow.printer().line(T0 + 10 * S));
        // below 1 % of a stage no ETA yet: it would be the first units' pace (24 minutes for a stage of 10 s)
        Captured early = plain(2000, 2_000_000);
        early.printer().progressAt("core distances", 0, 1000, T0);
        early.printer().progressAt("core distances", 2, 1000, T0 + S / 2);
        assertEquals("core distances             0.2%  8.0k points/s  0.5s elapsed  ETA --",
                early.printer().line(T0 + S / 2));
        // the ball tree counts points
        c.printer().progressAt("ball tree", 0, 2_000_000, T0 + 10 * S);
        c.printer().progressAt("ball tree", 1_000_000, 2_000_000, T0 + 10 * S + S / 2);
        assertEquals("ball tree                 50.0%  2.0M points/s  0.5s elapsed  ETA 0.5s",
                c.printer().line(T0 + 10 * S + S / 2));
        c.printer().progressAt("partition", 0, 2_000_000, T0 + 20 * S);
        c.printer().progressAt("partition", 1_000_000, 2_000_000, T0 + 24 * S);
        assertEquals("partition                 50.0%  250.0k points/s  4.0s elapsed  ETA 4.0s",
                c.printer().line(T0 + 24 * S));
    }

    @Test
    void noRateWhereTheUnitsAreNotPoints() {
        Captured c = plain(2000, 2_000_000);
        // a spanning-tree round counts the leaves still active, a subset of the points: no rate
        c.printer().progressAt("spanning tree round 2", 0, 400, T0);
        c.printer().progressAt("spanning tree round 2", 100, 400, T0 + 5 * S);
        assertEquals("spanning tree round 2     25.0%  5.0s elapsed  ETA 15.0s", c.printer().line(T0 + 5 * S));
        c.printer().progressAt("some future stage", 5, 10, T0 + 5 * S);
        c.printer().progressAt("some future stage", 5, 10, T0 + 6 * S);
        assertEquals("some future stage         50.0%  1.0s elapsed  ETA 1.0s", c.printer().line(T0 + 6 * S));
        // without the number of points, no stage has a rate
        Captured unknown = plain(2000);
        unknown.printer().progressAt("core distances", 0, 1000, T0);
        unknown.printer().progressAt("core distances", 250, 1000, T0 + 5 * S);
        assertEquals("core distances            25.0%  5.0s elapsed  ETA 15.0s", unknown.printer().line(T0 + 5 * S));
    }

    @Test
    void rateAndEtaWaitUntilTheStageHasRunAFifthOfASecond() {
        Captured c = plain(2000, 1000);
        c.printer().progressAt("core distances", 10, 100, T0);
        assertEquals("core distances            10.0%  -- points/s  0.1s elapsed  ETA --", c.printer().line(T0 + S / 10));
        c.printer().progressAt("spanning tree round 1", 10, 100, T0);
        assertEquals("spanning tree round 1     10.0%  0.1s elapsed  ETA --", c.printer().line(T0 + S / 10));
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

    /** A stage's start marker, (0, 1), before its work is counted: "preparing", no percentage, rate or ETA. */
    @Test
    void aStagesStartMarkerReadsPreparing() {
        Captured c = plain(2000);
        ProgressPrinter p = c.printer();
        p.progressAt("core distances", 0, 1, T0);
        assertEquals("core distances           preparing  8.5s elapsed", p.line(T0 + 17 * S / 2));
        p.progressAt("core distances", 0, 4_000_000, T0 + 9 * S);
        assertTrue(p.line(T0 + 9 * S).startsWith("core distances             0.0%"), p.line(T0 + 9 * S));
        p.close();
    }


    @Test
    void aRunOfHoursIsWarnedAboutOnceWithItsFigures() {
        Captured c = plain(2000, 2_000_000);
        c.printer().progressAt("core distances", 0, 10_000, T0);
        c.printer().progressAt("core distances", 1, 10_000, T0 + 9 * S);    // not measured long enough yet
        assertFalse(c.text().toString().contains("warning"));
        c.printer().progressAt("core distances", 20, 10_000, T0 + 20 * S);  // 0.2 % in 20 s: 9 980 s more
        c.printer().progressAt("core distances", 30, 10_000, T0 + 30 * S);
        List<String> warnings = c.lines().stream().filter(l -> l.contains("warning")).toList();
        assertEquals(List.of("sylva: warning: core distances alone is projected to take about 2 h 46 min more on"
                + " this machine (0.2% done after 20 s); Ctrl-C stops the run and leaves no output"), warnings);
        // a fit of half an hour is not warned about; quiet still warns (it is not progress)
        Captured shortRun = plain(2000, 1000);
        shortRun.printer().progressAt("core distances", 0, 100, T0);
        shortRun.printer().progressAt("core distances", 1, 100, T0 + 18 * S);   // 30 min more
        assertFalse(shortRun.text().toString().contains("warning"));
        StringWriter w = new StringWriter();
        ProgressPrinter quiet = new ProgressPrinter(new PrintWriter(w), false, true, 0);
        quiet.progressAt("spanning tree round 2", 0, 1000, T0);
        quiet.progressAt("spanning tree round 2", 1, 1000, T0 + 60 * S);
        quiet.close();
        assertTrue(w.toString().startsWith("sylva: warning: spanning tree round 2 alone is projected to take about"
                + " 16 h 39 min more"), w.toString());
        assertEquals(1, w.toString().lines().count());
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

    @Test
    void aRepaintedLineFitsTheTerminalAndALongStageNameGivesWayFirst() {
        StringWriter w = new StringWriter();
        String stage = "reading /data/recordings/2026-12-07/session-04/probe-b/channels-000-383.npy";
        ProgressPrinter p = new ProgressPrinter(new PrintWriter(w), true, false, 2000, 0, 60);
        long now = System.nanoTime();   // close() and the ticker repaint on the real clock: the figures stay short
        p.progressAt(stage, 10, 100, now);
        p.progressAt(stage, 50, 100, now);
        p.close();
        for (String paint : w.toString().split("[\r\n]")) {
            assertTrue(paint.length() <= 59, paint.length() + ": " + paint);
        }
        String last = w.toString().strip();
        last = last.substring(last.lastIndexOf('\r') + 1);
        assertTrue(last.startsWith("reading /d") && last.contains("...") && last.contains("383.npy"), last);
        assertTrue(last.contains("50.0%") && last.contains("ETA"), "the figures are kept whole: " + last);
        StringWriter narrow = new StringWriter();
        ProgressPrinter q = new ProgressPrinter(new PrintWriter(narrow), true, false, 2000, 0, 20);
        q.progressAt("core distances", 10, 100, System.nanoTime());
        q.close();
        for (String paint : narrow.toString().split("[\r\n]")) assertTrue(paint.length() <= 19, paint);
        StringWriter mid = new StringWriter();   // 50 columns: the name loses its padding, not its letters
        ProgressPrinter r = new ProgressPrinter(new PrintWriter(mid), true, false, 2000, 0, 50);
        r.progressAt("core distances", 10, 100, System.nanoTime());   // close() repaints on the real clock
        r.close();
        String paint = mid.toString().strip();
        paint = paint.substring(paint.lastIndexOf('\r') + 1);
        assertTrue(paint.startsWith("core distances  "), paint);
        assertTrue(paint.length() <= 49, paint);
    }

    @Test
    void theTerminalsWidthComesFromThePropertyThenColumnsThenIs80() {
        assertEquals(132, ProgressPrinter.terminalColumns("132", "40"));
        assertEquals(40, ProgressPrinter.terminalColumns(null, " 40 "));
        assertEquals(40, ProgressPrinter.terminalColumns("wide", "40"));
        assertEquals(80, ProgressPrinter.terminalColumns(null, null));
        assertEquals(80, ProgressPrinter.terminalColumns("0", "-3"));
        assertEquals(20, ProgressPrinter.terminalColumns("5", null), "at least 20");
        assertEquals("abc...xyz", ProgressPrinter.shorten("abcdefghijklmnopqrstuvwxyz", 9));
        assertEquals("abcde", ProgressPrinter.shorten("abcdefghij", 5));
        assertEquals("short", ProgressPrinter.shorten("short", 9));
    }

    @Test
    void stderrCountsAsATerminalOnlyWhereItsDescriptorIsOne() {
        assertTrue(StandardDescriptors.isTerminal("/dev/pts/3"));
        assertTrue(StandardDescriptors.isTerminal("/dev/tty1"));
        assertFalse(StandardDescriptors.isTerminal("/tmp/log"));
        assertFalse(StandardDescriptors.isTerminal("pipe:[4711]"));
        assertFalse(StandardDescriptors.isTerminal("/dev/null"));
        assertFalse(StandardDescriptors.isTerminal(null));
        assertTrue(StandardDescriptors.isPipe("pipe:[4711]"));
        assertFalse(StandardDescriptors.isPipe("/dev/full"));
        assertFalse(StandardDescriptors.isPipe(null));
        assertTrue(StandardDescriptors.isPipe("socket:[99]"));
    }

    @Test
    void aNamedPipeCountsAsAPipe(@org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path fifo = OutputTargetsTest.fifo(tmp.resolve("answers"));
        assertTrue(StandardDescriptors.isPipe(fifo.toString()));
        assertFalse(StandardDescriptors.isPipe(java.nio.file.Files.writeString(tmp.resolve("file"), "x").toString()));
    }
}
