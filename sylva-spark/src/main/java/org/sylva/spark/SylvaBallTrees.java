package org.sylva.spark;

import java.util.List;

import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.VectorUDT;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;
import org.sylva.balltree.BallTree;
import org.sylva.balltree.BallTreeBuilder;
import org.sylva.data.InvalidInputException;
import org.sylva.data.PointSet;
import org.sylva.progress.CancellationToken;

/**
 * Erwin's perfect binary ball trees for a dataset of point clouds, one cloud per row, each built on the
 * executor that holds its row by the CPU engine ({@link BallTreeBuilder}): appends {@code tree_idx}
 * (array of int: for each slot, the index of a point of the cloud) and {@code mask} (array of boolean:
 * false for padding), and with {@code partitionLevel >= 0} also {@code partition} (Erwin's partition
 * permutation at that level). Each row's arrays equal the CPU engine's output for all clouds as batches
 * of one call, shifted to the cloud's own point numbering. The points column is an array of points, each
 * an array of numbers or a vector, converted to float32 as Erwin's tensors are; a null, ragged or
 * non-finite cloud fails the job with the row named. Saved with Spark ML's params writer, alone or in a
 * {@code Pipeline}/{@code PipelineModel} ({@link #write()}, {@link #load}).
 *
 * <pre>{@code
 * Dataset<Row> trees = new SylvaBallTrees().setPointsCol("points").setPartitionLevel(3).transform(clouds);
 * }</pre>
 */
public final class SylvaBallTrees extends Transformer implements DefaultParamsWritable {
    private static final long serialVersionUID = 1L;

    private final String uid;
    private final Param<String> pointsCol;
    private final Param<String> treeIdxCol;
    private final Param<String> maskCol;
    private final Param<String> partitionCol;
    private final IntParam partitionLevel;

    public SylvaBallTrees() {
        this(Identifiable$.MODULE$.randomUID("sylvaBallTrees"));
    }

    public SylvaBallTrees(String uid) {
        this.uid = uid;
        pointsCol = new Param<>(this, "pointsCol", "one point cloud per row: an array of points");
        treeIdxCol = new Param<>(this, "treeIdxCol", "output column: the point held by each slot");
        maskCol = new Param<>(this, "maskCol", "output column: false for padding slots");
        partitionCol = new Param<>(this, "partitionCol", "output column: Erwin's partition permutation");
        partitionLevel = new IntParam(this, "partitionLevel", "target level of the partition; -1 = none",
                ParamValidators.gtEq(-1));
        setDefault(pointsCol, "points");
        setDefault(treeIdxCol, "tree_idx");
        setDefault(maskCol, "mask");
        setDefault(partitionCol, "partition");
        setDefault(partitionLevel, -1);
    }

    @Override
    public String uid() {
        return uid;
    }

    public Param<String> pointsCol() { return pointsCol; }
    public Param<String> treeIdxCol() { return treeIdxCol; }
    public Param<String> maskCol() { return maskCol; }
    public Param<String> partitionCol() { return partitionCol; }
    public IntParam partitionLevel() { return partitionLevel; }

    public String getPointsCol() { return getOrDefault(pointsCol); }
    public String getTreeIdxCol() { return getOrDefault(treeIdxCol); }
    public String getMaskCol() { return getOrDefault(maskCol); }
    public String getPartitionCol() { return getOrDefault(partitionCol); }
    public int getPartitionLevel() { return (Integer) getOrDefault(partitionLevel); }

