package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.sylva.balltree.BallTree;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.data.PointSet;

/** Trees per row against the CPU engine's one call over all clouds as batches. */
class SylvaBallTreesTest {
    private static final StructType SCHEMA = new StructType()
            .add("cloud", DataTypes.IntegerType, false)
            .add("points", DataTypes.createArrayType(DataTypes.createArrayType(DataTypes.FloatType, false), false), true);

    @Test
    void everyCloudEqualsItsBatchOfTheCpuEngine() {
        Random rnd = new Random(3);
        int clouds = 60, d = 3;
        int[] sizes = new int[clouds];
        int total = 0;
        for (int c = 0; c < clouds; c++) {
            sizes[c] = c == 0 ? 2 : c == 1 ? 1000 : 2 + rnd.nextInt(300);
            total += sizes[c];
        }
        float[] coords = new float[total * d];
        int[] batch = new int[total];
        List<Row> rows = new ArrayList<>();
        int at = 0;
        for (int c = 0; c < clouds; c++) {
            List<Object> pts = new ArrayList<>();
            for (int i = 0; i < sizes[c]; i++, at++) {
                List<Float> p = new ArrayList<>();
                for (int j = 0; j < d; j++) {
                    // heavy duplicates in every third cloud
                    float v = c % 3 == 0 ? rnd.nextInt(3) : (float) rnd.nextGaussian();
                    coords[at * d + j] = v;
                    p.add(v);
                }
                batch[at] = c;
                pts.add(LocalSpark.seq(p));
            }
            rows.add(RowFactory.create(c, LocalSpark.seq(pts)));
        }
        BallTreeBuilder cpu = new BallTreeBuilder();
        PointSet all = PointSet.of(total, d, coords);
        BallTree tree = cpu.build(all, batch);
        int level = 2;
        int[] perm = cpu.partition(all, batch, level);

        Dataset<Row> df = LocalSpark.get().createDataFrame(LocalSpark.context().parallelize(rows, 4), SCHEMA);
        List<Row> out = new SylvaBallTrees().setPartitionLevel(level).transform(df).collectAsList();
        assertEquals(clouds, out.size());
        int pointStart = 0, slotStart = 0;
        for (int c = 0; c < clouds; c++) {
            Row r = out.get(c);
            assertEquals(c, r.getInt(0));
            List<Integer> idx = r.getList(2);
            List<Boolean> mask = r.getList(3);
            List<Integer> part = r.getList(4);
            int slots = idx.size();
            for (int s = 0; s < slots; s++) {
                assertEquals(tree.index(slotStart + s) - pointStart, idx.get(s).intValue(), "cloud " + c + " slot " + s);
                assertEquals(tree.isReal(slotStart + s), mask.get(s));
            }
            int[] expected = new int[sizes[c]];
            int[] got = new int[sizes[c]];
            for (int i = 0; i < sizes[c]; i++) {
                expected[i] = perm[pointStart + i] - pointStart;
                got[i] = part.get(i);
            }
            assertArrayEquals(expected, got, "partition of cloud " + c);
            pointStart += sizes[c];
            slotStart += slots;
        }
        assertEquals(tree.size(), slotStart);
    }

