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

    /** Maps and ML vectors, where Java's equality and Spark's grouping part ways: Spark's own groupBy decides. */
    @Test
    void mapsAndVectorsGroupAsSparkGroupsThem() {
        assertGroupsAsSpark(LocalSpark.get().sql("SELECT id, IF(id % 2 = 0, map('a', 1, 'b', 2), map('b', 2, 'a', 1)) AS k "
                + "FROM range(6)"), 1);
        assertGroupsAsSpark(LocalSpark.get().sql("SELECT id, map('a', IF(id % 2 = 0, 0.0D, -0.0D)) AS k FROM range(4)"), 1);
        assertGroupsAsSpark(LocalSpark.get().sql("SELECT id, map('a', id % 3) AS k FROM range(6)"), 3);
        org.apache.spark.sql.types.StructType schema = new org.apache.spark.sql.types.StructType()
                .add("id", org.apache.spark.sql.types.DataTypes.IntegerType)
                .add("k", new org.apache.spark.ml.linalg.VectorUDT());
        List<org.apache.spark.sql.Row> rows = List.of(
                RowFactory.create(0, org.apache.spark.ml.linalg.Vectors.dense(1, 0)),
                RowFactory.create(1, org.apache.spark.ml.linalg.Vectors.sparse(2, new int[] {0}, new double[] {1})),
                RowFactory.create(2, org.apache.spark.ml.linalg.Vectors.dense(1, -0.0)),
                RowFactory.create(3, org.apache.spark.ml.linalg.Vectors.dense(1, 0)),
                RowFactory.create(4, org.apache.spark.ml.linalg.Vectors.sparse(2, new int[] {0}, new double[] {1})));
        assertGroupsAsSpark(LocalSpark.get().createDataFrame(rows, schema), 3);
        // a refusal names such a group as the value reads, not as the fields it is compared by
        assertEquals("[1.0,0.5]", GroupKey.describe(GroupKey.of(org.apache.spark.ml.linalg.Vectors.dense(1, 0.5))));
        assertEquals("(2,[0],[1.0])", GroupKey.describe(GroupKey.of(
                org.apache.spark.ml.linalg.Vectors.sparse(2, new int[] {0}, new double[] {1}))));
        assertEquals("{a=1}", GroupKey.describe(GroupKey.of(java.util.Map.of("a", 1))));
    }

    /** GroupKey puts two rows of {@code df} together exactly when Spark's groupBy("k") does ({@code groups} of them). */
    private static void assertGroupsAsSpark(org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> df, int groups) {
        List<org.apache.spark.sql.Row> spark = df.groupBy("k").agg(org.apache.spark.sql.functions.collect_set("id"))
                .collectAsList();
        assertEquals(groups, spark.size(), "Spark's groups");
        java.util.Map<Object, java.util.Set<Long>> ours = new java.util.HashMap<>();
        for (org.apache.spark.sql.Row r : df.collectAsList()) {
            ours.computeIfAbsent(GroupKey.of(r.get(r.fieldIndex("k"))), k -> new java.util.TreeSet<>())
                    .add(((Number) r.get(r.fieldIndex("id"))).longValue());
        }
        java.util.Set<java.util.Set<Long>> theirs = new java.util.HashSet<>();
        for (org.apache.spark.sql.Row r : spark) {
            java.util.Set<Long> ids = new java.util.TreeSet<>();
            for (Object id : r.getList(1)) ids.add(((Number) id).longValue());
            theirs.add(ids);
        }
        assertEquals(theirs, new java.util.HashSet<>(ours.values()));
    }
}
