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
