package org.sylva.io;

import java.math.BigInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The float64 value of a decimal, correctly rounded, as {@link Double#parseDouble} gives it, without that
 * method's general path for the common case: a text table's cells are decimals of at most 19 significant
 * digits ({@code numpy.savetxt} writes 19: {@code %.18e}), and {@code parseDouble} spent most of the read of such
 * a file in a cold process. The decimal {@code w * 10^q} ({@code w} its digits as an integer) is scaled by a
 * 64-bit truncation of {@code 5^q} (made once per exponent with {@link BigInteger}, exactly). The product's
 * high 64 bits are then less than two units of their last bit below the exact value (one from the truncated
 * power, one from the product's dropped low half), so the rounding to 53 bits is decided from them alone unless
 * their discarded bits lie within that distance of half a unit. Those inputs (about one random decimal in a
 * thousand, among them every exact tie; none of a million decimals printed from doubles with 17 or 19 digits,
 * which lie near a double and far from a tie; a float's 9 digits, about 6 in 10 000 beyond 10^&plusmn;25), decimals
 * of more digits, and results outside the normal range (subnormal, overflowing) go to {@code parseDouble}: the
 * value is always {@code parseDouble}'s, bit for bit.
 *
 * <pre>{@code
 * double v = DecimalParser.parse("-1.234567890123456789e-05");   // == Double.parseDouble of the same text
 * }</pre>
 */
final class DecimalParser {
    /** Most significant digits read into a long: 10^19 - 1 < 2^64 as an unsigned value. */
    static final int MAX_DIGITS = 19;
    /** Decimal exponents of a nonzero normal double's 19-digit decimal lie well within this range. */
    static final int MIN_Q = -360;
    static final int MAX_Q = 330;
    /** Exponent digits beyond which the parse is left to parseDouble (no overflow of the int below). */
    private static final int MAX_EXPONENT_DIGITS = 6;

    /** Per decimal exponent q: 5^q as {@code t * 2^s}, {@code t} in [2^63, 2^64) (unsigned) truncated. */
    record Power(long t, int s) {
    }

    private static final AtomicReferenceArray<Power> POWERS = new AtomicReferenceArray<>(MAX_Q - MIN_Q + 1);

    private DecimalParser() {
    }

    /**
     * The value of {@code s}, which must be a decimal as {@link DelimitedReader#isDecimal} accepts it
     * ({@code [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?}): bitwise {@code Double.parseDouble(s)}.
     */
    static double parse(CharSequence s) {
        int n = s.length(), i = 0;
        boolean negative = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) negative = s.charAt(i++) == '-';
        long w = 0;
        int digits = 0;      // significant digits in w (leading zeros not counted)
        int scale = 0;       // digits after the point that went into w, or were zeros before the first significant
        boolean point = false;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c == '.') {
                point = true;
                continue;
            }
            if (c < '0' || c > '9') break;
            if (digits == 0 && c == '0') {
                if (point) scale++;
                continue;
            }
            if (digits == MAX_DIGITS) return Double.parseDouble(s.toString());
            w = w * 10 + (c - '0');
            digits++;
            if (point) scale++;
        }
        int exponent = 0;
        if (i < n) {   // 'e' or 'E', as isDecimal checked
            i++;
            boolean negativeExponent = false;
            if (s.charAt(i) == '+' || s.charAt(i) == '-') negativeExponent = s.charAt(i++) == '-';
            if (n - i > MAX_EXPONENT_DIGITS) return Double.parseDouble(s.toString());
            for (; i < n; i++) exponent = exponent * 10 + (s.charAt(i) - '0');
            if (negativeExponent) exponent = -exponent;
        }
        if (w == 0) return negative ? -0.0 : 0.0;
        double v = scaled(w, exponent - scale);
        if (Double.isNaN(v)) return Double.parseDouble(s.toString());
        return negative ? -v : v;
    }

    /**
     * {@code w * 10^q} correctly rounded for {@code w > 0} (unsigned, at most 19 digits), or NaN when the
     * product cannot decide the rounding or the value is not a normal double.
     */
    static double scaled(long w, int q) {
        if (q < MIN_Q || q > MAX_Q) return Double.NaN;
        if (Long.compareUnsigned(w, 1L << 53) < 0 && q >= -22 && q <= 22) {
            // Both exact in float64: one multiplication or division rounds correctly (Clinger's fast path)
            return q >= 0 ? (double) w * EXACT_TENS[q] : (double) w / EXACT_TENS[-q];
        }
        Power p = power(q);
        int l = Long.numberOfLeadingZeros(w);
        long wn = w << l;                                  // in [2^63, 2^64)
        long hi = Math.unsignedMultiplyHigh(wn, p.t);      // wn * t = hi * 2^64 + lo, hi >= 2^62
        long lo = wn * p.t;
        // The exact w * 5^q / 2^s is wn * t_real with t <= t_real < t + 1: it lies in
        // [hi * 2^64 + lo, hi * 2^64 + lo + 2^64), within two units of hi's last bit above hi.
        int top = 64 - Long.numberOfLeadingZeros(hi);      // 63 or 64
        int cut = top - 53;                                // bits of hi below the 53 kept: 10 or 11
        long m = hi >>> cut;
        long rest = hi & ((1L << cut) - 1);
        long half = 1L << (cut - 1);
        // the value's bits below m, in units of hi's last bit, are in [rest, rest + 2)
        if (rest == half - 1 || (rest == half && lo == 0)) return Double.NaN;   // within the error of a tie
        if (rest >= half) m++;                             // rest > half, or == half with more below: above the tie
        int e = cut + 64 + p.s + q - l;                    // value = m * 2^e
        if (m == 1L << 53) {
            m >>>= 1;
            e++;
        }
        int biased = e + 52 + 1023;
        if (biased < 1 || biased > 2046) return Double.NaN;
        return Double.longBitsToDouble(((long) biased << 52) | (m & ((1L << 52) - 1)));
    }

    /** 10^0 .. 10^22, each exact in float64. */
    private static final double[] EXACT_TENS = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    };

    /** 5^q as {@code t * 2^s} with t in [2^63, 2^64) truncated, made on first use of each q. */
    private static Power power(int q) {
        Power p = POWERS.get(q - MIN_Q);
        if (p != null) return p;
        p = exactPower(q);
        POWERS.compareAndSet(q - MIN_Q, null, p);
        return p;
    }

    /** {@code floor(5^q / 2^s)} with s chosen to leave 64 bits, from exact integers. */
    static Power exactPower(int q) {
        BigInteger five = BigInteger.valueOf(5);
        if (q >= 0) {
            BigInteger f = five.pow(q);
            int s = f.bitLength() - 64;
            BigInteger t = s >= 0 ? f.shiftRight(s) : f.shiftLeft(-s);
            return new Power(t.longValue(), s);
        }
        BigInteger f = five.pow(-q);
        int shift = f.bitLength() + 63;                    // 2^shift / 5^-q lies in (2^63, 2^64)
        BigInteger t = BigInteger.ONE.shiftLeft(shift).divide(f);
        return new Power(t.longValue(), -shift);
    }
}
