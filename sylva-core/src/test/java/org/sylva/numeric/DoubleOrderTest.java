package org.sylva.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DoubleOrderTest {
    @Test
    void keysOrderValuesAsDoubleCompareAndMapBackToTheSameBits() {
        double[] v = {Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -1.5, -Double.MIN_VALUE, -0.0, 0.0,
                Double.MIN_VALUE, 2.0, Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NaN};
        for (double a : v) {
            assertEquals(Double.doubleToLongBits(a), Double.doubleToLongBits(DoubleOrder.value(DoubleOrder.key(a))));
            for (double b : v) {
                assertEquals(Integer.signum(Double.compare(a, b)),
                        Integer.signum(Long.compare(DoubleOrder.key(a), DoubleOrder.key(b))), a + " vs " + b);
            }
        }
    }

    @Test
    void everyNaNIsOneKeyAboveInfinity() {
        long nan = DoubleOrder.key(Double.NaN);
        assertEquals(nan, DoubleOrder.key(Double.longBitsToDouble(0x7ff0000000000001L)));
        assertEquals(nan, DoubleOrder.key(Double.longBitsToDouble(0xfff8000000000000L)));
        assertEquals(1, Long.compare(nan, DoubleOrder.key(Double.POSITIVE_INFINITY)));
    }
}