    /** Saved alone or in a pipeline, with its params, and loaded to the same output. */
    @Test
    void savedAndLoadedInAPipelineItBuildsTheSameTrees(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        Random rnd = new Random(5);
        List<Row> rows = new ArrayList<>();
        for (int c = 0; c < 6; c++) {
            List<Object> pts = new ArrayList<>();
            for (int i = 0; i < 20 + 7 * c; i++) pts.add(LocalSpark.seq(List.of(rnd.nextFloat(), rnd.nextFloat())));
            rows.add(RowFactory.create(c, LocalSpark.seq(pts)));
        }
        Dataset<Row> df = LocalSpark.get().createDataFrame(LocalSpark.context().parallelize(rows, 2), SCHEMA);
        SylvaBallTrees trees = new SylvaBallTrees().setPartitionLevel(2).setMaskCol("real");
        List<Row> before = trees.transform(df).collectAsList();
        trees.write().save(dir.resolve("alone").toString());
        SylvaBallTrees back = SylvaBallTrees.load(dir.resolve("alone").toString());
        assertEquals(trees.uid(), back.uid());
        assertEquals("real", back.getMaskCol());
        assertEquals(2, back.getPartitionLevel());
        assertEquals("points", back.getPointsCol());
        assertEquals("tree_idx", back.getTreeIdxCol());
        assertEquals("partition", back.getPartitionCol());
        assertEquals(before, back.transform(df).collectAsList());
        org.apache.spark.ml.PipelineModel fitted = new org.apache.spark.ml.Pipeline()
                .setStages(new org.apache.spark.ml.PipelineStage[] {trees}).fit(df);
        fitted.write().save(dir.resolve("pipeline").toString());
        assertEquals(before, org.apache.spark.ml.PipelineModel.load(dir.resolve("pipeline").toString()).transform(df)
                .collectAsList());
        // another stage's directory: the class it holds is named (Spark's own reader would cast it and fail)
        new SylvaHdbscan().write().save(dir.resolve("estimator").toString());
        IllegalArgumentException wrong = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SylvaBallTrees.load(dir.resolve("estimator").toString()));
        assertTrue(wrong.getMessage().contains("Expected class name " + SylvaBallTrees.class.getName()
                + " but found class name " + SylvaHdbscan.class.getName()), wrong.getMessage());
    }

    @Test
    void aBadCloudIsNamed() {
        List<Row> rows = new ArrayList<>();
        rows.add(RowFactory.create(0, LocalSpark.seq(List.of(LocalSpark.seq(List.of(1f, 2f)), LocalSpark.seq(List.of(3f, 4f))))));
        rows.add(RowFactory.create(1, LocalSpark.seq(List.of(LocalSpark.seq(List.of(1f, 2f)), LocalSpark.seq(List.of(3f))))));
        Dataset<Row> df = LocalSpark.get().createDataFrame(rows, SCHEMA);
        assertEquals(List.of(), LocalSpark.jobsDuring(() -> new SylvaBallTrees().transform(df)), "nothing runs until consumed");
        Exception e = assertThrows(Exception.class, () -> new SylvaBallTrees().transform(df).collectAsList());
        String all = SylvaHdbscanTest.rootMessage(e);
        assertTrue(all.contains(LocalSpark.placeOf(df, "cloud", 1) + ": point 1 of 'points' has 1 coordinates, "
                + "point 0 has 2"), all);
        List<Row> nan = List.of(RowFactory.create(0, LocalSpark.seq(List.of(LocalSpark.seq(List.of(1f, Float.NaN)),
                LocalSpark.seq(List.of(3f, 4f))))));
        Exception e2 = assertThrows(Exception.class,
                () -> new SylvaBallTrees().transform(LocalSpark.get().createDataFrame(nan, SCHEMA)).collectAsList());
        assertTrue(SylvaHdbscanTest.rootMessage(e2).contains("row 0 of partition 0: column 'points'"),
                SylvaHdbscanTest.rootMessage(e2));
    }

    @Test
    void aDoubleBeyondFloat32IsNamedAsGiven() {
        StructType doubles = new StructType().add("cloud", DataTypes.IntegerType, false)
                .add("points", DataTypes.createArrayType(DataTypes.createArrayType(DataTypes.DoubleType, false), false), true);
        List<Row> rows = List.of(RowFactory.create(0, LocalSpark.seq(List.of(LocalSpark.seq(List.of(1e300, 0.0)),
                LocalSpark.seq(List.of(3.0, 4.0))))));
        Exception e = assertThrows(Exception.class,
                () -> new SylvaBallTrees().transform(LocalSpark.get().createDataFrame(rows, doubles)).collectAsList());
        String all = SylvaHdbscanTest.rootMessage(e);
        assertTrue(all.contains("row 0 of partition 0: point 0, coordinate 0 of 'points' is 1.0E300, beyond float32's "
                + "range"), all);
    }

    /** Integers and decimals beyond 2^24 are rounded to float32 once, as the CPU engine rounds an int64 .npy. */
    @Test
    void bigIntegersAndDecimalsAreRoundedOnce() {
        long a = (1L << 60) + (1L << 36) + 1, b = (1L << 60) + (1L << 37), c = 1L << 60;
        int[] expected = new BallTreeBuilder().build(org.sylva.data.PointSet.of(3, 1, new float[] {a, b, c})).indices();
        StructType longs = new StructType().add("cloud", DataTypes.IntegerType, false)
                .add("points", DataTypes.createArrayType(DataTypes.createArrayType(DataTypes.LongType, false), false), true);
        List<Row> rows = List.of(RowFactory.create(0, LocalSpark.seq(List.of(LocalSpark.seq(List.of(a)),
                LocalSpark.seq(List.of(b)), LocalSpark.seq(List.of(c))))));
        Row tree = new SylvaBallTrees().transform(LocalSpark.get().createDataFrame(rows, longs)).first();
        assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(tree.<Integer>getList(2).stream()
                .mapToInt(Integer::intValue).toArray()));
        assertEquals((double) (float) a, SylvaBallTrees.float32Of(new java.math.BigDecimal(a)));
        assertEquals((double) (float) a, SylvaBallTrees.float32Of(a));
        assertEquals(1e300, SylvaBallTrees.float32Of(new java.math.BigDecimal("1e300")), "beyond float32: named as given");
    }
}
