package org.sylva.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
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
            for (String s : List.of(cDigits(x, 19), cDigits(x, 17), String.format(Locale.ROOT, "%.18e", x),
                    Double.toString(x), Float.toString((float) x), String.format(Locale.ROOT, "%.9g", (float) x),
                    String.format(Locale.ROOT, "%.6f", x), new BigDecimal(x).toString())) {
                String t = s.replace("Infinity", "1e400");
                if (DelimitedReader.isDecimal(t)) assertSameAsParseDouble(t);
            }
        }
    }

    /**
     * {@code x} to {@code digits} significant digits as C's {@code printf("%.18e")} (numpy.savetxt) and {@code %.17g}
     * write it: the exact binary value correctly rounded. Java's own {@code %.18e} pads the shortest decimal with
     * zeros instead ({@code 0.1} as {@code 1.000000000000000000e-01}, C {@code 1.000000000000000056e-01}).
     */
    static String cDigits(double x, int digits) {
        return new BigDecimal(x).round(new MathContext(digits, RoundingMode.HALF_EVEN)).toString();
    }

    @Property(tries = 20_000)
    void anyDigitsUpToLongMaxAndExponent(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long w,
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
            // the decimal halfway between two adjacent doubles (the top binade too) to 19 and 17 digits, and those
            // moved by one and two units of their last digit: the decimals the product's rounding rule decides
            double a = Double.longBitsToDouble(rng.nextLong(0x0010_0000_0000_0000L, 0x7fef_ffff_ffff_ffffL));
            BigDecimal mid = new BigDecimal(a).add(new BigDecimal(Math.nextUp(a))).divide(BigDecimal.TWO);
            for (int digits : new int[] {19, 17}) {
                BigDecimal r = mid.round(new MathContext(digits, RoundingMode.HALF_EVEN));
                for (int units = -2; units <= 2; units++) {
                    assertSameAsParseDouble(r.add(r.ulp().multiply(BigDecimal.valueOf(units))).toString());
                }
            }
        }
        // exact ties of at most 19 digits: 2^53 + 1 and + 3, 2^54 + 2 and + 6 (halfway, to even one way and the other)
        for (String s : List.of("9007199254740993", "9007199254740995", "18014398509481986", "18014398509481990")) {
            assertSameAsParseDouble(s);
        }
        // and the products' own boundaries: 2^63, 2^63 + 1024 (a tie at the 64-bit top), + 2048 and 1e23
        for (String s : List.of("9223372036854775808", "9223372036854776832", "9223372036854777856", "1e23")) {
            assertSameAsParseDouble(s);
        }
    }

    @Test
    void thePowersOfFiveAreTheirExactTruncations() {
        for (int q = DecimalParser.MIN_Q; q <= DecimalParser.MAX_Q; q++) {
            DecimalParser.Power p = DecimalParser.exactPower(q);
            BigInteger t = new BigInteger(Long.toUnsignedString(p.t()));
            assertEquals(64, t.bitLength(), "q " + q);
            // 5^q / 2^s as num / den, both integers: t * den <= num < (t + 1) * den
            BigInteger five = BigInteger.valueOf(5).pow(Math.abs(q));
            BigInteger num = (q >= 0 ? five : BigInteger.ONE).shiftLeft(Math.max(0, -p.s()));
            BigInteger den = (q >= 0 ? BigInteger.ONE : five).shiftLeft(Math.max(0, p.s()));
            assertTrue(t.multiply(den).compareTo(num) <= 0, "t too large at q " + q);
            assertTrue(t.add(BigInteger.ONE).multiply(den).compareTo(num) > 0, "t too small at q " + q);
        }
    }

    @Test
    void threadsFillingThePowersAgree() throws Exception {
        // many threads at once on exponents none has used yet in this class's other tests (most of them)
        int threads = 8;
        java.util.concurrent.ExecutorService ex = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
            for (int t = 0; t < threads; t++) {
                long seed = t;
                done.add(ex.submit(() -> {
                    start.await();
                    SplittableRandom rng = new SplittableRandom(seed);
                    for (int i = 0; i < 20_000; i++) {
                        assertSameAsParseDouble(rng.nextLong(1, Long.MAX_VALUE) + "e" + rng.nextInt(-340, 290));
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : done) f.get(2, java.util.concurrent.TimeUnit.MINUTES);
        } finally {
            ex.shutdownNow();
        }
    }

    @Test
    void edgesOfTheRange() {
        for (String s : List.of("0", "-0", "+0.000", "0e999999", "-0.0e-5", "1e-5", "4.9e-324", "2.4703282292062327e-324",
                "2.2250738585072011e-308", "2.2250738585072014e-308", "2.225073858507201e-308", "1.7976931348623157e308",
                "1.7976931348623158e308", "1.7976931348623159e308", "1e308", "1e309", "1e-400", "123456789012345678901",
                "0.1234567890123456789012", "000000000000000000000001.5", "1e0000001", "1e1234567", ".5", "5.", "-.5e+2",
                "1000000000000000000e-19", "9999999999999999999e-360", "1e-342", "1e-343", "9e-325",
                "2.2250738585072012e-308", "2.225073858507201136e-308", "1.797693134862315708e308")) {
            assertSameAsParseDouble(s);
        }
    }

    @Test
    void mostDecimalsAreDecidedWithoutParseDouble() {
        // numpy.savetxt's %.18e and %.17g, printed from doubles: near their values, far from ties (the class comment)
        SplittableRandom rng = new SplittableRandom(3);
        int undecided = 0, total = 100_000;
        for (int i = 0; i < total; i++) {
            double x = rng.nextGaussian() * Math.pow(10, rng.nextInt(-30, 31));
            for (int digits : new int[] {19, 17}) {
                BigDecimal b = new BigDecimal(cDigits(x, digits)).abs();
                assertTrue(b.unscaledValue().bitLength() <= 64, b::toString);
                long w = b.unscaledValue().longValue();   // unsigned: 19 digits may pass Long.MAX_VALUE
                if (Double.isNaN(DecimalParser.scaled(w, -b.scale()))) undecided++;
            }
        }
        assertEquals(0, undecided, undecided + " of " + 2 * total + " left to parseDouble");
    }
}
