package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** {@link DecimalParser} gives {@code Double.parseDouble}'s value, bit for bit, whichever path decides it. */
class DecimalParserTest {

    static void assertSameAsParseDouble(String s) {
        assertTrue(DelimitedReader.isDecimal(s), s);
        long want = Double.doubleToRawLongBits(Double.parseDouble(s));
        long got = Double.doubleToRawLongBits(DecimalParser.parse(s));
        assertEquals(want, got, () -> s + ": parseDouble " + Double.parseDouble(s) + ", DecimalParser "
                + DecimalParser.parse(s));
    }

    @Test
    void theFormatsTablesAreWrittenIn() {
        SplittableRandom rng = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            double x = switch (i % 4) {
                case 0 -> rng.nextGaussian();
                case 1 -> rng.nextGaussian() * Math.pow(10, rng.nextInt(-30, 31));
                case 2 -> (float) (rng.nextDouble() * 200 - 100);
                default -> Double.longBitsToDouble(rng.nextLong() & 0x7fef_ffff_ffff_ffffL);   // any finite double
            };
            for (String s : List.of(String.format(Locale.ROOT, "%.18e", x), String.format(Locale.ROOT, "%.17g", x),
                    Double.toString(x), Float.toString((float) x), String.format(Locale.ROOT, "%.9g", (float) x),
                    String.format(Locale.ROOT, "%.6f", x), new BigDecimal(x).toString())) {
                String t = s.replace("Infinity", "1e400");
                if (DelimitedReader.isDecimal(t)) assertSameAsParseDouble(t);
            }
        }
    }

    @Property(tries = 20_000)
    void anyNineteenDigitsAndExponent(@ForAll @LongRange(min = 0, max = 999_999_999_999_999_999L) long w,
            @ForAll @IntRange(min = -380, max = 340) int q, @ForAll boolean negative) {
        String digits = Long.toString(w);
        assertSameAsParseDouble((negative ? "-" : "") + digits + "e" + q);
        assertSameAsParseDouble((negative ? "-" : "+") + "0." + digits + "E" + (q + digits.length()));
    }

    @Property(tries = 5_000)
    void nineteenDigitsBeyondLong(@ForAll @LongRange(min = 0, max = 999_999_999_999_999_999L) long low,
            @ForAll @IntRange(min = 1, max = 9) int lead, @ForAll @IntRange(min = -340, max = 310) int q) {
        // 19 digits from 9.2e18 on are above Long.MAX_VALUE: unsigned in the parser
        assertSameAsParseDouble(lead + String.format(Locale.ROOT, "%018d", low) + "e" + q);
    }

    @Test
    void tiesAndTheNeighboursOfTies() {
        SplittableRandom rng = new SplittableRandom(11);
        for (int i = 0; i < 50_000; i++) {
            // the decimal halfway between two adjacent doubles, and that decimal moved by one in its last digit
            double a = Double.longBitsToDouble(rng.nextLong(0x0010_0000_0000_0000L, 0x7fe0_0000_0000_0000L));
            BigDecimal mid = new BigDecimal(a).add(new BigDecimal(Math.nextUp(a))).divide(BigDecimal.TWO);
            for (BigDecimal b : List.of(mid, mid.round(new java.math.MathContext(19)),
                    mid.round(new java.math.MathContext(17)), mid.add(mid.ulp()), mid.subtract(mid.ulp()))) {
                assertSameAsParseDouble(b.toString());
            }
        }
        // exact ties that fit 19 digits: 2^53 + 1, and ties at the top of the 64-bit product
        for (String s : List.of("9007199254740993", "9007199254740995", "18014398509481986", "18014398509481990",
                "9223372036854775808", "9223372036854776832", "9223372036854777856", "1e23", "8.98846567431158e307")) {
            assertSameAsParseDouble(s);
        }
    }

    @Test
    void edgesOfTheRange() {
        for (String s : List.of("0", "-0", "+0.000", "0e999999", "-0.0e-5", "1e-5", "4.9e-324", "2.4703282292062327e-324",
                "2.2250738585072011e-308", "2.2250738585072014e-308", "2.225073858507201e-308", "1.7976931348623157e308",
                "1.7976931348623158e308", "1.7976931348623159e308", "1e308", "1e309", "1e-400", "123456789012345678901",
                "0.1234567890123456789012", "000000000000000000000001.5", "1e0000001", "1e1234567", ".5", "5.", "-.5e+2",
                "1000000000000000000000e-22", "9999999999999999999e-360", "1e-342", "1e-343", "9e-325")) {
            assertSameAsParseDouble(s);
        }
    }

    @Test
    void mostDecimalsAreDecidedWithoutParseDouble() {
        // numpy.savetxt's format, printed from doubles: near their values, far from ties (the class comment)
        SplittableRandom rng = new SplittableRandom(3);
        int undecided = 0, total = 100_000;
        for (int i = 0; i < total; i++) {
            String s = String.format(Locale.ROOT, "%.18e", rng.nextGaussian());
            int e = s.indexOf('e');
            long w = Long.parseUnsignedLong(s.substring(0, e).replace(".", "").replace("-", ""));
            int q = Integer.parseInt(s.substring(e + 1)) - 18;
            if (Double.isNaN(DecimalParser.scaled(w, q))) undecided++;
        }
        assertTrue(undecided < total / 1000, undecided + " of " + total + " left to parseDouble");
    }
}
