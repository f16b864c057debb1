package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Tick labels stay short enough to leave room for the axis title; the title moves clear of them. */
class AxesTest {
    @Test
    void longLabelsMoveAPowerOfTenIntoTheTitle() {
        Axes.Ticks small = Axes.Ticks.linear(new Axes.Scale(-1.5e-4, 1e-4, 0, 100), 5e-5, "amplitude");
        assertArrayEquals(new String[] {"-1.5", "-1.0", "-0.5", "0.0", "0.5", "1.0"}, small.labels());
        assertEquals("amplitude (\u00d710\u207b\u2074)", small.title());
        Axes.Ticks large = Axes.Ticks.linear(new Axes.Scale(0, 3e7, 0, 100), 1e7, "PC 1");
        assertArrayEquals(new String[] {"0", "1", "2", "3"}, large.labels());
        assertEquals("PC 1 (\u00d710\u2077)", large.title());
        Axes.Ticks plain = Axes.Ticks.linear(new Axes.Scale(-40, 60, 0, 100), 20, "amplitude");
        assertArrayEquals(new String[] {"-40", "-20", "0", "20", "40", "60"}, plain.labels());
        assertEquals("amplitude", plain.title());
        Axes.Ticks untitled = Axes.Ticks.linear(new Axes.Scale(0, 2e-5, 0, 100), 1e-5, null);
        assertArrayEquals(new String[] {"0", "1e-5", "2e-5"}, untitled.labels());
    }

    /** A small span far from zero: a round offset leaves the title, and the ticks read apart. */
    @Test
    void aSmallSpanFarFromZeroTakesAnOffsetOutOfTheLabels() {
        double[][] cases = {{-122.424, -122.416}, {4_099_950, 4_100_050}, {9_999.5, 10_000.3}, {37.7695, 37.7712}};
        for (double[] c : cases) {
            double[] r = Axes.niceRange(c[0], c[1], 8);
            Axes.Ticks t = Axes.Ticks.linear(new Axes.Scale(r[0], r[1], 0, 500), r[2], "x");
            assertEquals(t.labels().length, java.util.Set.of(t.labels()).size(),
                    "every label differs: " + String.join(" ", t.labels()) + " / " + t.title());
            Matcher m = Pattern.compile("x ([+\u2212]) (\\S+)").matcher(t.title());
            assertTrue(m.matches(), t.title());
            double offset = (m.group(1).equals("+") ? -1 : 1) * Double.parseDouble(m.group(2));
            for (int i = 0; i < t.values().length; i++) {
                assertEquals(t.values()[i], offset + Double.parseDouble(t.labels()[i]), r[2] * 1e-6,
                        "a label plus the offset is its tick: " + t.title() + " " + t.labels()[i]);
            }
        }
        Axes.Ticks lon = Axes.Ticks.linear(new Axes.Scale(-122.424, -122.416, 0, 500), 0.002, "x");
        assertEquals("x + 122.43", lon.title());
        assertArrayEquals(new String[] {"0.006", "0.008", "0.010", "0.012", "0.014"}, lon.labels());
        // random small spans far from zero, either sign: labels distinct, short, a whole number of steps
        java.util.Random rnd = new java.util.Random(21);
        for (int t = 0; t < 20_000; t++) {
            double centre = (rnd.nextBoolean() ? 1 : -1) * Math.pow(10, rnd.nextInt(12) - 3) * (1 + rnd.nextDouble());
            double span = Math.abs(centre) * Math.pow(10, -3 - rnd.nextInt(9)) * (1 + 9 * rnd.nextDouble());
            double[] r = Axes.niceRange(centre - span / 2, centre + span / 2, 8);
            Axes.Ticks k = Axes.Ticks.linear(new Axes.Scale(r[0], r[1], 0, 500), r[2], "x");
            assertEquals(k.labels().length, java.util.Set.of(k.labels()).size(), String.join(" ", k.labels()));
            for (String l : k.labels()) assertTrue(l.length() <= Axes.MAX_LABEL_CHARS, l + " / " + k.title());
        }
    }

    @Test
    void everyLinearLabelFitsWhateverTheRange() {
        for (int e = -12; e <= 12; e++) {
            for (double lo : new double[] {-7.3, -1, 0, 0.2, 3}) {
                double a = lo * Math.pow(10, e), b = (lo + 4.1) * Math.pow(10, e);
                double[] r = Axes.niceRange(a, b, 6);
                Axes.Ticks t = Axes.Ticks.linear(new Axes.Scale(r[0], r[1], 0, 500), r[2], "title");
                for (String l : t.labels()) {
                    assertTrue(l.length() <= Axes.MAX_LABEL_CHARS, l + " for range " + a + " .. " + b);
                }
            }
        }
    }

    @Test
    void theLeftTitleSitsLeftOfTheWidestLabelWithAGap() {
        StringBuilder sb = new StringBuilder();
        Axes.leftTicks(sb, new double[] {10, 50}, new String[] {"0.0012", "1"}, 90, 0, 100, Double.NaN, "\u03bb");
        Matcher m = Pattern.compile("translate\\(([-0-9.]+) ").matcher(sb);
        assertTrue(m.find(), sb.toString());
        double titleX = Double.parseDouble(m.group(1));
        double labelLeft = 90 - 8 - Axes.labelWidth("0.0012");
        assertTrue(titleX + 3 < labelLeft, "title right edge " + (titleX + 3) + " vs label left " + labelLeft);
        assertEquals(78, Axes.marginFor(new String[] {"-1.5"}));
        assertTrue(Axes.marginFor(new String[] {"1.25e-5"}) > 78);
    }
}