    public SylvaBallTrees setPointsCol(String v) { set(pointsCol, HdbscanParams.notNull(pointsCol, v)); return this; }
    public SylvaBallTrees setTreeIdxCol(String v) { set(treeIdxCol, HdbscanParams.notNull(treeIdxCol, v)); return this; }
    public SylvaBallTrees setMaskCol(String v) { set(maskCol, HdbscanParams.notNull(maskCol, v)); return this; }
    public SylvaBallTrees setPartitionCol(String v) { set(partitionCol, HdbscanParams.notNull(partitionCol, v)); return this; }
    public SylvaBallTrees setPartitionLevel(int v) { set(partitionLevel, v); return this; }

    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        StructType out = transformSchema(dataset.schema());
        int col = FeatureColumn.fieldIndex(dataset.schema(), getOrDefault(pointsCol));
        String name = getOrDefault(pointsCol);
        int level = (Integer) getOrDefault(partitionLevel);
        // a step of the dataset's plan (its RDD taken here would run the input's shuffle stages under adaptive
        // execution), rows named by partition and position (RowPlaces): nothing runs before the result is consumed
        return dataset.toDF().mapPartitions((MapPartitionsFunction<Row, Row>) it -> RowPlaces.map(
                TaskContext.getPartitionId(), it, (row, where) -> build(row, where, col, name, level)), Encoders.row(out));
    }

    private static Row build(Row row, String where, int col, String name, int level) {
        TaskContext tc = TaskContext.get();
        BallTreeBuilder builder = new BallTreeBuilder()
                .threads(tc == null ? 1 : Math.max(1, tc.cpus()))
                .cancellation(tc == null ? CancellationToken.NEVER : CancellationToken.polling(tc::isInterrupted));
        int extra = level >= 0 ? 3 : 2;
        Object[] values = new Object[row.length() + extra];
        for (int j = 0; j < row.length(); j++) values[j] = row.get(j);
        try {
            PointSet points = cloud(row, where, col, name);
            BallTree tree = builder.build(points);
            values[row.length()] = tree.indices();
            values[row.length() + 1] = tree.mask();
            if (level >= 0) values[row.length() + 2] = builder.partition(points, level);
        } catch (InvalidInputException e) {
            if (e.getMessage().startsWith(where + ":")) throw e;
            throw new InvalidInputException(where + ": column '" + name + "': " + e.getMessage());
        }
        return RowFactory.create(values);
    }

    /** The cloud of {@code row} as float32 points. */
    static PointSet cloud(Row row, String where, int col, String name) {
        if (row.isNullAt(col)) throw new InvalidInputException(where + ": column '" + name + "' is null");
        List<Object> pts = row.getList(col);
        if (pts.isEmpty()) return PointSet.of(0, 1, new float[0]);
        int d = -1;
        float[] coords = null;
        for (int i = 0; i < pts.size(); i++) {
            Object p = pts.get(i);
            if (p == null) throw new InvalidInputException(where + ": point " + i + " of '" + name + "' is null");
            double[] x = p instanceof Vector v ? v.toArray() : numbers(p, where, i, name);
            if (d < 0) {
                d = x.length;
                if (d == 0) throw new InvalidInputException(where + ": point 0 of '" + name + "' is empty");
                coords = new float[Math.multiplyExact(pts.size(), d)];
            } else if (x.length != d) {
                throw new InvalidInputException(where + ": point " + i + " of '" + name + "' has " + x.length
                        + " coordinates, point 0 has " + d);
            }
            for (int j = 0; j < d; j++) {
                float f = (float) x[j];
                if (Float.isInfinite(f) && Double.isFinite(x[j])) {
                    throw new InvalidInputException(where + ": point " + i + ", coordinate " + j + " of '" + name
                            + "' is " + x[j] + ", beyond float32's range (+-" + Float.MAX_VALUE + "), in which the ball "
                            + "tree works");
                }
                coords[i * d + j] = f;
            }
        }
        return PointSet.of(pts.size(), d, coords);
    }

    private static double[] numbers(Object p, String where, int i, String name) {
        List<?> values = p instanceof scala.collection.Seq<?> s ? scala.jdk.javaapi.CollectionConverters.asJava(s)
                : (List<?>) p;
        double[] x = new double[values.size()];
        for (int j = 0; j < x.length; j++) {
            Object v = values.get(j);
            if (v == null) {
                throw new InvalidInputException(where + ": point " + i + " of '" + name + "' has a null");
            }
            x[j] = float32Of((Number) v);
        }
        return x;
    }

    /**
     * {@code v} rounded to float32 once, as Erwin's tensors are (torch rounds an int64 once), held in a double (which
     * holds every float32): through a double first, a long or a decimal beyond 2^24 could round twice, to another
     * float32. A decimal beyond float32's range stays its double, for the caller's refusal to name it.
     */
    static double float32Of(Number v) {
        if (v instanceof Long l) return (float) l.longValue();
        if (v instanceof java.math.BigDecimal b) {
            float f = b.floatValue();
            return Float.isInfinite(f) ? b.doubleValue() : f;
        }
        return v.doubleValue();   // bytes, shorts, ints and floats: exact in a double, rounded once after
    }

    @Override
    public StructType transformSchema(StructType schema) {
        String name = getOrDefault(pointsCol);
        int col = FeatureColumn.fieldIndex(schema, name);
        DataType t = schema.fields()[col].dataType();
        boolean ok = t instanceof ArrayType a && (a.elementType() instanceof VectorUDT
                || a.elementType() instanceof ArrayType inner && inner.elementType() instanceof NumericType);
        if (!ok) {
            throw new InvalidInputException("column '" + name + "' is " + t.simpleString()
                    + "; expected an array of points (arrays of numbers or vectors)");
        }
        StructType out = FeatureColumn.append(schema, getOrDefault(treeIdxCol),
                DataTypes.createArrayType(DataTypes.IntegerType, false), treeIdxCol.name());
        out = FeatureColumn.append(out, getOrDefault(maskCol), DataTypes.createArrayType(DataTypes.BooleanType, false),
                maskCol.name());
        if ((Integer) getOrDefault(partitionLevel) >= 0) {
            out = FeatureColumn.append(out, getOrDefault(partitionCol),
                    DataTypes.createArrayType(DataTypes.IntegerType, false), partitionCol.name());
        }
        return out;
    }

    @Override
    public SylvaBallTrees copy(ParamMap extra) {
        return defaultCopy(extra);
    }

    /**
     * The reader of a directory {@link #write()} (Spark ML's params writer) wrote: uid and every param. Another
     * stage's directory is refused naming the class it holds.
     */
    public static MLReader<SylvaBallTrees> read() {
        return new CheckedParamsReader<>(SylvaBallTrees.class);
    }

    /** As {@code read().load(path)}. */
    public static SylvaBallTrees load(String path) {
        return read().load(path);
    }
}
