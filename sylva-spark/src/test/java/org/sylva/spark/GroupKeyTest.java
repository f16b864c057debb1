package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;

import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;

/** Keys compare as Spark SQL groups them (their serialization: {@code KryoRoundTripTest}). */
class GroupKeyTest {
    @Test
    void equalAsSparkSqlGroups() {
        assertEquals(GroupKey.of(new byte[] {1, 2}), GroupKey.of(new byte[] {1, 2}));
        assertEquals(GroupKey.of(new byte[] {1, 2}).hashCode(), GroupKey.of(new byte[] {1, 2}).hashCode());
        assertNotEquals(GroupKey.of(new byte[] {1, 2}), GroupKey.of(new byte[] {2, 1}));
        assertEquals(GroupKey.of(-0.0), GroupKey.of(0.0));
        assertEquals(GroupKey.of(-0.0f), GroupKey.of(0.0f));
        assertEquals(GroupKey.of(Double.longBitsToDouble(0x7ff8000000000123L)), GroupKey.of(Double.NaN));
        assertEquals(GroupKey.of(LocalSpark.seq(List.of(-0.0, 1.0))), GroupKey.of(LocalSpark.seq(List.of(0.0, 1.0))));
        assertEquals(GroupKey.of(RowFactory.create(new byte[] {3}, -0.0)), GroupKey.of(RowFactory.create(new byte[] {3}, 0.0)));
        assertEquals("0x0aff", GroupKey.describe(GroupKey.of(new byte[] {10, -1})));
        assertEquals("'ch1'", GroupKey.describe("ch1"));
        assertEquals("null", GroupKey.describe(null));
    }
}
