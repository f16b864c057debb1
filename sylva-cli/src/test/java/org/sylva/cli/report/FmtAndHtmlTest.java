package org.sylva.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FmtAndHtmlTest {
    @Test
    void pixelsHaveOneDecimalAndNoNegativeZero() {
        assertEquals("12.3", Fmt.px(12.34));
        assertEquals("12.4", Fmt.px(12.35));
        assertEquals("7", Fmt.px(7.0));
        assertEquals("0", Fmt.px(-0.04));
        assertEquals("-0.5", Fmt.px(-0.5));
        assertEquals("-3.1", Fmt.px(-3.06));
    }

    @Test
    void numbersAreLocaleIndependent() {
        assertEquals("500,000", Fmt.count(500_000));
        assertEquals("12.5 %", Fmt.percent(1, 8));
        assertEquals("0.1578", Fmt.sig(0.15777));
        assertEquals("1235", Fmt.sig(1234.56));
        assertEquals("1.235e+07", Fmt.sig(12_345_678));
        assertEquals("\u221e", Fmt.sig(Double.POSITIVE_INFINITY));
        assertEquals("\u2013", Fmt.sig(Double.NaN));
        assertEquals("0.041 s", Fmt.seconds(0.0414));
        assertEquals("0.02", Fmt.tick(0.02, 0.02));
        assertEquals("-50", Fmt.tick(-50, 50));
        assertEquals("0.0", Fmt.tick(-1e-18, 0.5));
    }

    @Test
    void escapesMarkupQuotesAndControlCharacters() {
        assertEquals("&lt;a href=&quot;x&quot;&gt;&amp;&#39;", Html.esc("<a href=\"x\">&'"));
        assertEquals("a\uFFFDb\tc\nd", Html.esc("a\u0000b\tc\nd"));
        assertEquals("\uD83D\uDE00 \uFFFD", Html.esc("\uD83D\uDE00 \uD800"));
        assertEquals("\u00e9\u03bb", Html.esc("\u00e9\u03bb"));
        // a right-to-left override would show "invoice\u202eypj.npy" as "invoicejpy.npy" reversed; C1 controls
        assertEquals("invoice\uFFFDypj.npy \uFFFD\uFFFD\uFFFD \uFFFD\uFFFD", Html.esc("invoice\u202eypj.npy \u2066\u200f\u061c \u0085\u009f"));
        assertEquals("\u05d0\u0627 \u00a0", Html.esc("\u05d0\u0627 \u00a0"));   // right-to-left letters themselves pass
    }

    @Test
    void paletteIsFixedPerLabelAndNoiseIsApart() {
        assertEquals("#0072B2", Palette.colour(0));
        assertEquals(Palette.colour(3), Palette.colour(3 + Palette.size()));
        for (int l = 0; l < Palette.size(); l++) {
            assertTrue(!Palette.colour(l).equals(Palette.NOISE));
            for (int m = 0; m < l; m++) assertTrue(!Palette.colour(l).equals(Palette.colour(m)));
        }
        assertEquals("#004F7C", Palette.dark(0));
    }
}
